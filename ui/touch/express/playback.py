"""Beats played one after the other on Kivy's clock: the show of an attack.

The screen turns each update into beats (`kiosk.express.pace.script`) and adds them here with
what each does on screen; a beat of 0 seconds runs at once, so with the tests' instant pace a
whole attack is shown before `submit` returns. `advance` runs the next beat now (the
screenshots stop an attack mid-roll that way) and `finish` runs every one left (a new game).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock

Action = Callable[[], Any]


class Playback:
    def __init__(self, on_idle: Action) -> None:
        self._beats: deque[tuple[Action, float]] = deque()
        self._timer: Any = None
        self._running = False
        self.on_idle = on_idle  # called once the last beat has been shown
        self.held = False  # the screenshots step by hand: no clock

    @property
    def busy(self) -> bool:
        return bool(self._beats) or self._timer is not None or self._running

    def add(self, action: Action, seconds: float) -> None:
        self._beats.append((action, seconds))

    def start(self) -> None:
        if self._timer is None and not self._running and not self.held:
            self._next()

    def _next(self, *_args: object) -> None:
        self._timer = None
        self._running = True
        try:
            while self._beats:
                action, seconds = self._beats.popleft()
                action()
                if seconds > 0:
                    if not self.held:
                        self._timer = Clock.schedule_once(self._next, seconds)
                    return
        finally:
            self._running = False
        self.on_idle()

    def advance(self) -> bool:
        """Run the next beat now (and any of 0 seconds after it); False when none is left."""
        if not self._beats:
            return False
        self._cancel()
        action, _seconds = self._beats.popleft()
        action()
        while self._beats and self._beats[0][1] <= 0 and not self.held:
            self._beats.popleft()[0]()
        if not self._beats:
            self.on_idle()
        return True

    def finish(self) -> None:
        """Every beat left, now."""
        self._cancel()
        while self._beats:
            self._beats.popleft()[0]()
        self.on_idle()

    def clear(self) -> None:
        self._cancel()
        self._beats.clear()

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
