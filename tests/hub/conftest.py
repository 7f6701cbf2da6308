"""A real PostgreSQL for the hub's tests: one throwaway cluster per session (initdb + pg_ctl in
a temp folder), a fresh database per test, and a hub serving on a free loopback port."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import psycopg
import pytest
from aiohttp import web
from psycopg_pool import AsyncConnectionPool

from hub import admin, db
from hub.cluster import Cluster, ClusterError, free_port
from hub.web import make_app

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    try:
        found = Cluster(fsync=False)
        found.start()
    except (ClusterError, OSError) as err:
        pytest.skip(
            f"no PostgreSQL for the hub's tests: {err} (./run-tests installs Debian's "
            "postgresql package as root)"
        )
    yield found
    found.remove()


@pytest.fixture
def database(cluster: Cluster) -> str:
    """A new, empty database on the cluster; its URL."""
    name = f"test_{next(_numbers)}"
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return cluster.url.rsplit("/", 1)[0] + f"/{name}"


@dataclass
class Hub:
    url: str  # http://127.0.0.1:PORT
    pool: AsyncConnectionPool
    league: int
    venue: int
    other_venue: int

    async def code(self, venue: int | None = None) -> str:
        async with self.pool.connection() as conn:
            return await admin.pairing_code(conn, venue or self.venue)


@pytest.fixture
async def hub(database: str) -> AsyncIterator[Hub]:
    """A hub on a fresh database, with a league of two venues."""
    pool = await db.open_pool(database, 4)
    async with pool.connection() as conn:
        league = await admin.create_league(conn, "Test league")
        venue = await admin.create_venue(conn, league, "The Anchor")
        other = await admin.create_venue(conn, league, "The Crown")
    runner = web.AppRunner(make_app(pool))
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    yield Hub(f"http://127.0.0.1:{port}", pool, league, venue, other)
    await runner.cleanup()
    await pool.close()
