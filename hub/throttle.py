"""The pairing throttle, kept in PostgreSQL (migration 3): failed pairing-code guesses per
address and in all.

A guess spends a token of the hub-wide bucket and one of its address's before the code is
looked at, in one statement (`throttle_take`, all or none, atomic under the rows' locks), so a
restarted hub gives nothing back and N hub processes on one database share one allowance: two
processes cannot both spend the last token. A code that pairs gives its tokens back (only
failed guesses count, as before). The clock is the database's (`now()`): hubs on machines whose
clocks differ still refill one bucket at one pace. A bucket that is full again is the same as
no row; `sweep` deletes those once a minute.

Each hub process also mirrors its own takes in memory (`Mirror`): a bucket this process emptied
by itself is empty in the database too (which counts every process's takes and every restart's,
at the same pace), so a guess the mirror refuses is answered 429 without a statement: a flood
from one address, or past the hub-wide allowance, costs the database nothing more.

A database that cannot answer the throttle is a 503 (`database_away`, the hub's answer for a
database it cannot reach), never a 500 and never a guess let through unthrottled; a row held
locked elsewhere is waited for at most 2 s (the functions' `lock_timeout`). The functions'
commits do not wait for the disk (`synchronous_commit` off for their statement alone): only a
crash of PostgreSQL itself can forget the last fraction of a second of takes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import psycopg
from psycopg_pool import AsyncConnectionPool

from hub.kiosks import Refused
from kiosk.bucket import Bucket
from kiosk.i18n import _

log = logging.getLogger("dartship.hub")

ADDRESS, ALL = "pair_address", "pair_all"


@dataclass(frozen=True)
class Allowance:
    """`capacity` failures at once, then one more every `1 / per_second` seconds."""

    capacity: int
    per_second: float

    @property
    def step(self) -> float:
        return 1.0 / self.per_second

    @property
    def burst(self) -> float:
        return (self.capacity - 1) * self.step


@dataclass(frozen=True)
class PairingLimits:
    """Failed pairing guesses: 10 from one address (then one every 5 s), 200 from all
    addresses together (then 2 a second)."""

    per_address: Allowance = field(default_factory=lambda: Allowance(10, 0.2))
    in_all: Allowance = field(default_factory=lambda: Allowance(200, 2.0))

    def buckets(self, address: str) -> tuple[list[str], list[str], list[float], list[float]]:
        """The two buckets a guess from `address` spends from, as the functions take them:
        their kinds, keys, steps and bursts. The address's first: a flood from one address that
        is used up touches only its row."""
        allowances = (self.per_address, self.in_all)
        return [ADDRESS, ALL], [address, "*"], [a.step for a in allowances], [a.burst for a in allowances]


class Mirror:
    """This hub process's own takes of the pairing buckets, in memory: refused here is refused
    in PostgreSQL too. The database's bucket has spent at least what this process took (and
    given back no more than it gave), both refill at the same pace from the same capacity, so
    its level is never above the mirror's; a mirror that has less than a token (less a hair for
    two clocks' rounding) needs no statement to say 429. What the mirror lets through the
    database still decides: other processes' and earlier starts' takes are only there."""

    SLACK = 0.01  # of a token: the mirror's and PostgreSQL's clocks read a moment apart
    KEPT = 10_000  # addresses kept before the full ones are dropped (a full bucket is no entry)

    def __init__(self, limits: PairingLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.all = Bucket.full(limits.in_all.capacity, limits.in_all.per_second, clock())
        self.addresses: dict[str, Bucket] = {}

    def refuses(self, address: str) -> bool:
        """Whether the database would refuse a guess from `address` now, known from memory."""
        now = self.clock()
        return any(self._short(b, now) for b in (self.addresses.get(address), self.all))

    def _short(self, bucket: Bucket | None, now: float) -> bool:
        if bucket is None:
            return False  # an address this process has not seen (or forgot): the database says
        bucket.refill(now)
        return bucket.level < 1.0 - self.SLACK

    def took(self, address: str) -> None:
        """The database let a guess from `address` through: one token of each bucket."""
        now = self.clock()
        if address not in self.addresses and len(self.addresses) >= self.KEPT:
            self._prune(now)
        allowance = self.limits.per_address
        bucket = self.addresses.setdefault(
            address, Bucket.full(allowance.capacity, allowance.per_second, now)
        )
        bucket.take(now)
        self.all.take(now)

    def gave_back(self, address: str) -> None:
        """The guess was a right code: its tokens back, as the database's."""
        now = self.clock()
        bucket = self.addresses.get(address)
        if bucket is not None:
            bucket.give(now)
        self.all.give(now)

    def _prune(self, now: float) -> None:
        self.addresses = {a: b for a, b in self.addresses.items() if not b.is_full(now)}
        if len(self.addresses) >= self.KEPT:
            # Forgetting only makes the mirror let more through to the database, which decides.
            self.addresses.clear()


def _away(err: psycopg.Error) -> Refused:
    log.warning("pairing throttle: database error: %s", err)
    return Refused(503, "database_away", _("the league's database is not reachable; try again shortly"))


async def take(pool: AsyncConnectionPool, limits: PairingLimits, address: str) -> bool:
    """A token from `address`'s bucket and the hub-wide one, both or neither: False if either
    has none left (the guess is refused with 429 before the code is looked at)."""
    kinds, keys, steps, bursts = limits.buckets(address)
    try:
        async with pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT throttle_take(%s::text[], %s::text[], %s::float8[], %s::float8[])",
                [kinds, keys, steps, bursts],
            )
            row = await cursor.fetchone()
    except psycopg.OperationalError:
        raise  # the errors middleware: 503 database_away, as for every route
    except psycopg.Error as err:  # a table or function missing, a broken schema: still no 500
        raise _away(err) from None
    return row is not None and row[0] == 0


async def give_back(pool: AsyncConnectionPool, limits: PairingLimits, address: str) -> None:
    """The tokens of a guess that was right. Best effort: a database that fails now costs the
    address one token, nothing more."""
    kinds, keys, steps, _bursts = limits.buckets(address)
    try:
        async with pool.connection() as conn:
            await conn.execute(
                "SELECT throttle_give(%s::text[], %s::text[], %s::float8[])", [kinds, keys, steps]
            )
    except Exception as err:
        log.warning("pairing throttle: a token not given back: %s", err)


async def sweep(conn: psycopg.AsyncConnection) -> None:
    """Buckets that are full again are the same as none: deleted (a flood of addresses leaves
    at most a minute's worth of rows, and only those whose guesses the hub-wide bucket let
    through)."""
    await conn.execute("DELETE FROM throttles WHERE full_at <= now()")
