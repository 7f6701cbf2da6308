"""One phone per team link, through the API: the first phone to use a link holds it, any other
device gets nothing private, a restart changes nothing, Move cuts the old phone off at once;
"who was closer?" and Next from the phones."""

from __future__ import annotations

import json

import pytest
from aiohttp import WSServerHandshakeError

from kiosk.board import BullZone, board_for
from kiosk.darts.match import Phase
from kiosk.inputs import DartInput
from tests.clocks import guard_next
from tests.ui.conftest_handheld import (
    FLEET_A,
    FLEET_B,
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
from ui.handheld.phones import COOKIE

A_CELLS = fleet_cells(FLEET_A)


def link(api, team: int) -> str:
    return f"/api/team/{api.tokens.teams[team]}"


async def test_the_first_phone_holds_the_link_and_another_sees_nothing_private(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    place(service, 0, fleet(FLEET_A))  # the Sharks' fleet is in: a leak would show its cells
    async with api_phones(service) as ((sharks, stranger), api):
        first = await sharks.get(link(api, 0))
        assert first.status == 200
        cookie = first.headers["Set-Cookie"]
        assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie
        assert "SameSite=Strict" in cookie and "Path=/" in cookie and "Max-Age=" in cookie
        assert cells_in(await first.text(), A_CELLS) == A_CELLS

        seen = []
        for method, path, body in (
            ("GET", link(api, 0), None),
            ("POST", link(api, 0) + "/random", None),
            ("POST", link(api, 0) + "/fleet", fleet_json(FLEET_B)),
            ("DELETE", link(api, 0) + "/fleet", None),
            ("POST", link(api, 0) + "/next", {}),
            ("POST", link(api, 0) + "/closer", {"team": 0}),
        ):
            response = await stranger.request(method, path, json=body)
            assert response.status == 403, path
            answer = await response.json()
            assert answer["error"] == "other_phone" and "view" not in answer
            assert "Set-Cookie" not in response.headers or COOKIE not in response.headers.get(
                "Set-Cookie", ""
            )
            seen.append(await response.text())
        with pytest.raises(WSServerHandshakeError) as refused:
            await stranger.ws_connect(link(api, 0) + "/ws")
        assert refused.value.status == 403
        assert cells_in("\n".join(seen), A_CELLS) == set()
        # Nothing the stranger sent changed anything; the Sharks' phone works on.
        assert service.match.fleet(0) == fleet(FLEET_A) and service.match.state().placed[0]
        assert (await sharks.get(link(api, 0))).status == 200


async def test_one_phone_cannot_hold_both_teams(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_phones(service) as ((sharks, jets), api):
        assert (await sharks.get(link(api, 0))).status == 200
        other = await sharks.get(link(api, 1))
        assert other.status == 403 and (await other.json())["error"] == "other_team"
        assert (await jets.get(link(api, 1))).status == 200  # the Jets' link was still free


async def test_a_forged_or_garbled_cookie_is_no_key(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_phones(service) as ((sharks, forger), api):
        assert (await sharks.get(link(api, 0))).status == 200
        for value in ("x", "a" * 300, "../../etc", "ünï-cödé-but-long-enough"):
            forger.session.cookie_jar.clear()
            forger.session.cookie_jar.update_cookies({COOKIE: value})
            response = await forger.get(link(api, 0))
            assert response.status == 403


async def test_the_phone_still_holds_its_link_after_a_restart(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_phones(service) as ((sharks, _other), api):
        assert (await sharks.get(link(api, 0))).status == 200
        key = sharks.session.cookie_jar.filter_cookies(sharks.make_url("/"))[COOKIE].value
        tokens = api.tokens.teams
    service.store.close()
    again = make_service(tmp_path)  # the kiosk starts again on the same database
    assert again.resume()
    async with api_phones(again) as ((sharks, stranger), api):
        assert api.tokens.teams == tokens
        sharks.session.cookie_jar.update_cookies({COOKIE: key})  # the phone kept its cookie
        assert (await sharks.get(link(api, 0))).status == 200
        assert (await stranger.get(link(api, 0))).status == 403


async def test_move_cuts_the_old_phone_off_at_once(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    place(service, 0, fleet(FLEET_A))
    async with api_phones(service, count=3) as ((old, new, someone), api):
        old_link = link(api, 0)
        assert (await old.get(old_link)).status == 200
        socket = await old.ws_connect(old_link + "/ws")
        assert json.loads((await socket.receive(timeout=5)).data)["type"] == "view"
        assert api.phone_held(0)
        moved = api.move(0, by="test")
        assert moved is not None and not api.phone_held(0)
        # The open socket hears it and is closed; the old link is dead for everyone.
        assert json.loads((await socket.receive(timeout=5)).data) == {"type": "moved"}
        await socket.receive(timeout=5)
        assert socket.closed
        assert (await old.get(old_link)).status == 404
        # The new link belongs to the first phone that uses it, and only to it.
        new_link = link(api, 0)
        assert new_link != old_link
        answer = await new.get(new_link)
        assert answer.status == 200 and cells_in(await answer.text(), A_CELLS) == A_CELLS
        for other in (old, someone):
            assert (await other.get(new_link)).status == 403
        assert service.store.phones.links(service.game)[0] == api.tokens.teams[0]  # kept for a restart
        assert api.move(5, by="test") is None


def _placed(tmp_path, chosen=None):
    """A kiosk's dart game with both fleets in."""
    service = make_service(tmp_path, chosen)
    new_game(service)
    place(service, 0, fleet(FLEET_A))
    place(service, 1, fleet(FLEET_B))
    return service


async def test_who_was_closer_from_both_phones(tmp_path):
    service = _placed(tmp_path)
    board = board_for()
    async with api_phones(service) as ((sharks, jets), api):
        early = await sharks.post(link(api, 0) + "/closer", json={"team": 0})
        assert early.status == 409 and (await early.json())["error"] == "not_asked"
        service.handle_input(DartInput(board.parse("S20"), "S20", BullZone.OTHER))
        service.handle_input(DartInput(board.parse("S3"), "S3", BullZone.OTHER))
        assert service.match.bull_off_undecided
        for bad in ({"team": 2}, {"team": "0"}, {"team": True}, [0], {}):
            response = await sharks.post(link(api, 0) + "/closer", json=bad)
            assert response.status == 400, bad
        said = await sharks.post(link(api, 0) + "/closer", json={"team": 0})
        body = await said.json()
        assert said.status == 200 and body["vote"] == "waiting"
        assert body["view"]["closer_votes"] == [0, None]
        assert body["view"]["bull_off"]["darts"][1] == {"zone": "other", "cell": "S3"}
        differ = await jets.post(link(api, 1) + "/closer", json={"team": 1})
        assert (await differ.json())["vote"] == "disagree" and service.match.bull_off_undecided
        agree = await jets.post(link(api, 1) + "/closer", json={"team": 0})
        assert (await agree.json())["vote"] == "decided"
        assert service.match.phase is Phase.THROWING and service.match.turn == 0


async def test_next_only_from_the_phone_of_the_team_whose_visit_it_is(tmp_path):
    service = _placed(tmp_path, settings(rules__bull_off="off"))
    async with api_phones(service) as ((sharks, jets), api):
        for phone in (sharks, jets):
            assert (await phone.get(link(api, 0 if phone is sharks else 1))).status == 200
        refused = await jets.post(link(api, 1) + "/next", json={})
        assert refused.status == 409 and (await refused.json())["error"] == "not_your_visit"
        assert service.match.turn == 0 and service.match.darts_thrown == 0
        service.handle_input(DartInput(board_for().parse("D3"), "D3"))
        early = await sharks.post(link(api, 0) + "/next", json={})  # a bounce-out: end it
        assert early.status == 200
        assert service.match.tally(0).darts == 3 and service.match.turn == 1
        view = (await early.json())["view"]
        assert view["state"]["turn"] == 1 and view["you"] == 0


async def test_next_from_the_phones_twice_ends_one_visit(tmp_path):
    """The phones' Next says which visit it is for; the dart game's guard refuses a Next for a
    visit already over and one that comes at once after the last (here: the Jets' phone just
    after the Sharks'), so the Jets' visit is not ended with misses before they throw."""
    service = _placed(tmp_path, settings(rules__bull_off="off"))
    clock = guard_next(service)
    board = board_for()
    async with api_phones(service) as ((sharks, jets), api):
        for phone, team in ((sharks, 0), (jets, 1)):
            assert (await phone.get(link(api, team))).status == 200
        for code in ("S1", "S2", "S3"):
            service.handle_input(DartInput(board.parse(code), code))
        assert service.match.phase is Phase.TAKEOUT
        taken = await sharks.post(link(api, 0) + "/next", json={"visit": 1})
        assert taken.status == 200 and (await taken.json())["view"]["state"]["visit"] == 2
        # The Sharks' phone again: its visit is over (the guard's words), not "not your visit".
        again = await sharks.post(link(api, 0) + "/next", json={"visit": 1})
        body = await again.json()
        assert again.status == 409 and body["error"] == "refused"
        assert body["message"] == "That Next was for a visit already over: nothing was changed."
        # A Next for the visit in play from the phone of the team not throwing: not theirs.
        other = await sharks.post(link(api, 0) + "/next", json={"visit": 2})
        assert other.status == 409 and (await other.json())["error"] == "not_your_visit"
        quick = await jets.post(link(api, 1) + "/next", json={"visit": 2})
        body = await quick.json()
        assert quick.status == 409 and body["error"] == "refused"
        assert body["message"].startswith("Next came twice at once")
        old = await jets.post(link(api, 1) + "/next", json={"visit": 1})
        assert old.status == 409 and "visit already over" in (await old.json())["message"]
        for bad in ({"visit": "2"}, {"visit": True}, {"visit": -1}, {"visit": 2.0}, [2]):
            response = await jets.post(link(api, 1) + "/next", json=bad)
            assert response.status == 400 and (await response.json())["error"] == "bad_shape", bad
        state = service.match.state()
        assert state.visit == 2 and state.dart == 1 and state.darts == (3, 0)
        clock.advance(2)  # a while later: the Jets end their visit early, on purpose
        early = await jets.post(link(api, 1) + "/next", json={"visit": 2})
        assert early.status == 200 and service.match.state().darts == (3, 3)
        clock.advance(2)
        bare = await sharks.post(link(api, 0) + "/next")  # a page older than the field: no body
        assert bare.status == 200 and service.match.state().visit == 4
