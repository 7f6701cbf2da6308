"""The phone API through aiohttp's test client: placement, re-placement, live views, errors."""

from __future__ import annotations

import json

from aiohttp import WSMsgType

from kiosk.board import board_for
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Phase
from kiosk.inputs import DartInput
from kiosk.scatter import Skill
from tests.ui.conftest_handheld import (
    FLEET_A,
    FLEET_B,
    api_client,
    api_phones,
    disk_full,
    fleet,
    fleet_json,
    make_service,
    new_game,
    place,
    settings,
)
from tests.waits import PATIENCE


def token(api, team: int) -> str:
    assert api.tokens is not None
    return api.tokens.teams[team]


async def test_team_state_shows_own_empty_fleet_before_placing(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (client, api):
        response = await client.get(f"/api/team/{token(api, 0)}")
        assert response.status == 200
        view = (await response.json())["view"]
        assert view["you"] == 0
        assert view["fleet"] == []
        assert view["state"]["phase"] == "placing"
        assert view["teams"][0]["name"] == "Sharks"
        assert response.headers["Cache-Control"] == "no-store"


async def test_place_then_replace_until_both_locked_in(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (client, api):
        first = await client.post(f"/api/team/{token(api, 0)}/fleet", json=fleet_json(FLEET_B))
        assert first.status == 200
        assert service.match.state().placed == (True, False)
        again = await client.post(f"/api/team/{token(api, 0)}/fleet", json=fleet_json(FLEET_A))
        assert again.status == 200
        assert service.match.fleet(0) == fleet(FLEET_A)
        view = (await again.json())["view"]
        assert sorted(map(tuple, view["fleet"])) == sorted(
            tuple(c.code for c in ship.cells) for ship in fleet(FLEET_A).ships
        )
        # The other team places on the touchscreen: both ways work in one game.
        place(service, 1, fleet(FLEET_B))
        assert service.match.phase is not Phase.PLACING
        late = await client.post(f"/api/team/{token(api, 0)}/fleet", json=fleet_json(FLEET_B))
        assert late.status == 409
        assert (await late.json())["error"] == "game_started"
        assert service.match.fleet(0) == fleet(FLEET_A)


async def test_change_fleet_makes_the_team_not_ready_again(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (client, api):
        await client.post(f"/api/team/{token(api, 0)}/fleet", json=fleet_json(FLEET_A))
        assert service.match.state().placed == (True, False)
        taken = await client.delete(f"/api/team/{token(api, 0)}/fleet")
        assert taken.status == 200
        assert service.match.state().placed == (False, False)
        # The other team locking in now cannot start the game with the old fleet.
        place(service, 1, fleet(FLEET_B))
        assert service.match.phase is Phase.PLACING
        again = await client.post(f"/api/team/{token(api, 0)}/fleet", json=fleet_json(FLEET_B))
        assert again.status == 200 and service.match.phase is not Phase.PLACING
        late = await client.delete(f"/api/team/{token(api, 0)}/fleet")
        assert late.status == 409 and service.match.fleet(0) == fleet(FLEET_B)
        wrong = await client.delete("/api/team/not-a-token/fleet")
        assert wrong.status == 404


async def test_random_fleet_is_a_legal_suggestion_and_places_nothing(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (client, api):
        response = await client.post(f"/api/team/{token(api, 1)}/random")
        assert response.status == 200
        ships = (await response.json())["ships"]
        assert sorted(len(s) for s in ships) == [2, 3, 4, 5]
        assert service.match.state().placed == (False, False)
        placed = await client.post(f"/api/team/{token(api, 1)}/fleet", json={"ships": ships})
        assert placed.status == 200


async def test_board_description_has_every_cell_and_the_real_geometry(tmp_path):
    service = make_service(tmp_path)
    async with api_client(service) as (client, _api):
        for profile in ("four-ring", "three-ring"):
            response = await client.get(f"/api/board/{profile}")
            assert response.status == 200
            body = await response.json()
            assert [c["code"] for c in body["cells"]] == [c.code for c in board_for(profile).cells]
            assert body["radii_mm"]["double_outer"] == 170.0
        merged = next(c for c in body["cells"] if c["code"] == "S20")
        assert len(merged["sectors"]) == 2  # the three-ring merged single is two areas
        assert (await client.get("/api/board/seven-ring")).status == 404


async def test_public_game_view_without_a_game(tmp_path):
    service = make_service(tmp_path)
    async with api_client(service) as (client, _api):
        response = await client.get("/api/game")
        assert (await response.json()) == {"view": None}
        async with client.ws_connect("/api/game/ws") as socket:
            first = json.loads((await socket.receive(timeout=PATIENCE)).data)
            assert first == {"type": "view", "view": None, "events": []}


async def test_both_phones_and_a_spectator_hear_a_dart_live(tmp_path):
    service = make_service(tmp_path, settings(rules__bull_off="off"))
    new_game(service)
    async with api_phones(service) as (phones, api):
        sockets = []
        for team, phone in enumerate(phones):
            # As the page does: the API first (the phone takes the link), then the socket.
            assert (await phone.get(f"/api/team/{token(api, team)}")).status == 200
            sockets.append(await phone.ws_connect(f"/api/team/{token(api, team)}/ws"))
        sockets.append(await phones[0].ws_connect("/api/game/ws"))
        for socket in sockets:
            assert json.loads((await socket.receive(timeout=PATIENCE)).data)["type"] == "view"
        await phones[0].post(f"/api/team/{token(api, 0)}/fleet", json=fleet_json(FLEET_A))
        await phones[1].post(f"/api/team/{token(api, 1)}/fleet", json=fleet_json(FLEET_B))
        assert service.match.state().side == 0
        await drain_all(sockets)
        # Sharks throw first: T7 is a cell of the Jets' 3-ship.
        service.handle_input(DartInput(board_for().parse("T7"), "T7"))
        messages = [await last_view(socket) for socket in sockets]
        for message in messages:
            assert message["events"][0] == {
                "event": "dart",
                "team": 0,
                "player": "Sharks 1",
                "dart": 1,
                "cell": "T7",
                "result": "hit",
            }
            assert message["view"]["shots"][0] == {"T7": "hit"}
        assert messages[1]["view"]["damage"] == ["T7"]
        assert messages[0]["view"]["damage"] == []
        assert "damage" not in messages[2]["view"] and "fleet" not in messages[2]["view"]
        for socket in sockets:
            await socket.close()


async def drain(socket) -> None:
    """Read what is there now (views sent before the interesting one)."""
    while True:
        try:
            await socket.receive(timeout=0.2)
        except TimeoutError:
            return


async def drain_all(sockets) -> None:
    for socket in sockets:
        await drain(socket)


async def last_view(socket) -> dict:
    message = await socket.receive(timeout=5)
    assert message.type is WSMsgType.TEXT
    return json.loads(message.data)


async def test_web_server_contract_links_qr_codes_and_printed_links(tmp_path, capsys):
    from ui.handheld.server import start_web

    config = settings(web__host="127.0.0.1", web__port=0)  # the system picks a free port
    service = make_service(tmp_path, config)
    web = await start_web(service, config, print_links=True)
    try:
        assert web.port > 0 and web.base_url == f"http://127.0.0.1:{web.port}"
        assert web.team_url(0) is None and web.spectator_url() is None
        new_game(service)
        first = web.team_url(0)
        assert first.startswith(f"{web.base_url}/team/") and web.team_url(1) != first
        assert web.team_url(2) is None
        assert web.spectator_url() == f"{web.base_url}/watch"
        printed = capsys.readouterr().out
        assert first in printed and web.team_url(1) in printed and "/watch" in printed
        png = web.qr_png(first, 4)
        assert png.startswith(b"\x89PNG")
        assert b"<svg" in web.qr_svg(first, 4)
        new_game(service, ("Owls", "Cats"))
        assert web.team_url(0) != first
        assert web.team_url(0) in capsys.readouterr().out
    finally:
        await web.stop()


async def test_solo_game_has_no_phone_for_the_kiosk_team(tmp_path):
    from kiosk.darts.match import HouseRules, KioskSeat, Setup, Team

    service = make_service(tmp_path)
    service.new_game(
        DARTS,
        Setup((Team("Sharks", ("Ann",)), Team("Kiosk", ("Kiosk",))), HouseRules(), KioskSeat(1, Skill.PUB)),
    )
    async with api_client(service) as (client, api):
        assert (await client.get(f"/api/team/{token(api, 0)}")).status == 200
        kiosk = await client.get(f"/api/team/{token(api, 1)}")
        assert kiosk.status == 404
        placed = await client.post(f"/api/team/{token(api, 1)}/fleet", json=fleet_json(FLEET_A))
        assert placed.status == 404 and service.match.state().placed[1] is False


async def test_phones_show_a_pause_when_the_kiosk_cannot_save_and_its_end(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (client, api):
        with disk_full(service.store):
            refused = await client.post(f"/api/team/{token(api, 0)}/fleet", json=fleet_json(FLEET_A))
            assert refused.status == 409 and "cannot save" in (await refused.json())["message"]
            view = (await (await client.get(f"/api/team/{token(api, 0)}")).json())["view"]
            assert "disk is full" in view["paused"] and view["fleet"] == []
            public = (await (await client.get("/api/game")).json())["view"]
            assert public["paused"] == view["paused"]
        placed = await client.post(f"/api/team/{token(api, 0)}/fleet", json=fleet_json(FLEET_A))
        assert placed.status == 200 and (await placed.json())["view"]["paused"] is None


async def test_the_favicon_every_browser_asks_for_is_the_pages_icon(tmp_path):
    service = make_service(tmp_path)
    async with api_client(service) as (client, _api):
        response = await client.get("/favicon.ico")
        assert response.status == 200
        assert response.headers["Content-Type"] == "image/svg+xml"
        assert (await response.read()).lstrip().startswith(b"<svg")
