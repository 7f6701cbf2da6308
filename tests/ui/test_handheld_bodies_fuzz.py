"""Every JSON body the classic phone API parses, under the line protocols' hostile inputs: a huge
number, a lone surrogate (escaped or raw), a 0xff byte, NaN, deep nesting, the wrong types. Each
gets one JSON error (4xx, never 500), its answer is valid UTF-8, and nothing changes."""

from __future__ import annotations

import json
import random

from tests.ui.conftest_classic import classic_phones, ok, play_match, settle, water

FLEET = ["A1-A5", "C3-F3", "H2-H4", "J7-J9", "E9-F9"]
# Each route that reads a body, with a body it would take; the fuzzer breaks what it reads.
ROUTES: dict[str, dict[str, object]] = {
    "/api/classic/play/solo": {"level": "easy", "name": "Ann"},
    "/api/classic/play/fire": {"cell": "B7"},
    "/api/classic/play/fleet": {"ships": FLEET},
    "/api/classic/play/duel": {"name": "Ann"},
    "/api/classic/daily/start": {"name": "Ann"},
    "/api/classic/daily/fire": {"cell": "B7"},
    "/api/classic/daily/name": {"name": "Ann"},
}


def _hostile(route: str, rng: random.Random) -> bytes:
    body = dict(ROUTES[route])
    key = rng.choice(list(body))
    how = rng.randrange(7)
    if how == 0:
        return (json.dumps(body)[:-1] + ', "n": ' + "7" * rng.choice((31, 5000)) + "}").encode()
    if how == 1:
        body[key] = "\ud800x"
        return json.dumps(body).encode()
    if how == 2:
        return json.dumps(body).encode().replace(b'"', b'"\xff', 2)[:-1] + b"}"
    if how == 3:
        depth = rng.choice((40, 2000))
        return ('{"cell": ' + "[" * depth + "]" * depth + "}").encode()
    if how == 4:
        return (json.dumps(body)[:-1] + ', "x": NaN}').encode()
    if how == 5:
        return rng.choice((b"[]", b"17", b'"B7"', b"null", b"{"))
    body[key] = rng.choice([17, 2.5, True, [], {}, [["A1"]], 10**25])
    return json.dumps(body).encode()


async def test_hostile_bodies_get_one_json_error_and_change_nothing(tmp_path):
    async with classic_phones(tmp_path, 1) as ([phone], classic):
        await ok(await phone.post("/api/classic/play/solo", json={"level": "easy"}))
        match = play_match(classic, phone)
        await ok(await phone.post("/api/classic/play/fire", json={"cell": water(match, 0)[0]}))
        await ok(await phone.post("/api/classic/daily/start", json={}))
        await settle(classic)  # the computer's answer to that miss is in before we look
        before = [await ok(await phone.get(p)) for p in ("/api/classic/play", "/api/classic/daily")]
        rng = random.Random("bodies")
        statuses: set[int] = set()
        for _n in range(300):
            route = rng.choice(list(ROUTES))
            body = _hostile(route, rng)
            answer = await phone.post(route, data=body, headers={"Content-Type": "application/json"})
            raw = await answer.read()
            text = raw.decode("utf-8")  # strict: valid UTF-8 or this fails
            assert 400 <= answer.status < 500, (route, body[:100], answer.status, text)
            assert json.loads(text)["error"], text
            statuses.add(answer.status)
        after = [await ok(await phone.get(p)) for p in ("/api/classic/play", "/api/classic/daily")]
        assert after == before
        assert 400 in statuses
