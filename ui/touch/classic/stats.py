"""Classic 10x10 on the Stats screen: the kiosk's players and today's challenge (phones), best
first."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from kivy.uix.widget import Widget

from kiosk.classic.match import COMPUTER
from kiosk.i18n import _
from kiosk.store import Store
from ui.touch import theme
from ui.touch.stats_page import Players, column
from ui.touch.table import Table, heading_row

KIND = "classic"
DAILY_ROWS = 20


class ClassicStats:
    def __init__(self) -> None:
        self.players = Players(KIND, leave_out=(COMPUTER,))  # no player of the bar's
        self.daily = Table((3.4, 1.2), font_units=18)
        self.daily_column = column(_("Today's challenge"), self.daily)

    def columns(self) -> Sequence[Widget]:
        return (self.players.column, self.daily_column)

    def fill(self, store: Store) -> None:
        self.players.fill(store)
        rows = store.stats.daily_board(date.today().isoformat())
        self.daily.clear_widgets()
        heading_row(self.daily, [_("Player"), _("Shots")])
        for rank, row in enumerate(rows[:DAILY_ROWS], start=1):
            self.daily.add_row(
                [f"{rank}. {row.player}", str(row.shots)], colour=theme.WARN if rank == 1 else theme.TEXT
            )
        if not rows:
            self.daily.add_row([_("nobody yet"), ""], colour=theme.TEXT_DIM, lines=2)
