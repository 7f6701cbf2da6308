"""The whole kiosk as the composition root builds it (simulator board, buzzer, caller), headless,
with the caller's output to the journal (`caller.output = "log"`: the simulated speaker, which
takes as long as each file would). A whole dart game from the board's darts (the Sharks sink every
Jets ship; the Jets' visits are passed with Next) to the win: the calls come in the order of
the darts, each after its dart, and the win is called last."""

from __future__ import annotations

import asyncio
import logging
import shutil

import pytest

from hardware.speaker import SimulatedSpeaker
from kiosk.app.root import build_kiosk
from kiosk.board import Cell, Ring
from kiosk.caller import Caller
from kiosk.config import CallerOutput, ConfigFile, InputKind
from kiosk.darts.fleet import parse_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import BullOffMode, Phase, Place, Setup, Team, house_rules
from kiosk.house import Kiosk
from kiosk.i18n import set_language
from kiosk.inputs import Button
from kiosk.ports import PhoneServer
from tests.clocks import hand_clock_for_next
from tests.waits import eventually

SHARKS = "D20-L20-T20-S20-BULL T1-T18-T4-T13 L6-L10-L15 D3-D19"
JETS = "D5-L5-T5-S5 T11-T14-T9 S6-S10 D1-D18-D4-D13-D6"
JET_CELLS = [code for ship in JETS.split() for code in ship.split("-")]


def _cell(code: str) -> Cell:
    rings = {"T": Ring.TRIPLE, "D": Ring.DOUBLE, "S": Ring.SMALL, "L": Ring.LARGE}
    return Cell(rings[code[0]], int(code[1:]))


def phones_kiosk_config(tmp_path, language: str = "en") -> ConfigFile:
    """A headless kiosk's config whose phone page listens on a free port of 127.0.0.1 and
    whose caller says its calls in the journal."""
    return ConfigFile(
        tmp_path / "config.toml",
        {
            "board.input": InputKind.SIMULATOR,
            "web.host": "127.0.0.1",
            "web.port": 0,
            "kiosk.database": str(tmp_path / "k.db"),
            "kiosk.language": language,
            "caller.output": CallerOutput.LOG,
        },
    )


async def headless_kiosk_calling(config: ConfigFile) -> tuple[Kiosk, Caller, PhoneServer]:
    """The headless kiosk up (its phone page serving), its caller quick to say each call."""
    kiosk = await build_kiosk(config, headless=True)
    kiosk.ready()
    caller, web = kiosk.caller, kiosk.web
    assert caller is not None and web is not None and isinstance(caller.speaker, SimulatedSpeaker)
    caller.speaker.tempo = 0.02  # the journal need not wait a whole second per call
    return kiosk, caller, web


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_headless_dart_game_is_called_in_order(tmp_path, monkeypatch, caplog, language):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))  # the voice cache is here
    values = {
        "board.input": InputKind.SIMULATOR,
        "rules.bull_off": BullOffMode.OFF,
        "web.enabled": False,
        "kiosk.database": str(tmp_path / "k.db"),
        "kiosk.language": language,
        "caller.output": CallerOutput.LOG,
        "caller.say_cell": True,
    }
    config = ConfigFile(tmp_path / "config.toml", values)
    set_language(language)

    async def play() -> list[str]:
        kiosk = await build_kiosk(config)
        kiosk.ready()  # as `dartship run --headless` says once its phone page is up
        try:
            caller = kiosk.caller
            assert caller is not None and isinstance(caller.speaker, SimulatedSpeaker)
            caller.speaker.tempo = 0.02  # the journal need not wait a whole second per call
            service, board = kiosk.service, kiosk.simulator
            assert board is not None
            clock = hand_clock_for_next(service)
            rules = house_rules(kiosk.settings)
            # Teams without named players: the caller names the team alone (kiosk.darts.players).
            service.new_game(DARTS, Setup((Team("Sharks", ("Sharks",)), Team("Jets", ("Jets",))), rules))
            for team, fleet in ((0, SHARKS), (1, JETS)):
                service.submit(Place(team, parse_fleet(fleet, rules.board, rules.fleet)))
            for number, code in enumerate(JET_CELLS, start=1):
                board.land(_cell(code))  # through the board's sink, as a real dart comes
                await eventually(lambda n=number: service.match.state().darts[0] >= n, f"dart {number}")
                await eventually(caller.idle, "the caller idle")
                if service.match.phase is Phase.TAKEOUT:
                    board.press(Button.NEXT)  # the darts are out: the Jets' visit
                    await eventually(lambda: service.match.phase is Phase.THROWING, "the Jets' visit")
                    clock.advance(2)  # a while later (at once, a double Next: refused)
                    board.press(Button.NEXT)  # the Jets throw nothing: three misses, padded
                    await eventually(lambda: service.match.state().side == 0, "the Sharks' visit again")
                await eventually(caller.idle, "the caller idle")
            assert service.match.phase is Phase.OVER
            await eventually(caller.idle, "the caller idle")
            return [p.path.name for p in caller.speaker.played]
        finally:
            await kiosk.stop()
            set_language("en")

    with caplog.at_level(logging.INFO, logger="dartship.caller"):
        played = asyncio.run(play())
    said = [
        r.getMessage().split(": ", 1)[1]
        for r in caplog.records
        if r.getMessage().startswith(("caller: ", "Ansager: "))
    ]
    start = {"en": "Sharks start", "de": "Sharks beginnt"}[language]
    win = {"en": "Sharks win!", "de": "Sharks gewinnt!"}[language]
    hit = {"en": "Double 5 Hit", "de": "Doppel 5 Treffer"}[language]
    assert said[0] == start and said[1] == hit, said
    assert said[-1].endswith(win) and said[-1].startswith(
        {"en": "Double 6 Sunk! A ship of five", "de": "Doppel 6 Versenkt! Ein Fünfer"}[language]
    )
    jets = {"en": "Jets to throw", "de": "Jets wirft"}[language]
    sharks = {"en": "Sharks to throw", "de": "Sharks wirft"}[language]
    # 14 darts: four full visits, each followed by the Jets' visit and the Sharks' next one.
    assert said.count(jets) == said.count(sharks) == 4, " | ".join(said)
    if shutil.which("espeak-ng"):
        # Every word was heard from a file of its phrase, in the order of the calls.
        assert played[0].startswith("name-sharks") and played[1].startswith("start")
        assert played[2].startswith("cell-d5") and played[3].startswith("hit")
        assert played[-1].startswith("win")


def test_a_phones_only_classic_duel_calls_its_first_turn_once_both_phones_hold_their_links(
    tmp_path, monkeypatch, caplog
):
    """A headless kiosk (no duel screen anywhere): the duel's two phones open their links over
    HTTP; nothing is said while one still has to, "Sharks, your turn" once both do, and the
    later turns as always."""
    from aiohttp import ClientSession, CookieJar

    from kiosk.classic.match import Mode
    from kiosk.classic.match import Setup as ClassicSetup
    from kiosk.classic.table import start

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    config = phones_kiosk_config(tmp_path)

    def said() -> list[str]:
        return [
            r.getMessage().split(": ", 1)[1] for r in caplog.records if r.getMessage().startswith("caller: ")
        ]

    async def play() -> None:
        kiosk, caller, web = await headless_kiosk_calling(config)
        try:
            start(kiosk.service, ClassicSetup(Mode.DUEL, ("Sharks", "Jets")), kiosk.service.rng)
            tokens = web.api.tokens
            assert tokens is not None
            phones = [ClientSession(cookie_jar=CookieJar(unsafe=True)) for _ in (0, 1)]
            try:
                first = await phones[0].get(f"{web.base_url}/api/classic/team/{tokens.teams[0]}")
                assert first.status == 200 and (await first.json())["phones"] == [True, False]
                await asyncio.sleep(0.3)
                await eventually(caller.idle, "the caller idle")
                assert said() == []  # the Jets still scan their code: no turn anyone can play
                second = await phones[1].get(f"{web.base_url}/api/classic/team/{tokens.teams[1]}")
                assert second.status == 200
                await eventually(lambda: said() != [], "a call of the first turn")
                await eventually(caller.idle, "the caller idle")
                assert said() == ["Sharks your turn"]
                fired = await phones[0].post(
                    f"{web.base_url}/api/classic/team/{tokens.teams[0]}/fire", json={"cell": "J10"}
                )
                assert fired.status == 200, await fired.text()
                await eventually(lambda: len(said()) > 1, "a call after the shot")
                await eventually(caller.idle, "the caller idle")
                assert said()[1] in ("Hit, fire again", "Miss Jets your turn"), said()
            finally:
                for phone in phones:
                    await phone.close()
        finally:
            await kiosk.stop()

    with caplog.at_level(logging.INFO, logger="dartship.caller"):
        asyncio.run(play())


@pytest.mark.parametrize("language", ["en", "de", "fi"])
def test_a_phone_room_duel_is_called_its_sinks_and_winner_never_a_square(
    tmp_path, monkeypatch, caplog, language
):
    """A headless kiosk; two phones over HTTP: Ann plays solo (not called), opens a room, Bo
    joins and taps Ready, Ann starts the duel; Ann misses, Bo sinks all five of Ann's ships.
    The kiosk calls each sink with "Phone duel" and Bo's name, and Bo's win; no hit, no miss,
    no turn, no square; and nothing of the solo game before it."""
    import hashlib
    import re

    from aiohttp import ClientSession, CookieJar

    from kiosk.classic.wire import CLASSIC
    from tests.ui.conftest_classic import enemy_squares, water
    from ui.handheld.classic.api import ClassicApi
    from ui.handheld.phones import COOKIE

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    config = phones_kiosk_config(tmp_path, language)
    set_language(language)
    prefix = {"en": "caller: ", "de": "Ansager: ", "fi": "kuuluttaja: "}[language]

    def said() -> list[str]:
        lines = [r.getMessage() for r in caplog.records if r.name == "dartship.caller"]
        return [line.split(": ", 1)[1] for line in lines if line.startswith(prefix) and ": " in line]

    async def play() -> None:
        kiosk, caller, web = await headless_kiosk_calling(config)
        classic = web.part(ClassicApi)
        assert classic is not None
        base = f"{web.base_url}/api/classic"
        ann, bo = (ClientSession(cookie_jar=CookieJar(unsafe=True)) for _ in (0, 1))

        async def ok(response) -> dict:
            assert response.status == 200, (response.status, await response.text())
            return await response.json()

        try:
            await ok(await ann.get(f"{base}/play"))
            key = next(c.value for c in ann.cookie_jar if c.key == COOKIE)
            table = classic.rooms.table(hashlib.sha256(key.encode()).hexdigest())
            await ok(await ann.post(f"{base}/play/solo", json={"level": "easy", "name": "Ann"}))
            solo = CLASSIC.in_play(table.service)
            assert solo is not None
            for cell in enemy_squares(solo, 0)[:5]:  # a solo game sinks its Destroyer: not called
                await ok(await ann.post(f"{base}/play/fire", json={"cell": cell}))
            room = (await ok(await ann.post(f"{base}/play/room", json={})))["room"]
            token = room["link"].rsplit("/", 1)[1]
            await ok(await bo.get(f"{base}/r/{token}"))
            await ok(await bo.post(f"{base}/r/{token}/ready", json={"name": "Bo"}))
            await ok(await ann.post(f"{base}/play/duel", json={}))
            duel = CLASSIC.in_play(table.service)
            assert duel is not None and duel.setup.players == ("Ann", "Bo")
            await ok(await ann.post(f"{base}/play/fire", json={"cell": water(duel, 0)[0]}))
            for cell in enemy_squares(duel, 1):
                answer = await ok(await bo.post(f"{base}/r/{token}/fire", json={"cell": cell}))
                await eventually(caller.idle, "the caller idle")  # each sink heard on its own
            assert answer["view"]["winner"] == 1
            await eventually(lambda: len(said()) >= 5, "five calls")
            await eventually(caller.idle, "the caller idle")
        finally:
            await ann.close()
            await bo.close()
            await kiosk.stop()
            set_language("en")

    with caplog.at_level(logging.INFO, logger="dartship.caller"):
        asyncio.run(play())
    calls = said()
    words = {
        "en": ("Phone duel Bo Sunk! The ", "Bo wins!"),
        "de": ("Handy-Duell Bo Versenkt! ", "Bo gewinnt!"),
        "fi": ("Puhelinkaksintaistelu Bo Upposi! ", "Bo voittaa!"),
    }[language]
    assert len(calls) == 5, calls
    assert all(call.startswith(words[0]) for call in calls), calls
    assert calls[-1].endswith(words[1]), calls
    assert not any(re.search(r"\b[A-J](?:10|[1-9])\b", call) for call in calls), calls
