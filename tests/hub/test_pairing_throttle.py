"""The pairing throttle holds across a restart and across hub processes (hub/throttle.py, in
the tests' real PostgreSQL): hubs here are aiohttp apps serving on loopback, a "restart" is a
new app and pool over the same database, "two processes" are two apps on one database. Guesses
come from addresses of their own (127.0.0.N: a client socket bound to it), so the hub sees
them as different addresses, as it would behind no proxy. The clock is driven by the stored
time (a bucket's `full_at` moved back), never by sleeping; the hubs' in-memory mirror of their
own takes (`throttle.Mirror`) reads a clock the tests move by the same seconds."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import psycopg
from aiohttp import web
from psycopg_pool import AsyncConnectionPool

from hub import admin, db, throttle
from hub.cluster import free_port
from hub.throttle import Allowance, PairingLimits
from hub.web import make_app, runner_options

# Refills so slow that none comes during a test: what a test counts is the allowance alone.
HOUR = 1 / 3600
SLOW = PairingLimits(per_address=Allowance(4, HOUR), in_all=Allowance(10, HOUR))
_codes = random.Random(8)


class Clock:
    """The hubs' mirror clock: it moves when the stored times do (`_time_passes`)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


CLOCK = Clock()


@dataclass
class Served:
    url: str
    pool: AsyncConnectionPool


@contextlib.asynccontextmanager
async def served(
    database: str, limits: PairingLimits | None, pool: AsyncConnectionPool | None = None
) -> AsyncIterator[Served]:
    """One hub process: its own pool (the schema migrated first, as `dartship hub` does) and
    app on a free loopback port."""
    pool = pool or await db.open_pool(database, 4)
    runner = web.AppRunner(make_app(pool, limits, CLOCK), **runner_options())
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield Served(f"http://127.0.0.1:{port}", pool)
    finally:
        await runner.cleanup()
        await pool.close()


def _wrong() -> str:
    return "".join(_codes.choice(admin.CODE_ALPHABET) for _ in range(12))


async def guess(url: str, address: int = 1, code: str | None = None) -> tuple[int, str]:
    """POST /api/pair from 127.0.0.`address`: the status and the answer's `code`."""
    connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{address}", 0))
    async with aiohttp.ClientSession(connector=connector) as session:
        body = json.dumps({"code": code or _wrong(), "name": "k"})
        async with session.post(
            f"{url}/api/pair", data=body, headers={"Content-Type": "application/json"}
        ) as answer:
            found = await answer.json()
            return answer.status, str(found.get("code", "paired"))


async def guesses(url: str, address: int, count: int) -> list[int]:
    return [(await guess(url, address))[0] for _ in range(count)]


async def _league(database: str) -> int:
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        league = await admin.create_league(conn, "Throttled")
        return await admin.create_venue(conn, league, "The Anchor")


async def _code(database: str, venue: int) -> str:
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        return await admin.pairing_code(conn, venue)


async def _time_passes(database: str, seconds: float) -> None:
    """As if `seconds` had passed for every bucket: their stored times moved back."""
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        await conn.execute("UPDATE throttles SET full_at = full_at - make_interval(secs => %s)", [seconds])
    CLOCK.now += seconds


async def _rows(database: str) -> list[tuple[str, str]]:
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        cursor = await conn.execute("SELECT kind, key FROM throttles ORDER BY kind, key")
        return [(str(k), str(key)) for k, key in await cursor.fetchall()]


async def test_a_used_up_allowance_stays_used_up_after_a_restart(database):
    async with served(database, SLOW) as first:
        assert await guesses(first.url, 2, 5) == [403] * 4 + [429]  # the address's 4
        assert await guesses(first.url, 3, 4) == [403] * 4
        assert await guesses(first.url, 4, 3) == [403, 403, 429]  # the hub's 10 are spent
        assert await guess(first.url, 5) == (429, "too_many_codes")
    async with served(database, SLOW) as restarted:  # a new process over the same database
        assert await guess(restarted.url, 2) == (429, "too_many_codes")  # its address's still spent
        assert await guess(restarted.url, 6) == (429, "too_many_codes")  # and the hub's
    async with served(database, None) as defaults:  # `dartship hub`'s own numbers, restarted
        assert await guess(defaults.url, 2) == (429, "too_many_codes")


async def test_two_hubs_on_one_database_share_one_address_allowance(database):
    async with served(database, SLOW) as one, served(database, SLOW) as two:
        sent = [guess(hub.url, 2) for hub in (one, two) for _ in range(12)]
        statuses = Counter(status for status, _code in await asyncio.gather(*sent))
    # 24 guesses at once over two processes: the address's 4 tokens, spent once each.
    assert statuses == {403: 4, 429: 20}


async def test_two_hubs_on_one_database_share_one_hub_wide_allowance(database):
    async with served(database, SLOW) as one, served(database, SLOW) as two:
        # 3 guesses from each of 8 addresses to each hub: none uses up its address (4 of 6
        # would), together they are past the hub's 10.
        sent = [guess(hub.url, address) for address in range(2, 10) for hub in (one, two) for _ in range(3)]
        statuses = Counter(status for status, _code in await asyncio.gather(*sent))
    assert statuses[403] <= SLOW.in_all.capacity and statuses == {403: 10, 429: 38}


async def test_takes_racing_on_sixteen_connections_of_two_pools_spend_each_token_once(database):
    """The statement itself, without HTTP between: 64 takes at once for one address over two
    pools (two processes' worth) of 8 connections each, all waiting on the same rows."""
    pools = [await db.open_pool(database, 8) for _ in range(2)]
    try:
        taken = await asyncio.gather(*(throttle.take(pools[n % 2], SLOW, "192.0.2.7") for n in range(64)))
    finally:
        for pool in pools:
            await pool.close()
    assert taken.count(True) == SLOW.per_address.capacity


async def test_after_the_refill_time_a_guess_is_served_again(database):
    step = SLOW.per_address.step
    async with served(database, SLOW) as first:
        assert await guesses(first.url, 2, 5) == [403] * 4 + [429]
    async with served(database, SLOW) as hub:
        assert await guess(hub.url, 2) == (429, "too_many_codes")
        await _time_passes(database, step * 0.9)  # not yet one token's time
        assert await guess(hub.url, 2) == (429, "too_many_codes")
        await _time_passes(database, step * 0.1)  # now one token's time
        assert await guesses(hub.url, 2, 2) == [403, 429]
        await _time_passes(database, 24 * 3600)  # a day: full, and no fuller than full
        assert await guesses(hub.url, 2, 5) == [403] * 4 + [429]


async def test_a_right_code_spends_nothing_and_a_used_up_address_is_refused_even_a_right_one(database):
    async with served(database, SLOW) as hub:
        venue = await _league(database)
        for _ in range(6):  # more right codes than the address's allowance: all paired
            assert await guess(hub.url, 2, await _code(database, venue)) == (201, "paired")
        assert await guesses(hub.url, 2, 5) == [403] * 4 + [429]
        assert await guess(hub.url, 2, await _code(database, venue)) == (429, "too_many_codes")
        assert await guess(hub.url, 3, await _code(database, venue)) == (201, "paired")


async def test_full_buckets_are_swept_and_a_flood_of_addresses_leaves_no_rows(database):
    async with served(database, SLOW) as hub:
        assert (
            await guesses(hub.url, 2, 4) + await guesses(hub.url, 3, 4) + await guesses(hub.url, 4, 2)
            == [403] * 10
        )
        # The hub's allowance is spent: a flood from new addresses is refused and leaves no row.
        assert {(await guess(hub.url, address))[0] for address in range(10, 60)} == {429}
        assert await _rows(database) == [
            ("pair_address", "127.0.0.2"),
            ("pair_address", "127.0.0.3"),
            ("pair_address", "127.0.0.4"),
            ("pair_all", "*"),
        ]
        async with hub.pool.connection() as conn:
            await throttle.sweep(conn)
        assert len(await _rows(database)) == 4  # none full yet: the sweep keeps them
        await _time_passes(database, 4 * SLOW.per_address.step)  # the addresses full again
        async with hub.pool.connection() as conn:
            await throttle.sweep(conn)
        assert await _rows(database) == [("pair_all", "*")]  # the hub's needs 10 steps
        assert await guess(hub.url, 2) == (403, "bad_code")  # its 4 steps gave the hub 4 again


async def test_a_bucket_this_hub_emptied_is_refused_from_memory_without_a_statement(database):
    """Once an address has spent its allowance here, its guesses are 429 without asking the
    database: with the throttle's function gone they are still 429, where an address that has
    tokens left goes to the database (and gets its 503)."""
    async with served(database, SLOW, await _quick_pool(database)) as hub:
        assert await guesses(hub.url, 2, 4) == [403] * 4
        async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
            await conn.execute("ALTER FUNCTION throttle_take RENAME TO throttle_take_gone")
            try:
                assert await guesses(hub.url, 2, 20) == [429] * 20  # the mirror's answer
                assert await guess(hub.url, 3) == (503, "database_away")  # asked the database
            finally:
                await conn.execute("ALTER FUNCTION throttle_take_gone RENAME TO throttle_take")
        await _time_passes(database, SLOW.per_address.step)  # one token's time, in both
        assert await guesses(hub.url, 2, 2) == [403, 429]


async def _quick_pool(database: str) -> AsyncConnectionPool:
    """A pool as `dartship hub` makes, that gives up waiting for a connection after 2 s (10 s
    in `dartship hub`)."""
    return await db.open_pool(database, 2, wait=2, least=1)


async def test_a_bad_database_gets_the_hubs_503_never_a_500(database):
    async with served(database, SLOW, await _quick_pool(database)) as hub:
        async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
            await conn.execute("ALTER TABLE throttles RENAME TO throttles_gone")
            assert await guess(hub.url, 2) == (503, "database_away")  # the schema is broken
            await conn.execute("ALTER TABLE throttles_gone RENAME TO throttles")
        assert await guess(hub.url, 2) == (403, "bad_code")
        async with await psycopg.AsyncConnection.connect(database) as stuck:  # left in a transaction
            await stuck.execute("SELECT * FROM throttles WHERE kind = 'pair_all' FOR UPDATE")
            assert await guess(hub.url, 3) == (503, "database_away")  # after lock_timeout, 2 s
            await stuck.rollback()
        assert await guess(hub.url, 3) == (403, "bad_code")
        name = database.rsplit("/", 1)[1]
        admin_url = database.rsplit("/", 1)[0] + "/postgres"
        async with await psycopg.AsyncConnection.connect(admin_url, autocommit=True) as conn:
            try:  # the database takes no connections, and those the hub had are cut
                await conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
                await conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name]
                )
                status, code = await guess(hub.url, 2)
                assert status == 503 and code in ("database_away", "busy")
            finally:
                await conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
