"""The classic phone API: a phone's own solo game against the computer, the daily challenge and
its leaderboard, rooms (friend, spectators, Ready, duel), what each may see, and bad input."""

from __future__ import annotations

import json
import re

import pytest

from kiosk.classic.match import ComputerLevel, Mode
from kiosk.service import GameService
from kiosk.store import Store
from tests.ui.conftest_classic import (
    DAY,
    classic_phones,
    daily_match,
    device,
    enemy_squares,
    ok,
    play_match,
    settle,
    water,
)
from ui.handheld.classic.api import StartLimits

SQUARE = re.compile(r"\b[A-J](?:10|[1-9])\b")


async def start_solo(phone, level: str = "easy", name: str | None = "Ann") -> dict:
    return await ok(await phone.post("/api/classic/play/solo", json={"level": level, "name": name}))


async def open_room(owner) -> str:
    """The owner opens its room; the token of its link."""
    room = (await ok(await owner.post("/api/classic/play/room", json={})))["room"]
    return room["link"].rsplit("/", 1)[1]


async def test_a_phone_plays_solo_against_the_computer_to_the_win(tmp_path):
    async with classic_phones(tmp_path, 1) as ([phone], classic):
        assert (await ok(await phone.get("/api/classic/play")))["view"] is None
        answer = await start_solo(phone)
        view = answer["view"]
        assert view["mode"] == "solo" and view["you"] == 0 and view["phase"] == "playing"
        assert len(view["fleet"]) == 5 and view["may_place"]  # a random fleet stands at once
        assert view["players"] == ["Ann", "Computer"] and view["level"] == "easy"
        match = play_match(classic, phone)
        # A miss first: the computer answers (at pace 0) until it misses too.
        await ok(await phone.post("/api/classic/play/fire", json={"cell": water(match, 0)[0]}))
        await settle(classic)
        assert match.shots(1) >= 1 and match.turn == 0
        view = (await ok(await phone.get("/api/classic/play")))["view"]
        assert view["may_place"] is False  # the shooting has begun
        assert len(view["incoming"]["hit"]) + len(view["incoming"]["miss"]) == match.shots(1)
        for cell in enemy_squares(match, 0):
            answer = await ok(await phone.post("/api/classic/play/fire", json={"cell": cell}))
        view = answer["view"]
        assert view["phase"] == "over" and view["winner"] == 0
        assert view["hits"][0] == 17 and len(view["sunk"][1]) == 5  # sunk[i]: i's own ships
        assert [e["event"] for e in answer["events"]] == []  # the answer is the view
        store: Store = classic.api.service.store
        game = store.stats.finished_games("classic", mode="solo")[-1]
        assert [r.player for r in game.results] == ["Ann", "Computer"] and game.results[0].won


async def test_the_fleet_is_re_placed_until_the_first_shot(tmp_path):
    async with classic_phones(tmp_path, 1) as ([phone], classic):
        await start_solo(phone, "normal")
        ships = ["A1-A5", "C3-F3", "H2-H4", "J7-J9", "E9-F9"]
        view = (await ok(await phone.post("/api/classic/play/fleet", json={"ships": ships})))["view"]
        assert view["fleet"] == ships
        bad = await phone.post(
            "/api/classic/play/fleet", json={"ships": ["A1-A5", "A3-D3", "H2-H4", "J7-J9", "E9-F9"]}
        )
        assert bad.status == 422 and (await bad.json())["error"] == "bad_fleet"
        assert "Battleship" in (await bad.json())["message"]
        match = play_match(classic, phone)
        await ok(await phone.post("/api/classic/play/fire", json={"cell": water(match, 0)[0]}))
        await settle(classic)
        late = await phone.post("/api/classic/play/fleet", json={"ships": ships})
        assert late.status == 409 and (await late.json())["error"] == "fleet_locked"


async def test_the_daily_challenge_counts_once_per_phone_and_makes_the_leaderboard(tmp_path):
    async with classic_phones(tmp_path, 3) as (phones, classic):
        scores = {}
        for phone, name, wasted in zip(phones, ("Ann", "Bo", "Cy"), (5, 0, 2), strict=True):
            answer = await ok(await phone.post("/api/classic/daily/start", json={}))
            assert answer["daily"] == {"date": DAY.isoformat(), "started": True, "name": None}
            assert answer["view"]["mode"] == "daily" and answer["view"]["fleet"] == []
            match = daily_match(classic, phone)
            for cell in [*water(match, 0)[:wasted], *enemy_squares(match, 0)]:
                answer = await ok(await phone.post("/api/classic/daily/fire", json={"cell": cell}))
            assert answer["view"]["winner"] == 0 and answer["view"]["shots"][0] == 17 + wasted
            scores[name] = 17 + wasted
            board = await ok(await phone.get("/api/classic/leaderboard"))
            assert name not in [e["player"] for e in board["entries"]]  # counts once named
            named = await ok(await phone.post("/api/classic/daily/name", json={"name": name}))
            assert named["daily"]["name"] == name
        board = await ok(await phones[0].get("/api/classic/leaderboard"))
        assert board == {
            "date": DAY.isoformat(),
            "entries": [
                {"player": "Bo", "shots": 17},
                {"player": "Cy", "shots": 19},
                {"player": "Ann", "shots": 22},
            ],
        }
        # The same phone again: its challenge of today, not a second try, and the first name stands.
        again = await ok(await phones[0].post("/api/classic/daily/start", json={}))
        assert again["view"]["phase"] == "over" and again["view"]["shots"][0] == 22
        await ok(await phones[0].post("/api/classic/daily/name", json={"name": "Ann Again"}))
        board = await ok(await phones[1].get("/api/classic/leaderboard"))
        assert [e["player"] for e in board["entries"]] == ["Bo", "Cy", "Ann"]
        other_day = await ok(await phones[1].get("/api/classic/leaderboard?date=2026-12-01"))
        assert other_day["entries"] == []


async def test_every_daily_challenge_of_a_day_hides_the_same_fleet(tmp_path):
    async with classic_phones(tmp_path, 2) as (phones, classic):
        for phone in phones:
            await ok(await phone.post("/api/classic/daily/start", json={}))
        first, second = (daily_match(classic, p) for p in phones)
        assert first.fleet(1) == second.fleet(1)


async def test_a_room_link_binds_the_friend_the_rest_watch_and_ready_starts_a_duel(tmp_path):
    async with classic_phones(tmp_path, 3) as ((owner, friend, stranger), classic):
        await start_solo(owner, "easy", "Ann")
        solo = play_match(classic, owner)
        kept = solo.fleet(0)
        room = (await ok(await owner.post("/api/classic/play/room", json={})))["room"]
        assert room["role"] == "owner" and room["friend"] is False
        link = room["link"]
        token = link.rsplit("/", 1)[1]
        assert (await friend.get(link)).status == 200  # the page claims nothing
        joined = await ok(await friend.get(f"/api/classic/r/{token}"))
        assert joined["room"] == {"role": "friend", "friend": True, "ready": False}
        assert "link" not in joined["room"]
        assert joined["view"]["you"] is None and "fleet" not in joined["view"]  # the public view
        watching = await ok(await stranger.get(f"/api/classic/r/{token}"))
        assert watching["room"]["role"] == "spectator"
        refused = await stranger.post(f"/api/classic/r/{token}/ready", json={})
        assert refused.status == 403
        early = await owner.post("/api/classic/play/duel", json={})
        assert early.status == 409 and (await early.json())["error"] == "refused"
        ready = await ok(await friend.post(f"/api/classic/r/{token}/ready", json={"name": "Bo"}))
        assert ready["room"]["ready"] is True
        assert (await ok(await owner.get("/api/classic/play")))["room"]["ready"] is True
        duel = (await ok(await owner.post("/api/classic/play/duel", json={})))["view"]
        assert duel["mode"] == "duel" and duel["players"] == ["Ann", "Bo"] and duel["turn"] == 0
        match = play_match(classic, owner)
        assert match.fleet(0) == kept  # the owner keeps its fleet
        mine = await ok(await friend.get(f"/api/classic/r/{token}"))
        assert mine["view"]["you"] == 1 and len(mine["view"]["fleet"]) == 5 and mine["view"]["may_place"]
        assert mine["view"]["fleet"] == [s.code for s in match.fleet(1).ships]
        # The friend may not fire out of turn; the owner fires, misses, the friend wins.
        wrong = await friend.post(f"/api/classic/r/{token}/fire", json={"cell": "A1"})
        assert wrong.status == 409 and (await wrong.json())["error"] == "not_your_turn"
        await ok(await owner.post("/api/classic/play/fire", json={"cell": water(match, 0)[0]}))
        for cell in enemy_squares(match, 1):
            last = await ok(await friend.post(f"/api/classic/r/{token}/fire", json={"cell": cell}))
        assert last["view"]["winner"] == 1
        watched = await ok(await stranger.get(f"/api/classic/r/{token}"))
        assert watched["view"]["winner"] == 1 and "fleet" not in watched["view"]
        shot = await stranger.post(f"/api/classic/r/{token}/fire", json={"cell": "A1"})
        assert shot.status == 403


async def test_a_closed_room_link_is_dead_and_its_duel_ends(tmp_path):
    async with classic_phones(tmp_path, 2) as ((owner, friend), _classic):
        await start_solo(owner)
        link = (await ok(await owner.post("/api/classic/play/room", json={})))["room"]["link"]
        token = link.rsplit("/", 1)[1]
        await ok(await friend.get(f"/api/classic/r/{token}"))
        await ok(await friend.post(f"/api/classic/r/{token}/ready", json={}))
        await ok(await owner.post("/api/classic/play/duel", json={}))
        closed = await ok(await owner.delete("/api/classic/play/room"))
        assert closed["room"] is None and closed["view"]["mode"] == "solo"
        assert (await friend.get(f"/api/classic/r/{token}")).status == 404
        assert (await friend.get(link)).status == 404
        fresh = (await ok(await owner.post("/api/classic/play/room", json={})))["room"]
        assert fresh["link"] != link and fresh["friend"] is False


async def test_sockets_give_each_audience_only_what_it_may_see(tmp_path):
    """Owner, friend and a spectator listen while a duel is played: the spectator's messages
    never name a square of a ship that is not sunk; each player's only its own fleet."""
    async with classic_phones(tmp_path, 3) as ((owner, friend, stranger), classic):
        await start_solo(owner)
        token = await open_room(owner)
        await ok(await friend.get(f"/api/classic/r/{token}"))
        await ok(await stranger.get(f"/api/classic/r/{token}"))
        await ok(await friend.post(f"/api/classic/r/{token}/ready", json={}))
        await ok(await owner.post("/api/classic/play/duel", json={}))
        match = play_match(classic, owner)
        fleets = [{s.code for s in match.fleet(side).cells} for side in (0, 1)]
        sockets = [
            await owner.ws_connect("/api/classic/play/ws"),
            await friend.ws_connect(f"/api/classic/r/{token}/ws"),
            await stranger.ws_connect(f"/api/classic/r/{token}/ws"),
        ]
        heard: list[list[dict]] = [[], [], []]
        await ok(await owner.post("/api/classic/play/fire", json={"cell": enemy_squares(match, 0)[0]}))
        await ok(await owner.post("/api/classic/play/fire", json={"cell": water(match, 0)[0]}))
        for cell in enemy_squares(match, 1)[:8]:
            await ok(await friend.post(f"/api/classic/r/{token}/fire", json={"cell": cell}))
        for socket, messages in zip(sockets, heard, strict=True):
            while True:
                try:
                    message = await socket.receive_json(timeout=0.5)
                except TimeoutError:
                    break
                messages.append(message)
            await socket.close()
        assert all(len(m) >= 10 for m in heard)
        # Both grids use the same squares: what a message may name is what its audience may
        # know (every shot told, the sunk ships, a player's own fleet), and nothing else.
        told = {s.code for side in (0, 1) for s in match.radar(side).shots}
        for audience, messages in enumerate(heard):
            allowed = told | (fleets[audience] if audience < 2 else set())
            for message in messages:
                # (The owner's room link is a random token: it may spell "B7" by chance.)
                named = set(SQUARE.findall(json.dumps([message["view"], message["events"]])))
                assert named <= allowed, (audience, named - allowed)
                assert message["view"]["you"] == (audience if audience < 2 else None)
        assert all("fleet" not in m["view"] for m in heard[2])


async def test_a_restarted_kiosk_gives_every_phone_its_game_back(tmp_path):
    async with classic_phones(tmp_path, 2) as ((owner, friend), classic):
        await start_solo(owner, "hard", "Ann")
        token = await open_room(owner)
        await ok(await friend.get(f"/api/classic/r/{token}"))
        await ok(await friend.post(f"/api/classic/r/{token}/ready", json={}))
        match = play_match(classic, owner)
        fired = enemy_squares(match, 0)[:3]
        for cell in fired:
            await ok(await owner.post("/api/classic/play/fire", json={"cell": cell}))
        before = (await ok(await owner.get("/api/classic/play")))["view"]
        cookies = [{c.key: c.value for c in p.session.cookie_jar} for p in (owner, friend)]
        classic.api.service.store.close()
    store = Store(tmp_path / "dartship.db")
    from kiosk.service import GameService

    async with classic_phones(tmp_path, 2, service=GameService(store)) as ((owner2, friend2), classic2):
        for phone, jar in zip((owner2, friend2), cookies, strict=True):
            phone.session.cookie_jar.update_cookies(jar)
        after = await ok(await owner2.get("/api/classic/play"))
        assert after["view"] == before and after["room"]["ready"] is True
        assert play_match(classic2, owner2).setup.level is ComputerLevel.HARD
        friend_view = await ok(await friend2.get(f"/api/classic/r/{token}"))
        assert friend_view["room"]["role"] == "friend"
        duel = (await ok(await owner2.post("/api/classic/play/duel", json={})))["view"]
        assert duel["mode"] == Mode.DUEL.value


@pytest.mark.parametrize(
    "path, body, status, code",
    [
        ("/api/classic/play/solo", {"level": "godlike"}, 400, "bad_shape"),
        ("/api/classic/play/solo", [], 400, "bad_shape"),
        ("/api/classic/play/fire", {"cell": "K11"}, 400, "bad_cell"),
        ("/api/classic/play/fire", {"cell": 7}, 400, "bad_shape"),
        ("/api/classic/play/fire", {"cell": "B7" * 40}, 400, "bad_shape"),
        ("/api/classic/play/fleet", {"ships": ["A1-A5"]}, 400, "bad_shape"),
        (
            "/api/classic/play/fleet",
            {"ships": ["A1-A9", "C3-F3", "H2-H4", "J7-J9", "E9-F9"]},
            422,
            "bad_fleet",
        ),
        ("/api/classic/daily/fire", {"cell": "A1"}, 409, "no_game"),
        ("/api/classic/daily/name", {"name": "Ann"}, 409, "refused"),
        ("/api/classic/play/duel", {}, 409, "refused"),
    ],
)
async def test_bad_input_answers_an_error_and_changes_nothing(tmp_path, path, body, status, code):
    async with classic_phones(tmp_path, 1) as ([phone], _classic):
        await start_solo(phone)
        before = (await ok(await phone.get("/api/classic/play")))["view"]
        answer = await phone.post(path, json=body)
        assert answer.status == status, await answer.text()
        assert (await answer.json())["error"] == code
        assert (await ok(await phone.get("/api/classic/play")))["view"] == before


async def test_garbage_and_strangers_get_errors_never_a_crash(tmp_path):
    async with classic_phones(tmp_path, 1) as ([phone], _classic):
        answer = await phone.post(
            "/api/classic/play/fire", data=b"{not json", headers={"Content-Type": "application/json"}
        )
        assert answer.status == 400
        answer = await phone.post(
            "/api/classic/play/fire", data=b"x" * 5000, headers={"Content-Type": "application/json"}
        )
        assert answer.status == 413
        nothing = await phone.post("/api/classic/play/fire", json={"cell": "A1"})
        assert nothing.status == 409 and (await nothing.json())["error"] == "refused"
        for token in ("x", "A" * 22, "../../etc", "A" * 100):
            assert (await phone.get(f"/api/classic/r/{token}")).status == 404
            assert (await phone.get(f"/api/classic/team/{token}")).status == 404
        socket = await phone.ws_connect("/api/classic/play/ws")
        first = await socket.receive_json(timeout=2)
        assert first["type"] == "view" and first["view"] is None
        await socket.close()


async def test_an_address_that_starts_games_without_end_is_slowed(tmp_path):
    async with classic_phones(tmp_path, 1, limits=StartLimits(capacity=3, per_minute=1)) as (
        [phone],
        _classic,
    ):
        for _ in range(3):
            await start_solo(phone)
        refused = await phone.post("/api/classic/play/solo", json={"level": "easy"})
        assert refused.status == 429 and (await refused.json())["error"] == "too_many_games"


async def test_a_start_refused_for_its_shape_costs_the_address_nothing(tmp_path):
    async with classic_phones(tmp_path, 1, limits=StartLimits(capacity=2, per_minute=1)) as (
        [phone],
        _classic,
    ):
        for level in ("godlike", 3, None):
            wrong = await phone.post("/api/classic/play/solo", json={"level": level})
            assert wrong.status == 400 and (await wrong.json())["error"] == "bad_shape"
        for _ in range(2):
            await start_solo(phone)  # the whole allowance is still there
        refused = await phone.post("/api/classic/play/solo", json={"level": "easy"})
        assert refused.status == 429 and (await refused.json())["error"] == "too_many_games"


async def test_a_phone_game_runs_beside_the_kiosks_own(tmp_path):
    from kiosk.classic.match import Setup
    from kiosk.classic.table import start
    from kiosk.service import GameService

    service = GameService(Store(tmp_path / "dartship.db"))
    import random

    start(service, Setup(Mode.SOLO, ("Sharks",)), random.Random(1))
    kiosk_game = service.game
    async with classic_phones(tmp_path, 1, service=service) as ([phone], classic):
        await start_solo(phone)
        assert service.game == kiosk_game and service.match.public_view()["phase"] == "playing"
        assert classic.rooms.table(device(phone)).service.game != kiosk_game
        assert service.store.games.unfinished("kiosk") == kiosk_game


async def test_the_kiosks_dart_game_passes_the_classic_routes_by(tmp_path, caplog):
    """The classic routes hear every event of the kiosk's service: a dart game's must pass them
    by (and a dart game's team link is no classic team link)."""
    from tests.ui.conftest_handheld import FLEET_A, fleet, new_game, place

    service = GameService(Store(tmp_path / "dartship.db"))
    from kiosk.darts.match import HouseRules
    from tests.ui.conftest_handheld import RULES

    RULES[service] = HouseRules()
    async with classic_phones(tmp_path, 1, service=service) as ([phone], classic):
        new_game(service)
        place(service, 0, fleet(FLEET_A))
        assert "listener failed" not in caplog.text
        token = classic.api.tokens.teams[0]
        assert (await phone.get(f"/api/classic/team/{token}")).status == 404


async def test_no_log_line_names_a_square_not_told_nor_a_secret(tmp_path, caplog):
    """A duel through a room, with every logger at DEBUG: the log names no square that was not
    fired at (the owner's and the friend's unsunk ships stay theirs) and no link or device."""
    import logging

    caplog.set_level(logging.DEBUG)
    async with classic_phones(tmp_path, 3) as ((owner, friend, stranger), classic):
        await start_solo(owner)
        token = await open_room(owner)
        await ok(await friend.get(f"/api/classic/r/{token}"))
        await ok(await stranger.get(f"/api/classic/r/{token}"))
        await ok(await friend.post(f"/api/classic/r/{token}/ready", json={"name": "Bo"}))
        await ok(await owner.post("/api/classic/play/duel", json={}))
        match = play_match(classic, owner)
        await ok(await owner.post("/api/classic/play/fire", json={"cell": enemy_squares(match, 0)[0]}))
        await ok(await owner.post("/api/classic/play/fire", json={"cell": water(match, 0)[0]}))
        for cell in enemy_squares(match, 1)[:6]:
            await ok(await friend.post(f"/api/classic/r/{token}/fire", json={"cell": cell}))
        refused = await friend.post(f"/api/classic/r/{token}/fleet", json={"ships": ["A1-A5"] * 5})
        assert refused.status == 422
        told = {s.code for side in (0, 1) for s in match.radar(side).shots}
        text = caplog.text
        assert "/classic/r/***" in text  # the access log was heard, its token hidden
        assert set(SQUARE.findall(text)) <= told
        assert token not in text and device(owner) not in text and device(friend) not in text
