"""The hub's every route against hostile input (against the real PostgreSQL): what a stranger
can put in a path, a query or a body, what an admin's or a kiosk's garbled body holds, gets a
4xx answer with its reason, never a 500, and writes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random

import aiohttp
import pytest
from aiohttp import web

from hub import admin
from hub import web as web_module
from hub.cluster import free_port
from kiosk.league import signing
from tests import league_games as games
from tests.ui.test_handheld_limits import closed_by_server, idle
from tests.waits import PATIENCE

from .conftest import Hub
from .test_hub import _kiosk

# What a stranger types into an address: NUL, a lone surrogate's bytes, bytes that are not
# UTF-8, numbers too large for any column, control characters, a very long part.
HOSTILE_PARTS = [
    "%00",
    "a%00b",
    "%ED%A0%80",
    "%FF%FE",
    "99999999999999999999999",
    "-1",
    "1e3",
    "%0A%0D",
    "x" * 3000,
]

# Bodies no route takes: not JSON as the hub reads it (nesting a parser cannot follow, NaN, a
# number of 40 digits, bytes that are not UTF-8, a lone surrogate) or a name PostgreSQL cannot
# keep (NUL) or that is no text.
BAD_FOR_EVERY_ROUTE = [
    b"[" * 5000 + b"]" * 5000,
    b'{"name": "L", "points_win": NaN, "code": "x"}',
    b'{"name": "L", "points_win": 9999999999999999999999999999999999999999, "code": "x"}',
    b'{"name": "\xff\xfe", "code": "x"}',
    b'{"name": "L\\ud800x", "code": "x"}',
    b'{"name": "L\\u0000x", "code": "x", "starts": "2027-01-01"}',
    b'{"name": ["L"], "code": "x", "starts": "2027-01-01"}',
]
BAD_FOR_LEAGUES = [
    b'{"name": "L", "points_win": "three"}',
    b'{"name": "L", "points_win": [1]}',
    b'{"name": "L", "points_loss": 1.5}',
    b'{"name": "L", "points_win": 9999999999}',  # more than a PostgreSQL integer holds
]
BAD_FOR_SEASONS = [b'{"name": "S", "starts": "2027-01-01\\u0000"}', b'{"name": "S", "starts": true}']


async def _answer(session: aiohttp.ClientSession, method: str, url: str, **kw) -> tuple[int, str]:
    async with session.request(method, url, **kw) as answer:
        return answer.status, await answer.text()


def _refused_with_reason(status: int, text: str) -> bool:
    if not 400 <= status < 500:
        return False
    try:
        return bool(json.loads(text)["error"])
    except (ValueError, KeyError):
        return False


async def test_hostile_paths_and_queries_are_answered_never_a_500(hub: Hub):
    routes = []
    for part in HOSTILE_PARTS:
        for prefix in ("", "/api"):
            routes += [
                f"{prefix}/leagues/{part}",
                f"{prefix}/leagues/{hub.league}?season={part}",
                f"{prefix}/leagues/{hub.league}/ratings/{part}",
                f"{prefix}/leagues/{hub.league}/daily?date={part}",
                f"{prefix}/leagues/{hub.league}/players/{part}",
                f"{prefix}/venues/{part}",
            ]
        routes += [f"/?lang={part}", f"/api/admin/venues/{part}/codes", f"/api/admin/kiosks/{part}/revoke"]
    failed = []
    async with aiohttp.ClientSession() as session:
        for route in routes:
            method = "POST" if "/admin/" in route else "GET"
            status, text = await _answer(session, method, hub.url + route)
            unexplained = route.startswith("/api") and not _refused_with_reason(status, text)
            if status >= 500 or (status >= 400 and unexplained):
                failed.append((route[:70], status))
    assert failed == []


async def _counts(hub: Hub) -> list[int]:
    async with hub.pool.connection() as conn:
        return [
            (await (await conn.execute(f"SELECT count(*) FROM {table}")).fetchone())[0]
            for table in ("leagues", "seasons", "venues", "kiosks")
        ]


@pytest.mark.parametrize(
    ("path", "bodies"),
    [
        ("/api/admin/leagues", BAD_FOR_EVERY_ROUTE + BAD_FOR_LEAGUES),
        ("/api/admin/leagues/{league}/venues", BAD_FOR_EVERY_ROUTE),
        ("/api/admin/leagues/{league}/seasons", BAD_FOR_EVERY_ROUTE + BAD_FOR_SEASONS),
        ("/api/pair", BAD_FOR_EVERY_ROUTE),
    ],
)
async def test_garbled_admin_and_pairing_bodies_are_refused_and_change_nothing(
    hub: Hub, path: str, bodies: list[bytes]
):
    async with hub.pool.connection() as conn:
        token = await admin.create_token(conn, "t")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    before = await _counts(hub)
    failed = []
    async with aiohttp.ClientSession() as session:
        for body in bodies:
            url = hub.url + path.format(league=hub.league)
            status, text = await _answer(session, "POST", url, data=body, headers=headers)
            if not _refused_with_reason(status, text):
                failed.append((body[:50], status, text[:80]))
    assert failed == []
    assert await _counts(hub) == before


async def test_a_kiosk_s_hostile_reports_are_refused_and_nothing_is_written(hub: Hub, tmp_path):
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["Ann", "Bo"], ["Cy"]], random.Random(12))
    report = json.loads(store.db.execute("SELECT report FROM outbox").fetchone()[0])
    text = json.dumps(report)
    nul, surrogate = json.loads(text), json.loads(text)
    nul["results"][0]["player"] = "A\u0000nn"
    surrogate["uuid"] = "\ud800"
    bodies = [
        json.dumps(nul).encode(),
        json.dumps(surrogate).encode(),
        text.replace("Ann", "A\\u0000nn").encode(),  # in the log too: the replay agrees
        text.replace('"log": [', '"log": [' + "[" * 3000 + "]" * 3000 + ",", 1).encode(),
        text.replace('"version": 1', '"version": NaN', 1).encode(),
        text.replace(f'"venue": {report["venue"]}', '"venue": ' + "9" * 40, 1).encode(),
    ]
    assert len(set(bodies)) == len(bodies) and text.encode() not in bodies
    failed = []
    async with aiohttp.ClientSession() as session:
        for body in bodies:
            headers = signing.signed_headers(sync.member.kiosk, sync.member.key, "POST", "/api/games", body)
            url = f"{hub.url}/api/games"
            status, answer = await _answer(session, "POST", url, data=body, headers=headers)
            if not _refused_with_reason(status, answer):
                failed.append((status, answer[:80]))
    assert failed == []
    async with hub.pool.connection() as conn:
        assert (await (await conn.execute("SELECT count(*) FROM games")).fetchone())[0] == 0


async def test_a_body_that_trickles_in_gets_408_and_a_kiosk_at_once_is_served(hub: Hub, monkeypatch):
    monkeypatch.setattr(web_module, "BODY_SECONDS", 0.3)
    for path in ("/api/pair", "/api/games", "/api/admin/leagues"):
        reader, writer = await asyncio.open_connection("127.0.0.1", int(hub.url.rsplit(":", 1)[1]))
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\n"
            'Content-Length: 100\r\n\r\n{"code'.encode()
        )
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 10)  # a bound, not a timing test
        writer.close()
        assert status.split()[1] == b"408", (path, status)
    async with aiohttp.ClientSession() as session:
        status, text = await _answer(session, "POST", f"{hub.url}/api/pair", json={"code": await hub.code()})
    assert status == 201, text


async def test_headers_that_trickle_in_are_cut_off(hub: Hub, monkeypatch):
    monkeypatch.setattr(web_module, "HEADER_SECONDS", 0.5)
    runner = web.AppRunner(web_module.make_app(hub.pool), **web_module.runner_options())
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        reader, writer = await idle(port)
        for _ in range(5):  # a byte now and then keeps no connection open for ever
            await asyncio.sleep(0.2)
            with contextlib.suppress(ConnectionError):
                writer.write(b"X")
        assert await closed_by_server(reader, within=PATIENCE)
        writer.close()
        async with aiohttp.ClientSession() as session:
            assert (await _answer(session, "GET", f"http://127.0.0.1:{port}/api/leagues"))[0] == 200
    finally:
        await runner.cleanup()


async def test_a_kiosk_s_uploads_are_limited_and_a_stranger_cannot_use_up_its_allowance(hub: Hub, tmp_path):
    _store, sync = await _kiosk(hub, tmp_path, "a")
    _other_store, other = await _kiosk(hub, tmp_path, "b")
    url = f"{hub.url}/api/games"
    async with aiohttp.ClientSession() as session:

        async def upload(member, key: str | None = None) -> int:
            headers = signing.signed_headers(member.kiosk, key or member.key, "POST", "/api/games", b"{}")
            return (await _answer(session, "POST", url, data=b"{}", headers=headers))[0]

        # Forged in kiosk a's name (a wrong key): refused before they count against it.
        assert {await upload(sync.member, signing.new_key()) for _ in range(100)} == {401}
        assert await upload(sync.member) == 422
        statuses = [await upload(sync.member) for _ in range(100)]
        assert statuses.count(422) >= 59 and 429 in statuses  # 60 at once, then 2 a second
        assert await upload(other.member) == 422  # another kiosk is not held up
