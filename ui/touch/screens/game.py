"""The game: the throwing team's radar, the scoreboard, the announcement, takeout and Next,
Undo and Correct, and the simulator's inputs.

Hidden information: the radar is drawn only from `match.shots(team)` of the throwing team and
`match.sunk_ships(enemy)` (public once sunk). `match.fleet(...)` is never read here.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout

from kiosk.board import MISS, BullZone, Cell
from kiosk.i18n import _
from kiosk.match import Correct, Match, Next, Phase, Result, RuleError, Undo, Undone
from ui.touch import theme
from ui.touch.announcement import Announcement, words_for
from ui.touch.controls import BigButton, Caption, Field
from ui.touch.correct_picker import CorrectPicker
from ui.touch.dartboard import DartboardView
from ui.touch.scoreboard import Scoreboard
from ui.touch.screens.base import KioskScreen
from ui.touch.sim_throw import tap_dart, typed_dart, virtual_dart

RESULT_MARKS = {Result.HIT: "hit", Result.SUNK: "sunk", Result.MISS: "miss", Result.REPEAT: "miss"}


def radar_of(match: Match, team: int) -> tuple[dict[Cell, str], list[tuple[Cell, ...]]]:
    """What `team` may see of the enemy board: its own shots and the enemy's sunk ships."""
    marks = {cell: RESULT_MARKS[result] for cell, result in match.shots(team).items()}
    sunk = [ship.cells for ship in match.sunk_ships(1 - team)]
    for cells in sunk:
        for cell in cells:
            marks[cell] = "sunk"
    return marks, sunk


class GameScreen(KioskScreen):
    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        layer = FloatLayout()
        page = BoxLayout(padding=s(8), spacing=s(10))
        self.radar = DartboardView(_board(app), size_hint_x=None)
        self.radar.bind(on_cell=self._tapped)
        page.bind(height=lambda _w, h: setattr(self.radar, "width", h - 2 * s(8)))
        page.add_widget(self.radar)
        side = BoxLayout(orientation="vertical", spacing=s(6))
        self.radar_title = Caption(font_units=18, colour=theme.TEXT_DIM, size_hint_y=None,
                                   shorten=True)
        side.add_widget(self.radar_title)
        self.scoreboard = Scoreboard(size_hint_y=None, height=s(124 + 36 + 44 + 16))
        side.add_widget(self.scoreboard)
        self.prompt = Caption(font_units=22, bold=True, colour=theme.WARN, size_hint_y=None,
                              halign="center")
        side.add_widget(self.prompt)
        side.add_widget(BoxLayout())
        actions = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        actions.add_widget(BigButton(_("Undo"), self._undo, colour=theme.PANEL_LIGHT))
        actions.add_widget(BigButton(_("Correct"), self._correct, colour=theme.PANEL_LIGHT))
        self.next_button = BigButton(_("Next"), self._next, colour=theme.PANEL_LIGHT)
        actions.add_widget(self.next_button)
        side.add_widget(actions)
        self.sim_row = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        self.cell_field = Field(hint=_("cell, e.g. T20"))
        self.cell_field.bind(on_text_validate=lambda *_a: self._typed())
        self.sim_row.add_widget(self.cell_field)
        self.cell_field.size_hint_x = 0.9
        self.sim_row.add_widget(BigButton(_("Throw"), self._typed, size_hint_x=0.8, font_units=18))
        self.sim_row.add_widget(BigButton(_("Virtual throw"), self._virtual, colour=theme.PANEL_LIGHT,
                                          font_units=18))
        side.add_widget(self.sim_row)
        page.add_widget(side)
        layer.add_widget(page)
        self.announcement = Announcement(size_hint=(0.9, 0.6), pos_hint={"center_x": 0.5,
                                                                         "center_y": 0.5})
        layer.add_widget(self.announcement)
        self.add_widget(layer)

    def reset(self) -> None:
        self.announcement.clear()

    # -- showing --

    def viewer(self, match: Match) -> int | None:
        """Whose radar is shown: the team throwing, or during takeout the team that just threw."""
        if match.phase is Phase.TAKEOUT or match.phase is Phase.OVER:
            return match.turn
        team, _player, _dart = match.up_next()
        return team

    def refresh(self) -> None:
        match = self.app.service.match
        if match is None:
            return
        team = self.viewer(match)
        if self.radar.board is not match.board:
            self.radar.set_board(match.board)
        if team is None:
            self.radar.show({})
        else:
            marks, sunk = radar_of(match, team)
            last = match.last_dart() if match.turn == team else None
            self.radar.show(marks, sunk, last)
            self.radar_title.text = _("Radar of {team}, firing at {enemy}").format(
                team=match.teams[team].name, enemy=match.teams[1 - team].name)
        self.scoreboard.show(match)
        takeout = match.phase is Phase.TAKEOUT
        if takeout:
            self.prompt.text = _("Pull the darts out, then tap Next")
        elif match.phase is Phase.OVER and match.winner is not None:
            self.prompt.text = _("{team} wins!").format(team=match.teams[match.winner].name)
        else:
            self.prompt.text = ""
        self.next_button.set_colour(theme.GO if takeout else theme.PANEL_LIGHT)
        simulator = self.app.simulator
        self.sim_row.opacity = 1 if simulator else 0
        self.sim_row.disabled = not simulator
        self.radar.interactive = simulator and match.phase is Phase.THROWING

    def on_update(self, update: Any) -> None:
        # The word first: it must be in the very next frame.
        match = self.app.service.match
        words = words_for(update.events, tuple(t.name for t in match.teams)) if match else None
        if words is not None:
            self.announcement.announce(*words)
        for event in update.events:
            if isinstance(event, Undone):
                self.app.toast(_("took back the dart in {cell}").format(cell=event.cell.code), 3)
        self.refresh()

    # -- commands --

    def _submit(self, command: Any) -> None:
        try:
            self.app.service.submit(command)
        except (RuleError, ValueError) as err:
            self.app.toast(str(err))

    def _undo(self) -> None:
        self._submit(Undo())

    def _next(self) -> None:
        self._submit(Next())

    def _correct(self) -> None:
        match = self.app.service.match
        last = match.last_dart() if match else None
        if last is None:
            self.app.toast(_("no dart to correct yet"))
            return
        self.picker = CorrectPicker(last, match.board, lambda cell: self._submit(Correct(cell)))
        self.picker.open()

    def _tapped(self, _view: Any, cell: Cell, zone: BullZone) -> None:
        tap_dart(self.app.service, cell, zone)

    def _typed(self) -> None:
        match = self.app.service.match
        if match is None or not self.cell_field.text.strip():
            return
        error = typed_dart(self.app.service, match.board, self.cell_field.text)
        if error:
            self.app.toast(error)
        else:
            self.cell_field.text = ""

    def _virtual(self) -> None:
        """A scattered dart at the typed cell, or at a cell this team has not shot yet."""
        match = self.app.service.match
        if match is None:
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
        virtual_dart(self.app.service, match.board, aim, self.app.kiosk.config["simulator.skill"],
                     self.app.rng)


def _board(app: Any):
    from kiosk.board import board_for

    return app.service.match.board if app.service.match else board_for()
