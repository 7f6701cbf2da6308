"""The host's desk of a headless kiosk: links for the phones, the next game, nothing secret."""

from __future__ import annotations

import re

from aiohttp.test_utils import TestClient, TestServer

from kiosk.darts.fleet import parse_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import HouseRules, KioskSeat, Next, Phase, Setup, Team, Throw
from kiosk.scatter import Skill
from tests.clocks import guard_next
from tests.ui.conftest_handheld import FLEET_A, FLEET_B, make_service, new_game, place
from ui.handheld.darts.api import DartsApi
from ui.handheld.darts.host import HostDesk
from ui.handheld.seats import Seats
from ui.handheld.server import build_app, runner_options
from ui.handheld.throttle import GuessThrottle


async def _desk_client(service, thrower=None):
    api = Seats(service, GuessThrottle())
    darts = DartsApi(api)
    desk = HostDesk(darts, thrower)
    desk.team_url = lambda team: (
        f"http://kiosk/team/{api.tokens.teams[team]}" if api.tokens and not api.linkless(team) else None
    )
    desk.spectator_url = lambda: "http://kiosk/watch"
    server = TestServer(build_app(api, darts, desk))
    await server.start_server(**runner_options())
    client = TestClient(server)
    await client.start_server()
    return client, api, desk


async def test_wrong_secret_gets_nothing(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    client, _api, desk = await _desk_client(service)
    try:
        near = desk.secret[:-1] + ("B" if desk.secret.endswith("A") else "A")  # one letter off
        for guess in ("x", near, "a" * 200):
            response = await client.get(f"/host/{guess}")
            assert response.status in (404, 429)
            assert desk.secret not in await response.text()
    finally:
        await client.close()


async def test_desk_shows_links_but_no_fleet_and_starts_the_next_game(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    client, api, desk = await _desk_client(service)
    try:
        page = await client.get(desk.path())
        text = await page.text()
        assert page.status == 200 and "form-action 'self'" in page.headers["Content-Security-Policy"]
        # One team's code at a time, as on the touchscreen's hand-over: the Sharks' first, the
        # Jets' when asked for or once a phone holds the Sharks' link.
        assert api.tokens.teams[0] in text and api.tokens.teams[1] not in text
        assert "<svg" in text and "Next game" not in text
        jets = await (await client.get(desk.path() + "?team=1")).text()
        assert api.tokens.teams[1] in jets and api.tokens.teams[0] not in jets
        assert (await client.get(f"/api/team/{api.tokens.teams[0]}")).status == 200
        text = await (await client.get(desk.path())).text()
        assert api.tokens.teams[0] not in text and api.tokens.teams[1] in text
        assert "Move to another phone" in text
        refused = await client.post(desk.path() + "/next", allow_redirects=False)
        assert refused.status == 409 and service.game == api.tokens.game

        board = service.match.board
        for team, fleet in ((0, FLEET_A), (1, FLEET_B)):
            place(service, team, parse_fleet(fleet, board, service.match.setup.rules.fleet))
        text = await (await client.get(desk.path())).text()
        for team in (0, 1):
            for cell in service.match.fleet(team).cells:
                assert not re.search(rf"\b{cell.code}\b", text), cell.code
        # Play the game out: the Sharks sink everything while the Jets pass.
        if service.match.phase is Phase.BULL_OFF:
            from kiosk.board import BullZone
            from kiosk.darts.match import BullOffDart

            service.submit(BullOffDart(0, BullZone.INNER))
            service.submit(BullOffDart(1, BullZone.OTHER))
        for cell in sorted(service.match.fleet(1).cells, key=lambda c: c.code):
            if service.match.turn == 1 or service.match.phase is Phase.TAKEOUT:
                service.submit(Next())
                if service.match.turn == 1:
                    service.submit(Next())
            service.submit(Throw(cell))
        assert service.match.phase is Phase.OVER
        old_game, old_tokens = service.game, api.tokens
        page = await client.get(desk.path())
        assert "Next game, same teams" in await page.text()
        moved = await client.post(desk.path() + "/next", allow_redirects=False)
        assert moved.status == 303 and moved.headers["Location"] == desk.path()
        assert service.game != old_game and service.match.phase is Phase.PLACING
        assert api.tokens.teams[0] != old_tokens.teams[0]
        assert (await client.get(f"/api/team/{old_tokens.teams[0]}")).status == 404
    finally:
        await client.close()


async def test_solo_desk_offers_no_link_for_the_kiosk(tmp_path):
    service = make_service(tmp_path)
    service.new_game(
        DARTS,
        Setup((Team("Sharks", ("Ann",)), Team("Kiosk", ("Kiosk",))), HouseRules(), KioskSeat(1, Skill.PUB)),
    )
    client, api, desk = await _desk_client(service)
    try:
        text = await (await client.get(desk.path())).text()
        assert api.tokens.teams[0] in text and api.tokens.teams[1] not in text
        assert "the kiosk plays" in text
    finally:
        await client.close()


def first_visit(tmp_path):
    """A kiosk's dart game with both fleets in and the bull-off (if the rules hold one) thrown:
    the first visit is up."""
    from kiosk.board import BullZone
    from kiosk.darts.match import BullOffDart

    service = make_service(tmp_path)
    new_game(service)
    board = service.match.board
    for team, fleet in ((0, FLEET_A), (1, FLEET_B)):
        place(service, team, parse_fleet(fleet, board, service.match.setup.rules.fleet))
    if service.match.phase is Phase.BULL_OFF:
        service.submit(BullOffDart(0, BullZone.INNER))
        service.submit(BullOffDart(1, BullZone.OTHER))
    return service


async def test_last_darts_survive_a_restart_of_the_kiosk(tmp_path):
    """The desk of a kiosk started again (kill -9, a power cut) lists the darts thrown before,
    corrected and undone as they were, not an empty list until the next dart."""
    from kiosk.darts.match import Correct, Undo

    service = first_visit(tmp_path)
    parse_cell = service.match.board.parse
    for code in ("T5", "S11", "D7"):
        service.submit(Throw(parse_cell(code)))
    service.submit(Correct(parse_cell("D8")))
    service.submit(Next())
    service.submit(Throw(parse_cell("T9")))
    service.submit(Undo())
    service.submit(Throw(parse_cell("S12")))
    client, _api, desk = await _desk_client(service)
    try:
        before = desk.recent
    finally:
        await client.close()
    assert len(before) == 4

    again = make_service(tmp_path)
    assert again.resume()
    client, _api, desk = await _desk_client(again)
    try:
        assert desk.recent == before
        text = await (await client.get(desk.path())).text()
        assert "<h2>Last darts</h2>" in text
        listed = text.split("<h2>Last darts</h2>", 1)[1].split("</section>", 1)[0]  # not the page's
        # secret in its links, which may hold any two letters
        assert "S12" in listed and "D8" in listed and "D7" not in listed and "T9" not in listed
    finally:
        await client.close()


def at_takeout(service):
    """The first visit's three darts thrown: the takeout is up."""
    for code in ("T5", "S11", "D7"):
        service.submit(Throw(service.match.board.parse(code)))
    assert service.match.phase is Phase.TAKEOUT
    return service


async def test_a_double_tapped_next_ends_one_visit_not_two(tmp_path):
    """Next's form says which visit it was pressed for: its second tap (or a page not yet
    refreshed) would end the next team's visit with misses before a dart; the dart game's guard
    refuses it (kiosk/darts/double_next.py), and the desk says so, not sent."""
    service = first_visit(tmp_path)
    clock = guard_next(service)
    at_takeout(service)
    client, _api, desk = await _desk_client(service)
    try:
        page = await (await client.get(desk.path())).text()
        shown = re.search(r"action='[^']*/visit'><input type='hidden' name='visit' value='(\d+)'>", page)
        assert shown is not None and shown[1] == str(service.match.state().visit)
        visit = service.match.state().visit
        first = await client.post(desk.path() + "/visit", data={"visit": shown[1]}, allow_redirects=False)
        assert first.status == 303
        assert service.match.phase is Phase.THROWING and service.match.state().visit == visit + 1
        second = await client.post(desk.path() + "/visit", data={"visit": shown[1]}, allow_redirects=False)
        assert second.status == 409
        assert "That Next was for a visit already over" in await second.text()
        # The second tap after the page showed the new visit: its form is right, but it came
        # at once, before a dart: a double tap too.
        now = {"visit": str(visit + 1)}
        quick = await client.post(desk.path() + "/visit", data=now, allow_redirects=False)
        assert quick.status == 409 and "Next came twice at once" in await quick.text()
        state = service.match.state()
        assert state.phase is Phase.THROWING and state.visit == visit + 1 and state.dart == 1
        assert state.darts == (3, 0)  # the Jets' visit not padded with misses
        clock.advance(2)  # a while later
        # The Next of the visit in play is taken, and so is one from a page without the field.
        taken = await client.post(desk.path() + "/visit", data=now, allow_redirects=False)
        assert taken.status == 303 and service.match.state().visit == visit + 2
        clock.advance(2)
        bare = await client.post(desk.path() + "/visit", allow_redirects=False)
        assert bare.status == 303 and service.match.state().visit == visit + 3
        for garbled in ("x", "-1", "٣", "1.5"):
            form = {"visit": garbled}
            refused = await client.post(desk.path() + "/visit", data=form, allow_redirects=False)
            assert refused.status == 400 and service.match.state().visit == visit + 3, garbled
    finally:
        await client.close()


async def test_with_a_board_that_takes_out_the_desk_says_the_cameras_end_the_visit(tmp_path):
    """A camera scorer ends the visit when the darts are pulled out (docs/autodarts.md): the
    desk said "Pull the darts out, then Next" as for a board whose visits end with Next."""
    from hardware.autodarts import AutodartsBoard

    service = at_takeout(first_visit(tmp_path))
    client, _api, desk = await _desk_client(service)
    try:
        page = await (await client.get(desk.path())).text()
        assert "Pull the darts out, then Next." in page
        cameras = AutodartsBoard("http://127.0.0.1:3180", lambda _event: None)
        service.board_takes_out = lambda: cameras.takes_out
        page = await (await client.get(desk.path())).text()
        assert "Pull the darts out: the cameras end the visit. Next: " in page
        assert "then Next" not in page
    finally:
        await client.close()


async def test_a_board_that_has_not_told_its_rings_is_said_on_the_desk(tmp_path):
    """A serial board in dialect auto that has sent nothing yet (qa9: a new dARts board): the
    touchscreen's New game says so, and so does the host's desk, the only screen of a
    phones-only kiosk, beside its New game."""
    from hardware.serial_reader import SerialReader

    service = make_service(tmp_path)
    new_game(service)
    client, _api, desk = await _desk_client(service)
    try:
        page = await (await client.get(desk.path())).text()
        assert "id='rings'" not in page
        silent = SerialReader("loop://", lambda _event: None)  # auto, no line heard yet
        service.board_rings_told = lambda: silent.rings_told
        page = await (await client.get(desk.path())).text()
        assert "Board: not told yet. Throw one dart at the board first" in page
        assert page.index("id='rings'") < page.index("id='new'")
    finally:
        await client.close()


def _status(service, game: int) -> str:
    return service.store.db.execute("SELECT status FROM games WHERE id=?", [game]).fetchone()[0]


async def test_a_new_game_over_one_in_play_is_asked_first_and_needs_that_game_s_confirmation(tmp_path):
    """The desk's New game over an unfinished game answers the question (409), not a new
    game; a confirmation naming another game (stale, replayed, guessed) is asked again; only
    the one naming the game in play ends it (stored abandoned) and starts the next."""
    service = make_service(tmp_path)
    new_game(service)
    board = service.match.board
    for team, fleet in ((0, FLEET_A), (1, FLEET_B)):
        place(service, team, parse_fleet(fleet, board, service.match.setup.rules.fleet))
    client, _api, desk = await _desk_client(service)
    try:
        first = service.game
        page = await (await client.get(desk.path())).text()
        assert "New game, same teams" in page
        asked = await client.post(desk.path() + "/next", allow_redirects=False)
        text = await asked.text()
        assert asked.status == 409 and service.game == first
        assert "Dart game in play: Sharks v Jets" in text
        assert "Start a new game? The one in play ends with no winner." in text
        assert "Keep playing" in text and f"name='confirm' value='{first}'" in text
        assert "host.js" not in text  # the question is not reloaded (nor posted again) by itself
        for wrong in ("", "yes", str(first + 1), "1" * 200):
            again = await client.post(desk.path() + "/next", data={"confirm": wrong}, allow_redirects=False)
            assert again.status == 409 and service.game == first, wrong
        assert _status(service, first) == "playing"
        started = await client.post(
            desk.path() + "/next", data={"confirm": str(first)}, allow_redirects=False
        )
        assert started.status == 303 and started.headers["Location"] == desk.path()
        assert service.game != first and service.match.phase is Phase.PLACING
        assert [t.name for t in service.match.teams] == ["Sharks", "Jets"]
        assert _status(service, first) == "abandoned"
        # The old game's confirmation, replayed, asks about the new game instead.
        replayed = await client.post(
            desk.path() + "/next", data={"confirm": str(first)}, allow_redirects=False
        )
        assert replayed.status == 409 and "Dart game in play" in await replayed.text()
    finally:
        await client.close()
