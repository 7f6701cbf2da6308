"""Settings -> League: join a league with a pairing code and the hub's address (typed on the
on-screen keyboard), see how this kiosk stands with its hub (the venue, the last contact, the
outbox, the last thing that went wrong) and leave the league (asked first).

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

from kiosk.i18n import _, ngettext
from kiosk.league.membership import LeagueStatus
from kiosk.store import StoreError
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, Field
from ui.touch.league_stats import age_text
from ui.touch.screens.base import KioskApp, KioskScreen, heading

STATUS_SECONDS = 2.0  # how often the status is read again while the screen is shown


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
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
        # Everything a hand needs at the top: Kivy's docked keyboard comes up from the bottom
        # and covers about half the window (its height is the window's width x 2/7), so Back
        # and Leave stand beside the title and the fields just below, never under it.
        top = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        title = heading(_("League"), size_hint_x=0.4)
        title.height = s.touch
        top.add_widget(title)
        self.back_button = BigButton(
            _("Back"), lambda: app.go("settings"), colour=theme.PANEL_LIGHT, size_hint_x=0.25
        )
        top.add_widget(self.back_button)
        self.leave_button = BigButton(_("Leave league"), self.leave, colour=theme.DANGER, size_hint_x=0.35)
        top.add_widget(self.leave_button)
        page.add_widget(top)
        self.form = BoxLayout(
            orientation="vertical", spacing=s(6), size_hint_y=None, height=2 * s.touch + s(6)
        )
        self.code_field = Field(hint=_("pairing code, like ABCD-EFGH-JKMN"))
        row = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        row.add_widget(self.code_field)
        self.join_button = BigButton(_("Join"), self.join, colour=theme.GO, size_hint_x=0.35)
        row.add_widget(self.join_button)
        self.hub_field = Field(hint=_("the hub's address, like https://league.example.org"))
        self.code_field.bind(on_text_validate=lambda *_a: setattr(self.hub_field, "focus", True))
        self.hub_field.bind(on_text_validate=lambda *_a: self.join())
        self.form.add_widget(row)
        self.form.add_widget(self.hub_field)
        page.add_widget(self.form)
        self.message = Caption(font_units=18, colour=theme.WARN, size_hint_y=None)
        page.add_widget(self.message)
        self.status = Caption(font_units=19, colour=theme.TEXT, size_hint_y=None)
        page.add_widget(self.status)
        page.add_widget(BoxLayout())
        self.add_widget(page)
        self.asked = False  # Leave tapped once, waiting for its second tap
        self.joining: asyncio.Task[None] | None = None  # the join on its way (None: none)
        self._dots = 0
        self._asking = ""
        self._ticking: ClockEvent | None = None

    # -- what is shown --

    def refresh(self) -> None:
        desk = self.app.kiosk.league
        status = desk.status() if desk is not None else LeagueStatus(None, last_error=_("no league here"))
        self.status.text = "\n".join(status_lines(status))
        busy = self.joining is not None
        joined = status.member is not None
        self.form.opacity = 0 if joined else 1
        self.form.disabled = joined
        self.form.height = 0 if joined else 2 * theme.sizes().touch + theme.sizes()(6)
        self.join_button.disabled = busy
        self.join_button.text = _("Asking ...") if busy else _("Join")
        self.leave_button.disabled = not joined
        self.leave_button.opacity = 1 if joined else 0.45
        if not joined and not self.hub_field.text and desk is not None:
            self.hub_field.text = self.app.settings.league.hub

    def on_enter(self, *_args: object) -> None:
        self._ticking = Clock.schedule_interval(self._tick, STATUS_SECONDS / 4)

    def on_leave(self, *_args: object) -> None:
        if self._ticking is not None:
            self._ticking.cancel()
            self._ticking = None
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

    def join(self) -> None:
        """Pair with the hub in the background; the answer comes on the message line."""
        desk = self.app.kiosk.league
        if desk is None:
            self.show_message(_("This kiosk cannot join a league (built without one)."), theme.WARN)
            return
        if self.joining is not None:
            return  # one question at a time: the button says it is asking
        code, hub = self.code_field.text, self.hub_field.text.strip()
        self.asked = False
        self._asking = _("Asking the hub at {hub}").format(hub=hub)
        self.show_message(self._asking + " .", theme.TEXT_DIM)

        async def ask() -> None:
            try:
                member = await desk.join(code, hub)
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
                self.show_message(
                    _(
                        "This kiosk joined {league} as kiosk {kiosk} of {venue}: its games go to the "
                        "league from now on."
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
