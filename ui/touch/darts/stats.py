"""The dart game on the Stats screen: the kiosk's players and its last games."""

from __future__ import annotations

from collections.abc import Sequence

from kivy.uix.widget import Widget

from kiosk.i18n import _
from kiosk.store import Store
from ui.touch import theme
from ui.touch.stats_page import Players, column, played_on
from ui.touch.table import Table

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
        self.games.add_row([_("Date"), _("Teams"), _("Winner"), _("Visits")], colour=theme.TEXT_DIM)
        for summary in store.stats.last_games(kind=KIND, venue="kiosk"):
            self.games.add_row([played_on(summary.started),
                                f"{summary.teams[0]} – {summary.teams[1]}",
                                summary.winner or "–", str(summary.turns)])
