"""The kiosk's Stats screen shows its league: a real hub (its own process) on a real
PostgreSQL, two kiosks' games sent by the real sync task, the boards fetched and shown with
their age, and still shown, older, once the hub is away."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from kiosk.app.league import LeagueSync, pair
from kiosk.league import membership as members
from kiosk.store import Store
from tests import league_games as games
from tests.ui.test_touch_game import labels_text
from tests.waits import PATIENCE


async def _league(database: str) -> tuple[str, str]:
    from hub import admin, db

    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        await db.migrate(conn)
        league = await admin.create_league(conn, "Harbour League")
        anchor = await admin.create_venue(conn, league, "The Anchor")
        crown = await admin.create_venue(conn, league, "The Crown")
        return await admin.pairing_code(conn, anchor), await admin.pairing_code(conn, crown)


def _hub(database: str, port: int) -> subprocess.Popen[bytes]:
    from hub.cluster import tied

    process = subprocess.Popen(
        tied([sys.executable, "-m", "kiosk.app.cli", "hub", "--database", database, "--port", str(port)]),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    pytest.fail(f"the hub did not answer /healthz within {PATIENCE:g} s (exit status {process.poll()})")


def test_the_stats_screen_shows_the_league_table_and_daily_board(
    tour, database, tmp_path, artefacts: Path
) -> None:
    from hub.cluster import free_port

    tour.at("home")
    anchor_code, crown_code = asyncio.run(_league(database))
    port = free_port()
    hub = _hub(database, port)
    url = f"http://127.0.0.1:{port}"
    kiosk = tour.kiosk
    try:
        member = tour.loop.run_until_complete(pair(url, anchor_code, "anchor"))
        kiosk.store.meta.remember(members.MEMBERSHIP, member.to_json())
        kiosk.config.save({"league.hub": url})
        mine = LeagueSync(kiosk.store, member)
        crown_store = Store(tmp_path / "crown.db")
        crown = LeagueSync(crown_store, tour.loop.run_until_complete(pair(url, crown_code, "c")))
        rng = random.Random(11)
        # A game against the computer only: not in the table, which says why it is empty.
        games.play_classic(kiosk.store, ["Ann"], rng)

        async def empty() -> bool:
            import aiohttp

            async with aiohttp.ClientSession() as session:
                await mine.flush(session)
                return await mine.refresh(session)

        assert tour.loop.run_until_complete(empty())
        tour.app.go("stats")
        tour.screen().refresh()
        tour.screen().choose("league")
        tour.save(artefacts / "stats_league_empty.png")
        assert "no games between people yet" in labels_text(tour.root)
        tour.app.go("home")
        games.play_darts(kiosk.store, [["Ann", "Bo"], ["Cy"]], rng, winner=0)
        games.play_classic(crown_store, ["Dee", "Ann"], rng, winner=0)

        async def sync() -> bool:
            import aiohttp

            async with aiohttp.ClientSession() as session:
                await mine.flush(session)
                await crown.flush(session)
                return await mine.refresh(session)

        assert tour.loop.run_until_complete(sync())
        # The league's daily challenge, on the league's fleet of the day (its seed came with
        # the boards).
        today = datetime.now().date()
        seed = members.daily_seed(kiosk.store.meta, today)
        games.play_classic(kiosk.store, ["Ann"], rng, daily=today, seed=seed)
        games.play_classic(crown_store, ["Dee"], rng, daily=today, seed=seed)
        assert tour.loop.run_until_complete(sync())
        tour.app.go("stats")
        stats = tour.screen()
        stats.refresh()
        stats.choose("league")
        tour.save(artefacts / "stats_league.png")
        text = labels_text(tour.root)
        assert "Harbour League" in text and "updated just now" in text
        assert all(name in text for name in ("Ann", "Bo", "Cy", "Dee", "The Crown"))

        hub.kill()
        hub.wait()
        assert not tour.loop.run_until_complete(sync())  # the hub is away: the boards stay
        stats.league.fill(kiosk.store, datetime.now(UTC) + timedelta(hours=3))
        tour.save(artefacts / "stats_league_stale.png")
        text = labels_text(tour.root)
        assert "updated 3 h ago" in text and "Dee" in text
    finally:
        hub.kill()
        kiosk.store.outbox = None
        # Out of the league again: the tour's other walks play the kiosk's own daily board.
        kiosk.store.meta.remember(members.BOARDS, "{}")
        kiosk.store.meta.remember(members.MEMBERSHIP, "{}")
        kiosk.config.save({"league.hub": ""})
        tour.app.go("home")
