"""`dartship referee` (PROTOCOLS.md section 3): answers, errors that change nothing, a whole game."""

import io
import json
import subprocess
import sys

import pytest

from kiosk.darts.referee import Referee, run

NEW = {
    "cmd": "new",
    "teams": ["Sharks", "Jets"],
    "players": [["Ann", "Bo"], ["Cy"]],
    "fleet": [5, 4, 3, 2],
    "darts_per_visit": 3,
    "board": "four-ring",
}
SHARKS = "D20-L20-T20-S20-BULL T1-T18-T4-T13 L6-L10-L15 D3-D19"
JETS = "D5-L5-T5-S5 T11-T14-T9 S6-S10 D1-D18-D4-D13-D6"


def ask(ref: Referee, obj) -> list[dict]:
    return ref.handle_line(obj if isinstance(obj, str) else json.dumps(obj))


@pytest.fixture
def ref() -> Referee:
    r = Referee()
    ask(r, NEW)
    ask(r, {"cmd": "place", "team": 0, "fleet": SHARKS})
    ask(r, {"cmd": "place", "team": 1, "fleet": JETS})
    assert ask(r, {"cmd": "start", "first": 1}) == [{"event": "visit", "team": 1, "player": "Cy"}]
    return r


def test_a_new_game_of_one_name_in_two_cases_is_refused():
    """ "Jets" and "jets" are one name (kiosk.names.same_name), as the touchscreen, --teams and
    classic say: the line protocol's `new` refuses them too."""
    r = Referee()
    (answer,) = ask(r, {"cmd": "new", "teams": ["Jets", "jets"]})
    assert answer["event"] == "error" and "different names" in answer["message"]
    assert r.match is None


def test_new_defaults():
    r = Referee()
    assert ask(r, {"cmd": "new", "teams": ["A", "B"]}) == [{"event": "new", "teams": ["A", "B"]}]
    state = ask(r, {"cmd": "state"})[0]
    assert state == {
        "event": "state",
        "phase": "placing",
        "team": None,
        "player": None,
        "dart": None,
        "sunk": [[], []],
        "darts": [0, 0],
        "hits": [0, 0],
        "winner": None,
    }
    assert r.match.teams[0].players == ("A",)
    assert r.match.setup.rules.fleet == (2, 3, 4, 5)


def test_dart_answers(ref):
    assert ask(ref, {"cmd": "throw", "cell": "d3"}) == [
        {"event": "dart", "team": 1, "player": "Cy", "dart": 1, "cell": "D3", "result": "hit"}
    ]
    assert ask(ref, {"cmd": "throw", "cell": "D19"}) == [
        {
            "event": "dart",
            "team": 1,
            "player": "Cy",
            "dart": 2,
            "cell": "D19",
            "result": "sunk",
            "ship": 2,
            "cells": ["D3", "D19"],
        }
    ]
    assert ask(ref, {"cmd": "throw", "cell": "D19"}) == [
        {"event": "dart", "team": 1, "player": "Cy", "dart": 3, "cell": "D19", "result": "repeat"},
        {"event": "takeout", "team": 1},
    ]
    assert ask(ref, {"cmd": "throw", "cell": "T20"}) == [{"event": "ignored", "reason": "takeout"}]
    assert ask(ref, {"cmd": "next"}) == [{"event": "visit", "team": 0, "player": "Ann"}]
    assert ask(ref, {"cmd": "throw", "cell": "T5"})[0]["result"] == "hit"
    assert ask(ref, {"cmd": "next"}) == [
        {"event": "dart", "team": 0, "player": "Ann", "dart": 2, "cell": "MISS", "result": "miss"},
        {"event": "dart", "team": 0, "player": "Ann", "dart": 3, "cell": "MISS", "result": "miss"},
        {"event": "visit", "team": 1, "player": "Cy"},
    ]
    assert ask(ref, {"cmd": "state"})[0] == {
        "event": "state",
        "phase": "throwing",
        "team": 1,
        "player": "Cy",
        "dart": 1,
        "sunk": [[2], []],
        "darts": [3, 3],
        "hits": [1, 2],
        "winner": None,
    }


def test_undo_and_correct(ref):
    ask(ref, {"cmd": "throw", "cell": "T20"})
    before = ask(ref, {"cmd": "state"})
    ask(ref, {"cmd": "throw", "cell": "T5"})
    assert ask(ref, {"cmd": "undo"}) == [{"event": "undone", "cell": "T5"}]
    assert ask(ref, {"cmd": "state"}) == before
    assert ask(ref, {"cmd": "correct", "cell": "T1"}) == [
        {"event": "corrected", "from": "T20", "to": "T1", "result": "hit"}
    ]


BAD = [
    ("not json at all", "bad JSON"),
    ("[1, 2]", "JSON object"),
    ('{"cmd": "fly"}', "unknown command"),
    ('{"nocmd": 1}', "cmd"),
    ('{"cmd": "throw", "cell": "T21"}', "T21"),
    ('{"cmd": "throw", "cell": "Q5"}', "Q5"),
    ('{"cmd": "throw"}', "cell"),
    ('{"cmd": "throw", "cell": 20}', "wrong type"),
    ('{"cmd": "correct", "cell": "nope"}', "nope"),
    ('{"cmd": "place", "team": 0, "fleet": "' + SHARKS + '"}', "started"),
    ('{"cmd": "start", "first": 0}', "already started"),
    ('{"cmd": "random_fleet", "team": 5}', "team"),
    ('{"cmd": "closer", "team": 0}', "closer"),
    ('{"cmd": "new", "teams": ["Solo"]}', "two team names"),
    ('{"cmd": "new", "teams": ["A", "B"], "fleet": [9]}', "not allowed"),
    ('{"cmd": "new", "teams": ["A", "B"], "board": "five-ring"}', "profile"),
    ('{"cmd": "new", "teams": ["A", "B"], "darts_per_visit": 0}', "darts_per_visit"),
    ('{"cmd": "new", "teams": ["A", "A"]}', "different"),
]


@pytest.mark.parametrize(("line", "words"), BAD)
def test_every_bad_input_gives_one_error_and_changes_nothing(ref, line, words):
    ask(ref, {"cmd": "throw", "cell": "T20"})
    before = ask(ref, {"cmd": "state"})
    log_before = list(ref.match.log)
    answers = ask(ref, line)
    assert len(answers) == 1 and answers[0]["event"] == "error"
    assert words.lower() in answers[0]["message"].lower()
    assert ask(ref, {"cmd": "state"}) == before
    assert ref.match.log == log_before


@pytest.mark.parametrize(
    ("fleet", "words"),
    [
        ("T20-T18 T1-T4-T13 L6-L10-L15-L2 D3-D19-D7-D16-D8", "gap"),
        ("T20-T1 T1-T18-T4 L6-L10-L15-L2 D3-D19-D7-D16-D8", "overlap"),
        ("T20-T1 T18-T4-T13", "wrong fleet"),
        ("S20-BULL-S1 T18-T4-T13 L6-L10-L15-L2 D3-D19-D7-D16-D8", "circular"),
    ],
)
def test_illegal_placement_is_an_error_and_nothing_kept(fleet, words):
    r = Referee()
    ask(r, {"cmd": "new", "teams": ["A", "B"]})
    answers = ask(r, {"cmd": "place", "team": 0, "fleet": fleet})
    assert answers[0]["event"] == "error" and words in answers[0]["message"]
    assert r.match.state().placed == (False, False)


def test_wrong_phase_errors():
    r = Referee()
    assert ask(r, {"cmd": "state"})[0]["event"] == "error"  # no game yet
    ask(r, {"cmd": "new", "teams": ["A", "B"]})
    for cmd in (
        {"cmd": "throw", "cell": "T20"},
        {"cmd": "next"},
        {"cmd": "undo"},
        {"cmd": "start", "first": 0},
    ):
        answers = ask(r, cmd)
        assert len(answers) == 1 and answers[0]["event"] == "error"


def test_random_fleet_is_seeded():
    a, b = Referee(), Referee()
    for r in (a, b):
        ask(r, NEW)
        ask(r, {"cmd": "random_fleet", "team": 1, "seed": 7})
    assert a.match.fleet(1) == b.match.fleet(1)


def test_whole_scripted_game_through_the_command(tmp_path):
    lines = [
        NEW,
        {"cmd": "place", "team": 0, "fleet": SHARKS},
        {"cmd": "place", "team": 1, "fleet": JETS},
        {"cmd": "start", "first": 0},
    ]
    jets_cells = [c for ship in JETS.split() for c in ship.split("-")]
    for i, cell in enumerate(jets_cells):
        lines.append({"cmd": "throw", "cell": cell})
        if i % 3 == 2:
            lines += [{"cmd": "next"}, {"cmd": "next"}]
    script = "\n".join(json.dumps(x) for x in lines) + "\n"
    out = subprocess.run(
        [sys.executable, "-m", "kiosk.app.cli", "referee"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert answers[-1] == {"event": "win", "team": 0}
    assert sum(1 for a in answers if a.get("result") == "sunk") == 4
    assert not any(a["event"] == "error" for a in answers)


def test_run_flushes_each_answer():
    class Recorder(io.StringIO):
        flushes = 0

        def flush(self):
            Recorder.flushes += 1

    out = Recorder()
    assert run(io.StringIO('{"cmd": "new", "teams": ["A", "B"]}\n\n{"cmd": "state"}\n'), out) == 0
    assert Recorder.flushes == 2 and len(out.getvalue().splitlines()) == 2


def test_a_second_bull_off_dart_from_the_same_side_is_refused():
    r = Referee()
    ask(r, {**NEW, "bull_off": "normal"})
    ask(r, {"cmd": "place", "team": 0, "fleet": SHARKS})
    ask(r, {"cmd": "place", "team": 1, "fleet": JETS})
    ask(r, {"cmd": "start"})
    assert ask(r, {"cmd": "bull", "team": 0, "cell": "S20"})[0]["event"] != "error"
    answer = ask(r, {"cmd": "bull", "team": 0, "cell": "DB"})
    assert len(answer) == 1 and answer[0]["event"] == "error"
    assert "one dart each" in answer[0]["message"]
    assert ask(r, {"cmd": "bull", "team": 1, "cell": "25"})[-1] == {
        "event": "visit",
        "team": 1,
        "player": "Cy",
    }


def _won(ref: Referee) -> list[dict]:
    """Play the fixture's game to the Sharks' win; the answers to the winning dart."""
    jets = [c for ship in JETS.split() for c in ship.split("-")]
    ask(ref, {"cmd": "next"})  # the Jets' first visit passes
    answers: list[dict] = []
    for i, cell in enumerate(jets):
        answers = ask(ref, {"cmd": "throw", "cell": cell})
        if i % 3 == 2 and i != len(jets) - 1:
            ask(ref, {"cmd": "next"})
            ask(ref, {"cmd": "next"})
    return answers


def test_a_finished_game_is_resumed_and_its_winning_dart_can_be_undone(tmp_path):
    """PROTOCOLS.md 3: started again on the same --db, `state` answers as before, also after the
    winning dart, and that dart can still be taken back (it may have been misread)."""
    from kiosk.store import Store

    store = Store(tmp_path / "g.db")
    ref = Referee(store)
    ask(ref, NEW)
    ask(ref, {"cmd": "place", "team": 0, "fleet": SHARKS})
    ask(ref, {"cmd": "place", "team": 1, "fleet": JETS})
    ask(ref, {"cmd": "start", "first": 1})
    assert _won(ref)[-1] == {"event": "win", "team": 0}
    state = ask(ref, {"cmd": "state"})
    store.close()

    store = Store(tmp_path / "g.db")
    again = Referee(store)
    assert ask(again, {"cmd": "state"}) == state
    assert ask(again, {"cmd": "undo"}) == [{"event": "undone", "cell": "D6"}]
    assert ask(again, {"cmd": "state"})[0]["winner"] is None
    store.close()
    store = Store(tmp_path / "g.db")
    assert ask(Referee(store), {"cmd": "state"})[0]["phase"] == "throwing"
    store.close()
