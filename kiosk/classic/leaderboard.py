"""The daily challenge's leaderboard: every won `daily` game of a date, fewest shots first, ties
to whoever finished first. With a store it is read from there (a phone's challenge counts once it
is named, `kiosk.classic.rooms`: one per phone and day; a script's under its player's name);
without one (`dartship classic` without `--db`) it holds the daily games finished in this run."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Protocol

from kiosk.classic.match import Match, Mode
from kiosk.service import GameService, MatchUpdate, ServiceEvent
from kiosk.store import Store

# The venues of phones' daily challenges begin with this (kiosk.classic.rooms names them).
PHONE_DAILY = "daily:"


@dataclass(frozen=True)
class DailyEntry:
    """One finished daily game: who, and the shots it took to sink the date's fleet."""

    player: str
    shots: int


class Leaderboard(Protocol):
    def daily(self, day: datetime.date) -> list[DailyEntry]:
        """The finished `daily` games of this date, fewest shots first; ties: who finished
        first comes first."""
        ...


class StoreLeaderboard:
    def __init__(self, store: Store) -> None:
        self.store = store

    def daily(self, day: datetime.date) -> list[DailyEntry]:
        return [
            DailyEntry(r.player, r.shots) for r in self.store.stats.daily_board(day.isoformat(), PHONE_DAILY)
        ]


class MemoryLeaderboard:
    """The daily games a service without a store finished while this board listened."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._finished: list[tuple[datetime.date, DailyEntry]] = []
        self._noted: set[int] = set()
        service.subscribe(self._heard)

    def _heard(self, event: ServiceEvent) -> None:
        match = self.service.match
        if not isinstance(event, MatchUpdate) or not isinstance(match, Match):
            return
        setup = match.setup
        if (
            setup.mode is Mode.DAILY
            and setup.date is not None
            and match.outcome().over
            and event.game not in self._noted
        ):
            self._noted.add(event.game)
            self._finished.append((setup.date, DailyEntry(setup.name(0), match.shots(0))))

    def daily(self, day: datetime.date) -> list[DailyEntry]:
        # sorted() is stable: equal shots keep the order they finished in.
        return sorted((entry for d, entry in self._finished if d == day), key=lambda e: e.shots)


def leaderboard_of(service: GameService) -> Leaderboard:
    """The service's store's leaderboard, or one in memory for a service without a store."""
    return StoreLeaderboard(service.store) if service.store is not None else MemoryLeaderboard(service)
