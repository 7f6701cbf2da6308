"""The phones' tables never make the loop wait for the disk (issue 21, section 5): while one
table's shot waits for its commit, every other phone is answered; the shot's own answer, and
any page of that table, come only once it is stored. A second connection holding the database's
write lock stands for a disk that is slow to say "written" (the real file, the real server)."""

from __future__ import annotations

import asyncio

from kiosk.store import Store
from tests.kiosk.test_group_commit import disk_held
from tests.ui.conftest_classic import classic_phones, device, ok, play_match, settle, water


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
            for _ in range(1000):  # until the shot is applied and waits for its commit
                if table.committing:
                    break
                await asyncio.sleep(0.005)
            assert table.committing
            # Another phone's page: answered now, the disk still held.
            answer = await asyncio.wait_for(honest.get("/api/classic/play"), 2)
            assert answer.status == 200
            # The shooter's own page (another tab) waits too: it would show a shot not stored.
            own_page = asyncio.ensure_future(shooter.get("/api/classic/play"))
            await asyncio.sleep(0.1)
            assert not firing.done() and not own_page.done()
        fired = await ok(await asyncio.wait_for(firing, 5))
        page = await ok(await asyncio.wait_for(own_page, 5))
        for view in (fired["view"], page["view"]):
            assert cell in view["radar"]["miss"]
        await settle(classic)
        store: Store = classic.api.service.store
        game = classic.rooms.table(device(shooter)).service.game
        assert game is not None
        assert cell in {square.code for square in store.games.load(game).radar(0).shots}
