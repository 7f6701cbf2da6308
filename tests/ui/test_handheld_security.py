"""The three security proofs of issue 5, plus static files and the guess throttle."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets

import yarl
from aiohttp import WSServerHandshakeError

from kiosk.board import board_for
from kiosk.darts.match import Phase
from kiosk.inputs import DartInput
from tests.ui.conftest_handheld import (
    FLEET_A,
    FLEET_B,
    OPEN_LIMITS,
    api_client,
    api_phones,
    cells_in,
    fleet,
    fleet_cells,
    fleet_json,
    make_service,
    new_game,
    place,
    settings,
)
from ui.handheld.access_log import redact
from ui.handheld.throttle import Limits
from ui.handheld.tokens import GameTokens

B_CELLS = fleet_cells(FLEET_B)
FAKE_TOKEN = "x" * 22


async def _everything_reachable(client, team_token: str | None) -> str:
    """Every response and WebSocket message one party can get, as one text."""
    texts = []
    paths = ["/", "/watch", "/api/game", f"/team/{FAKE_TOKEN}", f"/api/team/{FAKE_TOKEN}"]
    if team_token:
        paths += [f"/team/{team_token}", f"/api/team/{team_token}"]
    for path in paths:
        response = await client.get(path, allow_redirects=False)
        texts.append(f"{path} {response.status} {dict(response.headers)} {await response.text()}")
    sockets = ["/api/game/ws"] + ([f"/api/team/{team_token}/ws"] if team_token else [])
    for path in sockets:
        async with client.ws_connect(path) as socket:
            texts.append((await socket.receive(timeout=5)).data)
    if team_token:
        # The failed placement answers and the random suggestion are the team's own too.
        response = await client.post(f"/api/team/{team_token}/fleet", json=fleet_json(FLEET_B))
        texts.append(await response.text())
    return "\n".join(texts)


async def _board_and_static(client) -> bytes:
    """The public files: byte for byte the same whatever the fleets (checked by the caller)."""
    bodies = []
    for path in (
        "/api/board/four-ring",
        "/static/app.js",
        "/static/rules.js",
        "/static/board.js",
        "/static/i18n.js",
        "/static/app.css",
        "/static/i18n/en.json",
    ):
        response = await client.get(path)
        assert response.status == 200, path
        bodies.append(await response.read())
    return b"\n".join(bodies)


async def test_no_cell_of_the_enemy_fleet_reaches_team_a_spectators_or_strangers(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    service = make_service(tmp_path, settings(rules__bull_off="off"))
    new_game(service)
    async with api_phones(service) as ((client, phone_b), api):
        static_before = await _board_and_static(client)
        token_a, token_b = api.tokens.teams
        assert (await client.post(f"/api/team/{token_a}/fleet", json=fleet_json(FLEET_A))).status == 200
        assert (await phone_b.post(f"/api/team/{token_b}/fleet", json=fleet_json(FLEET_B))).status == 200
        assert service.match.phase is Phase.THROWING
        # Some darts that miss B's ships, from both sides: the game view has content.
        for code in ("D3", "D7", "D16"):
            service.handle_input(DartInput(board_for().parse(code), code))
        for party in (token_a, None):
            seen = await _everything_reachable(client, party)
            assert cells_in(seen, B_CELLS) == set(), f"leak to {'team A' if party else 'everyone'}"
            assert "D3" in seen  # the check itself would find a cell
        assert await _board_and_static(client) == static_before
    # Not one log line (access log, service, store) names a cell of B's fleet either.
    assert cells_in(caplog.text, B_CELLS) == set()
    assert token_a not in caplog.text and token_b not in caplog.text


async def test_a_sunk_ship_becomes_public_and_the_rest_stays_hidden(tmp_path):
    service = make_service(tmp_path, settings(rules__bull_off="off"))
    new_game(service)
    place(service, 0, fleet(FLEET_A))
    place(service, 1, fleet(FLEET_B))
    for code in ("S3", "S19"):  # Sharks sink the Jets' 2-ship
        service.handle_input(DartInput(board_for().parse(code), code))
    async with api_client(service) as (client, api):
        seen = await _everything_reachable(client, api.tokens.teams[0])
    assert cells_in(seen, B_CELLS) == {"S3", "S19"}


async def test_1000_random_tokens_find_nothing(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    place(service, 0, fleet(FLEET_A))
    secret_cells = fleet_cells(FLEET_A)
    # Without a throttle, then with the default budget and no waiting (a guesser that does not
    # wait its turn is refused; the waiting itself: test_handheld_guesses.py).
    for limits in (OPEN_LIMITS, Limits(max_wait=0.0)):
        async with api_client(service, limits) as (client, _api):
            statuses: dict[int, int] = {}
            for i in range(1000):
                guess = secrets.token_urlsafe(16)
                kind = i % 4
                if kind == 0:
                    response = await client.get(f"/api/team/{guess}")
                elif kind == 1:
                    response = await client.post(f"/api/team/{guess}/fleet", json=fleet_json(FLEET_B))
                elif kind == 2:
                    response = await client.post(f"/api/team/{guess}/random")
                else:
                    try:
                        async with client.ws_connect(f"/api/team/{guess}/ws"):
                            raise AssertionError("a random token opened a team socket")
                    except WSServerHandshakeError as err:
                        statuses[err.status] = statuses.get(err.status, 0) + 1
                        continue
                body = await response.text()
                statuses[response.status] = statuses.get(response.status, 0) + 1
                assert response.status in (404, 429)
                if response.status == 404:
                    assert body == "404: Not Found"
                assert cells_in(body, secret_cells) == set()
            assert set(statuses) <= {404, 429}
            if limits is OPEN_LIMITS:
                assert statuses == {404: 1000}
            else:
                assert statuses[429] >= 980  # the throttle stops guessing after a handful
    assert service.match.state().placed == (True, False)


async def test_an_old_token_dies_with_its_game(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (client, api):
        old = api.tokens.teams[0]
        assert (await client.get(f"/api/team/{old}")).status == 200  # the phone takes the link
        socket = await client.ws_connect(f"/api/team/{old}/ws")
        assert json.loads((await socket.receive(timeout=5)).data)["type"] == "view"
        new_game(service, ("Owls", "Cats"))
        assert json.loads((await socket.receive(timeout=5)).data) == {"type": "expired"}
        closing = await socket.receive(timeout=5)
        assert socket.close_code == 4000 or closing.extra == 4000
        for path in (f"/api/team/{old}", f"/team/{old}"):
            assert (await client.get(path)).status == 404
        response = await client.post(f"/api/team/{old}/fleet", json=fleet_json(FLEET_A))
        assert response.status == 404 and await response.text() == "404: Not Found"
        assert service.match.state().placed == (False, False)
        assert api.tokens.teams[0] != old
        assert (await client.get(f"/api/team/{api.tokens.teams[0]}")).status == 200


async def test_wrong_token_answers_are_identical_to_a_missing_path(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (client, api):
        wrong = await client.get(f"/api/team/{FAKE_TOKEN}")
        missing = await client.get("/api/nothing-here")
        assert (wrong.status, await wrong.text()) == (missing.status, await missing.text())
        # A token one character off is just as wrong.
        near = api.tokens.teams[0][:-1] + ("A" if api.tokens.teams[0][-1] != "A" else "B")
        assert (await client.get(f"/api/team/{near}")).status == 404


async def test_the_throttle_slows_an_address_that_guessed_but_serves_its_right_token(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    # Ten units a second back, so the test waits a tenth of a second where a phone waits 10 s.
    async with api_client(service, Limits(per_client=5, per_client_per_minute=600, max_wait=0.25)) as (
        client,
        api,
    ):
        for _attempt in range(5):
            assert (await client.get(f"/api/team/{FAKE_TOKEN}")).status == 404
        served = await client.get(f"/api/team/{api.tokens.teams[0]}")
        assert served.status == 200  # slowed, never refused
        # A guesser queueing more than max_wait covers is refused without a look at its token.
        answers = await asyncio.gather(*(client.get(f"/api/team/{FAKE_TOKEN}") for _ in range(8)))
        refused = [a for a in answers if a.status == 429]
        assert refused and all(a.status in (404, 429) for a in answers)
        assert (await refused[0].json())["error"] == "too_many_attempts"
        assert refused[0].headers["Retry-After"] == "60"
        assert (await client.get(f"/api/team/{api.tokens.teams[0]}")).status == 200


def test_tokens_are_long_random_and_per_team():
    tokens = GameTokens.issue(7)
    assert len(set(tokens.teams)) == 2
    assert all(len(t) >= 22 for t in tokens.teams)
    assert tokens.team_of(tokens.teams[1]) == 1
    assert tokens.team_of(tokens.teams[0]) == 0
    for wrong in ("", tokens.teams[0] + "x", tokens.teams[0].upper() + "é", "x" * 10_000):
        assert tokens.team_of(wrong) is None
    assert GameTokens.issue(7).teams != tokens.teams


# ---- bad input: a clear error and nothing changes ----------------------------------------

BAD_REQUESTS = [
    ("malformed JSON", b'{"ships": [["T20", "T1"]', "application/json", 400, "bad_json"),
    ("not JSON at all", b"\xff\xfe\x00", "application/json", 400, "bad_json"),
    ("not declared JSON", json.dumps(fleet_json(FLEET_A)).encode(), "text/plain", 415, "not_json"),
    ("wrong shape", b'{"fleet": "T20-T1"}', "application/json", 400, "bad_shape"),
    ("ships not lists", b'{"ships": "T20-T1"}', "application/json", 400, "bad_shape"),
    ("a number for a cell", b'{"ships": [[20, 1]]}', "application/json", 400, "bad_shape"),
    (
        "a ship too long",
        b'{"ships": [["D1","D2","D3","D4","D5","D6"]]}',
        "application/json",
        400,
        "bad_shape",
    ),
    ("bad cell code", b'{"ships": [["T21", "T20"]]}', "application/json", 400, "bad_cell"),
    ("MISS as a cell", b'{"ships": [["MISS", "T20"]]}', "application/json", 400, "bad_cell"),
    ("a gap", b'{"ships": [["T20", "T18"]]}', "application/json", 422, "bad_ship"),
    ("bull in a ring", b'{"ships": [["S20", "BULL", "S1"]]}', "application/json", 422, "bad_ship"),
    ("wrong fleet", json.dumps({"ships": [["T20", "T1"]]}).encode(), "application/json", 422, "bad_fleet"),
    (
        "overlap",
        json.dumps(
            {
                "ships": [
                    ["T20", "T1"],
                    ["T1", "T18", "T4"],
                    ["D6", "D10", "D15", "D2"],
                    ["D17", "D3", "D19", "D7", "D16"],
                ]
            }
        ).encode(),
        "application/json",
        422,
        "bad_fleet",
    ),
    ("oversized body", b'{"ships": [' + b" " * 10_000 + b"]}", "application/json", 413, "too_large"),
]


async def test_bad_requests_get_a_clear_error_and_change_nothing(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    place(service, 0, fleet(FLEET_A))
    before = (list(service.match.log), service.match.fleet(0), service.store.games.secret(1, 0))
    async with api_phones(service) as (phones, api):
        for team in (0, 1):
            client = phones[team]  # each team's link on its own phone
            url = f"/api/team/{api.tokens.teams[team]}/fleet"
            for name, body, kind, status, code in BAD_REQUESTS:
                response = await client.post(url, data=body, headers={"Content-Type": kind})
                assert response.status == status, name
                answer = await response.json()
                assert answer["error"] == code, name
                assert answer["message"].strip(), name
        # Chunked, with no Content-Length to check up front: still cut off at the limit.

        async def endless():
            for _chunk in range(100):
                yield b" " * 1024

        response = await client.post(url, data=endless(), headers={"Content-Type": "application/json"})
        assert response.status == 413
    assert (list(service.match.log), service.match.fleet(0), service.store.games.secret(1, 0)) == before
    assert service.match.state().placed == (True, False)


async def test_placing_after_the_game_started_is_refused(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    place(service, 0, fleet(FLEET_A))
    place(service, 1, fleet(FLEET_B))
    log_before = list(service.match.log)
    async with api_phones(service) as (phones, api):
        for team, text in ((0, FLEET_B), (1, FLEET_A)):
            client = phones[team]
            response = await client.post(f"/api/team/{api.tokens.teams[team]}/fleet", json=fleet_json(text))
            assert response.status == 409
            assert (await response.json())["error"] == "game_started"
            random = await client.post(f"/api/team/{api.tokens.teams[team]}/random")
            assert random.status == 409
    assert service.match.log == log_before
    assert service.match.fleet(0) == fleet(FLEET_A)


async def test_static_files_cannot_be_left_by_any_path(tmp_path):
    service = make_service(tmp_path)
    async with api_client(service) as (client, _api):
        assert (await client.get("/static/app.js")).status == 200
        for raw in (
            "/static/../api.py",
            "/static/%2e%2e/api.py",
            "/static/..%2fserver.py",
            "/static/i18n/../../server.py",
            "/static/%2e%2e%2f%2e%2e%2fkiosk/match.py",
            "/static//etc/passwd",
            "/static/..\\api.py",
            "/static/i18n/",
            "/static/.%2e/.%2e/pyproject.toml",
            "/static/app.js%00.png",
        ):
            url = client.make_url("").join(yarl.URL(raw, encoded=True))
            response = await client.session.get(url)
            body = await response.text()
            assert response.status == 404, raw
            assert "import" not in body and "root:" not in body, raw


async def test_security_headers_on_pages_and_api(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (client, api):
        for path in ("/watch", f"/team/{api.tokens.teams[0]}", "/api/game", f"/team/{FAKE_TOKEN}"):
            response = await client.get(path)
            assert "default-src 'self'" in response.headers["Content-Security-Policy"]
            assert response.headers["Referrer-Policy"] == "no-referrer"
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert response.headers["Server"] == "Dartship"
        page = await client.get(f"/team/{api.tokens.teams[0]}")
        assert page.headers["Cache-Control"] == "no-store"


def test_access_log_lines_hide_tokens():
    assert redact("/team/abcDEF_123-x") == "/team/***"
    assert redact("/api/team/abcDEF_123-x/fleet") == "/api/team/***/fleet"
    assert redact("/watch") == "/watch"


async def test_a_restart_keeps_the_phone_links_of_the_game_in_play(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (_client, api):
        before = api.tokens.teams
    service.store.close()
    again = make_service(tmp_path)  # the kiosk starts again on the same database
    assert again.resume()
    async with api_client(again) as (client, api):
        assert api.tokens.teams == before
        response = await client.post(f"/api/team/{before[1]}/fleet", json=fleet_json(FLEET_B))
        assert response.status == 200 and again.match.state().placed == (False, True)
        new_game(again, ("Owls", "Cats"))
        assert set(api.tokens.teams).isdisjoint(before)
        assert (await client.get(f"/api/team/{before[1]}")).status == 404
    assert again.store.phones.links(again.game) == api.tokens.teams
