"""One call waiting on the loop at a time: scheduling another replaces it (a computer player's
next step, which a new game or an undo makes moot)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Later:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._handle: asyncio.TimerHandle | None = None

    @property
    def pending(self) -> bool:
        return self._handle is not None

    def call(self, delay: float, action: Callable[[], None]) -> None:
        """`action()` after `delay` seconds (now, if negative), instead of what waited."""
        self.cancel()

        def fire() -> None:
            self._handle = None
            action()

        self._handle = self.loop.call_later(max(0.0, delay), fire)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
