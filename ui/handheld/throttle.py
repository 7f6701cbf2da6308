"""Slowing down token guessers without ever keeping a real phone out.

Only wrong guesses count, and only against the address that sent them: each costs that address
one unit of a leaky bucket (10 at once, then 6 a minute). A link of a game that has ended is
not a guess (a phone reloading last game's page): it answers 404 and costs nothing.

An address with units left has its token looked at at once, so a phone whose address never
guessed is never slowed, however many others guess at the same time (a bar's worth of
addresses guessing used to empty a shared bucket and lock every new phone out: there is no
shared bucket any more). An address without units waits before its token is looked at, until
its bucket would give it one: a guesser gets one try every 10 s, and since the wait comes
before the look, the answer's timing says nothing. A valid token from such an address is
served after that wait, not refused. Only an address that has more requests waiting than
`max_wait` covers (a phone never queues three requests after ten wrong links) gets 429 without
its token being looked at.

The waiting is done by `middleware` (installed by `server.build_app`) before a route that takes
a secret (`/team/…`, `/api/team/…`, `/host/…`, a classic room's link) runs; the routes then ask
`may_try` and report `failed` or `succeeded`, which settle what the request paid in advance.

With a store, each address's bucket survives a restart (`kiosk.address_limits`, the limit
`wrong_links`): a guesser that restarts nothing but its hopes finds its bucket as it left it.
Only a bucket that a wrong link (or its refund) changed is written, so a phone that never
guessed costs no write; the address is kept as an HMAC keyed by the kiosk's secret, at most
`tracked_clients` of them. The writes go through the store's writer thread, and the answer to
the request that made one (the 404 of a wrong link) goes out only once it is committed
(`kiosk.address_limits.kept`): a kill -9 forgets no count of an answered request. The links of
the last `dead_games` games are kept in the store too (`Phones.keep_links`), so they are dead
links after a restart as before it.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from aiohttp import web

from kiosk.address_limits import address_digest, kept, recalled
from kiosk.bucket import Bucket
from kiosk.secret import derive, kiosk_secret
from kiosk.store import Store, StoreError
from ui.handheld.access_log import secret_in

log = logging.getLogger("dartship.handheld")


@dataclass(frozen=True)
class Limits:
    per_client: int = 10  # wrong links one address may send at once
    per_client_per_minute: float = 6.0  # then this many a minute
    max_wait: float = 30.0  # an address over its budget waits at most this long (then 429)
    tracked_clients: int = 4096  # addresses remembered (the oldest are forgotten first)
    dead_games: int = 8  # the links of this many ended games are dead links, not guesses


@dataclass
class Ticket:
    """One request's standing with the throttle (set by the middleware, read by the route)."""

    admitted: bool
    prepaid: bool = False  # it waited for, and took, one unit in advance
    dead_link: bool = False
    settled: bool = False


_ticket: ContextVar[Ticket | None] = ContextVar("dartship_guess_ticket", default=None)

KEPT_AS = "wrong_links"  # the limit's name among the stored counts per address


class GuessThrottle:
    def __init__(
        self,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic,
        *,
        store: Store | None = None,
        wall: Callable[[], float] = time.time,
    ) -> None:
        """`clock` times the buckets; with a `store` they are kept there (`wall`: the wall
        clock the stored buckets are timed by, as the monotonic clock starts again at a restart)."""
        self.limits = limits or Limits()
        self._clock = clock
        self._wall = wall
        self._store = store
        # Addresses are known by their digest (the one the store keeps), logged as they are.
        self._key = derive(kiosk_secret(store), "addresses") if store is not None else b""
        self._clients: OrderedDict[str, Bucket] = OrderedDict()
        # One more than `dead_games`: recalled after a restart, the game in play's links come too.
        self._dead: deque[frozenset[str]] = deque(maxlen=self.limits.dead_games + 1)
        self._slowed = 0  # addresses that ran out of units, for the log
        self._recall()

    # -- before the token is looked at --

    def admit(self, client: str, secret: str) -> float | None:
        """How long this request must wait before its `secret` is looked at (0: at once), or
        None: refused (429), the address has more waiting than `max_wait` covers. Sets the
        request's ticket (call it in the request's own task)."""
        if any(secret in dead for dead in self._dead):
            _ticket.set(Ticket(admitted=True, dead_link=True))
            return 0.0
        now = self._clock()
        bucket = self._bucket(client, now)
        if not bucket.empty(now):
            _ticket.set(Ticket(admitted=True))
            return 0.0
        wait = bucket.wait(now)  # with units taken in advance, the level is below zero
        if wait > self.limits.max_wait:
            _ticket.set(Ticket(admitted=False))
            return None
        bucket.level -= 1.0  # taken in advance; given back if the token is right
        self._keep(client, bucket)
        _ticket.set(Ticket(admitted=True, prepaid=True))
        return wait

    def may_try(self, client: str) -> bool:
        """May this request have its token looked at now? (Without the middleware: only while
        the address has units left.)"""
        ticket = _ticket.get()
        if ticket is not None:
            return ticket.admitted
        now = self._clock()
        bucket = self._clients.get(self._name(client))
        return bucket is None or not bucket.empty(now)

    # -- after --

    def failed(self, client: str) -> None:
        """The token was wrong: one unit, unless it was paid already or is a dead link."""
        ticket = _ticket.get()
        if ticket is not None and (ticket.dead_link or ticket.settled):
            return
        if ticket is not None and ticket.prepaid:
            ticket.settled = True
            return
        now = self._clock()
        bucket = self._bucket(client, now)
        bucket.take(now)
        self._keep(client, bucket)
        if bucket.empty(now):
            self._slowed += 1
            log.warning(
                "%s sent %d wrong phone links: its requests now wait (%d addresses so far)",
                client,
                self.limits.per_client,
                self._slowed,
            )

    def succeeded(self, client: str) -> None:
        """The token was right: what was paid in advance is given back."""
        ticket = _ticket.get()
        if ticket is not None and ticket.prepaid and not ticket.settled:
            ticket.settled = True
            bucket = self._clients.get(self._name(client))
            if bucket is not None:
                bucket.level += 1.0
                self._keep(client, bucket)

    def new_game(self, retired: tuple[str, ...] = ()) -> None:
        """A new game: the old game's links are dead links from now on (not guesses)."""
        if retired:
            self._dead.append(frozenset(retired))

    # -- the middleware --

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], object]
    ) -> web.StreamResponse:
        secret = secret_in(request.path)
        if secret is not None:
            wait = self.admit(request.remote or "unknown", secret)
            if wait:
                await asyncio.sleep(wait)
        response = await handler(request)  # type: ignore[misc]
        assert isinstance(response, web.StreamResponse)
        return response

    def _bucket(self, client: str, now: float) -> Bucket:
        name = self._name(client)
        bucket = self._clients.get(name)
        if bucket is None:
            bucket = Bucket.full(self.limits.per_client, self.limits.per_client_per_minute / 60, now)
            self._clients[name] = bucket
            while len(self._clients) > self.limits.tracked_clients:
                self._clients.popitem(last=False)
        else:
            self._clients.move_to_end(name)
        return bucket

    # -- kept across restarts --

    def _name(self, client: str) -> str:
        """The address as the throttle (and the store) knows it."""
        return address_digest(self._key, client) if self._store is not None else client

    def _keep(self, client: str, bucket: Bucket) -> None:
        if self._store is None:
            return
        at = self._wall() - max(0.0, self._clock() - bucket.stamp)  # when its level was measured
        kept(
            self._store.limits.keep_bucket(
                KEPT_AS, self._name(client), bucket.level, at, self.limits.tracked_clients
            )
        )

    def _recall(self) -> None:
        """The buckets as the kiosk left them (the oldest first, as they are forgotten)."""
        if self._store is None:
            return
        now, wall, limits = self._clock(), self._wall(), self.limits
        try:
            kept = self._store.limits.buckets(KEPT_AS)
        except (StoreError, sqlite3.Error) as err:
            log.warning("the wrong links per address cannot be read (%s): they start afresh", err)
            return
        for name, (level, at) in sorted(kept.items(), key=lambda item: item[1][1]):
            bucket = recalled(limits.per_client, limits.per_client_per_minute / 60, level, at, now, wall)
            bucket.refill(now)
            if bucket.level < bucket.capacity:
                self._clients[name] = bucket  # a bucket full again is what no bucket means
