"""The takeout timer: after a visit's last dart, the next visit starts by itself after
`rules.takeout_seconds` (0: wait for Next). A service listener, like the computer player."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from kiosk.darts.kind import DARTS
from kiosk.darts.match import Next, Phase, TakeoutNeeded
from kiosk.service import (
    GameService,
    GameStarted,
    MatchUpdate,
    ServiceEvent,
    ServiceListener,
    Source,
)


class TakeoutTimer(ServiceListener):
    def __init__(self, service: GameService, seconds: Callable[[], float]) -> None:
        """`seconds` is asked at each visit's end, so a change in Settings counts at once."""
        self.service = service
        self.seconds = seconds
        self._timer: asyncio.TimerHandle | None = None

    def _sync(self) -> None:
        """Nothing to pick up: a game resumed in its takeout waits for Next (the timer runs
        only from a visit's last dart seen live)."""

    def _let_go(self) -> None:
        self._cancel()

    @property
    def running(self) -> bool:
        return self._timer is not None

    def _heard(self, event: ServiceEvent) -> None:
        if isinstance(event, GameStarted):
            self._cancel()
            return
        if not isinstance(event, MatchUpdate):
            return
        match = DARTS.in_play(self.service)
        if any(isinstance(e, TakeoutNeeded) for e in event.events):
            self._start()
        elif match is None or match.phase is not Phase.TAKEOUT:
            self._cancel()

    def _start(self) -> None:
        seconds = self.seconds()
        match = DARTS.in_play(self.service)
        if not seconds or match is None:
            return
        self._cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        visits = match.visits

        def fire() -> None:
            self._timer = None
            now = DARTS.in_play(self.service)
            if now is not None and now.phase is Phase.TAKEOUT and now.visits == visits:
                self.service.try_submit(Next(visit=visits), Source.TIMER)

        self._timer = loop.call_later(seconds, fire)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
