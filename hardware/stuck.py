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


# The longest repeat of a held contact or button among the public firmwares is ~505 ms
# (DardosLife: delay(500) per line; dARts 300 ms per contact and 500 ms per button,
# OpenDarts 500 ms): a repeat comes back within 0.75 s, two real darts in one segment do not
# (they are a second or more apart).
REPEAT_SECONDS = 0.75


@dataclass
class RepeatWatch:
    """Which contacts (and buttons) a serial firmware is repeating because they stay closed.

    Each contact is remembered on its own, so a dart jammed in one segment stays one dart while
    the next dart lands elsewhere (a firmware that scans prints both in turn, A B A B). A key
    seen again within `window` of its last sighting is a repeat; a run of repeats keeps it open.
    """

    window: float = REPEAT_SECONDS
    _seen: dict[str, float] = field(default_factory=dict)
    _told: set[str] = field(default_factory=set)

    def repeat(self, key: str, now: float) -> tuple[bool, bool]:
        """(is a repeat, tell the owner now: the first repeat of a run)."""
        last = self._seen.get(key)
        self._seen[key] = now
        if len(self._seen) > 64:  # only live contacts matter; a flood of keys must not grow this
            self._seen = {k: t for k, t in self._seen.items() if now - t < self.window}
        if last is None or now - last >= self.window:
            self._told.discard(key)
            return False, False
        tell = key not in self._told
        self._told.add(key)
        return True, tell

    def end(self, prefix: str) -> None:
        """The runs of these keys are over (a dart landed: a button held before it is let go)."""
        for key in [k for k in self._seen if k.startswith(prefix)]:
            del self._seen[key]
            self._told.discard(key)

    def forget(self) -> None:
        self._seen.clear()
        self._told.clear()
