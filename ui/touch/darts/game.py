"""The game: the throwing team's radar, the scoreboard, the announcement, takeout and Next,
Undo and Correct, the simulator's inputs, the kiosk's own visits (solo) and the coach.

Hidden information: the radar is drawn only from `match.shots(team)` of the throwing team and
`match.sunk_ships(enemy)` (public once sunk). `match.fleet(...)` is never read here; the coach
reasons from the same public record (`Record.from_match`), in an executor.
"""

from __future__ import annotations

import concurrent.futures
import random
from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from kiosk.board import MISS, BullZone, Cell
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Correct, Match, Next, Phase, RuleError, Undo, Undone
from kiosk.game import Result
from kiosk.i18n import _
from kiosk.scatter import Skill
from kiosk.service import MatchUpdate
from ui.touch import theme
from ui.touch.announcement import Announcement
from ui.touch.controls import BigButton, Caption, ChoiceButton, FitLabel, text_field
from ui.touch.darts.correct_picker import CorrectPicker
from ui.touch.darts.opponent import SKILL_ORDER, dart_teams, pins, player, seat, skill_name
from ui.touch.darts.page import board_page, with_home
from ui.touch.darts.scoreboard import Scoreboard
from ui.touch.darts.words import words_for
from ui.touch.phones import PhonesPopup
from ui.touch.screens.base import KioskApp, KioskScreen

if TYPE_CHECKING:
    from kiosk.darts.decision import Decision

_coach_pool: concurrent.futures.ThreadPoolExecutor | None = None


def coach_pool() -> concurrent.futures.ThreadPoolExecutor:
    """One worker: a newer question simply waits for the older answer, which is then dropped."""
    global _coach_pool
    if _coach_pool is None:
        _coach_pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="dartship-coach")
    return _coach_pool


RESULT_MARKS = {Result.HIT: "hit", Result.SUNK: "sunk", Result.MISS: "miss", Result.REPEAT: "miss"}


def radar_of(match: Match, team: int) -> tuple[dict[Cell, str], list[tuple[Cell, ...]]]:
    """What `team` may see of the enemy board: its own shots and the enemy's sunk ships."""
    marks = {cell: RESULT_MARKS[result] for cell, result in match.shots(team).items()}
    sunk = [ship.cells for ship in match.sunk_ships(1 - team)]
    for cells in sunk:
        for cell in cells:
            marks[cell] = "sunk"
    return marks, sunk


def own_last_dart(match: Match, team: int) -> Cell | None:
    """The cell to outline on `team`'s radar: its own last dart of the visit in play (or of the
    visit just ended, at takeout); none at the start of its visit, when the last dart of the
    game is the other team's, which would read as its own shot."""
    if match.turn != team:
        return None
    if match.phase is Phase.THROWING and match.up_next()[2] == 1:
        return None
    return match.last_dart()


class GameScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        layer = FloatLayout()
        page, self.radar = board_page(app, spacing=10)
        self.radar.bind(on_cell=self._tapped, on_double_tap=self._double_tapped)
        side = BoxLayout(orientation="vertical", spacing=s(6))
        # Two lines beside Home: "Radar of Sharks, / firing at Jets".
        self.radar_title = FitLabel(
            font_units=16,
            lines=2,
            max_lines=2,
            color=theme.TEXT_DIM,
            halign="left",
            valign="middle",
            size_hint_y=None,
            height=s(42),
        )
        side.add_widget(with_home(app, self.radar_title))
        self.scoreboard = Scoreboard(size_hint_y=None, height=s(124 + 36 + 44 + 16))
        side.add_widget(self.scoreboard)
        self.prompt = Caption(font_units=22, bold=True, colour=theme.WARN, size_hint_y=None, halign="center")
        side.add_widget(self.prompt)
        side.add_widget(BoxLayout())
        actions = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        actions.add_widget(BigButton(_("Undo"), self._undo, colour=theme.PANEL_LIGHT))
        actions.add_widget(BigButton(_("Correct"), self._correct, colour=theme.PANEL_LIGHT))
        self.next_button = BigButton(_("Next"), self._next, colour=theme.PANEL_LIGHT)
        actions.add_widget(self.next_button)
        side.add_widget(actions)
        # One slot: the simulator's inputs, or (solo) "let the kiosk throw" after an Undo.
        self.slot = BoxLayout(size_hint_y=None, height=s.touch)
        self.hold_button = BigButton(
            _("Let the kiosk throw"), self._resume_kiosk, colour=theme.GO, font_units=20
        )
        self.sim_row = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        self.cell_field = text_field(hint=_("e.g. T20"))
        self.cell_field.bind(on_text_validate=lambda *_a: self._typed())
        self.sim_row.add_widget(self.cell_field)
        self.cell_field.size_hint_x = 1.15  # room for its hint in every language ("z. B. T20")
        self.sim_row.add_widget(BigButton(_("Throw"), self._typed, size_hint_x=0.8, font_units=18))
        self.sim_row.add_widget(
            BigButton(_("Virtual throw"), self._virtual, colour=theme.PANEL_LIGHT, font_units=18)
        )
        self.slot.add_widget(self.sim_row)
        side.add_widget(self.slot)
        page.add_widget(side)
        layer.add_widget(page)
        # The coach sits in the radar's empty bottom corners: a toggle and the thrower's skill.
        self.drawn_visit: int | None = None  # the visit last drawn (None: none yet)
        self.coach_on = False
        self.coach_skill: Skill = app.settings.simulator.skill
        self.coach: Decision | None = None
        self._coach_key: tuple | None = None
        self.coach_button = BigButton(
            _("Coach"), self._toggle_coach, colour=theme.PANEL_LIGHT, font_units=18, size_hint=(None, None)
        ).fit_width(s(84))
        self.skill_button = ChoiceButton(
            list(SKILL_ORDER),
            self.coach_skill,
            label=lambda k: _("thrower:\n{skill}").format(skill=skill_name(k)),
            on_change=self._coach_skill_changed,
            font_units=15,
            size_hint=(None, None),
            width=s(84),
        )
        for button in (self.coach_button, self.skill_button):
            layer.add_widget(button)
        # The radar's top right corner: the teams' phones (move a team whose phone is gone).
        self.phones_button = BigButton(
            _("Phones"),
            lambda: PhonesPopup(app, lambda: dart_teams(app)).open(),
            colour=theme.PANEL_LIGHT,
            font_units=18,
            size_hint=(None, None),
            height=s(40),
        ).fit_width(s(84))
        if app.kiosk.web is not None:
            layer.add_widget(self.phones_button)
        # The announcement lies over the board, so the scoreboard beside it stays readable.
        self.announcement = Announcement(size_hint=(None, None))
        self.radar.bind(pos=self._place_overlays, size=self._place_overlays)
        layer.add_widget(self.announcement)
        self.add_widget(layer)

    def reset(self) -> None:
        self.announcement.clear()
        self.coach, self._coach_key = None, None

    def toast_anchor(self) -> Widget | None:
        return self.radar

    def _place_overlays(self, *_args: object) -> None:
        self.coach_button.pos = (self.radar.x, self.radar.y)
        # x + width, not the cached `right` alias (stale inside a size callback).
        self.skill_button.pos = (self.radar.x + self.radar.width - self.skill_button.width, self.radar.y)
        self.phones_button.pos = (
            self.radar.x + self.radar.width - self.phones_button.width,
            self.radar.y + self.radar.height - self.phones_button.height,
        )
        self.announcement.size = (self.radar.width, self.radar.height * 0.62)
        self.announcement.pos = (self.radar.x, self.radar.y + self.radar.height * 0.19)

    # -- showing --

    def viewer(self, match: Match) -> int | None:
        """Whose radar is shown: the team throwing, or during takeout the team that just threw."""
        if match.phase is Phase.TAKEOUT or match.phase is Phase.OVER:
            return match.turn
        team, _player, _dart = match.up_next()
        return team

    def refresh(self) -> None:
        match = DARTS.in_play(self.app.service)
        if match is None:
            return
        self.drawn_visit = match.visits  # what Next is for: the visit this screen shows
        team = self.viewer(match)
        if self.radar.board is not match.board:
            self.radar.set_board(match.board)
        if team is None:
            self.radar.show({})
        else:
            marks, sunk = radar_of(match, team)
            self.radar.show(marks, sunk, own_last_dart(match, team))
            self.radar_title.text = _("Radar of {team}, firing at {enemy}").format(
                team=match.teams[team].name, enemy=match.teams[1 - team].name
            )
        self.scoreboard.show(match)
        kiosk, computer = seat(match), player(self.app, match)
        kiosk_turn = kiosk is not None and match.turn == kiosk.side
        holding = computer is not None and computer.holding and kiosk_turn
        takeout = match.phase is Phase.TAKEOUT
        if takeout and kiosk_turn:
            self.prompt.text = _("No darts to pull out: tap Next, or the kiosk does")
        elif takeout and self.app.service.board_takes_out():
            self.prompt.text = _("Pull the darts out: the cameras end the visit")
        elif takeout:
            self.prompt.text = _("Pull the darts out, then tap Next")
        elif match.phase is Phase.OVER and match.winner is not None:
            self.prompt.text = _("Victory for {team}!").format(team=match.teams[match.winner].name)
        elif holding:
            self.prompt.text = _("You took back a dart of the kiosk: it waits")
        elif kiosk_turn and kiosk is not None and match.phase is Phase.THROWING:
            self.prompt.text = _("{team} is throwing …").format(team=match.teams[kiosk.side].name)
        else:
            self.prompt.text = ""
        self.next_button.set_colour(theme.GO if takeout else theme.PANEL_LIGHT)
        # The kiosk throws its own darts: the simulator's inputs are for the players' visits.
        simulator = self.app.simulator and not (kiosk_turn and match.phase is Phase.THROWING)
        self.sim_row.opacity = 1 if simulator else 0
        self.sim_row.disabled = not simulator
        self._fill_slot(self.hold_button if holding else self.sim_row)
        self.radar.interactive = simulator and match.phase is Phase.THROWING
        self._show_coach(match, team)

    def _fill_slot(self, widget: Widget) -> None:
        if widget.parent is not self.slot:
            self.slot.clear_widgets()
            self.slot.add_widget(widget)

    def _resume_kiosk(self) -> None:
        computer = player(self.app, DARTS.in_play(self.app.service))
        if computer is not None:
            computer.resume()
        self.refresh()

    # -- the coach --

    def coach_team(self, match: Match) -> int | None:
        """Whom the coach helps now: the players throwing (never the kiosk's own visit)."""
        if not self.coach_on or match.phase is not Phase.THROWING or match.turn is None:
            return None
        kiosk = seat(match)
        if kiosk is not None and kiosk.side == match.turn:
            return None
        return match.turn

    def _show_coach(self, match: Match, viewer: int | None) -> None:
        kiosk = seat(match)
        kiosk_pins = (
            pins(self.app, match)
            if (viewer is not None and kiosk is not None and viewer == kiosk.side)
            else []
        )
        self.coach_button.set_colour(theme.ACCENT if self.coach_on else theme.PANEL_LIGHT)
        self.skill_button.opacity = 1 if self.coach_on else 0
        self.skill_button.disabled = not self.coach_on
        team = self.coach_team(match)
        if team is None:
            self.coach, self._coach_key = None, None
            self.radar.overlay(pins=kiosk_pins)
            return
        key = (self.app.service.game, match.version, team, self.coach_skill)
        if key != self._coach_key:
            self._ask_coach(match, team, key)
        decision = self.coach
        if decision is None:
            self.radar.overlay(pins=kiosk_pins)  # the answer is a frame or two away
            return
        self.radar.overlay(
            heat=dict(decision.heat),
            crosshair=(decision.aim.x, decision.aim.y),
            scatter_mm=self.coach_skill.sigma,
            pins=kiosk_pins,
        )
        if not self.prompt.text:
            self.prompt.text = _("Coach: aim at the cross, {p}% chance of a hit").format(
                p=round(100 * decision.aim.p_hit)
            )

    def _ask_coach(self, match: Match, team: int, key: tuple) -> None:
        """The decision runs in a worker thread; its answer comes back on Kivy's clock."""
        self._coach_key = key
        self.coach = None
        # numpy: loaded when the coach is first asked
        from kiosk.darts.decision import decide, record_of

        record = record_of(match, team)  # public: the team's shots, enemy ships sunk
        rng = random.Random(self.app.rng.getrandbits(64))
        future = coach_pool().submit(
            decide, match.board, record, tuple(match.setup.rules.fleet), self.coach_skill.sigma, rng
        )
        future.add_done_callback(lambda f: Clock.schedule_once(lambda _dt: self._coach_answered(key, f)))

    def _coach_answered(self, key: tuple, future: concurrent.futures.Future) -> None:
        if key != self._coach_key:
            return  # the game moved on meanwhile
        try:
            self.coach = future.result()
        except Exception as err:  # the coach is a help: never let it break the game screen
            self.app.toast(_("The coach has no advice: {error}").format(error=err))
            return
        self.refresh()

    def _toggle_coach(self) -> None:
        self.coach_on = not self.coach_on
        self.refresh()

    def _coach_skill_changed(self, skill: Skill) -> None:
        self.coach_skill = skill
        if hasattr(self, "radar"):
            self.refresh()

    def on_update(self, update: MatchUpdate) -> None:
        # The word first: it must be in the very next frame.
        match = DARTS.in_play(self.app.service)
        words = words_for(update.events, (match.teams[0].name, match.teams[1].name)) if match else None
        if words is not None:
            self.announcement.announce(*words)
        for event in update.events:
            if isinstance(event, Undone):
                self.app.toast(_("took back the dart in {cell}").format(cell=event.cell.code), 3)
        self.refresh()

    # -- commands --

    def _submit(self, command: object) -> None:
        try:
            self.app.service.submit(command)
        except RuleError as err:
            self.app.toast(str(err))

    def _undo(self) -> None:
        self._submit(Undo())

    def _next(self) -> None:
        # For the visit drawn: a second tap of a double tap, or a tap just after the timer's
        # Next, is refused by the guard (said in the toast) instead of ending the next visit.
        self._submit(Next(visit=self.drawn_visit))

    def _correct(self) -> None:
        match = DARTS.in_play(self.app.service)
        last = match.last_dart() if match else None
        if match is None or last is None:
            self.app.toast(_("no dart to correct yet"))
            return
        self.picker = CorrectPicker(last, match.board, lambda cell: self._submit(Correct(cell)))
        self.picker.open()

    def _tapped(self, _view: object, cell: Cell, zone: BullZone) -> None:
        if self.app.kiosk.simulator is not None:
            self.app.kiosk.simulator.land(cell, "tap", zone)

    def _double_tapped(self, _view: object, cell: Cell) -> None:
        self.app.toast(
            _("A double tap on {cell} counts as one dart: tap again for a second").format(cell=cell.code)
        )

    def _typed(self) -> None:
        simulator = self.app.kiosk.simulator
        if simulator is None or not self.cell_field.text.strip():
            return
        error = simulator.enter(self.cell_field.text)
        if error:
            self.app.toast(error)
        else:
            self.cell_field.text = ""

    def _virtual(self) -> None:
        """A scattered dart at the typed cell, or at a cell this team has not shot yet."""
        match = DARTS.in_play(self.app.service)
        simulator = self.app.kiosk.simulator
        if match is None or simulator is None:
            return
        aim = MISS
        text = self.cell_field.text.strip()
        if text:
            try:
                aim = match.board.parse(text)
            except ValueError as err:
                self.app.toast(str(err))
                return
        else:
            team = self.viewer(match)
            shot = match.shots(team) if team is not None else {}
            fresh = [c for c in match.board.cells if c not in shot]
            aim = self.app.rng.choice(fresh or list(match.board.cells))
        simulator.throw_at(aim)
