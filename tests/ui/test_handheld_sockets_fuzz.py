"""What a phone sends on its sockets is never read as a command: text of any kind is passed
over, anything else (binary, a frame over the size limit, a close with a strange code) ends
that socket alone. The dart game's spectator and team sockets and the classic phone game's:
the game is unchanged, the server answers the next request, and another socket still gets
its first view."""

from __future__ import annotations

import random

import aiohttp

from tests.ui.conftest_classic import classic_phones, ok
from tests.ui.conftest_handheld import FLEET_A, api_phones, fleet, make_service, new_game, place
from ui.handheld.seats import WS_MAX_MESSAGE

TEXTS = ["", "\x00", "{" * 1000, '{"cmd": "fire", "cell": "A1"}', '{"type": "place"}', "x" * 1000]


async def _attack(phone, path: str, rng: random.Random) -> None:
    async with phone.ws_connect(path) as socket:
        first = await socket.receive(timeout=10)
        assert first.type is aiohttp.WSMsgType.TEXT
        for text in rng.sample(TEXTS, len(TEXTS)):
            await socket.send_str(text)
        ending = rng.randrange(3)
        if ending == 0:
            await socket.send_bytes(rng.randbytes(64))
        elif ending == 1:
            await socket.send_str("y" * (WS_MAX_MESSAGE + 1))
        else:
            await socket.close(code=4999)
            return
        while (await socket.receive(timeout=10)).type not in (
            aiohttp.WSMsgType.CLOSE,
            aiohttp.WSMsgType.CLOSED,
            aiohttp.WSMsgType.CLOSING,
            aiohttp.WSMsgType.ERROR,
        ):
            pass  # views the server sent before it read what ended the socket


async def test_garbage_on_the_dart_game_s_sockets_changes_nothing(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    place(service, 0, fleet(FLEET_A))
    before = list(service.match.log)
    rng = random.Random("sockets")
    async with api_phones(service) as (phones, api):
        token = api.tokens.teams[0]
        assert (await phones[0].get(f"/api/team/{token}")).status == 200
        for _round in range(6):
            await _attack(phones[1], "/api/game/ws", rng)
            await _attack(phones[0], f"/api/team/{token}/ws", rng)
        assert list(service.match.log) == before
        assert (await phones[1].get("/api/game")).status == 200
        async with phones[0].ws_connect(f"/api/team/{token}/ws") as socket:
            assert (await socket.receive(timeout=10)).type is aiohttp.WSMsgType.TEXT


async def test_garbage_on_the_classic_game_s_socket_changes_nothing(tmp_path):
    async with classic_phones(tmp_path, 1) as ([phone], _classic):
        await ok(await phone.post("/api/classic/play/solo", json={"level": "easy"}))
        before = await ok(await phone.get("/api/classic/play"))
        rng = random.Random("classic sockets")
        for _round in range(6):
            await _attack(phone, "/api/classic/play/ws", rng)
        assert await ok(await phone.get("/api/classic/play")) == before
