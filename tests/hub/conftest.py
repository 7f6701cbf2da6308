"""A hub serving on a free loopback port, on a fresh database of the session's real PostgreSQL
(tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp import web
from psycopg_pool import AsyncConnectionPool

from hub import admin, db
from hub.cluster import free_port
from hub.web import make_app, runner_options


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
    runner = web.AppRunner(make_app(pool), **runner_options())
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    yield Hub(f"http://127.0.0.1:{port}", pool, league, venue, other)
    await runner.cleanup()
    await pool.close()
