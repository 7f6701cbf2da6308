"""Every refusal the phones' server sends a phone is in that phone's language (its
Accept-Language; a socket the language of the request that opened it), on a Finnish kiosk: the
dart game's team routes, the host's desk, the classic solo, room and daily routes, their sockets,
the rules' own words ("T21 is not a cell", "a ship has a gap"). A phone without a language of
ours gets the kiosk's. The kiosk itself (its listeners: the screen, the journal, the caller)
hears the kiosk's language whatever the phone that caused it speaks.

Each expected text is made by the kiosk's own code in that language (`speaking`), so the
catalogs, not this file, say what German is."""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from aiohttp import WSMsgType

from hardware.speaker import SimulatedSpeaker, write_silence
from kiosk.board import board_for
from kiosk.caller import Caller
from kiosk.classic.fleet import CLASSES, Fleet, parse_ship
from kiosk.classic.grid import parse_square
from kiosk.classic.match import Fire
from kiosk.darts.double_next import NextGuard
from kiosk.darts.fleet import make_fleet, make_ship
from kiosk.darts.kind import DARTS
from kiosk.i18n import _, language, speaking
from kiosk.rooms import in_play
from kiosk.service import Notice
from kiosk.speech import Words
from tests.ui.conftest_classic import classic_phones, ok, play_match, settle, water
from tests.ui.conftest_handheld import (
    FLEET_A,
    FLEET_B,
    api_phones,
    disk_full,
    finnish_kiosk,  # noqa: F401 - a fixture
    fleet,
    fleet_json,
    make_service,
    new_game,
    place,
    settings,
)
from tests.ui.test_handheld_host import _desk_client
from tests.waits import PATIENCE
from ui.handheld.classic.api import StartLimits

GERMAN = {"Accept-Language": "de-CH,de;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
SWEDISH = {"Accept-Language": "sv-SE,sv;q=0.9"}  # none of ours: the kiosk's


pytestmark = pytest.mark.usefixtures("finnish_kiosk")


def said(lang: str, make: Callable[[], object]) -> str:
    """What the kiosk's own code says in `lang`: `make`'s text, or the message it raises."""
    with speaking(lang):
        try:
            return str(make())
        except Exception as err:
            return str(err)


def german(make: Callable[[], object]) -> str:
    """`make`'s text in German, which must not be the Finnish kiosk's (else the test says nothing)."""
    text = said("de", make)
    assert text != said("fi", make), text
    return text


async def refusal(response, status: int, code: str) -> str:
    assert response.status == status, (response.status, await response.text())
    body = await response.json()
    assert body["error"] == code, body
    return body["message"]


# ---- the dart game's team routes -------------------------------------------------------------


async def test_a_german_phone_hears_every_refusal_of_the_dart_game_in_german(tmp_path):
    service = make_service(tmp_path, settings(rules__bull_off="off"))
    service.host(DARTS.name, [NextGuard(service, lambda: 1.5)])
    new_game(service)
    board = board_for("four-ring")
    async with api_phones(service, count=3) as ((sharks, jets, other), api):
        sharks_link, jets_link = (f"/api/team/{api.tokens.teams[t]}" for t in (0, 1))

        async def placed(ships: object, headers: dict[str, str] = GERMAN):
            return await sharks.post(f"{sharks_link}/fleet", json={"ships": ships}, headers=headers)

        # The rules' own words: a cell that is none, a ship with a gap, the wrong lengths.
        assert await refusal(await placed([["T21", "T1"]]), 400, "bad_cell") == german(
            lambda: board.parse("T21", allow_miss=False)
        )
        gap = german(lambda: make_ship([board.parse("T20"), board.parse("T18")], board))
        assert await refusal(await placed([["T20", "T18"]]), 422, "bad_ship") == gap
        short = [make_ship([board.parse("T20"), board.parse("T1")], board)]
        assert await refusal(await placed([["T20", "T1"]]), 422, "bad_fleet") == german(
            lambda: make_fleet(short, (2, 3, 4, 5))
        )
        # The server's own: a body of the wrong shape, not JSON, not sent as JSON, too large.
        shape = german(
            lambda: _(
                'send {"ships": [["T20", "T1"], ...]}: a list of ships, each a list of 2 to 5 cell codes'
            )
        )
        assert await refusal(await placed("T20"), 400, "bad_shape") == shape
        broken = await sharks.post(
            f"{sharks_link}/fleet", data=b"{", headers={**GERMAN, "Content-Type": "application/json"}
        )
        assert await refusal(broken, 400, "bad_json") == german(lambda: _("the request is not valid JSON"))
        text = await sharks.post(f"{sharks_link}/fleet", data=b"{}", headers=GERMAN)
        assert await refusal(text, 415, "not_json") == german(
            lambda: _("send the fleet as JSON (Content-Type: application/json)")
        )
        large = await sharks.post(
            f"{sharks_link}/fleet", data=b" " * 5000, headers={**GERMAN, "Content-Type": "application/json"}
        )
        assert await refusal(large, 413, "too_large") == german(lambda: _("the request is too large"))
        # Another phone on the Sharks' link; the Sharks' phone on the Jets'.
        assert await refusal(await other.get(sharks_link, headers=GERMAN), 403, "other_phone") == german(
            lambda: _("this team is playing on another phone")
        )
        assert await refusal(await sharks.get(jets_link, headers=GERMAN), 403, "other_team") == german(
            lambda: _("this phone already plays for the other team: each team plays on its own phone")
        )
        # Nobody asks who was closer; the Jets' phone's Next in the Sharks' visit; a stale Next.
        await ok(await jets.get(jets_link))
        assert await refusal(
            await jets.post(f"{jets_link}/closer", json={"team": 0}, headers=GERMAN), 409, "not_asked"
        ) == german(lambda: _("nobody has asked who was closer"))
        place(service, 0, fleet(FLEET_A))
        place(service, 1, fleet(FLEET_B))
        assert await refusal(
            await sharks.post(f"{sharks_link}/fleet", json=fleet_json(FLEET_A), headers=GERMAN),
            409,
            "game_started",
        ) == german(lambda: _("the game has started: fleets can no longer be placed"))
        assert await refusal(
            await jets.post(f"{jets_link}/next", json={}, headers=GERMAN), 409, "not_your_visit"
        ) == german(lambda: _("Next is for the team whose visit it is"))
        stale = await sharks.post(f"{sharks_link}/next", json={"visit": 7}, headers=GERMAN)
        assert await refusal(stale, 409, "refused") == german(
            lambda: _("That Next was for a visit already over: nothing was changed.")
        )
        # The same refusal to an English phone in English, to a Swedish one in the kiosk's Finnish.
        for headers, lang in ((ENGLISH, "en"), (SWEDISH, "fi"), ({}, "fi")):
            late = await sharks.post(f"{sharks_link}/fleet", json=fleet_json(FLEET_A), headers=headers)
            assert await refusal(late, 409, "game_started") == said(
                lang, lambda: _("the game has started: fleets can no longer be placed")
            )


async def test_a_bad_cell_before_the_start_to_each_phone_in_its_language(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    board = board_for("four-ring")
    async with api_phones(service, count=1) as ((sharks,), api):
        link = f"/api/team/{api.tokens.teams[0]}/fleet"
        for headers, lang in ((GERMAN, "de"), (ENGLISH, "en"), (SWEDISH, "fi"), ({}, "fi")):
            answer = await sharks.post(link, json={"ships": [["T21", "T1"]]}, headers=headers)
            assert await refusal(answer, 400, "bad_cell") == said(
                lang, lambda: board.parse("T21", allow_miss=False)
            )


# ---- what the kiosk hears meanwhile ----------------------------------------------------------


class HeardVoice:
    """The caller's voice: every piece it is asked for, with the language asked in (silence)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.voices = {"fi": "test"}
        self.asked: list[tuple[str, str]] = []

    def find(self, words: Words, lang: str) -> Path | None:
        self.asked.append((words.text, lang))
        return write_silence(self.folder / f"{words.phrase}.wav", 0.01)

    def render(self, words: Words, lang: str) -> Path | None:
        return self.find(words, lang)

    def problem(self) -> str | None:
        return None


async def test_the_kiosk_keeps_its_language_while_a_german_phone_plays(tmp_path, caplog):
    """A German phone's Next (the caller then calls the Jets), its refusals and the host's
    abandoning from a German desk: the service's listeners run in Finnish, the caller speaks
    Finnish, the journal's notice is Finnish."""
    service = make_service(tmp_path, settings(rules__bull_off="off"))
    new_game(service)
    voice = HeardVoice(tmp_path)
    caller = Caller(service, voice, SimulatedSpeaker()).attach()
    heard: list[tuple[str, object]] = []
    service.subscribe(lambda event: heard.append((language(), event)))
    try:
        async with api_phones(service, count=1) as ((sharks,), api):
            link = f"/api/team/{api.tokens.teams[0]}"
            await sharks.post(f"{link}/fleet", json={"ships": [["T21", "T1"]]}, headers=GERMAN)
            await ok(await sharks.post(f"{link}/fleet", json=fleet_json(FLEET_A), headers=GERMAN))
            place(service, 1, fleet(FLEET_B))
            heard.clear()
            voice.asked.clear()
            await ok(await sharks.post(f"{link}/next", json={}, headers=GERMAN))
            assert caller.wait_idle(PATIENCE)
        assert heard and {lang for lang, _event in heard} == {"fi"}
        jets_up = [text for text, _lang in voice.asked]
        assert voice.asked and {lang for _text, lang in voice.asked} == {"fi"}
        assert any("Jets" in text for text in jets_up), jets_up
        with speaking("fi"):
            finnish = {text for text, _lang in voice.asked}
        with speaking("de"):
            assert not finnish & {_("to throw"), _("{team} to throw").format(team="Jets")}
    finally:
        caller.close()
    assert language() == "fi"


# ---- the host's desk ---------------------------------------------------------------------------


async def test_a_german_hosts_desk_is_german_and_the_kiosk_hears_finnish(tmp_path):
    service = make_service(tmp_path, settings(rules__bull_off="off"))
    new_game(service)
    place(service, 0, fleet(FLEET_A))
    place(service, 1, fleet(FLEET_B))
    notices: list[str] = []
    service.subscribe(lambda event: notices.append(event.message) if isinstance(event, Notice) else None)
    client, _api, desk = await _desk_client(service)
    board = service.match.board
    try:
        page = await (await client.get(desk.path(), headers=GERMAN)).text()
        assert german(lambda: _("Phones")) in page and german(lambda: _("Undo")) in page
        finnish_page = await (await client.get(desk.path())).text()
        assert said("fi", lambda: _("Phones")) in finnish_page
        # A form's refusal: the rules' words for a cell that is none.
        corrected = await client.post(desk.path() + "/correct", data={"cell": "T99"}, headers=GERMAN)
        assert corrected.status == 400
        assert german(lambda: board.parse("T99")).replace("'", "&#x27;") in await corrected.text()
        # The question before a new game, and the game abandoned from it.
        asked = await client.post(desk.path() + "/next", data={}, headers=GERMAN)
        text = await asked.text()
        assert asked.status == 409
        assert german(lambda: _("Start a new game? The one in play ends with no winner.")) in text
        assert german(lambda: _("Keep playing")) in text
        assert html.escape(german(lambda: in_play(service))) in text  # "Sharks gegen Jets"
        game = service.game
        confirmed = await client.post(
            desk.path() + "/next", data={"confirm": str(game)}, headers=GERMAN, allow_redirects=False
        )
        assert confirmed.status == 303
        told = [n for n in notices if str(game) in n]
        assert told == [said("fi", lambda: _("game {game} abandoned").format(game=game))]
    finally:
        await client.close()


# ---- classic: solo, rooms, daily ---------------------------------------------------------------


async def test_a_german_phone_hears_the_classic_refusals_in_german(tmp_path):
    limits = StartLimits(capacity=10_000, per_minute=10_000, daily_per_address=1)
    async with classic_phones(tmp_path, 3, limits=limits) as ((owner, friend, watcher), classic):
        await ok(await owner.post("/api/classic/play/solo", json={"level": "easy"}, headers=GERMAN))
        match = play_match(classic, owner)
        # The rules' words: a square that is none, a fleet that overlaps; a square shot twice.
        cell = await owner.post("/api/classic/play/fire", json={"cell": "K11"}, headers=GERMAN)
        assert await refusal(cell, 400, "bad_cell") == german(lambda: parse_square("K11"))
        overlapping = ["A1-A5", "A1-D1", "H2-H4", "J7-J9", "E9-F9"]
        placed = await owner.post("/api/classic/play/fleet", json={"ships": overlapping}, headers=GERMAN)
        assert await refusal(placed, 422, "bad_fleet") == german(
            lambda: Fleet(tuple(parse_ship(t, k) for k, t in zip(CLASSES, overlapping, strict=True)))
        )
        target = water(match, 0)[0]
        await ok(await owner.post("/api/classic/play/fire", json={"cell": target}))
        await settle(classic)  # the computer's shot back: the owner's turn again
        twice = await owner.post("/api/classic/play/fire", json={"cell": target}, headers=GERMAN)
        assert await refusal(twice, 409, "already_fired") == german(
            lambda: match.apply(Fire(0, parse_square(target)))
        )
        # A room: the duel before the friend is Ready, the owner saying Ready, a spectator's shot.
        room = (await ok(await owner.post("/api/classic/play/room", json={})))["room"]
        token = room["link"].rsplit("/", 1)[1]
        await ok(await friend.get(f"/api/classic/r/{token}"))
        early = await owner.post("/api/classic/play/duel", json={}, headers=GERMAN)
        assert await refusal(early, 409, "refused") == german(
            lambda: _("a duel starts once your friend has tapped Ready")
        )
        assert await refusal(
            await owner.post(f"/api/classic/r/{token}/ready", json={}, headers=GERMAN), 403, "not_friend"
        ) == german(lambda: _("only the friend who joined this room can say Ready"))
        await ok(await watcher.get(f"/api/classic/r/{token}"))
        assert await refusal(
            await watcher.post(f"/api/classic/r/{token}/fire", json={"cell": "A1"}, headers=GERMAN),
            403,
            "watching",
        ) == german(lambda: _("you are watching this game"))
        # The daily: a shot before the start, a second phone of this address, a name unearned.
        assert await refusal(
            await friend.post("/api/classic/daily/fire", json={"cell": "A1"}, headers=GERMAN), 409, "no_game"
        ) == german(lambda: _("start today's challenge first"))
        await ok(await friend.post("/api/classic/daily/start", json={}, headers=GERMAN))
        assert await refusal(
            await watcher.post("/api/classic/daily/start", json={}, headers=GERMAN), 429, "daily_taken"
        ) == german(
            lambda: _(
                "today's challenge has been played from this network address already: come back tomorrow"
            )
        )
        unearned = await friend.post("/api/classic/daily/name", json={"name": "Ann"}, headers=GERMAN)
        assert await refusal(unearned, 409, "refused") == german(
            lambda: _("sink today's fleet first, then enter your name")
        )


# ---- sockets: each in the language of the request that opened it -----------------------------


async def _paused(socket) -> str:
    """The first view the socket hears that says the kiosk cannot save: why."""
    while True:
        message = await socket.receive(timeout=PATIENCE)
        assert message.type is WSMsgType.TEXT
        view = json.loads(message.data)["view"]
        if view and view["paused"]:
            return view["paused"]


async def test_each_socket_hears_the_pause_in_the_language_it_was_opened_in(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    async with api_phones(service, count=1) as ((sharks,), api):
        link = f"/api/team/{api.tokens.teams[0]}"
        await ok(await sharks.get(link))
        sockets = {
            "de": await sharks.ws_connect(f"{link}/ws", headers=GERMAN),
            "en": await sharks.ws_connect("/api/game/ws", headers=ENGLISH),
            "fi": await sharks.ws_connect("/api/game/ws"),
        }
        for socket in sockets.values():
            await socket.receive_json(timeout=PATIENCE)  # the view as it is
        with disk_full(service.store):
            refused = await sharks.post(f"{link}/fleet", json=fleet_json(FLEET_A), headers=GERMAN)
            paused = await refusal(refused, 409, "refused")  # the dart game says NotSaved so
            reasons = {lang: await _paused(socket) for lang, socket in sockets.items()}
            kiosk = service.paused
            assert kiosk is not None and reasons["fi"] == str(kiosk) and paused == reasons["de"]
            assert len(set(reasons.values())) == 3, reasons  # three languages, three texts
            for lang, reason in reasons.items():
                template = said(lang, lambda: _("cannot save: the game is paused ({reason})"))
                assert reason.startswith(template.split("{reason}")[0]), (lang, reason)
            answered = (await ok(await sharks.get(link, headers=GERMAN)))["view"]
            assert answered["paused"] == reasons["de"]
        for socket in sockets.values():
            await socket.close()
    assert language() == "fi"
