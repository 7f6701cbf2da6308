"""The daily challenge's leaderboard, read from the store: every finished `daily` game of a
date, fewest shots first, ties to whoever finished first."""

from __future__ import annotations

import datetime

from kiosk.classic.runner import DailyEntry
from kiosk.store import Store


class StoreLeaderboard:
    def __init__(self, store: Store) -> None:
        self.store = store

    def daily(self, day: datetime.date) -> list[DailyEntry]:
        entries = [DailyEntry(r.player, r.shots)
                   for game in self.store.finished_games("classic", mode="daily",
                                                         date=day.isoformat())
                   for r in game.results if r.side == 0]
        return sorted(entries, key=lambda e: e.shots)  # stable: the finishing order stays
