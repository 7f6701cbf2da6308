"""The result card: the winner; per team and per player darts, hits, hit rate, ships sunk and
visits; rematch and new game."""

from __future__ import annotations

from kivy.uix.widget import Widget

from kiosk.darts.kind import DARTS
from kiosk.darts.match import Phase, RuleError, Setup
from kiosk.i18n import _, ngettext
from ui.touch import theme
from ui.touch.controls import BigButton
from ui.touch.result_card import result_page
from ui.touch.screens.base import KioskApp, KioskScreen
from ui.touch.table import percent


class ResultScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        page, self.winner, self.length, self.table = result_page(
            (3, 1.2, 1.2, 1.4, 1.2, 1.2),
            (
                BigButton(_("Home"), lambda: app.go("home"), colour=theme.PANEL_LIGHT),
                BigButton(_("New game"), lambda: app.go("new_game"), colour=theme.ACCENT),
                BigButton(_("Rematch"), self.rematch, colour=theme.GO),
            ),
        )
        self.add_widget(page)

    def reset(self) -> None:
        pass

    def toast_anchor(self) -> Widget | None:
        # A dart thrown now ("the game is over") shows over the table, not over the buttons.
        return self.table.parent

    def refresh(self) -> None:
        match = DARTS.in_play(self.app.service)
        if match is None or match.phase is not Phase.OVER or match.winner is None:
            return
        self.winner.text = _("Victory for {team}!").format(team=match.teams[match.winner].name)
        self.length.text = ngettext("{visits} visit", "{visits} visits", match.visits).format(
            visits=match.visits
        )
        self.table.clear_widgets()
        self.table.add_row(
            [_("Player"), _("Darts"), _("Hits"), _("Hit rate"), _("Sunk"), _("Visits")], colour=theme.TEXT_DIM
        )
        for index, team in enumerate(match.teams):
            tally = match.tally(index)
            self.table.add_row(
                [
                    team.name,
                    str(tally.darts),
                    str(tally.hits),
                    percent(tally.hit_rate),
                    str(tally.sunk),
                    str(tally.visits),
                ],
                colour=theme.TEAM_COLOURS[index],
                bold=True,
            )
            # A row per named player; a team without named players is its own row alone.
            tallies = match.player_tallies(index) if team.named else {}
            for player, ptally in tallies.items():
                self.table.add_row(
                    [
                        "   " + player,
                        str(ptally.darts),
                        str(ptally.hits),
                        percent(ptally.hit_rate),
                        str(ptally.sunk),
                        str(ptally.visits),
                    ]
                )

    def rematch(self) -> None:
        match = DARTS.in_play(self.app.service)
        if match is None:
            return
        self.app.start_game(lambda: self._rematch(match.setup))

    def _rematch(self, setup: Setup) -> None:
        try:
            self.app.service.new_game(DARTS, setup.on_board(self.app.service.board_profile()))
        except RuleError as err:
            self.app.toast(str(err))
