"""The league's admin over HTTP with a token (made by `dartship hub admin token`), and seasons."""

from __future__ import annotations

import datetime
import random

import aiohttp

from hub import admin
from kiosk.app.league import pair
from tests import league_games as games

from .conftest import Hub
from .test_hub import _flush, _get, _kiosk


async def _call(hub: Hub, path: str, token: str | None, body: dict | None = None) -> tuple[int, dict]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{hub.url}{path}", json=body or {}, headers=headers) as answer,
    ):
        return answer.status, await answer.json()


async def test_admins_with_tokens_make_leagues_venues_codes_and_revoke(hub, tmp_path):
    async with hub.pool.connection() as conn:
        everything = await admin.create_token(conn, "hub operator")
        scoped = await admin.create_token(conn, "Test league's admin", hub.league)
    assert (await _call(hub, "/api/admin/leagues", None, {"name": "X"}))[0] == 401
    assert (await _call(hub, "/api/admin/leagues", "wrong", {"name": "X"}))[0] == 401
    assert (await _call(hub, "/api/admin/leagues", scoped, {"name": "X"}))[0] == 403
    status, made = await _call(hub, "/api/admin/leagues", everything, {"name": "Other league"})
    assert status == 201
    other = made["league"]
    assert (await _call(hub, "/api/admin/leagues", everything, {"name": "Other league"}))[0] == 400
    assert (await _call(hub, f"/api/admin/leagues/{other}/venues", scoped, {"name": "V"}))[0] == 403
    status, venue = await _call(hub, f"/api/admin/leagues/{hub.league}/venues", scoped, {"name": "The Bell"})
    assert status == 201
    status, code = await _call(hub, f"/api/admin/venues/{venue['venue']}/codes", scoped)
    assert status == 201 and len(code["code"]) == 14
    member = await pair(hub.url, code["code"], "bell")
    assert member.venue == venue["venue"] and member.league_name == "Test league"
    status, _ = await _call(hub, f"/api/admin/kiosks/{member.kiosk}/revoke", scoped)
    assert status == 200
    async with hub.pool.connection() as conn:
        listing = "\n".join(await admin.listing(conn))
    assert "venue" in listing and "The Bell" in listing and "revoked" in listing


async def test_a_new_season_starts_a_new_table(hub, tmp_path):
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(1))
    assert await _flush(sync) == 1
    tomorrow = datetime.date.today() + datetime.timedelta(days=1)
    async with hub.pool.connection() as conn:
        await admin.add_season(conn, hub.league, "Spring", tomorrow)
    now = await _get(f"{hub.url}/api/leagues/{hub.league}")
    assert now["season"] == str(datetime.date.today().year) and len(now["rows"]) == 2
    assert now["seasons"] == [now["season"], "Spring"]
    spring = await _get(f"{hub.url}/api/leagues/{hub.league}?season=Spring")
    assert spring["rows"] == []
