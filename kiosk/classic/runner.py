"""What the classic referee runs its games through, and the plain in-memory runner.

The referee (and the touchscreen and the phones later) never apply a command to a match
themselves: they hand it to a runner, which applies it and, in the durable one
(`kiosk.service.GameService` with `kiosk.store.Store`), commits it before the answer is given.
`MemoryRunner` is the runner for `dartship classic` without `--db`: the same calls, nothing kept.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kiosk.classic.match import Match, Mode
from kiosk.game import GameKind


class Runner(Protocol):
    """Must: `game` (the game in play, or None), `start` (a new game of this kind and setup
    becomes `game`; an unfinished one is left unfinished) and `submit` (apply one command to
    `game`, keep it, return its events; a `RuleError` changes nothing)."""

    @property
    def game(self) -> Any: ...

    def start(self, kind: GameKind[Any, Any, Any, Any], setup: Any) -> None: ...

    def submit(self, command: Any) -> Sequence[Any]: ...


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


class MemoryRunner:
    """Runs one game at a time in memory; its leaderboard holds the daily games finished in
    this run."""

    def __init__(self) -> None:
        self.game: Any = None
        self._finished: list[tuple[datetime.date, DailyEntry]] = []

    def start(self, kind: GameKind[Any, Any, Any, Any], setup: Any) -> None:
        self.game = kind.new(setup)

    def submit(self, command: Any) -> list[Any]:
        if self.game is None:
            raise RuntimeError("no game to submit to")
        was_over = self.game.outcome().over
        events = self.game.apply(command)
        if not was_over and isinstance(self.game, Match):
            self._note_daily(self.game)
        return events

    def _note_daily(self, match: Match) -> None:
        setup = match.setup
        if setup.mode is Mode.DAILY and setup.date is not None and match.outcome().over:
            self._finished.append((setup.date, DailyEntry(setup.name(0), match.shots(0))))

    def daily(self, day: datetime.date) -> list[DailyEntry]:
        # sorted() is stable: equal shots keep the order they finished in.
        return sorted((entry for d, entry in self._finished if d == day), key=lambda e: e.shots)
