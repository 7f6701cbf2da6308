"""Rate limiting of token guesses: per client address and for the whole kiosk.

Every wrong token costs its sender one unit of a leaky bucket. An address whose bucket is empty
gets 429 without its token even being looked at, so it cannot learn whether a guess was right.
A global bucket caps guesses from everyone together (many addresses on one LAN); when it is
empty, only addresses that already showed a valid token of the current game get through, so a
flood of guesses never locks the real phones out.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from kiosk.bucket import Bucket


@dataclass(frozen=True)
class Limits:
    per_client: int = 10  # wrong tokens one address may send at once
    per_client_per_minute: float = 6.0  # then this many a minute
    overall: int = 100  # wrong tokens from everyone at once
    overall_per_minute: float = 60.0
    tracked_clients: int = 4096  # addresses remembered (the oldest are forgotten first)


class GuessThrottle:
    def __init__(self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or Limits()
        self._clock = clock
        self._clients: OrderedDict[str, Bucket] = OrderedDict()
        now = clock()
        self._overall = Bucket.full(self.limits.overall, self.limits.overall_per_minute / 60, now)
        self._trusted: set[str] = set()

    def _bucket(self, client: str, now: float) -> Bucket:
        bucket = self._clients.get(client)
        if bucket is None:
            bucket = Bucket.full(self.limits.per_client, self.limits.per_client_per_minute / 60,
                                 now)
            self._clients[client] = bucket
            while len(self._clients) > self.limits.tracked_clients:
                self._clients.popitem(last=False)
        else:
            self._clients.move_to_end(client)
        return bucket

    def may_try(self, client: str) -> bool:
        """May this address have a token looked at now?"""
        now = self._clock()
        bucket = self._clients.get(client)
        if bucket is not None and bucket.empty(now):
            return False
        return client in self._trusted or not self._overall.empty(now)

    def failed(self, client: str) -> None:
        now = self._clock()
        self._bucket(client, now).take(now)
        self._overall.take(now)

    def succeeded(self, client: str) -> None:
        self._trusted.add(client)

    def forget_trust(self) -> None:
        """A new game: nobody has shown one of its tokens yet."""
        self._trusted.clear()
