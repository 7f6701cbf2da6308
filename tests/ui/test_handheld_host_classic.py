"""The host's desk during a classic duel on a headless kiosk: it shows the duel (whose turn,
the tallies, each side's phone) instead of "No game is running", hands over the codes one side
at a time and moves either side to another phone; no ship square ever appears."""

from __future__ import annotations

import asyncio
import random
import re

from aiohttp.test_utils import TestClient, TestServer

from kiosk.classic.computer import ShotPace
from kiosk.classic.match import Mode, Setup
from kiosk.classic.room import computer as classic_computer
from kiosk.classic.rooms import PhoneRooms
from kiosk.classic.table import start
from kiosk.service import GameService
from kiosk.store import Store
from ui.handheld.classic.api import ClassicApi
from ui.handheld.darts.api import DartsApi
from ui.handheld.darts.host import HostDesk
from ui.handheld.seats import Seats
from ui.handheld.server import build_app, runner_options
from ui.handheld.throttle import GuessThrottle


async def _desk_client(service: GameService):
    api = Seats(service, GuessThrottle())
    darts = DartsApi(api)
    desk = HostDesk(darts)
    rooms = PhoneRooms(service.store, asyncio.get_running_loop(), classic_computer, pace=ShotPace(shot=0))
    classic = ClassicApi(api, rooms)
    desk.team_url = lambda team: (
        f"http://kiosk/team/{api.tokens.teams[team]}" if api.tokens and not api.linkless(team) else None
    )
    server = TestServer(build_app(api, darts, classic, desk))
    await server.start_server(**runner_options())
    client = TestClient(server)
    await client.start_server()
    return client, api, desk


async def test_the_desk_shows_a_classic_duel_and_moves_either_side(tmp_path):
    service = GameService(Store(tmp_path / "d.db"))
    start(service, Setup(Mode.DUEL, ("Ann", "Bo")), random.Random(3))
    match = service.match
    client, api, desk = await _desk_client(service)
    try:
        text = await (await client.get(desk.path())).text()
        assert "No game is running" not in text and "Ann" in text and "Bo" in text
        assert api.tokens.teams[0] in text and api.tokens.teams[1] not in text  # one at a time
        squares = {s.code for side in (0, 1) for s in match.fleet(side).cells}
        shown = set(re.findall(r"\b[A-J](?:10|[1-9])\b", re.sub(r"<svg.*?</svg>", "", text)))
        assert not shown & squares
        old = api.tokens.teams
        for team in (0, 1):
            moved = await client.post(f"{desk.path()}/move", data={"team": str(team)}, allow_redirects=False)
            assert moved.status == 303, await moved.text()
            assert api.tokens.teams[team] != old[team]
            page = await (await client.get(f"{desk.path()}?team={team}")).text()
            assert api.tokens.teams[team] in page
        assert (await client.get(f"/api/classic/team/{old[0]}")).status == 404
    finally:
        await client.close()


async def test_a_form_that_is_not_utf8_is_refused_not_a_failure(tmp_path):
    service = GameService(Store(tmp_path / "d.db"))
    start(service, Setup(Mode.DUEL, ("Ann", "Bo")), random.Random(3))
    client, _api, desk = await _desk_client(service)
    try:
        answer = await client.post(
            f"{desk.path()}/move",
            data=b"team=\xff\xfe",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert answer.status == 400
    finally:
        await client.close()
