"""A leaky bucket of allowed failures: wrong phone tokens, wrong Settings PINs.

`capacity` failures may come at once; then one more is allowed every `1 / per_second` seconds.
Pure: the caller passes the time (a monotonic clock), so tests need no waiting.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Bucket:
    capacity: float
    per_second: float
    level: float
    stamp: float

    @classmethod
    def full(cls, capacity: float, per_second: float, now: float) -> Bucket:
        return cls(capacity, per_second, capacity, now)

    def refill(self, now: float) -> None:
        self.level = min(self.capacity, self.level + (now - self.stamp) * self.per_second)
        self.stamp = now

    def empty(self, now: float) -> bool:
        self.refill(now)
        return self.level < 1.0

    def take(self, now: float) -> None:
        self.refill(now)
        self.level = max(0.0, self.level - 1.0)

    def give(self, now: float) -> None:
        """One failure taken back (no fuller than full)."""
        self.refill(now)
        self.level = min(self.capacity, self.level + 1.0)

    def is_full(self, now: float) -> bool:
        self.refill(now)
        return self.level >= self.capacity

    def wait(self, now: float) -> float:
        """Seconds until one more failure is allowed (0 if it is now)."""
        self.refill(now)
        return max(0.0, (1.0 - self.level) / self.per_second)
