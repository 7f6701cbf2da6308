"""The caller's phrasebooks: a phrase for every event of every game in every language, and
nothing said that a screen may not show (no cell of an unsunk ship, no hint of which ship a hit
struck)."""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.board import MISS
from kiosk.classic.calls import CLASSIC_CALLS
from kiosk.classic.fleet import random_fleet as classic_fleet
from kiosk.classic.grid import SQUARES
from kiosk.classic.match import Fire, Mode, ShotFired
from kiosk.classic.match import Match as ClassicMatch
from kiosk.classic.match import Place as ClassicPlace
from kiosk.classic.match import Result as ClassicResult
from kiosk.classic.match import Setup as ClassicSetup
from kiosk.classic.match import TurnPassed as ClassicTurn
from kiosk.classic.match import Won as ClassicWon
from kiosk.darts.calls import DART_CALLS, spoken_cell
from kiosk.darts.match import (
    Correct,
    Corrected,
    DartThrown,
    Next,
    Phase,
    Result,
    Start,
    Throw,
    Undo,
    Undone,
    VisitStarted,
)
from kiosk.darts.match import Won as DartsWon
from kiosk.express.calls import EXPRESS_CALLS
from kiosk.express.match import Attack, Declare, Setup, Sunk, TurnPassed
from kiosk.express.match import Match as ExpressMatch
from kiosk.express.match import Phase as ExpressPhase
from kiosk.express.match import Won as ExpressWon
from kiosk.game import RuleError
from kiosk.i18n import LANGUAGES, catalog, set_language
from kiosk.speech import Call, CallOptions, Calls, Words, slug, template
from ui.translations import msgids_in

from .conftest import make_match

ROOT = Path(__file__).resolve().parents[2]
BOOKS = {
    "darts": ROOT / "kiosk/darts/calls.py",
    "classic": ROOT / "kiosk/classic/calls.py",
    "express": ROOT / "kiosk/express/calls.py",
    "caller": ROOT / "kiosk/caller.py",
    "speech": ROOT / "kiosk/speech.py",
}
SAY_CELL = CallOptions(say_cell=True)
QUIET = CallOptions()


@pytest.fixture(params=LANGUAGES)
def lang(request) -> Iterator[str]:
    set_language(request.param)
    yield request.param
    set_language("en")


@pytest.mark.parametrize("book", sorted(BOOKS))
@pytest.mark.parametrize("language", [x for x in LANGUAGES if x != "en"])
def test_every_phrase_is_translated(book, language):
    known = catalog(language)
    phrases = msgids_in(BOOKS[book])
    assert phrases, book
    assert sorted(p for p in phrases if not known.get(p)) == []


def _played_darts(seed: int, options: CallOptions) -> list[tuple[list, dict, Calls, set[str]]]:
    """A random dart game to its end (with Next, Undo and Correct), each batch with its view,
    its calls, and the cells of ships not sunk after the batch (hidden)."""
    rng = random.Random(seed)
    match = make_match(players=(("Ann", "Bo"), ("Cy",)), seed=seed, start=None)
    board = match.board
    cells = sorted(board.cells, key=lambda c: c.code)
    batches = []
    events = match.apply(Start(0))
    batches.append(
        (events, match.public_view(), DART_CALLS.calls(events, match.public_view(), options), _hidden(match))
    )
    for _step in range(400):
        if match.phase is Phase.OVER:
            break
        roll = rng.random()
        if match.phase is Phase.TAKEOUT or roll < 0.05:
            command = Next()
        elif roll < 0.09:
            command = Undo()
        elif roll < 0.12:
            command = Correct(rng.choice([*cells, MISS]))
        else:
            command = Throw(rng.choice([*cells, MISS]) if rng.random() < 0.1 else rng.choice(cells))
        try:
            events = match.apply(command)
        except RuleError:
            continue
        view = match.public_view()
        batches.append((events, view, DART_CALLS.calls(events, view, options), _hidden(match)))
    return batches


def _hidden(match) -> set[str]:
    sunk = {c.code for team in (0, 1) for ship in match.sunk_ships(team) for c in ship.cells}
    return {
        c.code
        for team in (0, 1)
        for ship in match.fleet(team).ships
        for c in ship.cells
        if c.code not in sunk
    }


def _cell_words(calls: Calls) -> list[str]:
    return [w.phrase for call in calls.say for w in call.words if w.phrase.startswith("cell-")]


@pytest.mark.parametrize("seed", range(3))
def test_a_dart_game_is_called_in_every_language_without_giving_a_ship_away(lang, seed):
    for options in (QUIET, SAY_CELL):
        for events, _view, calls, hidden in _played_darts(seed, options):
            thrown = {e.cell.code for e in events if isinstance(e, DartThrown) and not e.padded}
            thrown |= {e.new.code for e in events if isinstance(e, Corrected)}
            said = set(_cell_words(calls))
            if options.say_cell:
                # Only the cell of this batch's dart: it landed in front of everyone.
                assert said <= {f"cell-{slug(code)}" for code in thrown}
            else:
                assert said == set()
            for call in calls.say:
                assert call.words and all(w.text.strip() and w.phrase for w in call.words)
                for code in hidden - thrown:
                    assert code not in call.text.split(), (code, call.text)
            _every_event_has_its_words(events, calls)


def _every_event_has_its_words(events, calls: Calls) -> None:
    phrases = [w.phrase for call in calls.say for w in call.words]
    for event in events:
        if isinstance(event, DartThrown) and not event.padded:
            wanted = {
                Result.HIT: "hit",
                Result.MISS: "miss",
                Result.REPEAT: "repeat",
                Result.SUNK: f"sunk-{event.ship.length if event.ship else 0}",
            }
            assert wanted[event.result] in phrases
        elif isinstance(event, DartsWon):
            assert "win" in phrases and calls.say[0].keep
        elif isinstance(event, VisitStarted):
            assert {"to-throw", "player-to-throw", "start", "start-player"} & set(phrases)
        elif isinstance(event, Undone):
            assert "taken-back" in phrases and calls.cancel_from is not None
        elif isinstance(event, Corrected):
            assert "corrected" in phrases and calls.cancel_from is not None


def test_a_hit_sounds_the_same_whichever_ship_it_struck(lang):
    a = make_match()
    b = make_match()
    # Next: the Jets throw at the Sharks; D20 and T1 are cells of two different Shark ships.
    a.apply(Next())
    b.apply(Next())
    one = a.apply(Throw(_cell(a, "D20")))
    two = b.apply(Throw(_cell(b, "T1")))
    assert [e.result for e in one if isinstance(e, DartThrown)] == [Result.HIT]
    assert [e.result for e in two if isinstance(e, DartThrown)] == [Result.HIT]
    said_a = DART_CALLS.calls(one, a.public_view(), QUIET)
    said_b = DART_CALLS.calls(two, b.public_view(), QUIET)
    assert said_a.say[0].words == said_b.say[0].words
    assert said_a.say[0].about == said_b.say[0].about == 4  # after three padded darts


def _cell(match, code: str):
    return next(c for c in match.board.cells if c.code == code)


def test_dart_calls_name_the_players_and_who_starts(lang):
    match = make_match(start=None)
    first = match.apply(Start(1))
    call = DART_CALLS.calls(first, match.public_view(), QUIET).say[0]
    assert call.words[0].phrase == "name-jets" and call.keep  # "Jets start": never cut
    match.apply(Throw(MISS))
    match.apply(Throw(MISS))
    events = match.apply(Throw(MISS))
    events += match.apply(Next())
    call = DART_CALLS.calls(events, match.public_view(), QUIET).say[0]
    # Sharks rotate Ann and Bo: the player is named too.
    names = [w.phrase for w in call.words if w.phrase.startswith("name-")]
    assert names == ["name-sharks", "name-ann"]
    assert not call.keep and call.about == 3


def test_undo_and_correct_take_back_the_call_of_their_dart():
    match = make_match()
    match.apply(Throw(MISS))
    thrown = match.apply(Throw(_cell(match, "T20")))
    hit = DART_CALLS.calls(thrown, match.public_view(), QUIET).say[0]
    assert hit.about == 2
    undone = match.apply(Undo())
    calls = DART_CALLS.calls(undone, match.public_view(), QUIET)
    assert calls.cancel_from == 2
    match.apply(Throw(_cell(match, "T20")))
    corrected = match.apply(Correct(_cell(match, "T5")))
    calls = DART_CALLS.calls(corrected, match.public_view(), SAY_CELL)
    assert calls.cancel_from == 2 and calls.say[0].about == 2
    assert [w.phrase for w in calls.say[0].words] == ["corrected", "cell-t5", "miss"]


def test_cells_are_said_as_players_say_them():
    set_language("en")
    match = make_match()
    assert spoken_cell(_cell(match, "T20")) == Words("cell-t20", "Treble 20")
    assert spoken_cell(_cell(match, "BULL")) == Words("cell-bull", "Bull")
    assert spoken_cell(MISS) is None
    set_language("de")
    try:
        assert spoken_cell(_cell(match, "D3")).text == "Doppel 3"
    finally:
        set_language("en")


def test_templates_split_names_from_the_fixed_words():
    assert template("to-throw", "{team} to throw", team="Sharks") == (
        Words("name-sharks", "Sharks"),
        Words("to-throw", "to throw"),
    )
    assert template("x", "Jetzt wirft {team}, los!", team="Jäger 2") == (
        Words("x", "Jetzt wirft"),
        Words("name-jager-2", "Jäger 2"),
        Words("x-2", "los!"),
    )
    assert template("to-throw", "{team} to throw") == (Words("to-throw", "to throw"),)


def _classic_games(mode: Mode, seed: int, options: CallOptions):
    rng = random.Random(seed)
    players = ("Sharks", "Jets") if mode is Mode.DUEL else ("Ann",)
    day = datetime.date(2026, 12, 1) if mode is Mode.DAILY else None
    match = ClassicMatch(ClassicSetup(mode, players, date=day))
    # A daily game's computer fleet comes as its own (secret) Place, as the kiosk sends it.
    for side in (0, 1):
        match.apply(ClassicPlace(side, classic_fleet(rng)))
    fired: dict[int, list] = {0: list(SQUARES), 1: list(SQUARES)}
    for side in fired:
        rng.shuffle(fired[side])
    out = []
    while match.winner is None:
        side = match.turn
        events = match.apply(Fire(side, fired[side].pop()))
        view = match.public_view()
        out.append((events, view, CLASSIC_CALLS.calls(events, view, options)))
    return out


@pytest.mark.parametrize("mode", list(Mode))
def test_a_classic_game_is_called_in_every_language(lang, mode):
    for options in (QUIET, SAY_CELL):
        batches = _classic_games(mode, 3, options)
        for events, _view, calls in batches:
            phrases = [w.phrase for call in calls.say for w in call.words]
            shots = [e for e in events if isinstance(e, ShotFired)]
            for shot in shots:
                if shot.result is ClassicResult.HIT:
                    assert "hit-again" in phrases
                elif shot.result is ClassicResult.SUNK:
                    assert f"sunk-{shot.ship.kind.value.lower()}" in phrases
                    assert calls.say[0].keep
                else:
                    assert "miss" in phrases
            said_cells = {p for p in phrases if p.startswith("cell-")}
            assert said_cells == (
                {f"cell-{slug(s.square.code)}" for s in shots} if options.say_cell else set()
            )
            for event in events:
                if isinstance(event, ClassicWon):
                    assert {"wins", "you-win", "computer-wins", "all-sunk"} & set(phrases)
                if isinstance(event, ClassicTurn) and (mode is Mode.DUEL or event.side == 0):
                    assert {"your-turn", "name-your-turn"} & set(phrases)
            for call in calls.say:
                assert all(w.text.strip() for w in call.words)


def test_an_express_game_is_called_in_every_language(lang):
    rng = random.Random(5)
    match = ExpressMatch(Setup.create(["Ann", "Bo", "Cy"], seed=11))
    seen: set[str] = set()
    for _step in range(500):
        if match.phase is ExpressPhase.OVER:
            break
        if match.phase is ExpressPhase.TARGET:
            assert match.pending is not None
            command = Declare(rng.choice(match.targets(match.pending.ship)))
        else:
            ship = rng.choice(match.line(match.turn))
            rules = match.setup.ship(ship)
            command = Attack(ship) if rules.roll_first else Attack(ship, rng.choice(match.targets(ship)))
        events = match.apply(command)
        view = match.public_view()
        calls = EXPRESS_CALLS.calls(events, view, QUIET)
        phrases = [w.phrase for call in calls.say for w in call.words]
        seen |= set(phrases)
        for event in events:
            if isinstance(event, Sunk):
                assert f"sunk-{event.ship.value.lower().replace(' ', '-')}" in phrases
            if isinstance(event, ExpressWon):
                assert "wins" in phrases and calls.say[0].keep
            if isinstance(event, TurnPassed):
                assert {"to-roll", "again"} & set(phrases)
                assert f"name-{slug(view['players'][event.side])}" in phrases
    assert match.phase is ExpressPhase.OVER
    assert {"to-roll", "wins", "miss"} <= seen


@pytest.mark.parametrize("book", [DART_CALLS, CLASSIC_CALLS, EXPRESS_CALLS])
def test_every_fixed_phrase_has_a_file_name_and_words(lang, book):
    phrases = list(book.phrases(SAY_CELL))
    names = [w.phrase for w in phrases]
    assert len(names) == len(set(names)), "two phrases share a recording's name"
    for words in phrases:
        assert words.text.strip() and "{" not in words.text
        assert words.phrase == words.phrase.lower() and " " not in words.phrase
    assert len(list(book.phrases(QUIET))) < len(phrases) or book is EXPRESS_CALLS


def test_call_text_joins_its_words():
    call = Call((Words("a", "Treble 20"), Words("hit", "Hit")))
    assert call.text == "Treble 20 Hit"
