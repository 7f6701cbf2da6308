"""Settings -> League: join a league with a pairing code and the hub's address (typed on the
on-screen keyboard), see how this kiosk stands with its hub (the venue, the last contact, the
outbox, the last thing that went wrong), pair it anew with a new code for the same venue (its
key revoked or lost: what waits goes with the new key) and leave the league (asked first).

Reached from Settings only, so it is behind the settings PIN like the rest of Settings. The
screen never waits for the network: joining runs as a task on the kiosk's one loop while the
screen shows that it is asking (the games and the screen go on); every answer, good or bad,
comes on the message line, and nothing is changed by a join that failed. The work is the
kiosk's `LeagueDesk` (`kiosk.app.league`, injected by the composition root: ui speaks no HTTP).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from kivy.clock import Clock, ClockEvent
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.i18n import _, ngettext
from kiosk.league.membership import LeagueStatus
from kiosk.store import StoreError
from ui.touch import keyboard, theme
from ui.touch.controls import BigButton, Caption, before_the_frame, fitting_font, text_field
from ui.touch.league_stats import age_text
from ui.touch.screens.base import KioskApp, KioskScreen, heading

STATUS_SECONDS = 2.0  # how often the status is read again while the screen is shown
TEXT_UNITS = 19  # the message's and the status's font, before they are fitted


def status_lines(status: LeagueStatus, now: datetime | None = None) -> list[str]:
    """The status as the screen shows it, one line each."""
    member = status.member
    if member is None:
        lines = [
            _(
                "This kiosk is in no league. Type the pairing code the league gave you for this "
                "bar and the hub's address, then tap Join."
            )
        ]
        return lines + (
            [_("Last error: {error}").format(error=status.last_error)] if status.last_error else []
        )
    when = (
        age_text(((now or datetime.now(UTC)) - status.last_sync).total_seconds(), ago=True)
        if status.last_sync
        else _("not reached yet")
    )
    return [
        _("{league}: {venue}, kiosk {kiosk}").format(
            league=member.league_name, venue=member.venue_name, kiosk=member.kiosk
        ),
        _("Hub: {hub}").format(hub=member.hub),
        _("Last contact with the hub: {when}").format(when=when),
        _("Outbox: {pending} waiting, {sent} sent, {refused} refused").format(
            pending=status.pending, sent=status.sent, refused=status.refused
        ),
        _("Last error: {error}").format(error=status.last_error) if status.last_error else _("No errors."),
    ]


class LeagueScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        # Kivy's docked keyboard covers the bottom 2/7 of the window's width while a field is
        # typed into (more than half of a 16:9 window; about 236 units of 480 are left at
        # 1280x720 and 1920x1080), so the page is two rows of controls and the texts below
        # them, and while the keyboard is up it stands above it (`_make_room`), the texts made
        # smaller to fit (`_fit_texts`): Back, Join (or Leave), both fields, the message and the
        # whole status stay in sight while the owner types.
        self.page = BoxLayout(
            orientation="vertical", padding=(s(16), s(8)), spacing=s(6), pos_hint={"x": 0, "top": 1}
        )
        top = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        title = heading(_("League"), size_hint_x=0.4)
        title.height = s.touch
        top.add_widget(title)
        self.back_button = BigButton(
            _("Back"), lambda: app.go("settings"), colour=theme.PANEL_LIGHT, size_hint_x=0.25
        )
        top.add_widget(self.back_button)
        # Join and Leave take turns in one place: a kiosk in no league can only join, one in a
        # league only leave (`refresh` shows the one that applies).
        self.join_button = BigButton(_("Join"), self.join, colour=theme.GO)
        self.leave_button = BigButton(_("Leave league"), self.leave, colour=theme.DANGER)
        self.slot = BoxLayout(size_hint_x=0.35)
        self.slot.add_widget(self.join_button)
        top.add_widget(self.slot)
        self.page.add_widget(top)
        # In no league the form is the code and the hub's address; in one, a new code for the
        # same venue and Pair anew (the hub is the league's own).
        self.form = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        self.code_field = text_field(hint=_("pairing code"), size_hint_x=0.36)
        self.hub_field = text_field(hint=_("hub, like https://league.example.org"), size_hint_x=0.64)
        self.anew_button = BigButton(_("Pair anew"), self.join, colour=theme.PANEL_LIGHT, size_hint_x=0.64)
        self.code_field.bind(on_text_validate=lambda *_a: self._typed_code())
        self.hub_field.bind(on_text_validate=lambda *_a: self.join())
        self.form.add_widget(self.code_field)
        self.form.add_widget(self.hub_field)
        self.page.add_widget(self.form)
        self.texts = BoxLayout(orientation="vertical", spacing=s(6))
        self.message = Caption(font_units=TEXT_UNITS, colour=theme.WARN, size_hint_y=None)
        self.texts.add_widget(self.message)
        self.status = Caption(font_units=TEXT_UNITS, colour=theme.TEXT, size_hint_y=None)
        self.texts.add_widget(self.status)
        self.texts.add_widget(BoxLayout())
        self.page.add_widget(self.texts)
        self.add_widget(self.page)
        self._probe = Label()  # measures the texts together (`_fit_texts`)
        fit = before_the_frame(self._fit_texts)
        for widget in (self.message, self.status):
            widget.bind(text=fit)
        self.texts.bind(size=fit)
        self._make_room_soon = before_the_frame(self._make_room)
        self.asked = False  # Leave tapped once, waiting for its second tap
        self.joined = False  # in a league (`refresh`): the form pairs anew
        self.joining: asyncio.Task[None] | None = None  # the join on its way (None: none)
        self._dots = 0
        self._asking = ""
        self._ticking: ClockEvent | None = None

    def _make_room(self) -> None:
        """The page above the docked keyboard while it is up, the whole screen otherwise."""
        covered = keyboard.covered() if self.get_root_window() is not None else 0.0
        self.page.size_hint_y = None if covered else 1
        self.page.height = self.height - covered

    def _fit_texts(self) -> None:
        """The message and the status in one font size (at most TEXT_UNITS, at least 60 % of
        it) at which both fit the room left below the controls, every word whole."""
        s = theme.sizes()
        width, room = self.texts.width, self.texts.height - 2 * self.texts.spacing
        shown = [text for text in (self.message.text, self.status.text) if text]
        if width <= 1 or room <= 1 or not shown:
            return
        self._probe.text = "\n".join(shown)
        size = fitting_font(self._probe, s(TEXT_UNITS), width, height=room)
        self.message.font_size = self.status.font_size = size

    # -- what is shown --

    def refresh(self) -> None:
        desk = self.app.kiosk.league
        status = desk.status() if desk is not None else LeagueStatus(None, last_error=_("no league here"))
        self.status.text = "\n".join(status_lines(status))
        busy = self.joining is not None
        joined = status.member is not None
        self.joined = joined
        self.code_field.hint_text = _("new code for this bar") if joined else _("pairing code")
        second = self.anew_button if joined else self.hub_field
        if second.parent is not self.form:
            self.form.remove_widget(self.hub_field if joined else self.anew_button)
            self.form.add_widget(second)
        self.join_button.disabled = self.anew_button.disabled = busy
        self.join_button.text = _("Asking ...") if busy else _("Join")
        self.anew_button.text = _("Asking ...") if busy else _("Pair anew")
        button = self.leave_button if joined else self.join_button
        if button.parent is not self.slot:
            self.slot.clear_widgets()
            self.slot.add_widget(button)
        if not joined and not self.hub_field.text and desk is not None:
            self.hub_field.text = self.app.settings.league.hub

    def on_enter(self, *_args: object) -> None:
        from kivy.core.window import Window

        self._ticking = Clock.schedule_interval(self._tick, STATUS_SECONDS / 4)
        Window.bind(children=self._make_room_soon, size=self._make_room_soon)
        self._make_room_soon()

    def on_leave(self, *_args: object) -> None:
        from kivy.core.window import Window

        if self._ticking is not None:
            self._ticking.cancel()
            self._ticking = None
        Window.unbind(children=self._make_room_soon, size=self._make_room_soon)
        self._make_room()
        self.asked = False

    def _tick(self, _dt: float = 0.0) -> None:
        self._dots = (self._dots + 1) % 4
        if self.joining is not None:
            self.message.text = self._asking + " " + "." * (self._dots + 1)
        if self._dots == 0:
            self.refresh()

    def show_message(self, text: str, colour: theme.RGBA = theme.GO) -> None:
        self.message.text = text
        self.message.color = colour

    # -- joining --

    def _typed_code(self) -> None:
        """Enter on the code: on to the hub's address, or (in a league) pair anew."""
        if self.joined:
            self.join()
        else:
            self.hub_field.focus = True

    def join(self) -> None:
        """Pair with the hub in the background (in a league: anew, with the league's hub); the
        answer comes on the message line."""
        desk = self.app.kiosk.league
        if desk is None:
            self.show_message(_("This kiosk cannot join a league (built without one)."), theme.WARN)
            return
        if self.joining is not None:
            return  # one question at a time: the button says it is asking
        member = desk.status().member
        anew = member is not None
        code = self.code_field.text
        hub = member.hub if member is not None else self.hub_field.text.strip()
        self.asked = False
        self._asking = _("Asking the hub at {hub}").format(hub=hub)
        self.show_message(self._asking + " .", theme.TEXT_DIM)

        async def ask() -> None:
            try:
                member = await desk.join(code, hub, anew=anew)
            except ValueError as err:
                self.show_message(str(err), theme.WARN)
            except StoreError as err:
                self.show_message(
                    _("The kiosk could not keep its key: {error}").format(error=err), theme.DANGER
                )
            except OSError as err:
                self.show_message(
                    _(
                        "The hub at {hub} cannot be reached ({error}). Nothing was changed: check the "
                        "address and the network, then try again."
                    ).format(hub=hub, error=str(err) or type(err).__name__),
                    theme.DANGER,
                )
            else:
                self.code_field.text = ""
                if anew:
                    waiting = desk.status().pending
                    said = _("This kiosk is paired anew: kiosk {kiosk} of {venue} in {league}.").format(
                        league=member.league_name, kiosk=member.kiosk, venue=member.venue_name
                    )
                    if waiting:
                        said += " " + ngettext(
                            "{n} game waiting for the hub goes with the new key.",
                            "{n} games waiting for the hub go with the new key.",
                            waiting,
                        ).format(n=waiting)
                    self.show_message(said)
                else:
                    self.show_message(
                        _(
                            "This kiosk joined {league} as kiosk {kiosk} of {venue}: its games go to "
                            "the league from now on."
                        ).format(league=member.league_name, kiosk=member.kiosk, venue=member.venue_name)
                    )
            finally:
                self.joining = None
                self.refresh()

        task = self.app.kiosk.service_task
        loop = task.get_loop() if task is not None else asyncio.get_event_loop()
        self.joining = loop.create_task(ask(), name="dartship-league-join")
        self.refresh()

    # -- leaving --

    def leave(self) -> None:
        """Asked first (a second tap leaves): the key is forgotten, nothing more is sent."""
        desk = self.app.kiosk.league
        if desk is None:
            return
        status = desk.status()
        if status.member is None:
            self.refresh()
            return
        if not self.asked:
            self.asked = True
            question = _(
                "Tap Leave league again: this kiosk stops sending to {league} and forgets its key."
            ).format(league=status.member.league_name)
            if status.pending:
                question += " " + ngettext(
                    "{n} game waiting for the hub will never be sent.",
                    "{n} games waiting for the hub will never be sent.",
                    status.pending,
                ).format(n=status.pending)
                question += " " + ngettext(
                    "To keep it, pair anew with a new code for this bar instead.",
                    "To keep them, pair anew with a new code for this bar instead.",
                    status.pending,
                )
            self.show_message(question, theme.WARN)
            return
        self.asked = False
        waiting = desk.leave()
        note = _("This kiosk left {league}. Its games stay in its own statistics.").format(
            league=status.member.league_name
        )
        if waiting:
            note += " " + ngettext("{n} game was never sent.", "{n} games were never sent.", waiting).format(
                n=waiting
            )
        self.show_message(note)
        self.refresh()
