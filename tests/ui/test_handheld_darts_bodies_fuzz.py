"""The dart game's phone routes and the host's desk under hostile bodies, as the classic ones
are in tests/ui/test_handheld_bodies_fuzz.py: a huge number, a lone surrogate, a 0xff byte,
NaN, deep nesting, the wrong types and shapes, forms that are not forms (a multipart without
its boundary, bytes that are not UTF-8, a NUL). Each gets an answer below 500 in valid UTF-8,
a refusal (4xx) says why and changes nothing; only an answer that took the command (2xx, the
desk's 303) may change the game."""

from __future__ import annotations

import json
import random

from aiohttp.test_utils import TestClient

from hardware.simulator import SimulatedBoard
from tests.ui.conftest_handheld import FLEET_A, FLEET_B, fleet, fleet_json, make_service, new_game, place
from tests.ui.test_handheld_host import _desk_client

PHONE_ROUTES: dict[str, object] = {
    "fleet": fleet_json(FLEET_B),
    "random": {},
    "closer": {"team": 0},
    "next": {"visit": 0},
}
DESK_ROUTES: dict[str, dict[str, str]] = {
    "next": {"confirm": "1"},
    "visit": {"visit": "0"},
    "undo": {},
    "correct": {"cell": "T20"},
    "closer": {"team": "0"},
    "throw": {"cell": "S5"},
    "virtual": {"cell": ""},
    "move": {"team": "1"},
}


def _hostile_json(body: object, rng: random.Random) -> bytes:
    body = dict(body) if isinstance(body, dict) else {}
    key = rng.choice(list(body) or ["visit"])
    how = rng.randrange(7)
    if how == 0:
        return (
            json.dumps(body)[:-1] + (", " if body else "") + '"n": ' + "7" * rng.choice((31, 5000)) + "}"
        ).encode()
    if how == 1:
        body[key] = "\ud800x"
        return json.dumps(body).encode()
    if how == 2:
        return b'{"\xff' + json.dumps(body).encode()[1:]
    if how == 3:
        depth = rng.choice((40, 2000))
        return ('{"' + key + '": ' + "[" * depth + "]" * depth + "}").encode()
    if how == 4:
        return (json.dumps(body)[:-1] + (", " if body else "") + '"x": NaN}').encode()
    if how == 5:
        return rng.choice((b"[]", b"17", b'"B7"', b"null", b"{", b"\x00"))
    body[key] = rng.choice([17, -1, 2.5, True, [], {}, [["A1"]], 10**25, "x\u0000"])
    return json.dumps(body).encode()


def _hostile_form(form: dict[str, str], rng: random.Random) -> tuple[bytes, str]:
    how = rng.randrange(6)
    key = rng.choice(list(form) or ["cell"])
    if how == 0:
        return b"cell=%FF%FE&team=%C0", "application/x-www-form-urlencoded"
    if how == 1:
        return b"--x\r\nContent-Disposition: form-data\r\n\r\n1\r\n", "multipart/form-data"
    if how == 2:
        return b"--x\r\nbroken", "multipart/form-data; boundary=x"
    if how == 3:
        return f"{key}=".encode() + rng.choice([b"%00", b"%ED%A0%80", b"9" * 3000, b"-1", b"1e9"]), (
            "application/x-www-form-urlencoded"
        )
    if how == 4:
        return rng.randbytes(rng.randrange(1, 300)), rng.choice(
            ["application/x-www-form-urlencoded", "multipart/form-data; boundary=zz", "text/plain"]
        )
    return json.dumps(form).encode(), "application/json"


async def test_hostile_bodies_on_the_dart_game_s_phone_routes_and_the_desk(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    place(service, 0, fleet(FLEET_A))
    thrower = SimulatedBoard(service.handle_input, rng=random.Random(4))
    client, api, desk = await _desk_client(service, thrower)
    other = TestClient(client.server)
    await other.start_server()
    try:
        phones = {0: client, 1: other}
        for team, phone in phones.items():
            assert (await phone.get(f"/api/team/{api.tokens.teams[team]}")).status == 200
        rng = random.Random("darts bodies")
        statuses: set[int] = set()
        for _n in range(400):
            before = list(service.match.log) if service.match else None
            if rng.random() < 0.5:
                team = rng.randrange(2)
                route = rng.choice(list(PHONE_ROUTES))
                url = f"/api/team/{api.tokens.teams[team]}/{route}"
                body, kind = _hostile_json(PHONE_ROUTES[route], rng), "application/json"
                phone = phones[team]
            else:
                route = rng.choice(list(DESK_ROUTES))
                url = f"{desk.path()}/{route}"
                body, kind = _hostile_form(DESK_ROUTES[route], rng)
                phone = client
            answer = await phone.post(url, data=body, headers={"Content-Type": kind}, allow_redirects=False)
            text = (await answer.read()).decode("utf-8")  # strict: valid UTF-8 or this fails
            statuses.add(answer.status)
            assert answer.status < 500, (url, body[:80], answer.status, text[:300])
            if 400 <= answer.status < 500:
                if url.startswith("/api/"):
                    assert json.loads(text)["error"], text
                after = list(service.match.log) if service.match else None
                assert after == before, (url, body[:80], answer.status)
        assert {400, 303} <= statuses
    finally:
        await other.close()
        await client.close()
