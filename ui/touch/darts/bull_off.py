"""Bull-off: one dart each at the bull. The board decides where it can; otherwise the players
tap who was closer."""

from __future__ import annotations

import functools

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.board import BULL, BullZone, Cell
from kiosk.darts.describe import bull_off_dart, zone_text
from kiosk.darts.kind import DARTS
from kiosk.darts.match import BullOffAgain, BullOffCloser, BullOffMode, Phase, RuleError
from kiosk.i18n import _
from kiosk.service import MatchUpdate
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, FitLabel, Panel
from ui.touch.darts.opponent import player, seat
from ui.touch.darts.page import board_page, with_home
from ui.touch.screens.base import KioskApp, KioskScreen, heading


class BullOffScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        page, self.board_view = board_page(app, spacing=8)
        self.board_view.bind(on_cell=self._tapped)
        side = BoxLayout(orientation="vertical", spacing=s(8))
        self.title = heading(_("Bull-off"), 34)
        side.add_widget(with_home(app, self.title))
        self.rule = Caption(font_units=18, colour=theme.TEXT_DIM, size_hint_y=None)
        side.add_widget(self.rule)
        self.teams = BoxLayout(spacing=s(8), size_hint_y=None, height=s(110))
        side.add_widget(self.teams)
        self.prompt = Caption(font_units=26, size_hint_y=None, bold=True)
        side.add_widget(self.prompt)
        self.closer = BoxLayout(spacing=s(8), size_hint_y=None, height=s(64))
        side.add_widget(self.closer)
        side.add_widget(BoxLayout())
        self.virtual = BigButton(_("Virtual throw at the bull"), self._virtual, colour=theme.PANEL_LIGHT)
        side.add_widget(self.virtual)
        page.add_widget(side)
        self.add_widget(page)
        self.notice = ""

    def reset(self) -> None:
        self.notice = ""

    def toast_anchor(self) -> Widget | None:
        return self.board_view

    def on_update(self, update: MatchUpdate) -> None:
        if any(isinstance(e, BullOffAgain) for e in update.events):
            self.notice = _("Both or neither hit the Bull: throw again.")
        self.refresh()

    def refresh(self) -> None:
        match = DARTS.in_play(self.app.service)
        if match is None or match.phase is not Phase.BULL_OFF:
            return
        s = theme.sizes()
        self.board_view.set_board(match.board)
        zones, cells = match.bull_off_zones(), match.bull_off_cells()
        self.rule.text = (
            _("A side that hits the Bull starts; both or neither: throw again.")
            if match.setup.rules.bull_off is BullOffMode.OFFICIAL
            else _("Closest to the bull starts. Inner bull beats outer bull.")
        )
        self.teams.clear_widgets()
        marks: dict[Cell, str] = {}
        kiosk, computer = seat(match), player(self.app, match)
        # The kiosk's virtual dart: drawn where it landed, with its distance, so the players can
        # still say who was closer.
        landing = (
            computer.bull_off
            if computer is not None and kiosk is not None and zones[kiosk.side] is not None
            else None
        )
        for index, team in enumerate(match.teams):
            panel = Panel(orientation="vertical", radius=s(10))
            # The name gets the panel's upper part and fits it (a team's name may be 32 letters
            # long: it ran over the rule above and the dart's line below).
            panel.add_widget(
                FitLabel(
                    team.name,
                    font_units=24,
                    bold=True,
                    halign="center",
                    valign="middle",
                    color=theme.TEAM_COLOURS[index],
                    size_hint_y=1.5,
                )
            )
            # Where it landed, so that the players can say who was closer.
            text = bull_off_dart(zones[index], cells[index])
            if landing is not None and kiosk is not None and kiosk.side == index:
                # Its distance says more than "not the bull" (and the panel is narrow).
                where = landing.cell.code if zones[index] is BullZone.OTHER else zone_text(zones[index])
                text = _("{zone}, {mm} mm off").format(
                    zone=where, mm=round((landing.x**2 + landing.y**2) ** 0.5)
                )
            panel.add_widget(
                FitLabel(text, font_units=22, halign="center", valign="middle", color=theme.TEXT)
            )
            self.teams.add_widget(panel)
            if zones[index] in (BullZone.INNER, BullZone.OUTER, BullZone.BULL):
                marks[BULL] = "bull_dart"
            elif (cell := cells[index]) is not None and cell.on_board:
                marks[cell] = f"dart{index}"  # in the team's colour
        self.board_view.show(marks)
        self.board_view.overlay(pins=[(landing.x, landing.y)] if landing is not None else [])
        self.closer.clear_widgets()
        if match.bull_off_undecided:
            self.prompt.text = _("The board cannot tell: who was closer?")
            for index, team in enumerate(match.teams):
                self.closer.add_widget(
                    BigButton(
                        team.name,
                        functools.partial(self._closer, index),
                        colour=theme.TEAM_COLOURS[index],
                        height=s(64),
                        font_units=26,
                    )
                )
        else:
            thrower = 0 if zones[0] is None else 1
            if kiosk is not None and zones[1 - kiosk.side] is None:
                thrower = 1 - kiosk.side  # the kiosk throws by itself: the players are asked
            self.prompt.text = (self.notice + "\n" if self.notice else "") + _(
                "{team}: one dart at the bull"
            ).format(team=match.teams[thrower].name)
        self.board_view.interactive = self.app.simulator and not match.bull_off_undecided
        self.virtual.opacity = 1 if self.app.simulator else 0
        self.virtual.disabled = not self.app.simulator or match.bull_off_undecided

    def _tapped(self, _view: object, cell: Cell, zone: BullZone) -> None:
        self.notice = ""
        if self.app.kiosk.simulator is not None:
            self.app.kiosk.simulator.land(cell, "tap", zone)

    def _virtual(self) -> None:
        self.notice = ""
        if self.app.kiosk.simulator is not None:
            self.app.kiosk.simulator.throw_at(BULL)

    def _closer(self, team: int) -> None:
        try:
            self.app.service.submit(BullOffCloser(team))
        except RuleError as err:
            self.app.toast(str(err))
