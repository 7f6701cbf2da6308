"""Placement on the touchscreen, one team at a time, with a privacy hand-over in between.

Hidden information: the board with ships is built only from this screen's own `FleetDraft`
for the team that is placing, and is covered (`hidden`, marks cleared) before the hand-over
view comes back. Nothing here reads another team's fleet from the match.

A team's unfinished draft survives a kill -9: it is kept in the store's drafts at every change
(`kiosk.placing_drafts`, one per team of the game in play). The kiosk started again shows the
hand-over, as after Home mid-placing, never the draft: only the team's own "place on this
screen" brings it back, as it was (the last ship still turnable from its cell). A draft ends at
its team's Lock in (here or on its phone), when a new game starts or the game is abandoned
(`reset`); Hide and Home put it away for its team, as before. One that cannot be read back is
said once in the journal, and to its team, in words that name no cell, and is dropped.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.board import BullZone, Cell
from kiosk.darts.kind import DARTS
from kiosk.darts.match import KioskSeat, Match, Phase, Place, RuleError
from kiosk.i18n import _
from kiosk.placing_drafts import DraftRefused, PlacingDrafts, not_kept, refused
from kiosk.service import MatchUpdate
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, FitLabel, with_symbols
from ui.touch.darts.opponent import dart_teams, seat
from ui.touch.darts.page import board_page, home_button
from ui.touch.darts.placing import FleetDraft
from ui.touch.phones import FollowsPhones, PhonesPopup, handover_middle, phone_state
from ui.touch.screens.base import KioskApp, KioskScreen, heading


class PlacementScreen(FollowsPhones, KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        self.team: int | None = None  # the team placing now; None: the hand-over is shown
        self.draft: FleetDraft | None = None
        # The teams' unfinished drafts put away when the screen was left (Home, Hide): the
        # hand-over comes back first, and a team's own "place on this screen" brings its draft
        # back. The store keeps them too (`kept`), for a kiosk started again.
        self.put_away: dict[int, FleetDraft] = {}
        self.kept = PlacingDrafts(app.service, "darts")
        self._kept_body: dict[str, object] | None = None  # what `kept` holds of the open draft
        self._swept = False  # the kept drafts looked through for this game
        self.step: int | None = None  # the team whose hand-over step was asked for
        s = theme.sizes()
        self.handover = BoxLayout(orientation="vertical", padding=s(16), spacing=s(10))
        self.placing, self.board_view = board_page(app, spacing=8)
        self.board_view.bind(on_cell=self._tapped, on_drag=self._dragged)
        side = BoxLayout(orientation="vertical", spacing=s(8))
        self.placing_title = heading("", 26)
        side.add_widget(self.placing_title)
        side.add_widget(
            Caption(
                _(
                    "Tap a cell: the ship starts there. Turn changes its direction. "
                    "Or drag along a ring or a spoke. Tap a ship to pick it up."
                ),
                font_units=16,
                colour=theme.TEXT_DIM,
                size_hint_y=None,
            )
        )
        self.ship_buttons = BoxLayout(spacing=s(6), size_hint_y=None, height=s.touch)
        side.add_widget(self.ship_buttons)
        self.message = Caption(font_units=18, colour=theme.WARN, size_hint_y=None)
        side.add_widget(self.message)
        side.add_widget(BoxLayout())
        row1 = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        row1.add_widget(BigButton(_("Turn"), self._turn, colour=theme.PANEL_LIGHT))
        # The longest word of the row ("Zufallsflotte", "Satunnainen laivasto") gets the room.
        row1.add_widget(BigButton(_("Random fleet"), self._random, colour=theme.PANEL_LIGHT, size_hint_x=1.6))
        row1.add_widget(BigButton(_("Clear"), self._clear, colour=theme.PANEL_LIGHT))
        side.add_widget(row1)
        row2 = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        row2.add_widget(BigButton(_("Hide"), self.hide, colour=theme.PANEL_LIGHT))
        row2.add_widget(home_button(app, height=s.touch, font_units=22))
        self.lock_button = BigButton(_("Lock in"), self._lock_in, colour=theme.GO)
        row2.add_widget(self.lock_button)
        side.add_widget(row2)
        self.placing.add_widget(side)
        self.add_widget(self.handover)

    # -- the two views --

    def reset(self) -> None:
        """A game started, resumed, rebuilt or abandoned: forget the drafts in memory, show the
        hand-over; the kept drafts of any other game are put away when it is next shown."""
        self.step = None
        self.put_away = {}
        self._swept = False
        if DARTS.in_play(self.app.service) is None:
            self.kept.put_away()  # abandoned, or another game's start: these drafts end
        self.cover()

    def on_leave(self, *args: object) -> None:
        """Leaving mid-placement (Home, then anyone's Continue) must not come back to a team's
        ships on the board: the hand-over is shown again, the draft kept for that team."""
        super().on_leave(*args)
        self.hide()

    def hide(self) -> None:
        """The hand-over, the open draft put away for its team (its button brings it back)."""
        if self.team is not None and self.draft is not None:
            self.put_away[self.team] = self.draft
        self.cover()

    def toast_anchor(self) -> Widget | None:
        return self.board_view if self.team is not None else None

    def cover(self) -> None:
        """Hide the board before anyone else looks: drop the draft, show the hand-over."""
        self.team, self.draft = None, None
        self.board_view.show({})
        self.board_view.hidden = True
        if self.placing.parent is not None:
            self.remove_widget(self.placing)
        if self.handover.parent is None:
            self.add_widget(self.handover)
        self.refresh()

    def open_for(self, team: int) -> None:
        match = DARTS.in_play(self.app.service)
        if match is None or match.phase is not Phase.PLACING:
            return
        kiosk = seat(match)
        if kiosk is not None and kiosk.side == team:
            return  # the kiosk's fleet is placed by the kiosk and never drawn
        self.team = team
        self.draft = (
            self.put_away.pop(team, None)
            or self._kept_draft(match, team)
            or FleetDraft(match.board, match.setup.rules.fleet)
        )
        self._kept_body = self.draft.kept() if self.draft.ships else None
        self.board_view.set_board(match.board)
        self.board_view.hidden = False
        self.remove_widget(self.handover)
        self.add_widget(self.placing)
        self.message.text = ""
        self._show_draft()

    def _kept_draft(self, match: Match, team: int) -> FleetDraft | None:
        """`team`'s draft as the store kept it (a kiosk started again); a broken one is said."""
        try:
            return self.kept.kept(team, functools.partial(self._read, match), match.teams[team].name)
        except DraftRefused as err:
            self.app.toast(refused(match.teams[team].name, err), 6)
            return None

    @staticmethod
    def _read(match: Match, body: Mapping[str, object]) -> FleetDraft:
        return FleetDraft.from_kept(body, match.board, match.setup.rules.fleet)

    def _keep(self) -> None:
        """The open draft into the store, before the screen shows the change."""
        if self.draft is None or self.team is None:
            return
        body = self.draft.kept()
        if body == self._kept_body:
            return
        reason = self.kept.keep(self.team, body)
        if reason is not None:
            self.app.toast(not_kept(reason))
            return
        self._kept_body = body

    def _put_away_placed(self, match: Match) -> None:
        """A team locked in (here or on its phone): its draft ends, in memory and in the store."""
        placed = match.state().placed
        for team in (0, 1):
            if placed[team]:
                self.put_away.pop(team, None)
                self.kept.put_away(team)

    def refresh(self) -> None:
        match = DARTS.in_play(self.app.service)
        if match is None:
            return
        if not self._swept:
            self._swept = True
            said = self.kept.sweep(lambda _team, body: self._read(match, body), [t.name for t in match.teams])
            if said:
                self.app.toast("\n".join(said), 6)
        self._put_away_placed(match)
        if self.team is not None:
            if match.state().placed[self.team]:
                # Locked in from the team's phone meanwhile: nothing left to place here.
                self.cover()
            return
        self._build_handover()

    def on_update(self, update: MatchUpdate) -> None:
        self.refresh()

    def _build_handover(self) -> None:
        """Whose turn it is to place, one team at a time: the other team looks away, and only
        this team's QR code is shown (the first phone to open a link holds it, so a code shown
        to both teams could be taken by the wrong one). Once a phone holds a team's link, its
        code is gone and the next team's step comes."""
        match = DARTS.in_play(self.app.service)
        s = theme.sizes()
        view = self.handover
        view.clear_widgets()
        if match is None:
            return
        placed = match.state().placed
        names = [t.name for t in match.teams]
        kiosk = seat(match)
        # Solo: the kiosk places its own fleet (never on this screen), only the players are asked.
        waiting = [i for i in (0, 1) if not placed[i] and (kiosk is None or i != kiosk.side)]
        if not waiting:
            view.add_widget(heading(_("Both fleets are locked in")))
            return
        web = self.app.kiosk.web
        urls = {i: self._team_url(i) for i in waiting}
        needing = [i for i in waiting if urls[i] is not None and not phone_state(web, i)]
        if self.step in needing:
            step: int | None = self.step
        elif needing:
            step = needing[0]
        elif any(urls.values()):
            step = None  # every waiting team places on its phone now
        else:
            step = waiting[0]  # no phone page: the screen is the only way
        if step is None:
            title = _("The teams are placing their fleets on their phones")
        else:
            other = names[1 - step]
            scan = urls.get(step) is not None
            if kiosk is not None:
                title = (
                    _("{team}, scan your code or place here")
                    if scan
                    else _("{team}, tap to place your fleet")
                ).format(team=names[step])
            else:
                title = (
                    _("{other}, look away –\n{team}, scan your code or place here")
                    if scan
                    else _("{other}, look away –\n{team}, tap to place")
                ).format(other=other, team=names[step])
        view.add_widget(
            FitLabel(
                title,
                font_units=38,
                bold=True,
                halign="center",
                valign="middle",
                color=theme.TEXT,
                size_hint_y=None,
                height=s(104),
            )
        )
        url = urls.get(step) if step is not None else None
        column = BoxLayout(orientation="vertical", spacing=s(10))
        for index in [step] if step is not None else waiting:
            column.add_widget(
                BigButton(
                    _("{team}: place on this screen").format(team=names[index]),
                    functools.partial(self.open_for, index),
                    colour=theme.TEAM_COLOURS[index],
                    height=s(64),
                    font_units=22,
                )
            )
        view.add_widget(handover_middle(url, column, needing, step, names, self._show_step))
        view.add_widget(self._status_row(match, placed, kiosk))

    def _status_row(self, match: Match, placed: tuple[bool, bool], kiosk: KioskSeat | None) -> BoxLayout:
        """Each team's state in one line, and the way to move a team to another phone."""
        s = theme.sizes()
        row = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        web = self.app.kiosk.web
        for index, team in enumerate(match.teams):
            if kiosk is not None and kiosk.side == index:
                text = (
                    _("{team} has hidden its fleet ✓") if placed[index] else _("{team} is placing its fleet")
                ).format(team=team.name)
            elif placed[index]:
                text = _("{team} ready ✓").format(team=team.name)
            elif phone_state(web, index):
                text = _("{team}: placing on a phone").format(team=team.name)
            else:
                text = _("{team}: placing").format(team=team.name)
            row.add_widget(
                Caption(
                    with_symbols(text),
                    font_units=20,
                    halign="center",
                    markup=True,
                    colour=theme.GO if placed[index] else theme.TEAM_COLOURS[index],
                )
            )
        if web is not None:
            row.add_widget(
                BigButton(
                    _("Phones"),
                    self.open_phones,
                    colour=theme.PANEL_LIGHT,
                    font_units=20,
                    size_hint_x=None,
                    width=s(140),
                )
            )
        row.add_widget(home_button(self.app, height=s.touch, font_units=20))
        return row

    def _show_step(self, team: int) -> None:
        self.step = team
        self.refresh()

    def open_phones(self) -> None:
        PhonesPopup(self.app, lambda: dart_teams(self.app)).open()

    def _team_url(self, team: int) -> str | None:
        web = self.app.kiosk.web
        if web is None:
            return None
        try:
            return web.team_url(team)
        except Exception:  # the phone page is optional: never let it break placement
            return None

    # -- placing --

    def _show_draft(self) -> None:
        draft, match = self.draft, DARTS.in_play(self.app.service)
        if draft is None or self.team is None or match is None:
            return
        s = theme.sizes()
        self.placing_title.text = _("{team}: place your fleet").format(team=match.teams[self.team].name)
        self.placing_title.color = theme.TEAM_COLOURS[self.team]
        marks = {cell: "ship" for cell in draft.cells()}
        last = draft.last
        self.board_view.show(marks, outlines=[last.cells] if last else [])
        self.ship_buttons.clear_widgets()
        self.ship_buttons.add_widget(
            Label(text=_("Ships:"), font_size=s(18), size_hint_x=None, width=s(70), color=theme.TEXT_DIM)
        )
        left = draft.remaining()
        nxt = draft.next_length
        for length in sorted(draft.lengths, reverse=True):
            if length in left:
                left.remove(length)
                colour = theme.ACCENT if length == nxt else theme.PANEL_LIGHT
                self.ship_buttons.add_widget(
                    BigButton(
                        str(length), functools.partial(self._choose, length), colour=colour, font_units=24
                    )
                )
            else:
                done = BigButton(with_symbols("✓"), None, colour=theme.GO, font_units=24)
                done.markup = True
                self.ship_buttons.add_widget(done)
        self.lock_button.disabled = not draft.complete

    def _say(self, refusal: str | None) -> None:
        self._keep()
        self.message.text = refusal or ""
        # With every ship placed nothing is wrong: the note says what to do next, in green.
        complete = self.draft is not None and self.draft.complete
        self.message.color = theme.GO if complete else theme.WARN
        self._show_draft()

    def _choose(self, length: int) -> None:
        if self.draft:
            self.draft.choose(length)
            self._say(None)

    def _tapped(self, _view: object, cell: Cell, _zone: BullZone) -> None:
        if self.draft:
            self._say(self.draft.tap(cell))

    def _dragged(self, _view: object, cells: list[Cell]) -> None:
        if self.draft:
            self._say(self.draft.drag(cells))

    def _turn(self) -> None:
        if self.draft:
            self._say(self.draft.turn())

    def _random(self) -> None:
        if self.draft:
            self.draft.randomise(self.app.rng)
            self._say(None)

    def _clear(self) -> None:
        if self.draft:
            self.draft.clear()
            self._say(None)

    def _lock_in(self) -> None:
        team = self.team
        if self.draft is None or team is None:
            return
        try:
            fleet = self.draft.fleet()
            self.app.service.submit(Place(team, fleet))
        except RuleError as err:
            self.message.text = str(err)
            return
        # Covered in the same callback, so no frame shows this fleet after the lock-in.
        self.kept.put_away(team)
        self.cover()
