"""Spectators cannot use up the team sockets (issue 13, item 4): 256 spectator WebSockets fill
only their own budget; the team's phone still gets its socket, and the team phone's newest
socket always gets in (its oldest gives way: a reloaded page, a second tab)."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from aiohttp import WSServerHandshakeError

from tests.ui.conftest_handheld import api_client, make_service, new_game
from ui.handheld.hub import CLOSE_REPLACED, SPECTATOR_SOCKETS, TEAM_SOCKETS, Audience


async def test_a_team_socket_is_accepted_with_256_spectators_connected(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with (
        api_client(service) as (client, api),
        # One session holds them all: more than aiohttp's default 100 connections.
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as crowd,
    ):
        watch = client.make_url("/api/game/ws")
        spectators = await asyncio.gather(*(crowd.ws_connect(watch) for _ in range(SPECTATOR_SOCKETS)))
        assert SPECTATOR_SOCKETS >= 256 and api.hub.count(Audience.SPECTATOR) == SPECTATOR_SOCKETS
        with pytest.raises(WSServerHandshakeError) as busy:
            await crowd.ws_connect(watch)
        assert busy.value.status == 503
        assert (await client.get(f"/api/team/{api.tokens.teams[0]}")).status == 200  # holds it
        team = await client.ws_connect(f"/api/team/{api.tokens.teams[0]}/ws")
        first = json.loads((await team.receive(timeout=5)).data)
        assert first["type"] == "view" and first["view"]["you"] == 0
        await team.close()
        await asyncio.gather(*(s.close() for s in spectators))


async def test_a_team_phones_newest_socket_replaces_its_oldest(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (client, api):
        assert (await client.get(f"/api/team/{api.tokens.teams[1]}")).status == 200  # holds it
        path = f"/api/team/{api.tokens.teams[1]}/ws"
        phones = [await client.ws_connect(path) for _ in range(TEAM_SOCKETS)]
        for phone in phones:
            await phone.receive(timeout=5)  # the first view
        newest = await client.ws_connect(path)
        assert json.loads((await newest.receive(timeout=5)).data)["type"] == "view"
        await phones[0].receive(timeout=5)  # the close frame
        assert phones[0].close_code == CLOSE_REPLACED
        assert api.hub.count(Audience.TEAM_1) == TEAM_SOCKETS
        for phone in [*phones[1:], newest]:
            await phone.close()
