"""Stuck contacts: the same contact repeated or held within a short window is one dart.

Pure: the caller passes the clock. Used by the serial reader (repeated lines) and the matrix
scanner (a contact held closed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

STUCK_SECONDS = 0.5


@dataclass
class StuckWatch:
    """Remembers the last contact. `repeat(key, now)` says whether this is the same contact
    again within `window` seconds of the last time it was seen (a run of repeats keeps the
    window open), and `first_of_run` whether the owner has not yet been told about this run."""

    window: float = STUCK_SECONDS
    _key: str | None = None
    _seen: float = field(default=float("-inf"))
    _reported: bool = False

    def repeat(self, key: str, now: float) -> tuple[bool, bool]:
        """(is a repeat, report it now)."""
        same = key == self._key and now - self._seen < self.window
        self._key, self._seen = key, now
        if not same:
            self._reported = False
            return False, False
        report = not self._reported
        self._reported = True
        return True, report

    def forget(self) -> None:
        self._key, self._seen, self._reported = None, float("-inf"), False
