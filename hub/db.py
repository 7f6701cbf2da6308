"""The hub's PostgreSQL: one async pool (psycopg 3), and the numbered migrations.

Migrations are the files `hub/migrations/NNN_name.sql`, applied in order at start, each in its
own transaction with its number written to `schema_migrations`. Several hub processes may
start at once on one database: an advisory lock lets one migrate while the others wait.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import psycopg
from psycopg_pool import AsyncConnectionPool

log = logging.getLogger("dartship.hub")

MIGRATIONS = Path(__file__).with_name("migrations")
_LOCK = 0x64617274  # "dart": the advisory lock migrations hold


def migrations() -> list[tuple[int, Path]]:
    found = []
    for path in sorted(MIGRATIONS.glob("*.sql")):
        match = re.match(r"(\d+)_", path.name)
        if match:
            found.append((int(match.group(1)), path))
    return found


async def migrate(conn: psycopg.AsyncConnection) -> list[int]:
    """Apply the migrations this database lacks; the numbers applied."""
    applied = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK])
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version integer "
            "PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())"
        )
        cursor = await conn.execute("SELECT version FROM schema_migrations")
        done = {row[0] for row in await cursor.fetchall()}
        newest = max((n for n, _p in migrations()), default=0)
        if done and max(done) > newest:
            raise RuntimeError(
                f"the database was migrated by a newer hub (version {max(done)}, "
                f"this one knows {newest}); it was left untouched"
            )
        for number, path in migrations():
            if number in done:
                continue
            await conn.execute(path.read_text(encoding="utf-8"))
            await conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", [number])
            applied.append(number)
    for number in applied:
        log.info("database migrated to version %s", number)
    return applied


async def open_pool(url: str, size: int = 10, *, wait: float = 10, least: int = 2) -> AsyncConnectionPool:
    """A pool on `url` of `least` to `size` connections, the schema brought up to date first,
    that gives up waiting for a free connection after `wait` seconds. Connections that a
    restarted PostgreSQL broke are checked before use and replaced."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await migrate(conn)
    pool = AsyncConnectionPool(
        url,
        min_size=least,
        max_size=size,
        open=False,
        check=AsyncConnectionPool.check_connection,
        timeout=wait,
        kwargs={"autocommit": True},
    )
    await pool.open(wait=True, timeout=30)
    return pool
