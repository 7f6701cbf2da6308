"""The host's desk decides everything the touchscreen would: who was closer (seeing where each
dart landed), Next, Undo, Correct, darts from the throw pad in simulator mode, moving a team to
another phone. Never a cell of a fleet that is not public."""

from __future__ import annotations

import random
import re

from aiohttp.test_utils import TestClient

from hardware.simulator import SimulatedBoard
from kiosk.darts.kind import DARTS
from kiosk.darts.match import HouseRules, Phase, Setup, Team
from tests.ui.conftest_handheld import (
    FLEET_A,
    FLEET_B,
    RULES,
    fleet,
    fleet_cells,
    make_service,
    new_game,
    place,
)
from tests.ui.test_handheld_host import _desk_client


async def _desk(tmp_path, *, placed: tuple[int, ...] = (0, 1), simulator: bool = True):
    """A game with these teams' fleets in, and the desk (with the simulator's throw pad)."""
    service = make_service(tmp_path)
    new_game(service)
    for team, text in ((0, FLEET_A), (1, FLEET_B)):
        if team in placed:
            place(service, team, fleet(text))
    # The simulator's darts go straight to the service, as the kiosk's queue would take them.
    thrower = SimulatedBoard(service.handle_input, rng=random.Random(4)) if simulator else None
    client, api, desk = await _desk_client(service, thrower)
    return service, client, api, desk


async def _post(client, desk, action: str, **form: str):
    return await client.post(f"{desk.path()}/{action}", data=form, allow_redirects=False)


def _words(page: str) -> str:
    return re.sub(r"<[^>]+>", " ", page)


async def test_a_bull_off_decided_at_the_desk_from_where_the_darts_landed(tmp_path):
    service, client, _api, desk = await _desk(tmp_path)
    try:
        for cell in ("S20", "T3"):
            thrown = await _post(client, desk, "throw", cell=cell)
            assert thrown.status == 303
        assert service.match.bull_off_undecided
        page = _words(await (await client.get(desk.path())).text())
        assert "S20 – not the bull" in page and "T3 – not the bull" in page
        assert "who was closer?" in page
        # The pad is closed while the question is open: darts would change nothing.
        assert (await _post(client, desk, "throw", cell="BULL")).status == 303
        assert service.match.bull_off_undecided
        assert (await _post(client, desk, "closer", team="7")).status == 400
        assert (await _post(client, desk, "closer", team="1")).status == 303
        assert service.match.phase is Phase.THROWING and service.match.turn == 1
    finally:
        await client.close()


async def test_next_undo_correct_and_the_pad(tmp_path):
    service, client, _api, desk = await _desk(tmp_path)
    try:
        await _post(client, desk, "virtual")  # the bull-off: a virtual dart at the bull
        assert service.match.bull_off_zones()[0] is not None
        await _post(client, desk, "throw", cell="D1")  # the Jets' dart, well off the bull
        if service.match.bull_off_undecided:  # the virtual dart missed the bull as well
            await _post(client, desk, "closer", team="0")
        team = service.match.turn
        assert service.match.phase is Phase.THROWING
        bad = await _post(client, desk, "throw", cell="T21")
        assert bad.status == 400 and "T21" in await bad.text()
        assert (await _post(client, desk, "throw", cell="t20")).status == 303
        assert service.match.last_dart().code == "T20"
        assert "T20" in _words(await (await client.get(desk.path())).text())  # last darts
        assert (await _post(client, desk, "correct", cell="T1")).status == 303
        assert service.match.last_dart().code == "T1"
        assert (await _post(client, desk, "correct", cell="nope")).status == 400
        assert (await _post(client, desk, "undo")).status == 303
        assert service.match.last_dart() is None
        assert (await _post(client, desk, "undo")).status == 409  # nothing left to take back
        assert (await _post(client, desk, "visit")).status == 303  # Next: misses padded
        assert service.match.tally(team).darts == 3 and service.match.turn == 1 - team
        # Virtual throws aim at a cell not shot yet; each is a dart.
        for _ in range(3):
            await _post(client, desk, "virtual")
        assert service.match.phase is Phase.TAKEOUT
        # A fourth dart of the visit (a tap that came late): said, not counted, not sent on.
        darts = len(service.match.log)
        for action, form in (("throw", {"cell": "T5"}), ("virtual", {})):
            late = await _post(client, desk, action, **form)
            assert late.status == 409 and "the visit is over" in _words(await late.text())
        assert len(service.match.log) == darts and service.match.phase is Phase.TAKEOUT
        assert (await _post(client, desk, "visit")).status == 303
        assert service.match.phase is Phase.THROWING and service.match.turn == team
    finally:
        await client.close()


async def test_without_the_simulator_the_pad_is_not_there(tmp_path):
    service, client, _api, desk = await _desk(tmp_path, simulator=False)
    try:
        assert "Score a dart (manual scoring)" not in await (await client.get(desk.path())).text()
        refused = await _post(client, desk, "throw", cell="T20")
        assert refused.status == 409 and service.match.darts_thrown == 0
    finally:
        await client.close()


async def test_moving_a_team_from_the_desk_shows_its_new_code_only(tmp_path):
    _service, client, api, desk = await _desk(tmp_path, placed=(0,))
    phone = TestClient(client.server)
    await phone.start_server()
    try:
        old = api.tokens.teams[0]
        assert (await phone.get(f"/api/team/{old}")).status == 200
        moved = await _post(client, desk, "move", team="0")
        assert moved.status == 303
        page = await (await client.get(moved.headers["Location"])).text()
        new = api.tokens.teams[0]
        assert new != old and new in page and old not in page
        assert api.tokens.teams[1] not in page  # the Jets' code is not on the Sharks' step
        assert (await phone.get(f"/api/team/{old}")).status == 404
        assert (await _post(client, desk, "move", team="5")).status == 409  # no such team
    finally:
        await phone.close()
        await client.close()


async def test_the_desk_never_shows_a_fleet_cell_that_is_not_public(tmp_path):
    service, client, _api, desk = await _desk(tmp_path)
    try:
        for cell in ("S20", "T3"):  # the bull-off
            await _post(client, desk, "throw", cell=cell)
        await _post(client, desk, "closer", team="0")
        for cell in ("S3", "D5", "MISS"):  # the Sharks hit the Jets' S3 and miss twice
            await _post(client, desk, "throw", cell=cell)
        page = await (await client.get(desk.path())).text()
        shot = {c.code for team in (0, 1) for c in service.match.shots(team)}
        hidden = (fleet_cells(FLEET_A) | fleet_cells(FLEET_B)) - shot
        words = _words(page)
        # Whole codes only: a link's random token may hold "L4" inside it.
        assert not [c for c in hidden if re.search(rf"(?<![A-Za-z0-9_-]){c}(?![A-Za-z0-9_-])", words)]
        assert "S3" in words  # a hit is announced to the whole bar
    finally:
        await client.close()


async def test_a_team_that_placed_without_a_phone_gets_a_code_only_when_asked(tmp_path):
    """Whoever scanned a placed team's code would see its fleet: the desk shows it only after
    the host asks (Play on a phone: a new link)."""
    _service, client, api, desk = await _desk(tmp_path, placed=(0,))
    try:
        page = await (await client.get(desk.path())).text()
        assert api.tokens.teams[0] not in page and api.tokens.teams[1] in page
        assert "Play on a phone" in page
        given = await _post(client, desk, "move", team="0")
        page = await (await client.get(given.headers["Location"])).text()
        assert api.tokens.teams[0] in page and api.tokens.teams[1] not in page
    finally:
        await client.close()


async def test_last_darts_show_a_corrected_dart_as_corrected(tmp_path):
    service, client, _api, desk = await _desk(tmp_path)
    try:
        await _post(client, desk, "throw", cell="DB")  # the bull-off: inner bull, then outer
        await _post(client, desk, "throw", cell="SB")
        assert service.match.phase is Phase.THROWING
        assert (await _post(client, desk, "throw", cell="T20")).status == 303
        assert "T20" in desk.recent[0]
        assert (await _post(client, desk, "correct", cell="D9")).status == 303
        assert "D9" in desk.recent[0] and "T20" not in desk.recent[0]
        listed = re.search(
            r"<ul class='recent'>(.*?)</ul>", await (await client.get(desk.path())).text()
        ).group(1)
        assert "D9" in listed and "T20" not in listed
    finally:
        await client.close()


async def test_a_team_without_named_players_is_named_once_on_the_desk(tmp_path):
    """The status and the last darts name a team without named players once ("In play: Jets,
    dart 1", "Jets: T20 HIT"), as the scoreboard and the caller do; a team's named player is
    named beside it (kiosk.darts.players)."""
    service = make_service(tmp_path)
    teams = (Team("Sharks", ("Anna",)), Team("Jets", ("Jets",)))
    service.new_game(DARTS, Setup(teams, RULES.get(service, HouseRules())))
    for team, text in ((0, FLEET_A), (1, FLEET_B)):
        place(service, team, fleet(text))
    thrower = SimulatedBoard(service.handle_input, rng=random.Random(4))
    client, _api, desk = await _desk_client(service, thrower)
    try:
        await _post(client, desk, "throw", cell="SB")  # the bull-off: the Jets closer
        await _post(client, desk, "throw", cell="DB")
        assert service.match.turn == 1
        assert "In play: Jets, dart 1" in _words(await (await client.get(desk.path())).text())
        await _post(client, desk, "throw", cell="T20")
        assert desk.recent[0].startswith("Jets: T20 ")
        for cell in ("MISS", "MISS"):
            await _post(client, desk, "throw", cell=cell)
        await _post(client, desk, "visit")
        await _post(client, desk, "throw", cell="S1")
        assert desk.recent[0].startswith("Sharks · Anna: S1 ")
        assert "In play: Sharks (Anna), dart 2" in _words(await (await client.get(desk.path())).text())
    finally:
        await client.close()
