"""Kiosks as they run (built by the one composition root, `build_kiosk`) in a league: the
root starts the sync task of a kiosk that joined, games of every kind played through each
kiosk's service reach the hub by themselves; a kiosk with no [league] section queues nothing."""

from __future__ import annotations

import asyncio
import random

from kiosk.app.league import pair
from kiosk.app.root import build_kiosk
from kiosk.config import ConfigFile
from kiosk.house import Kiosk
from kiosk.league import membership as members
from kiosk.store import Store
from tests import league_games as games

from .conftest import Hub


async def _kiosk(folder, league: dict[str, object]) -> Kiosk:
    config = ConfigFile(
        folder / "config.toml", {"kiosk.database": str(folder / "dartship.db"), "web.port": 0, **league}
    )
    return await build_kiosk(
        config, devices=False, web=False, rng=random.Random(1), instant=True, voice_cache=folder / "voices"
    )


async def _joined(hub: Hub, folder, venue: int) -> Kiosk:
    folder.mkdir()
    member = await pair(hub.url, await hub.code(venue), folder.name)
    store = Store(folder / "dartship.db")
    store.meta.remember(members.MEMBERSHIP, member.to_json())
    store.close()
    return await _kiosk(folder, {"league.hub": hub.url, "league.hold_seconds": 0})


async def _games_at_hub(hub: Hub, count: int, seconds: float = 30) -> int:
    found = 0
    for _ in range(int(seconds * 10)):
        async with hub.pool.connection() as conn:
            found = (await (await conn.execute("SELECT count(*) FROM games")).fetchone())[0]
        if found >= count:
            return found
        await asyncio.sleep(0.1)
    return found


async def test_three_running_kiosks_send_games_of_every_kind(hub, tmp_path):
    kiosks = [
        await _joined(hub, tmp_path / name, venue)
        for name, venue in (("anchor", hub.venue), ("anchor2", hub.venue), ("crown", hub.other_venue))
    ]
    rng = random.Random(8)
    try:
        games.play_darts(kiosks[0].service, [["Ann", "Bo"], ["Cy"]], rng, winner=1)
        games.play_classic(kiosks[1].service, ["Ann", "Dee"], rng, winner=1)
        games.play_express(kiosks[2].service, ["Ann", "Cy", "Dee"], rng)
        assert await _games_at_hub(hub, 3) == 3
        async with hub.pool.connection() as conn:
            rows = await (
                await conn.execute(
                    "SELECT g.kind, v.name, count(*) FROM games g JOIN venues v ON v.id = g.venue "
                    "GROUP BY g.kind, v.name ORDER BY g.kind"
                )
            ).fetchall()
            winners = await (
                await conn.execute(
                    "SELECT g.kind, p.key FROM games g JOIN game_players p ON p.game = g.uuid "
                    "WHERE p.won ORDER BY g.kind"
                )
            ).fetchall()
        assert rows == [("classic", "The Anchor", 1), ("darts", "The Anchor", 1), ("express", "The Crown", 1)]
        assert ("darts", "cy") in winners and ("classic", "dee") in winners
        for kiosk in kiosks:
            assert kiosk.store.outbox is not None
            assert kiosk.store.outbox.counts() == {"pending": 0, "sent": 1, "refused": 0}
    finally:
        for kiosk in kiosks:
            await kiosk.stop()


async def test_a_kiosk_in_no_league_queues_nothing(tmp_path):
    kiosk = await _kiosk(tmp_path, {})
    try:
        games.play_darts(kiosk.service, [["Ann"], ["Cy"]], random.Random(1))
        assert kiosk.store.outbox is None
        assert kiosk.store.db.execute("SELECT count(*) FROM outbox").fetchone()[0] == 0
        assert not [t for t in asyncio.all_tasks() if t.get_name() == "dartship-league"]
    finally:
        await kiosk.stop()
