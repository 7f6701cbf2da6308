"""The classic duel rooms' routes under the hostile bodies of tests/ui/test_handheld_bodies_fuzz.py
(a huge number, a lone surrogate, a 0xff byte, NaN, deep nesting, the wrong types), from the
room's owner and its friend: each gets one JSON error (4xx, never 500) in valid UTF-8, and the
room and its game stay as they were."""

from __future__ import annotations

import json
import random

from tests.ui.conftest_classic import classic_phones, ok
from tests.ui.test_handheld_bodies_fuzz import FLEET, _hostile
from tests.ui.test_handheld_rooms_end import _open

ROOM_ROUTES: dict[str, dict[str, object]] = {
    "ready": {"name": "Bo"},
    "fire": {"cell": "B7"},
    "fleet": {"ships": FLEET},
}


async def test_hostile_bodies_on_a_room_s_routes_change_nothing(tmp_path, monkeypatch):
    from tests.ui import test_handheld_bodies_fuzz as classic_fuzz

    monkeypatch.setattr(
        classic_fuzz,
        "ROUTES",
        {**classic_fuzz.ROUTES, **{f"room/{k}": v for k, v in ROOM_ROUTES.items()}},
    )
    async with classic_phones(tmp_path, 2) as ([owner, friend], _classic):
        await ok(await owner.post("/api/classic/play/solo", json={"level": "easy", "name": "Ann"}))
        status, token = await _open(owner)
        assert status == 200 and token is not None
        paths = (f"/api/classic/r/{token}", "/api/classic/play")
        await ok(await friend.get(paths[0]))
        before = [await ok(await owner.get(p)) for p in paths]
        rng = random.Random("rooms")
        statuses: set[int] = set()
        for _n in range(200):
            route = rng.choice(list(ROOM_ROUTES))
            body = _hostile(f"room/{route}", rng)
            phone = rng.choice((owner, friend))
            answer = await phone.post(
                f"/api/classic/r/{token}/{route}", data=body, headers={"Content-Type": "application/json"}
            )
            text = (await answer.read()).decode("utf-8")
            assert 400 <= answer.status < 500, (route, body[:100], answer.status, text)
            assert json.loads(text)["error"], text
            statuses.add(answer.status)
        assert [await ok(await owner.get(p)) for p in paths] == before
        assert 400 in statuses
