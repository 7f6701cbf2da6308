"""The caller's queue: a new call replaces one not yet started, SUNK is never cut by the next
visit's call, undo cancels the call about its dart, and the loop never waits. The voice is a
stand-in here (silent WAVs of known length, no espeak-ng); the speaker is the simulated one
that takes as long as the file would."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from hardware.speaker import SimulatedSpeaker, write_silence
from kiosk.board import MISS, Cell, Ring
from kiosk.caller import Caller
from kiosk.darts.fleet import parse_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import HouseRules, Next, Place, Setup, Start, Team, Throw, Undo
from kiosk.service import GameService, GameStarted
from kiosk.speech import Call, Words
from tests.waits import until

from .conftest import SHARK_FLEET

JETS_FLEET = "D5-L5-T5-S5 T11-T14-T9 S6-S10 D1-D18-D4-D13-D6"


class FileVoice:
    """Every phrase is a silent WAV: `seconds[phrase]` long (0.2 s otherwise); `slow` phrases
    are not in the cache (rendering them takes `render_seconds`)."""

    def __init__(
        self,
        folder: Path,
        seconds: dict[str, float] | None = None,
        slow: frozenset[str] = frozenset(),
        render_seconds: float = 0.0,
    ) -> None:
        self.folder = folder
        self.seconds = seconds or {}
        self.slow = slow
        self.render_seconds = render_seconds
        self.voices: dict[str, str] = {"en": "test"}
        self.rendered: list[str] = []

    def _path(self, words: Words) -> Path:
        return self.folder / f"{words.phrase}.wav"

    def find(self, words: Words, language: str) -> Path | None:
        path = self._path(words)
        return path if path.exists() and words.phrase not in self.slow else None

    def render(self, words: Words, language: str) -> Path | None:
        time.sleep(self.render_seconds)
        self.rendered.append(words.phrase)
        return write_silence(self._path(words), self.seconds.get(words.phrase, 0.2))

    def problem(self) -> str | None:
        return None


def _words(*phrases: str) -> tuple[Words, ...]:
    return tuple(Words(p, p) for p in phrases)


@pytest.fixture
def rig(tmp_path):
    voice = FileVoice(tmp_path, {"sunk": 0.6, "long": 0.6})
    for phrase in ("hit", "miss", "sunk", "long", "turn", "one", "two", "three"):
        voice.render(Words(phrase, phrase), "en")
    voice.rendered.clear()
    speaker = SimulatedSpeaker()
    service = GameService(None)
    caller = Caller(service, voice, speaker).attach()
    yield caller, speaker, voice
    caller.close()


def _said(speaker: SimulatedSpeaker) -> list[str]:
    return [p.path.stem for p in speaker.played]


def test_a_new_call_replaces_the_one_not_yet_started(rig):
    caller, speaker, _voice = rig
    caller.say(Call(_words("long")))
    time.sleep(0.1)  # "long" plays
    caller.say(Call(_words("one")))
    caller.say(Call(_words("two")))
    caller.say(Call(_words("three")))
    assert [c.words[0].phrase for c in caller.pending] == ["three"]
    assert caller.wait_idle()
    assert _said(speaker) == ["long", "three"]
    assert all(p.finished for p in speaker.played)


def test_a_phone_duel_s_call_never_replaces_one_of_the_kiosk_s_own_game(rig):
    """A call aside (a phone room's duel) comes second: while the kiosk's own game has a call
    waiting it is dropped; waiting itself, any later call replaces it, even one that keeps."""
    caller, speaker, _voice = rig
    caller.say(Call(_words("long")))
    time.sleep(0.1)  # "long" plays
    caller.say(Call(_words("turn")))  # the kiosk's own game: "Jets to throw" waits
    caller.say(Call(_words("duel-sunk"), keep=True, aside=True))
    assert [c.words[0].phrase for c in caller.pending] == ["turn"]
    assert caller.wait_idle()
    caller.say(Call(_words("long")))
    time.sleep(0.1)
    caller.say(Call(_words("duel-sunk"), aside=True))
    caller.say(Call(_words("duel-won"), keep=True, aside=True))  # another duel's: the newest
    assert [c.words[0].phrase for c in caller.pending] == ["duel-won"]
    caller.say(Call(_words("turn")))
    assert [c.words[0].phrase for c in caller.pending] == ["turn"]
    assert caller.wait_idle()
    assert _said(speaker) == ["long", "turn", "long", "turn"]


def test_sunk_is_never_cut_nor_dropped_by_the_next_call(rig):
    caller, speaker, _voice = rig
    caller.say(Call(_words("sunk"), keep=True))
    time.sleep(0.05)
    caller.say(Call(_words("turn")))  # the next visit's call comes while SUNK plays
    assert caller.wait_idle()
    assert _said(speaker) == ["sunk", "turn"]
    assert speaker.played[0].finished
    # A SUNK still waiting is not replaced either: what follows waits behind it.
    caller.say(Call(_words("long")))
    time.sleep(0.05)
    caller.say(Call(_words("sunk"), keep=True))
    caller.say(Call(_words("hit")))
    caller.say(Call(_words("turn")))
    assert [c.words[0].phrase for c in caller.pending] == ["sunk", "turn"]
    assert caller.wait_idle()
    assert _said(speaker)[2:] == ["long", "sunk", "turn"]


def test_undo_cancels_the_call_about_its_dart_waiting_or_playing(rig):
    caller, speaker, _voice = rig
    caller.say(Call(_words("long"), about=4))
    time.sleep(0.1)
    caller.say(Call(_words("hit"), about=5))
    caller.cancel(5)  # dart 5 undone: its call goes, dart 4's plays on
    assert caller.pending == []
    assert caller.wait_idle()
    assert _said(speaker) == ["long"] and speaker.played[0].finished
    caller.say(Call(_words("long", "hit"), about=6))
    time.sleep(0.1)
    caller.cancel(6)  # playing: stopped at once, and its second word never starts
    assert caller.wait_idle()
    assert _said(speaker) == ["long", "long"]
    assert not speaker.played[1].finished


def test_a_call_waits_for_its_moment(rig):
    caller, speaker, _voice = rig
    heard = time.monotonic()
    caller.say(Call(_words("hit")), wait=0.3)
    assert caller.wait_idle()
    assert speaker.played[0].started - heard >= 0.29


def test_saying_never_waits_for_the_voice_or_the_speaker(tmp_path):
    voice = FileVoice(tmp_path, slow=frozenset({"slow"}), render_seconds=0.5)
    speaker = SimulatedSpeaker()
    caller = Caller(GameService(None), voice, speaker).attach()
    try:
        started = time.perf_counter()
        caller.say(Call(_words("slow")))  # not cached: rendered on the caller's own thread
        caller.say(Call(_words("slow")))
        assert time.perf_counter() - started < 0.05
        assert threading.current_thread().name not in ("dartship-caller", "dartship-voice")
        assert caller.wait_idle()
        assert _said(speaker) == ["slow"] and voice.rendered == ["slow"]
    finally:
        caller.close()


def test_a_caller_without_an_audio_device_plays_on_silently(tmp_path, caplog):
    voice = FileVoice(tmp_path)
    speaker = SimulatedSpeaker(problem="no sound card: /proc/asound/cards lists none")
    caller = Caller(GameService(None), voice, speaker)
    with caplog.at_level("WARNING", logger="dartship.caller"):
        caller.attach()
        caller.say(Call(_words("hit")))
        assert caller.wait_idle()
        caller.say(Call(_words("miss")))
        assert caller.wait_idle()
    caller.close()
    lines = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert lines == [
        "caller: no audio device (no sound card: /proc/asound/cards lists none); the kiosk plays on silently"
    ]
    assert speaker.played == [] and caller.silent


def _cell(code: str) -> Cell:
    ring = {"T": Ring.TRIPLE, "D": Ring.DOUBLE, "S": Ring.SMALL, "L": Ring.LARGE}[code[0]]
    return Cell(ring, int(code[1:]))


def test_the_service_s_darts_are_called_in_order_and_an_undo_takes_its_call_back(tmp_path):
    """The caller as the kiosk attaches it: a dart game through the service."""
    voice = FileVoice(tmp_path)
    speaker = SimulatedSpeaker(tempo=0.05)
    service = GameService(None, follow_ups=False)  # the start is ours, not a bull-off
    # Teams without named players: the caller names the team alone (kiosk.darts.players).
    rules = HouseRules()
    service.new_game(DARTS, Setup((Team("Sharks", ("Sharks",)), Team("Jets", ("Jets",))), rules))
    caller = Caller(service, voice, speaker).attach()
    try:
        service.submit(Place(0, parse_fleet(SHARK_FLEET, rules.board, rules.fleet)))
        service.submit(Place(1, parse_fleet(JETS_FLEET, rules.board, rules.fleet)))
        service.submit(Start(0))
        assert caller.wait_idle()
        for code in ("S6", "S10", "T20"):
            service.submit(Throw(_cell(code)))
            assert caller.wait_idle()
        service.submit(Next())
        assert caller.wait_idle()
        service.submit(Throw(MISS))
        service.submit(Undo())  # before its call had finished: it is taken back
        assert caller.wait_idle()
    finally:
        caller.close()
    said = _said(speaker)
    assert said[:7] == ["name-sharks", "start", "hit", "sunk-2", "miss", "name-jets", "to-throw"]
    assert said[-1] == "taken-back"


def test_a_game_s_names_and_phrases_are_rendered_when_it_starts(tmp_path):
    voice = FileVoice(tmp_path)
    service = GameService(None, follow_ups=False)
    caller = Caller(service, voice, SimulatedSpeaker(tempo=0.01)).attach()
    try:
        service.new_game(DARTS, Setup((Team("Hai Kala", ("Ann", "Bo")), Team("Jets", ("Cy",))), HouseRules()))
        until(lambda: "win" in voice.rendered, lambda: f"every phrase rendered: {voice.rendered}", every=0.01)
        # The names first (a game's first call names a team), then every fixed phrase.
        assert voice.rendered[:4] == ["name-hai-kala", "name-ann", "name-bo", "name-jets"]
        assert {"hit", "miss", "sunk-5", "to-throw", "win"} <= set(voice.rendered)
        assert not any(p.startswith("cell-") for p in voice.rendered)  # cells are not said
    finally:
        caller.close()


def test_the_speaker_opens_only_once_the_face_is_up(tmp_path):
    """The kiosk's caller waits for the screen's first frame (Kivy and SDL set up on the main
    thread) before it opens the audio: opening it beside them ended the live app."""
    opened = threading.Event()

    class Watched(SimulatedSpeaker):
        def open(self) -> str | None:
            opened.set()
            return None

    speaker = Watched(tempo=0.01)
    caller = Caller(GameService(None), FileVoice(tmp_path), speaker, wait_for_face=True).attach()
    try:
        caller.say(Call(_words("hit")))
        assert not opened.wait(0.3) and not caller.idle()  # waiting, not lost
        caller.face_up()
        assert opened.wait(2) and caller.wait_idle()
        assert _said(speaker) == ["hit"]
    finally:
        caller.close()


def _calls_of(
    service: GameService, tmp_path: Path, start, caller: Caller | None = None
) -> tuple[list[list[str]], Caller]:
    """What the caller attached to `service` said, call by call (each call's phrases), after
    `start(service)` began a game."""
    if caller is None:
        caller = Caller(service, FileVoice(tmp_path), SimulatedSpeaker(tempo=0.01))
    caller.attach()
    said: list[list[str]] = []
    caller.say = lambda call, wait=0.0: said.append([w.phrase for w in call.words])  # type: ignore[method-assign]
    start(service)
    return said, caller


def test_an_express_game_calls_its_first_turn_when_it_starts(tmp_path):
    """The table shows who rolls first at once: the caller says it then, not only from the
    second turn on; a restart of the same game does not say it again."""
    from kiosk.express.match import Setup as ExpressSetup
    from kiosk.express.wire import EXPRESS

    service = GameService(None)
    said, caller = _calls_of(
        service, tmp_path, lambda s: s.new_game(EXPRESS, ExpressSetup.create(["Ann", "Bo"], seed=3))
    )
    try:
        assert said == [["name-ann", "to-roll"]]
        caller.heard(GameStarted(1, resumed=True))
        assert said == [["name-ann", "to-roll"]]
    finally:
        caller.close()


def test_a_classic_game_against_the_computer_calls_your_turn_when_the_fleets_stand(tmp_path):
    from kiosk.classic.match import Mode
    from kiosk.classic.match import Setup as ClassicSetup
    from kiosk.classic.table import start

    service = GameService(None)
    said, caller = _calls_of(
        service, tmp_path, lambda s: start(s, ClassicSetup(Mode.SOLO, ("Sharks",)), random.Random(2))
    )
    try:
        assert said == [["your-turn"]]  # once: the second fleet's Place, not each fleet
    finally:
        caller.close()


def test_a_classic_duel_calls_its_first_turn_once_the_hand_over_is_done(tmp_path):
    """While one team scans its code the caller says nothing; once both phones hold their
    links (the phone server tells `phones_changed`) it says whose turn, once, whether or not
    anyone looks at the touchscreen."""
    from kiosk.classic.grid import parse_square
    from kiosk.classic.match import Fire, Mode
    from kiosk.classic.match import Setup as ClassicSetup
    from kiosk.classic.table import start

    held = [False, False]
    service = GameService(None)

    def begin(s: GameService) -> None:
        start(s, ClassicSetup(Mode.DUEL, ("Sharks", "Jets"), first=1), random.Random(2))

    caller = Caller(service, FileVoice(tmp_path), SimulatedSpeaker(tempo=0.01))
    caller.handed_over = lambda: all(held)
    said, caller = _calls_of(service, tmp_path, begin, caller)
    try:
        assert said == []
        held[0] = True
        caller.phones_changed()
        assert said == []
        held[1] = True
        caller.phones_changed()
        assert said == [["name-jets", "name-your-turn"]]
        caller.phones_changed()  # a phone moved later: the first turn is not said again
        assert said == [["name-jets", "name-your-turn"]]
        service.submit(Fire(1, parse_square("A1")))  # the Jets' first shot: called as usual
        assert len(said) == 2 and said[0] == ["name-jets", "name-your-turn"]
    finally:
        caller.close()


def test_a_duel_handed_over_before_its_fleets_stand_is_called_when_they_do(tmp_path):
    """The phones may hold their links already (a rematch on the same links): the first turn
    is then called as the fleets stand, as against the computer."""
    from kiosk.classic.match import Mode
    from kiosk.classic.match import Setup as ClassicSetup
    from kiosk.classic.table import start

    service = GameService(None)
    said, caller = _calls_of(
        service,
        tmp_path,
        lambda s: start(s, ClassicSetup(Mode.DUEL, ("Sharks", "Jets")), random.Random(2)),
    )
    try:
        assert said == [["name-sharks", "name-your-turn"]]
    finally:
        caller.close()


def test_a_dart_game_with_rotating_players_names_who_throws_first(tmp_path):
    service = GameService(None, follow_ups=False)
    rules = HouseRules()

    def start(s: GameService) -> None:
        s.new_game(DARTS, Setup((Team("Sharks", ("Ann", "Bo")), Team("Jets", ("Cy",))), rules))
        s.submit(Place(0, parse_fleet(SHARK_FLEET, rules.board, rules.fleet)))
        s.submit(Place(1, parse_fleet(JETS_FLEET, rules.board, rules.fleet)))
        s.submit(Start(0))

    said, caller = _calls_of(service, tmp_path, start)
    try:
        assert said == [["name-sharks", "start-player", "name-ann", "start-player-2"]]
    finally:
        caller.close()


def test_a_phone_room_s_duel_is_called_as_the_owner_chose_and_its_solo_games_are_not(tmp_path):
    """`hear_table`: a phone table's duel says its sinks after "Phone duel" and the shooter,
    never a miss or a hit; `caller.phone_duels = false` (saved in Settings: `apply`) silences
    it at once; a solo game on a phone is never called."""
    from kiosk.classic.calls import room_duel_call
    from kiosk.classic.match import Fire, Mode
    from kiosk.classic.match import Setup as ClassicSetup
    from kiosk.classic.table import start
    from kiosk.classic.wire import CLASSIC

    kiosk = GameService(None)
    caller = Caller(kiosk, FileVoice(tmp_path), SimulatedSpeaker(tempo=0.01)).attach()
    said: list[list[str]] = []
    caller.say = lambda call, wait=0.0: said.append([w.phrase for w in call.words])  # type: ignore[method-assign]
    table = GameService(None, venue="phone:x")
    try:
        caller.hear_table(table, room_duel_call)
        start(table, ClassicSetup(Mode.DUEL, ("Ann", "Bo")), random.Random(5))
        match = CLASSIC.in_play(table)
        assert match is not None
        ships = match.fleet(1).ships
        destroyer, submarine = ships[-1], ships[-2]
        for square in destroyer.cells:
            table.submit(Fire(0, square))
        assert said == [["phone-duel", "name-ann", "sunk-destroyer"]]
        caller.apply(True, 0.8, False, phone_duels=False)
        for square in submarine.cells:
            table.submit(Fire(0, square))
        assert len(said) == 1
        caller.apply(True, 0.8, False, phone_duels=True)
        start(table, ClassicSetup(Mode.SOLO, ("Ann",)), random.Random(6))
        solo = CLASSIC.in_play(table)
        assert solo is not None
        for square in solo.fleet(1).ships[-1].cells:
            table.submit(Fire(0, square))
        assert len(said) == 1
    finally:
        caller.close()
