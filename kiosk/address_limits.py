"""What each network address has used of its limits, kept across restarts (store migration 8).

The phones' limits per address (new games, rooms opened, phones on today's daily challenge:
`ui/handheld/classic/api.py`, docs/decisions.md "Under attack") were counted in memory only, so
a restart of the kiosk gave every address its whole allowance again. Here they are stored:

* `address_buckets`: a leaky bucket per (limit, address): its level and when it was measured
  (wall-clock seconds: the kiosk's monotonic clock starts again at a restart). A bucket untouched
  for a day is full again, which is what no row means: such rows are deleted (`expire`).
* `daily_phones`: the devices (digests) each address has entered into a day's challenge. Only
  today's matter; older days' rows are deleted.

Both stay bounded: a bucket row per limit and address seen within a day, a daily row only for an
entry the limit allowed (at most `per address` a day per address), and at most `tracked` rows of
each per limit (the oldest go). Writes go through the store's writer thread (`Store.group`), so
counting never makes the loop wait for the disk.

**What was answered was counted.** A count made while a request is being answered (`kept`: a
wrong link refused, an address's new game or room, a phone on today's challenge) holds that
answer back until the count is committed (`answering` / `counts_committed`, the phone server's
middleware and its hook before any answer goes out, a socket's too): a kill -9 right after an
answer finds the count in the file, as it finds every answered game. An honest phone pays
nothing for it (only what changes a count writes), and a count shares its group's fsync with
the request's other writes (a new game's, queued in the same moment).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import hmac
import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Protocol

from kiosk.bucket import Bucket

if TYPE_CHECKING:
    import sqlite_utils

    from kiosk.group_commit import GroupCommit


class Kept(Protocol):
    """What the counts need of the store (`kiosk.store.Store`, which builds them, so this
    module never imports it): its database, and its writer thread."""

    db: sqlite_utils.Database

    @property
    def group(self) -> GroupCommit: ...


FULL_AGAIN = 24 * 3600.0  # seconds after which any of the phones' buckets is full again

log = logging.getLogger("dartship.limits")


def address_digest(key: bytes, address: str) -> str:
    """How the stored counts name an address: an HMAC keyed by `key` (derived from the kiosk's
    secret, `derive(kiosk_secret(store), "addresses")`), so the database keeps no phone's
    address and the digests cannot be turned back into addresses by trying them all."""
    return hmac.new(key, address.encode(), hashlib.sha256).hexdigest()[:32]


def recalled(capacity: float, per_second: float, level: float, at: float, now: float, wall: float) -> Bucket:
    """A stored bucket (`level` measured at wall-clock `at`) on this process's monotonic clock
    (`now`; `wall`: the wall clock now): it goes on refilling from where it was measured."""
    return Bucket(capacity, per_second, level, now - max(0.0, wall - at))


def logged(write: concurrent.futures.Future[None]) -> None:
    """A count on its way to the store: a failure is logged (the limit in memory holds)."""

    def done(future: concurrent.futures.Future[None]) -> None:
        if future.exception() is not None:
            log.warning("a count per address was not stored: %s", future.exception())

    write.add_done_callback(done)


# The counts written while the request of this task is answered (None: no request's).
_answer_waits: ContextVar[list[concurrent.futures.Future[None]] | None] = ContextVar(
    "dartship_answer_waits", default=None
)


def kept(write: concurrent.futures.Future[None]) -> None:
    """A count on its way to the store, made while answering a request: the answer waits for
    its commit (`counts_committed`); a failure is logged (the limit in memory holds)."""
    logged(write)
    waiting = _answer_waits.get()
    if waiting is not None:
        waiting.append(write)


def answering() -> None:
    """This task answers a request from now on: the counts it makes are waited for before the
    answer goes out (called by the phone server's middleware, first thing of every request)."""
    _answer_waits.set([])


async def counts_committed() -> None:
    """Wait until every count this request made so far is committed (or failed: logged)."""
    waiting = _answer_waits.get()
    while waiting:
        write = waiting.pop()
        with contextlib.suppress(Exception):
            await asyncio.wrap_future(write)


def migrate(db: sqlite_utils.Database) -> None:
    """The store's migration 8: the per-address counts (empty until phones come)."""
    db.execute("""CREATE TABLE address_buckets (
        name TEXT NOT NULL, address TEXT NOT NULL, level REAL NOT NULL, at REAL NOT NULL,
        PRIMARY KEY (name, address))""")
    db.execute("CREATE INDEX address_buckets_at ON address_buckets (at)")
    db.execute("""CREATE TABLE daily_phones (
        day TEXT NOT NULL, address TEXT NOT NULL, device TEXT NOT NULL, at REAL NOT NULL,
        PRIMARY KEY (day, address, device))""")


class AddressLimits:
    """The store's part for the per-address counts (see the module's docstring)."""

    def __init__(self, store: Kept) -> None:
        self._store = store

    def buckets(self, name: str) -> dict[str, tuple[float, float]]:
        """address -> (level, wall-clock time it was measured) of limit `name`."""
        rows = self._store.db.execute(
            "SELECT address, level, at FROM address_buckets WHERE name=?", [name]
        ).fetchall()
        return {str(r[0]): (float(r[1]), float(r[2])) for r in rows}

    def keep_bucket(
        self, name: str, address: str, level: float, at: float, tracked: int
    ) -> concurrent.futures.Future[None]:
        def write(db: sqlite_utils.Database) -> None:
            db.execute(
                "INSERT OR REPLACE INTO address_buckets (name, address, level, at) VALUES (?, ?, ?, ?)",
                [name, address, level, at],
            )
            db.execute(
                "DELETE FROM address_buckets WHERE name=? AND address NOT IN (SELECT address FROM "
                "address_buckets WHERE name=? ORDER BY at DESC LIMIT ?)",
                [name, name, tracked],
            )

        return self._write(write)

    def daily_phones(self, day: str) -> dict[str, set[str]]:
        """address -> the devices it entered into `day`'s challenge."""
        found: dict[str, set[str]] = {}
        for address, device in self._store.db.execute(
            "SELECT address, device FROM daily_phones WHERE day=?", [day]
        ).fetchall():
            found.setdefault(str(address), set()).add(str(device))
        return found

    def keep_daily_phone(
        self, day: str, address: str, device: str, at: float, tracked: int
    ) -> concurrent.futures.Future[None]:
        def write(db: sqlite_utils.Database) -> None:
            db.execute(
                "INSERT OR IGNORE INTO daily_phones (day, address, device, at) VALUES (?, ?, ?, ?)",
                [day, address, device, at],
            )
            db.execute(
                "DELETE FROM daily_phones WHERE day=? AND rowid NOT IN (SELECT rowid FROM "
                "daily_phones WHERE day=? ORDER BY at DESC LIMIT ?)",
                [day, day, tracked],
            )

        return self._write(write)

    def expire(self, today: str, now: float) -> concurrent.futures.Future[None]:
        """Forget what no longer counts: other days' entries, buckets full again."""

        def write(db: sqlite_utils.Database) -> None:
            db.execute("DELETE FROM daily_phones WHERE day != ?", [today])
            db.execute("DELETE FROM address_buckets WHERE at < ?", [now - FULL_AGAIN])

        return self._write(write)

    def _write(self, write: Callable[[sqlite_utils.Database], None]) -> concurrent.futures.Future[None]:
        return self._store.group.submit(write)
