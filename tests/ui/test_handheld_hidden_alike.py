"""Hidden information, proved by difference: a game is played twice, alike in everything a party
may know (the same shots, the same answers to them, the same sunk ships) and different only in
where the other side's unsunk ships lie. Everything that party gets (every answer, every socket
frame, the public pages) must then be the same, byte for byte once the runs' random links are
named alike. This sees what a search for square names cannot: a square told in a shape no name
has (a bitmap, a count, an order), or a name that is also a shot on the other board.

Classic: a room duel, its owner and a spectator (the friend's fleet differs). The dart game: team
A's phone and the public pages (team B's fleet differs)."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from aiohttp.test_utils import TestClient

from kiosk.board import board_for
from kiosk.classic.fleet import parse_fleet
from kiosk.darts.match import Phase
from kiosk.inputs import Button, ButtonInput, DartInput
from tests.ui.conftest_classic import classic_phones, ok, play_match
from tests.ui.conftest_handheld import (
    FLEET_A,
    api_phones,
    fleet_cells,
    fleet_json,
    make_service,
    new_game,
    settings,
)

# ---- classic: a room duel ----------------------------------------------------------------

OWNER = ["A1-A5", "C1-C4", "E1-E3", "G1-G3", "I1-I2"]
# The friend's two fleets share the Destroyer the owner sinks; the rest lies elsewhere.
FRIEND = (
    ["A6-A10", "C6-C9", "E6-E8", "G6-G8", "J9-J10"],
    ["D6-H6", "D8-G8", "B8-B10", "H2-H4", "J9-J10"],
)
OWNER_SHOTS = ["J9", "J10", "B1", "B3", "D1", "F10", "I5", "A1", "J1", "F1"]
FRIEND_SHOTS = ["A1", "A2", "J10", "D10", "I1", "I2", "H10", "B5", "F5", "J5"]


def _squares(ships: list[str]) -> set[str]:
    """The squares of a fleet written as the protocol writes it ("A6-A10", "D6-H6")."""
    return {square.code for square in parse_fleet(" ".join(ships)).cells}


async def _played_twice(caplog, play, tmp_path: Path, fleets, heard: str) -> tuple:
    """`play` once with each of the two fleets, each in a folder of its own: both results. The
    journal of the two runs (every logger at DEBUG) must not differ either; `heard`: a path its
    access log names (it was recorded)."""
    caplog.set_level(logging.DEBUG)
    first = await play(tmp_path / "first", fleets[0])
    logged = _logged(caplog)
    assert any(heard in line for line in logged)
    second = await play(tmp_path / "second", fleets[1])
    assert _logged(caplog) == logged, "the journal depends on where the unsunk ships lie"
    return first, second


OTHERS = ("dartship.caller", "dartship.buzzer", "kivy")  # the shared touchscreen kiosk's


def _logged(caplog) -> list[str]:
    """The journal's lines since the last call (as the kiosk writes them; its folders and the
    access log's durations named alike), then forgotten. Only the main thread's, and not the
    caller's, buzzer's or Kivy's: the session's touchscreen kiosk (tests/ui's shared window) may
    still be saying a call of an earlier test on its own thread; the servers here have neither."""
    lines = [
        f"{r.name} {r.levelname} {r.getMessage()}"
        for r in caplog.records
        if r.threadName == "MainThread" and not r.name.startswith(OTHERS)
    ]
    caplog.clear()
    return [re.sub(r" [0-9.]+ms$", " TIME", re.sub(r"/tmp/\S+", "TMP", line)) for line in lines]


async def _frames(socket) -> list[str]:
    frames = []
    while True:
        try:
            frames.append(json.dumps(await socket.receive_json(timeout=0.5), sort_keys=True))
        except TimeoutError:
            return frames


async def _text(response) -> str:
    return f"{response.status} {await response.text()}"


async def _duel(tmp_path: Path, friend_fleet: list[str]) -> tuple[list[str], list[str], list[str]]:
    """One duel; what the owner, the spectator and the friend got, each as texts in order (the
    room's link named ROOM)."""
    got: tuple[list[str], list[str], list[str]] = ([], [], [])
    mine, watched, theirs = got
    async with classic_phones(tmp_path, 3) as ((owner, friend, stranger), classic):
        await ok(await owner.post("/api/classic/play/solo", json={"level": "easy", "name": "Ann"}))
        mine.append(await _text(await owner.post("/api/classic/play/fleet", json={"ships": OWNER})))
        room = await ok(await owner.post("/api/classic/play/room", json={}))
        token = room["room"]["link"].rsplit("/", 1)[1]
        theirs.append(await _text(await friend.get(f"/api/classic/r/{token}")))
        watched.append(await _text(await stranger.get(f"/api/classic/r/{token}")))
        theirs.append(await _text(await friend.post(f"/api/classic/r/{token}/ready", json={"name": "Bo"})))
        mine.append(await _text(await owner.post("/api/classic/play/duel", json={})))
        placed = await friend.post(f"/api/classic/r/{token}/fleet", json={"ships": friend_fleet})
        theirs.append(await _text(placed))
        sockets = (
            await owner.ws_connect("/api/classic/play/ws"),
            await stranger.ws_connect(f"/api/classic/r/{token}/ws"),
            await friend.ws_connect(f"/api/classic/r/{token}/ws"),
        )
        match = play_match(classic, owner)
        shots = (list(OWNER_SHOTS), list(FRIEND_SHOTS))
        while shots[match.turn] and match.winner is None:
            cell = shots[match.turn].pop(0)
            if match.turn == 0:
                mine.append(await _text(await owner.post("/api/classic/play/fire", json={"cell": cell})))
            else:
                fired = await friend.post(f"/api/classic/r/{token}/fire", json={"cell": cell})
                theirs.append(await _text(fired))
        mine.append(await _text(await owner.get("/api/classic/play")))
        watched.append(await _text(await stranger.get(f"/api/classic/r/{token}")))
        watched.append(await _text(await stranger.get(f"/classic/r/{token}")))  # the page itself
        for socket, texts in zip(sockets, got, strict=True):
            texts.extend(await _frames(socket))
            await socket.close()
    return tuple([t.replace(token, "ROOM") for t in texts] for texts in got)  # type: ignore[return-value]


async def test_a_room_duel_tells_the_owner_and_watchers_nothing_of_the_friends_unsunk_ships(tmp_path, caplog):
    for fleet in FRIEND:
        assert not set(OWNER_SHOTS) & (_squares(fleet) - {"J9", "J10"})  # misses in both runs
    first, second = await _played_twice(caplog, _duel, tmp_path, FRIEND, "/api/classic/r/")
    mine, watched, theirs = first
    assert len(mine) >= 12 and len(watched) >= 8  # shots, answers and frames were recorded
    assert any('"J9"' in text and "sunk" in text for text in mine)  # the Destroyer went down
    assert theirs != second[2]  # the friend sees its own fleet: the comparison sees a difference
    assert mine == second[0], "the owner's answers depend on where the friend's ships lie"
    assert watched == second[1], "a spectator's answers depend on where the unsunk ships lie"


# ---- the dart game: team A's phone and the public pages ---------------------------------

# Team B's two fleets share the 2-ship team A sinks (S3-S19); the rest lies elsewhere.
FLEET_B = (
    "S3-S19 T7-T16-T8 D11-D14-D9-D12 L5-L20-L1-L18-L4",
    "S3-S19 T1-T18-T4 D6-D10-D15-D2 L11-L14-L9-L12-L5",
)
A_DARTS = ["S3", "S19", "S6", "T20", "D3", "S10", "L13", "T2", "S16"]
B_DARTS = ["D20", "D1", "S7", "T18", "L9", "S12", "D19", "T5", "S8"]


async def _everything(client: TestClient, token: str) -> list[str]:
    texts = []
    for path in ("/", "/watch", "/api/game", f"/team/{token}", f"/api/team/{token}"):
        texts.append(f"{path} {await _text(await client.get(path, allow_redirects=False))}")
    return texts


async def _dart_game(tmp_path: Path, fleet_b: str) -> tuple[list[str], list[str]]:
    """One dart game; what team A's phone got and what team B's got (its link named TEAM)."""
    service = make_service(tmp_path, settings(rules__bull_off="off"))
    new_game(service)
    board = board_for()
    async with api_phones(service) as ((phone_a, phone_b), api):
        token_a, token_b = api.tokens.teams
        seen: list[str] = []
        seen.append(await _text(await phone_a.post(f"/api/team/{token_a}/fleet", json=fleet_json(FLEET_A))))
        theirs = [await _text(await phone_b.post(f"/api/team/{token_b}/fleet", json=fleet_json(fleet_b)))]
        assert service.match is not None and service.match.phase is Phase.THROWING
        sockets = (
            await phone_a.ws_connect(f"/api/team/{token_a}/ws"),
            await phone_a.ws_connect("/api/game/ws"),
            await phone_b.ws_connect(f"/api/team/{token_b}/ws"),
        )
        darts = (list(A_DARTS), list(B_DARTS))
        while any(darts) and service.match.phase is Phase.THROWING:
            team = service.match.turn
            if not darts[team]:
                break
            for _ in range(3):
                if darts[team]:
                    code = darts[team].pop(0)
                    service.handle_input(DartInput(board.parse(code), code))
            service.handle_input(ButtonInput(Button.NEXT))
            await service.settled()
        seen += await _everything(phone_a, token_a)
        theirs += await _everything(phone_b, token_b)
        for socket, texts in zip(sockets, (seen, seen, theirs), strict=True):
            texts.extend(await _frames(socket))
            await socket.close()
    return (
        [text.replace(token_a, "TEAM") for text in seen],
        [text.replace(token_b, "TEAM") for text in theirs],
    )


async def test_a_dart_game_tells_team_a_and_the_public_nothing_of_team_bs_unsunk_ships(tmp_path, caplog):
    for fleet_b in FLEET_B:
        assert not set(A_DARTS) & (fleet_cells(fleet_b) - {"S3", "S19"})  # misses in both runs
    first, second = await _played_twice(caplog, _dart_game, tmp_path, FLEET_B, "/api/team/")
    seen = first[0]
    assert len(seen) >= 10 and any(re.search(r"\bS19\b", text) for text in seen)
    assert first[1] != second[1]  # team B sees its own fleet: the comparison sees a difference
    assert seen == second[0], "team A's or the public's answers depend on where B's ships lie"


# ---- classic on the kiosk: two teams on their phones, the host's desk --------------------


async def _kiosk_duel(tmp_path: Path, fleet_1: list[str]) -> tuple[list[str], list[str]]:
    """The kiosk's own classic duel, each team on its phone; what team 0's phone and the host's
    desk got, and what team 1's phone got (the links and the desk's secret named alike; the
    desk's QR codes, pictures of those links, left out)."""
    import random

    from kiosk.classic.match import Mode, Setup
    from kiosk.classic.table import start
    from kiosk.service import GameService
    from kiosk.store import Store
    from tests.ui.test_handheld_host_classic import _desk_client

    service = GameService(Store(tmp_path / "d.db"))
    start(service, Setup(Mode.DUEL, ("Ann", "Bo")), random.Random(3))
    client, api, desk = await _desk_client(service)
    phone_1 = TestClient(client.server)
    await phone_1.start_server()
    seen: list[str] = []
    theirs: list[str] = []
    try:
        token_0, token_1 = api.tokens.teams
        own = [s.code for s in service.match.fleet(0).ships]
        seen.append(await _text(await client.get(f"/api/classic/team/{token_0}")))
        theirs.append(
            await _text(await phone_1.post(f"/api/classic/team/{token_1}/fleet", json={"ships": fleet_1}))
        )
        sockets = (
            await client.ws_connect(f"/api/classic/team/{token_0}/ws"),
            await phone_1.ws_connect(f"/api/classic/team/{token_1}/ws"),
        )
        shots = (list(OWNER_SHOTS), sorted(_squares(own))[:4] + FRIEND_SHOTS[2:])
        match = service.match
        while shots[match.turn] and match.winner is None:
            cell = shots[match.turn].pop(0)
            phone, token, texts = (client, token_0, seen) if match.turn == 0 else (phone_1, token_1, theirs)
            texts.append(
                await _text(await phone.post(f"/api/classic/team/{token}/fire", json={"cell": cell}))
            )
        seen.append(await _text(await client.get(desk.path())))
        seen.append(await _text(await client.get(f"{desk.path()}?team=0")))
        seen.append(await _text(await client.get(f"/api/classic/team/{token_0}")))
        for socket, texts in zip(sockets, (seen, theirs), strict=True):
            texts.extend(await _frames(socket))
            await socket.close()
    finally:
        await phone_1.close()
        await client.close()

    def alike(text: str) -> str:
        text = re.sub(r"<svg.*?</svg>", "SVG", text, flags=re.S)
        return text.replace(token_0, "TEAM0").replace(token_1, "TEAM1").replace(desk.secret, "DESK")

    return [alike(t) for t in seen], [alike(t) for t in theirs]


async def test_a_kiosk_duel_tells_the_other_team_and_the_desk_nothing_of_unsunk_ships(tmp_path, caplog):
    first, second = await _played_twice(caplog, _kiosk_duel, tmp_path, FRIEND, "/api/classic/team/")
    seen = first[0]
    assert len(seen) >= 10 and any("J10" in text and "sunk" in text for text in seen)
    assert first[1] != second[1]  # team 1 sees its own fleet: the comparison sees a difference
    assert seen == second[0], "team 0's phone or the host's desk depends on where team 1's ships lie"
