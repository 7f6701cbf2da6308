"""`dartship hub` killed (SIGKILL) at random moments while a kiosk's outbox sends it games, on
a throwaway PostgreSQL: a game the hub was writing when it died is rolled back with its
transaction (its nonce too), the kiosk sends it again to the restarted hub, and in the end
every game is at the hub exactly once and the outbox holds nothing pending or refused. The
kiosk side is the real outbox and sync task of a store on disk."""

from __future__ import annotations

import asyncio
import random
import time

import aiohttp

from kiosk.app.league import LeagueSync, pair
from kiosk.league import membership as members
from kiosk.league.outbox import PENDING
from kiosk.store import Store
from tests import league_games
from tests.system.league_bars import HubProcess, League

GAMES = 24
KILLS = 6


async def _flush(sync: LeagueSync) -> int:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        return await sync.flush(session)


def test_a_hub_killed_while_it_takes_games_keeps_each_once(database, tmp_path):
    hub = HubProcess(database)
    try:
        league = League(hub, "Kills", ("The Anchor",))
        member = asyncio.run(pair(hub.url, league.code("The Anchor"), "anchor"))
        store = Store(tmp_path / "anchor.db")
        store.meta.remember(members.MEMBERSHIP, member.to_json())
        sync = LeagueSync(store, member, rng=random.Random(1))
        for seed in range(GAMES):
            league_games.play_darts(store, [["Ann"], ["Bo"]], random.Random(seed))
        rng = random.Random(13)
        confirmed = 0
        for _kill in range(KILLS):

            async def killed_meanwhile() -> int:
                sending = asyncio.create_task(_flush(sync))
                await asyncio.sleep(rng.uniform(0.0, 0.3))
                assert hub.proc is not None
                hub.proc.kill()
                hub.proc.wait(timeout=10)
                return await sending

            store.db.execute("UPDATE outbox SET next_try=0")  # no backoff: the test waits for none
            confirmed += asyncio.run(killed_meanwhile())
            hub.start()
            at_hub = [u for u, _kind, _venue in hub.games()]
            assert len(at_hub) == len(set(at_hub))  # never twice
            assert len(at_hub) >= confirmed  # what the kiosk marked sent is at the hub
        deadline = time.monotonic() + 120
        while sync.outbox.counts()[PENDING] and time.monotonic() < deadline:
            store.db.execute("UPDATE outbox SET next_try=0")
            asyncio.run(_flush(sync))
        assert sync.outbox.counts() == {"pending": 0, "sent": GAMES, "refused": 0}
        at_hub = sorted(u for u, _kind, _venue in hub.games())
        assert at_hub == sorted(str(u) for (u,) in store.db.execute("SELECT uuid FROM outbox"))
    finally:
        hub.stop()
