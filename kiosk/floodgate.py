"""The first few of a flood, then a count: how a stream of the same complaint reaches a log.

A broken board can send ten thousand bad lines a second and a full file table makes every
accept fail; one log line each buries the journal (and the kiosk with it). A `FloodGate` lets
the first `first` events of a window through and counts the rest; once the window has closed,
`due()` hands out that count once, for a line like "12 345 more bad lines in the last 10 s".

Pure: the caller passes the time (a monotonic clock), so tests need no waiting.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class FloodGate:
    first: int = 5  # events let through in each window
    window: float = 10.0  # seconds
    _opened: float | None = None  # when the current window began (None: none is open)
    _let: int = 0  # events let through in the current window
    _held: int = 0  # events counted, not shown, in the current window
    _closed: int = 0  # held in windows that have closed, not yet handed out by `due`

    def admit(self, now: float) -> bool:
        """True if this event may be shown; False if it is only counted."""
        self._close_if_over(now)
        if self._opened is None:
            self._opened, self._let = now, 0
        if self._let < self.first:
            self._let += 1
            return True
        self._held += 1
        return False

    def due(self, now: float) -> int:
        """How many events were held back in windows that have closed by now (0: none, or the
        window is still open). Each count is handed out once."""
        self._close_if_over(now)
        closed, self._closed = self._closed, 0
        return closed

    def drain(self) -> int:
        """Everything held back so far, the open window's too (the end of the stream: a
        shutdown must not lose the last count)."""
        held = self._closed + self._held
        self._opened, self._held, self._closed = None, 0, 0
        return held

    def open_for(self, now: float) -> float:
        """Seconds until the current window closes (0 when none is open)."""
        if self._opened is None:
            return 0.0
        return max(0.0, self.window - (now - self._opened))

    def _close_if_over(self, now: float) -> None:
        if self._opened is not None and now - self._opened >= self.window:
            self._closed += self._held
            self._opened, self._held = None, 0
