"""The dart game on the Stats screen: the kiosk's players and its last games."""

from __future__ import annotations

from collections.abc import Sequence

from kivy.uix.widget import Widget

from kiosk.i18n import _
from kiosk.store import Store
from ui.touch.stats_page import Players, column, played_on
from ui.touch.table import Table, heading_row, winner_cell

KIND = "darts"


class DartStats:
    def __init__(self) -> None:
        self.players = Players(KIND)
        self.games = Table((1.4, 3.2, 2, 1), font_units=18)
        self.games_column = column(_("Last games"), self.games)

    def columns(self) -> Sequence[Widget]:
        return (self.players.column, self.games_column)

    def fill(self, store: Store) -> None:
        self.players.fill(store)
        self.games.clear_widgets()
        heading_row(self.games, [_("Date"), _("Teams"), _("Winner"), _("Visits")])
        for summary in store.stats.last_games(kind=KIND, venue="kiosk"):
            winner, colour = winner_cell(summary)
            self.games.add_row(
                [
                    played_on(summary.started),
                    f"{summary.teams[0]} – {summary.teams[1]}",
                    winner,
                    str(summary.turns),
                ],
                colour=colour,
            )
