"""The phones' tables never make the loop wait for the disk (issue 21, section 5): while one
table's shot waits for its commit, every other phone is answered; the shot's own answer, and
any page of that table, come only once it is stored. A second connection holding the database's
write lock stands for a disk that is slow to say "written" (the real file, the real server)."""

from __future__ import annotations

import asyncio

from kiosk.classic.match import daily_fleet
from kiosk.secret import kiosk_secret
from kiosk.store import Store
from tests.kiosk.test_group_commit import disk_held
from tests.ui.conftest_classic import DAY, classic_phones, device, ok, play_match, settle, water
from tests.waits import PATIENCE, eventually


async def test_a_shot_waiting_for_the_disk_holds_up_no_other_phone(tmp_path):
    async with classic_phones(tmp_path, 2) as ([shooter, honest], classic):
        for phone in (shooter, honest):
            await ok(await phone.post("/api/classic/play/solo", json={"level": "easy"}))
        await settle(classic)
        match = play_match(classic, shooter)
        cell = water(match, 0)[0]
        with disk_held(tmp_path / "dartship.db"):
            firing = asyncio.ensure_future(shooter.post("/api/classic/play/fire", json={"cell": cell}))
            table = classic.rooms.table(device(shooter)).service
            await eventually(lambda: table.committing, "the shot applied, waiting for its commit")
            # Another phone's page: answered now, the disk still held.
            answer = await asyncio.wait_for(honest.get("/api/classic/play"), PATIENCE)
            assert answer.status == 200
            # The shooter's own page (another tab) waits too: it would show a shot not stored.
            own_page = asyncio.ensure_future(shooter.get("/api/classic/play"))
            await asyncio.sleep(0.1)
            assert not firing.done() and not own_page.done()
        fired = await ok(await asyncio.wait_for(firing, PATIENCE))
        page = await ok(await asyncio.wait_for(own_page, PATIENCE))
        for view in (fired["view"], page["view"]):
            assert cell in view["radar"]["miss"]
        await settle(classic)
        store: Store = classic.api.service.store
        game = classic.rooms.table(device(shooter)).service.game
        assert game is not None
        assert cell in {square.code for square in store.games.load(game).radar(0).shots}


async def _held(tmp_path, request, honest) -> dict:
    """`request` sent while the disk is held: no answer until its write is stored, and another
    phone's page answered meanwhile (the loop waits for no disk); its answer once released."""
    with disk_held(tmp_path / "dartship.db"):
        sent = asyncio.ensure_future(request())
        await asyncio.sleep(0.3)
        answer = await asyncio.wait_for(honest.get("/api/classic/play"), PATIENCE)
        assert answer.status == 200
        assert not sent.done()  # it would answer what is not stored
    return await ok(await asyncio.wait_for(sent, PATIENCE))


async def test_a_rooms_writes_wait_for_the_disk_and_hold_up_no_other_phone(tmp_path):
    """Opening and closing a room, a friend joining, Ready, the duel's start and the daily's
    name: each is answered only once stored, and never makes another phone wait."""
    async with classic_phones(tmp_path, 3) as ([owner, friend, honest], classic):
        for phone in (owner, honest):
            await ok(await phone.post("/api/classic/play/solo", json={"level": "easy"}))
        await settle(classic)
        store: Store = classic.api.service.store
        opened = await _held(tmp_path, lambda: owner.post("/api/classic/play/room", json={}), honest)
        token = opened["room"]["link"].rsplit("/", 1)[1]
        assert store.rooms.room_by_token(token) is not None
        joined = await _held(tmp_path, lambda: friend.get(f"/api/classic/r/{token}"), honest)
        assert joined["room"]["role"] == "friend" and store.rooms.room_by_token(token).friend is not None
        await _held(tmp_path, lambda: friend.post(f"/api/classic/r/{token}/ready", json={}), honest)
        assert store.rooms.room_by_token(token).ready
        dueled = await _held(tmp_path, lambda: owner.post("/api/classic/play/duel", json={}), honest)
        assert dueled["view"]["mode"] == "duel"
        game = classic.rooms.table(device(owner)).service.game
        assert game is not None and store.games.load(game).setup.mode.value == "duel"
        await _held(tmp_path, lambda: owner.delete("/api/classic/play/room"), honest)
        assert store.rooms.room_by_token(token) is None
        # The daily challenge's name for the leaderboard, once today's fleet is sunk.
        await ok(await friend.post("/api/classic/daily/start", json={}))
        targets = [s.code for ship in daily_fleet(kiosk_secret(store), DAY).ships for s in ship.cells]
        for cell in targets:
            await ok(await friend.post("/api/classic/daily/fire", json={"cell": cell}))
        await _held(tmp_path, lambda: friend.post("/api/classic/daily/name", json={"name": "Bo"}), honest)
        daily = classic.rooms.daily_table(device(friend)).service.game
        assert daily is not None and store.rooms.daily_name(daily) == "Bo"
