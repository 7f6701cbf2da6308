"""The daily challenge's leaderboard, read from the store: every won `daily` game of a date,
fewest shots first, ties to whoever finished first. A phone's challenge counts once it is named
(`kiosk.classic.rooms`: one per phone and day); a script's under its player's name."""

from __future__ import annotations

import datetime

from kiosk.classic.runner import DailyEntry
from kiosk.store import Store

# The venues of phones' daily challenges begin with this (kiosk.classic.rooms names them).
PHONE_DAILY = "daily:"


class StoreLeaderboard:
    def __init__(self, store: Store) -> None:
        self.store = store

    def daily(self, day: datetime.date) -> list[DailyEntry]:
        return [DailyEntry(r.player, r.shots)
                for r in self.store.stats.daily_board(day.isoformat(), PHONE_DAILY)]
