"""The teams' phones, from the touchscreen: which team plays on a phone, and moving a team to
another phone (a flat battery, a phone that went home).

Each team link is held by the first phone that uses it (`ui/handheld/phones.py`). Moving a team
gives it a new link and cuts the old phone off at once; the new link's QR code is then shown here,
for that team only, with the other team told to look away: whoever scans it sees the team's
fleet. So Move takes two taps, and the code disappears as soon as a phone holds the link.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.modalview import ModalView

from kiosk.i18n import _
from kiosk.ports import PhoneServer
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, Panel, with_symbols
from ui.touch.qr import qr_texture
from ui.touch.screens.base import KioskApp


class FollowsPhones:
    """Mixin for a screen whose view moves on when a phone takes a link (the hand-overs): while
    it is shown, every change of the phone page refreshes it on Kivy's next frame."""

    app: KioskApp
    refresh: Callable[[], None]  # the screen's own
    _phones_unsubscribe: Callable[[], None] | None = None

    def on_enter(self, *_args: object) -> None:
        web = self.app.kiosk.web
        if web is not None and self._phones_unsubscribe is None:
            self._phones_unsubscribe = web.subscribe(
                lambda: Clock.schedule_once(lambda _dt: self.refresh(), 0)
            )

    def on_leave(self, *_args: object) -> None:
        if self._phones_unsubscribe is not None:
            self._phones_unsubscribe()
            self._phones_unsubscribe = None


def phone_state(web: PhoneServer | None, team: int) -> bool:
    """Whether a phone holds `team`'s link (False without a phone page)."""
    if web is None:
        return False
    try:
        return web.phone_held(team)
    except Exception:  # the phone page is optional: never let it break a screen
        return False


Names = list[str | None]  # each team's name; None for a team with no phone link


def handover_middle(
    url: str | None,
    column: BoxLayout,
    needing: Iterable[int],
    step: int | None,
    names: Sequence[str],
    show: Callable[[int], None],
) -> BoxLayout:
    """The middle of a hand-over (the dart game's placement, the classic duel): the QR code of
    the side on `step` beside `column`, which ends with a "Code for ... instead" button for
    every other side that still needs a phone."""
    s = theme.sizes()
    middle = BoxLayout(spacing=s(16))
    if url is not None:
        image = Image(texture=qr_texture(url), fit_mode="contain", size_hint_x=None)
        middle.bind(height=lambda _w, h, im=image: setattr(im, "width", h))
        middle.add_widget(image)
    for side in needing:
        if side != step:
            column.add_widget(
                BigButton(
                    _("Code for {team} instead").format(team=names[side]),
                    functools.partial(show, side),
                    colour=theme.PANEL_LIGHT,
                    font_units=20,
                )
            )
    column.add_widget(BoxLayout())
    middle.add_widget(column)
    return middle


class PhonesPopup(ModalView):
    def __init__(self, app: KioskApp, teams: Callable[[], Names | None], **kwargs: object) -> None:
        """`teams`: the names of the game's teams (None for a team with no phone link)."""
        super().__init__(
            size_hint=(0.92, 0.92), auto_dismiss=False, background_color=(0, 0, 0, 0.75), **kwargs
        )
        self.app = app
        self.teams = teams
        self.showing: int | None = None  # the team whose new code is shown
        self.armed: int | None = None  # Move tapped once for this team
        s = theme.sizes()
        self.body = Panel(orientation="vertical", radius=s(12), padding=s(14), spacing=s(10))
        self.add_widget(self.body)
        web = app.kiosk.web
        self._unsubscribe = web.subscribe(self._changed) if web is not None else None
        self.bind(on_dismiss=lambda *_a: self._unsubscribe() if self._unsubscribe else None)
        self.show_list()

    def _changed(self) -> None:
        # Called on the loop; redraw on Kivy's next frame (the same thread, a calm moment).
        Clock.schedule_once(lambda _dt: self._refresh(), 0)

    def _refresh(self) -> None:
        if self.showing is not None:
            self.show_code(self.showing)
        else:
            self.show_list()

    def show_list(self) -> None:
        s = theme.sizes()
        self.showing = None
        names, web = self.teams(), self.app.kiosk.web
        self.body.clear_widgets()
        self.body.add_widget(Caption(_("Phones"), font_units=30, bold=True, size_hint_y=None))
        if names is None or web is None:
            self.body.add_widget(Caption(_("The phone page is off."), font_units=22))
        else:
            for team, name in enumerate(names):
                if name is None:
                    continue
                row = BoxLayout(spacing=s(10), size_hint_y=None, height=s.touch)
                row.add_widget(
                    Caption(name, font_units=24, bold=True, colour=theme.TEAM_COLOURS[team], size_hint_x=0.3)
                )
                held = phone_state(web, team)
                row.add_widget(
                    Caption(
                        with_symbols(_("on a phone ✓") if held else _("no phone yet")),
                        font_units=22,
                        size_hint_x=0.3,
                        markup=True,
                    )
                )
                label = (
                    _("Tap again to move {team}").format(team=name)
                    if self.armed == team
                    else _("Move to another phone")
                    if held
                    else _("Play on a phone")
                )
                row.add_widget(
                    BigButton(
                        label,
                        functools.partial(self._move, team),
                        colour=theme.DANGER if self.armed == team else theme.PANEL_LIGHT,
                        font_units=20,
                        size_hint_x=0.4,
                    )
                )
                self.body.add_widget(row)
            self.body.add_widget(
                Caption(
                    _(
                        "Moving a team cuts its phone off at once. Its new code is shown here: only "
                        "that team may look."
                    ),
                    font_units=18,
                    colour=theme.TEXT_DIM,
                    size_hint_y=None,
                )
            )
        self.body.add_widget(BoxLayout())
        self.body.add_widget(BigButton(_("Close"), self.dismiss, colour=theme.PANEL_LIGHT))

    def _move(self, team: int) -> None:
        if self.armed != team:
            self.armed = team  # the first tap only asks
            self.show_list()
            return
        self.armed = None
        web = self.app.kiosk.web
        if web is None or web.move(team) is None:
            self.app.toast(_("This team has no phone link."))
            self.show_list()
            return
        self.show_code(team)

    def show_code(self, team: int) -> None:
        """The team's new link, for its new phone only."""
        self.showing = team
        teams, web = self.teams(), self.app.kiosk.web
        self.body.clear_widgets()
        if teams is None or web is None:
            self.show_list()
            return
        names = [name or "" for name in teams]
        held = phone_state(web, team)
        url = None if held else web.team_url(team)
        if url is None:
            self.body.add_widget(
                Caption(
                    with_symbols(_("{team} plays on its new phone ✓").format(team=names[team])),
                    font_units=28,
                    bold=True,
                    colour=theme.GO,
                    size_hint_y=None,
                    markup=True,
                )
            )
            self.body.add_widget(BoxLayout())
        else:
            self.body.add_widget(
                Caption(
                    _("{other}, look away –\n{team}, scan this with your new phone").format(
                        other=names[1 - team], team=names[team]
                    ),
                    font_units=28,
                    bold=True,
                    halign="center",
                    size_hint_y=None,
                )
            )
            self.body.add_widget(Image(texture=qr_texture(url), fit_mode="contain"))
        self.body.add_widget(BigButton(_("Done"), self.show_list, colour=theme.PANEL_LIGHT))
