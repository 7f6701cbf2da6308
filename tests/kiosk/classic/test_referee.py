"""`dartship classic` (PROTOCOLS.md section 4): every row, every settled detail, and errors that
change nothing. The referee runs on the in-memory runner with the real computer."""

from __future__ import annotations

import datetime
import io
import json

import pytest

from kiosk.classic.ai import Computer
from kiosk.classic.referee import ClassicReferee, run
from kiosk.service import GameService

from .conftest import ANN, BO, DAY


def referee(today: datetime.date = DAY) -> ClassicReferee:
    service = GameService(None, venue="classic", follow_ups=False)
    return ClassicReferee(service, Computer, today=lambda: today, daily_key=b"k" * 32)


def ask(ref: ClassicReferee, obj) -> list[dict]:
    return ref.handle_line(obj if isinstance(obj, str) else json.dumps(obj))


def one(ref: ClassicReferee, obj) -> dict:
    answers = ask(ref, obj)
    assert len(answers) == 1, answers
    return answers[0]


def state(ref: ClassicReferee) -> dict:
    return one(ref, {"cmd": "state"})


@pytest.fixture
def duel() -> ClassicReferee:
    ref = referee()
    assert ask(ref, {"cmd": "new", "mode": "duel", "players": ["Ann", "Bo"], "first": 0}) == [
        {"event": "new", "mode": "duel", "players": ["Ann", "Bo"]}
    ]
    assert ask(ref, {"cmd": "place", "player": 0, "fleet": ANN}) == [{"event": "placed", "player": 0}]
    assert ask(ref, {"cmd": "place", "player": 1, "fleet": BO}) == [{"event": "placed", "player": 1}]
    return ref


def test_new_places_no_human_fleet_and_fire_waits_for_both():
    ref = referee()
    ask(ref, {"cmd": "new", "mode": "duel", "players": ["Ann", "Bo"], "first": 1})
    assert state(ref) == {
        "event": "state",
        "mode": "duel",
        "phase": "placing",
        "turn": 1,
        "shots": [0, 0],
        "hits": [0, 0],
        "sunk": [[], []],
        "winner": None,
    }
    assert one(ref, {"cmd": "view", "player": 0})["fleet"] == []
    assert one(ref, {"cmd": "fire", "cell": "A1"})["event"] == "error"
    ask(ref, {"cmd": "place", "player": 0, "fleet": ANN})
    assert one(ref, {"cmd": "fire", "cell": "A1"})["event"] == "error"
    ask(ref, {"cmd": "random_fleet", "player": 1})
    assert state(ref)["phase"] == "playing"
    assert one(ref, {"cmd": "fire", "cell": "A1"})["player"] == 1  # `first` fires first


def test_new_defaults():
    ref = referee()
    answer = one(ref, {"cmd": "new"})
    assert answer["event"] == "new" and answer["mode"] == "duel" and len(answer["players"]) == 2
    assert state(ref)["turn"] == 0


def test_shots_turns_sinking_and_winning(duel):
    assert ask(duel, {"cmd": "fire", "cell": "b7"}) == [
        {"event": "shot", "player": 0, "cell": "B7", "result": "hit"}
    ]
    assert ask(duel, {"cmd": "fire", "cell": "J10"}) == [
        {"event": "shot", "player": 0, "cell": "J10", "result": "miss"},
        {"event": "turn", "player": 1},
    ]
    assert ask(duel, {"cmd": "fire", "cell": "E9"}) == [
        {"event": "shot", "player": 1, "cell": "E9", "result": "hit"}
    ]
    assert ask(duel, {"cmd": "fire", "cell": "F9"}) == [
        {
            "event": "shot",
            "player": 1,
            "cell": "F9",
            "result": "sunk",
            "ship": "Destroyer",
            "cells": ["E9", "F9"],
        }
    ]
    assert state(duel) == {
        "event": "state",
        "mode": "duel",
        "phase": "playing",
        "turn": 1,
        "shots": [2, 2],
        "hits": [1, 2],
        "sunk": [["Destroyer"], []],
        "winner": None,
    }
    ask(duel, {"cmd": "fire", "cell": "J10"})  # Bo misses
    last = None
    for cell in (
        "A7",
        "C7",
        "B1",
        "C1",
        "D1",
        "E1",
        "F1",
        "J1",
        "J2",
        "J3",
        "J4",
        "D5",
        "D6",
        "D7",
        "H9",
        "H10",
    ):
        last = ask(duel, {"cmd": "fire", "cell": cell})
    assert last == [
        {
            "event": "shot",
            "player": 0,
            "cell": "H10",
            "result": "sunk",
            "ship": "Destroyer",
            "cells": ["H9", "H10"],
        },
        {"event": "win", "player": 0},
    ]
    final = state(duel)
    assert final["phase"] == "over" and final["winner"] == 0
    assert final["sunk"] == [["Destroyer"], ["Cruiser", "Carrier", "Battleship", "Submarine", "Destroyer"]]
    assert one(duel, {"cmd": "fire", "cell": "A1"})["event"] == "error"


def test_a_square_already_fired_at_is_refused_and_no_shot_is_spent(duel):
    ask(duel, {"cmd": "fire", "cell": "B7"})
    before = state(duel)
    answer = one(duel, {"cmd": "fire", "cell": "b7"})
    assert answer["event"] == "error" and "B7" in answer["message"]
    assert state(duel) == before and before["turn"] == 0


def test_view_shows_own_fleet_incoming_and_radar_never_an_unsunk_ship(duel):
    for cell in ("H9", "H10", "A7", "J10"):  # Ann sinks the Destroyer, hits the Cruiser, misses
        ask(duel, {"cmd": "fire", "cell": cell})
    ask(duel, {"cmd": "fire", "cell": "A2"})  # Bo hits the Carrier
    assert one(duel, {"cmd": "view", "player": 0}) == {
        "event": "view",
        "player": 0,
        "fleet": ["A1-A5", "C3-F3", "H2-H4", "J7-J9", "E9-F9"],
        "incoming": {"hit": ["A2"], "miss": []},
        "radar": {
            "hit": ["H9", "H10", "A7"],
            "miss": ["J10"],
            "sunk": [{"ship": "Destroyer", "cells": ["H9", "H10"]}],
        },
    }
    bo = one(duel, {"cmd": "view", "player": 1})
    assert bo["fleet"] == ["B1-F1", "J1-J4", "A7-C7", "D5-D7", "H9-H10"]
    assert bo["incoming"] == {"hit": ["H9", "H10", "A7"], "miss": ["J10"]}
    assert bo["radar"] == {"hit": ["A2"], "miss": [], "sunk": []}
    assert one(duel, {"cmd": "view", "player": 2})["event"] == "error"


def test_re_placing_until_the_first_shot(duel):
    assert ask(duel, {"cmd": "random_fleet", "player": 0, "seed": 7}) == [{"event": "placed", "player": 0}]
    ask(duel, {"cmd": "place", "player": 0, "fleet": ANN})
    ask(duel, {"cmd": "fire", "cell": "J10"})
    before = [state(duel), one(duel, {"cmd": "view", "player": 0})]
    assert one(duel, {"cmd": "place", "player": 0, "fleet": BO})["event"] == "error"
    assert one(duel, {"cmd": "random_fleet", "player": 1})["event"] == "error"
    assert [state(duel), one(duel, {"cmd": "view", "player": 0})] == before


def test_random_fleet_seed_is_repeatable():
    fleets = []
    for _ in range(2):
        ref = referee()
        ask(ref, {"cmd": "new"})
        ask(ref, {"cmd": "random_fleet", "player": 0, "seed": 7})
        fleets.append(one(ref, {"cmd": "view", "player": 0})["fleet"])
    assert fleets[0] == fleets[1] and len(fleets[0]) == 5


def solo(seed: int = 3, ai: str = "normal") -> ClassicReferee:
    ref = referee()
    assert ask(ref, {"cmd": "new", "mode": "solo", "players": ["Ann"], "ai": ai, "seed": seed}) == [
        {"event": "new", "mode": "solo", "players": ["Ann"]}
    ]
    return ref


def test_solo_the_computer_answers_at_once_until_it_misses():
    ref = solo()
    assert len(one(ref, {"cmd": "view", "player": 1})["fleet"]) == 5  # placed at new
    assert state(ref)["phase"] == "placing"
    ask(ref, {"cmd": "place", "player": 0, "fleet": ANN})
    computer = one(ref, {"cmd": "view", "player": 1})["fleet"]
    water = next(
        f"{c}{r}"
        for c in "ABCDEFGHIJ"
        for r in range(1, 11)
        if not any(_covers(ship, f"{c}{r}") for ship in computer)
    )
    answers = ask(ref, {"cmd": "fire", "cell": water})
    assert answers[:2] == [
        {"event": "shot", "player": 0, "cell": water, "result": "miss"},
        {"event": "turn", "player": 1},
    ]
    theirs = answers[2:-1]
    assert theirs and all(a["event"] == "shot" and a["player"] == 1 for a in theirs)
    assert [a["result"] for a in theirs[:-1]] == [a["result"] for a in theirs[:-1] if a["result"] != "miss"]
    assert theirs[-1]["result"] == "miss" and answers[-1] == {"event": "turn", "player": 0}
    assert state(ref)["shots"] == [1, len(theirs)]


def _covers(ship: str, cell: str) -> bool:
    a, b = ship.split("-")
    cols = sorted((a[0], b[0]))
    rows = sorted((int(a[1:]), int(b[1:])))
    return cols[0] <= cell[0] <= cols[1] and rows[0] <= int(cell[1:]) <= rows[1]


def test_solo_with_a_seed_is_repeatable_and_plays_to_a_win():
    games = []
    for _ in range(2):
        ref = solo(seed=5, ai="hard")
        ask(ref, {"cmd": "random_fleet", "player": 0, "seed": 1})
        answers = []
        for c in "ABCDEFGHIJ":
            for r in range(1, 11):
                if state(ref)["phase"] == "over":
                    break
                answers += ask(ref, {"cmd": "fire", "cell": f"{c}{r}"})
        games.append(answers)
    assert games[0] == games[1]
    assert games[0][-1]["event"] == "win"
    fired = [(a["player"], a["cell"]) for a in games[0] if a["event"] == "shot"]
    assert len(fired) == len(set(fired))  # the computer never fires at a square twice


@pytest.mark.parametrize("ai", ["easy", "normal", "hard"])
def test_solo_levels(ai):
    ref = solo(ai=ai)
    ask(ref, {"cmd": "random_fleet", "player": 0})
    answers = ask(ref, {"cmd": "fire", "cell": "A1"}) + ask(ref, {"cmd": "fire", "cell": "A2"})
    assert all(a["event"] in ("shot", "turn") for a in answers)
    assert one(ref, {"cmd": "new", "mode": "solo", "ai": "wizard"})["event"] == "error"


def test_a_duel_of_one_name_in_two_cases_is_refused():
    """ "Bo" and "bo" are one name (kiosk.names.same_name), as the touchscreen's duel says."""
    ref = referee()
    answer = one(ref, {"cmd": "new", "mode": "duel", "players": ["Bo", "bo"]})
    assert answer["event"] == "error" and "different names" in answer["message"]
    assert one(ref, {"cmd": "new", "mode": "duel", "players": ["Bo", "Cy"]})["event"] == "new"


def test_solo_computer_first():
    ref = referee()
    ask(ref, {"cmd": "new", "mode": "solo", "first": 1, "seed": 2})
    answers = ask(ref, {"cmd": "random_fleet", "player": 0})
    assert answers[0] == {"event": "placed", "player": 0}
    assert answers[1]["event"] == "shot" and answers[1]["player"] == 1
    assert answers[-1] == {"event": "turn", "player": 0}


def daily(ref: ClassicReferee, name: str = "Ann", date: str | None = "2026-11-30") -> None:
    obj = {"cmd": "new", "mode": "daily", "players": [name]}
    if date is not None:
        obj["date"] = date
    assert ask(ref, obj) == [{"event": "new", "mode": "daily", "players": [name]}]


def test_daily_every_game_of_a_date_hides_the_same_fleet():
    ref = referee(today=datetime.date(2026, 11, 30))
    daily(ref, date=None)  # today
    today = one(ref, {"cmd": "view", "player": 1})["fleet"]
    daily(ref, "Bo")
    assert one(ref, {"cmd": "view", "player": 1})["fleet"] == today
    assert one(referee(today=datetime.date(2030, 1, 1)), {"cmd": "leaderboard"})["entries"] == []
    other = referee()
    daily(other, date="2026-12-01")
    assert one(other, {"cmd": "view", "player": 1})["fleet"] != today
    assert one(other, {"cmd": "new", "mode": "daily", "date": "tomorrow"})["event"] == "error"


def sink_daily(ref: ClassicReferee, name: str, misses: int) -> list[dict]:
    daily(ref, name)
    fleet = one(ref, {"cmd": "view", "player": 1})["fleet"]
    water = [
        f"{c}{r}"
        for c in "ABCDEFGHIJ"
        for r in range(1, 11)
        if not any(_covers(ship, f"{c}{r}") for ship in fleet)
    ]
    answers = []
    for cell in water[:misses]:
        answers += ask(ref, {"cmd": "fire", "cell": cell})
    for ship in fleet:
        for cell in [f"{c}{r}" for c in "ABCDEFGHIJ" for r in range(1, 11) if _covers(ship, f"{c}{r}")]:
            answers += ask(ref, {"cmd": "fire", "cell": cell})
    return answers


def test_daily_the_player_fires_on_and_the_leaderboard_ranks_by_shots():
    ref = referee()
    answers = sink_daily(ref, "Ann", misses=3)
    assert all(a["event"] != "turn" for a in answers)  # no turn: the player fires on
    assert answers[0]["result"] == "miss" and answers[1]["player"] == 0
    assert answers[-1] == {"event": "win", "player": 0}
    assert state(ref)["shots"] == [20, 0]
    sink_daily(ref, "Bo", misses=1)
    sink_daily(ref, "Cy", misses=3)  # ties with Ann, finished later
    daily(ref, "Dee")  # unfinished: not on the board
    ask(ref, {"cmd": "fire", "cell": "A1"})
    assert ask(ref, {"cmd": "leaderboard", "date": "2026-11-30"}) == [
        {
            "event": "leaderboard",
            "date": "2026-11-30",
            "entries": [
                {"player": "Bo", "shots": 18},
                {"player": "Ann", "shots": 20},
                {"player": "Cy", "shots": 20},
            ],
        }
    ]
    assert one(ref, {"cmd": "leaderboard", "date": "2026-12-01"})["entries"] == []


def test_ready_then_duel_keeps_the_first_players_fleet_and_player_0_fires_first():
    ref = solo()
    ask(ref, {"cmd": "place", "player": 0, "fleet": ANN})
    ask(ref, {"cmd": "fire", "cell": "J10"})
    assert one(ref, {"cmd": "duel", "players": ["Ann", "Bo"]})["event"] == "error"  # not ready
    assert ask(ref, {"cmd": "ready"}) == [{"event": "ready"}]
    assert ask(ref, {"cmd": "duel", "players": ["Ann", "Bo"]}) == [
        {"event": "new", "mode": "duel", "players": ["Ann", "Bo"]},
        {"event": "placed", "player": 0},
        {"event": "placed", "player": 1},
    ]
    assert state(ref) == {
        "event": "state",
        "mode": "duel",
        "phase": "playing",
        "turn": 0,
        "shots": [0, 0],
        "hits": [0, 0],
        "sunk": [[], []],
        "winner": None,
    }
    assert one(ref, {"cmd": "view", "player": 0})["fleet"] == ANN.split()
    assert len(one(ref, {"cmd": "view", "player": 1})["fleet"]) == 5
    assert ask(ref, {"cmd": "fire", "cell": "A1"})[0]["player"] == 0
    assert one(ref, {"cmd": "ready"})["event"] == "error"  # a duel is no solo game


BAD = [
    ("not json at all", "bad JSON"),
    ("[1, 2]", "JSON object"),
    ('{"cmd": "fly"}', "unknown command"),
    ('{"nocmd": 1}', "cmd"),
    ('{"cmd": "fire", "cell": "K1"}', "K1"),
    ('{"cmd": "fire", "cell": "A11"}', "A11"),
    ('{"cmd": "fire"}', "cell"),
    ('{"cmd": "place", "player": 0, "fleet": "A1-A5"}', "missing"),
    ('{"cmd": "place", "player": 3, "fleet": "A1-A5"}', "0 or 1"),
    ('{"cmd": "random_fleet", "player": 0, "seed": "x"}', "seed"),
    ('{"cmd": "view"}', "player"),
    ('{"cmd": "new", "mode": "chess"}', "mode"),
    ('{"cmd": "new", "first": 2}', "first"),
    ('{"cmd": "new", "players": ["Ann"]}', "players"),
    ('{"cmd": "new", "players": ["Ann", "Ann"]}', "different"),
    ('{"cmd": "ready"}', "solo"),
    ('{"cmd": "leaderboard", "date": "30.11.2026"}', "date"),
]


@pytest.mark.parametrize(("line", "words"), BAD)
def test_every_bad_line_gets_one_error_and_changes_nothing(duel, line, words):
    ask(duel, {"cmd": "fire", "cell": "B7"})
    before = [state(duel), one(duel, {"cmd": "view", "player": 0}), one(duel, {"cmd": "view", "player": 1})]
    answers = ask(duel, line)
    assert len(answers) == 1 and answers[0]["event"] == "error"
    assert words.lower() in answers[0]["message"].lower()
    assert [
        state(duel),
        one(duel, {"cmd": "view", "player": 0}),
        one(duel, {"cmd": "view", "player": 1}),
    ] == before


def test_no_game_yet():
    ref = referee()
    for cmd in ("state", "fire", "view", "place", "ready"):
        assert one(ref, {"cmd": cmd})["event"] == "error"
    assert one(ref, {"cmd": "leaderboard"})["event"] == "leaderboard"


def test_run_answers_line_by_line_and_ends_with_0_at_end_of_input():
    lines = io.StringIO('{"cmd": "new", "players": ["Ann", "Bo"]}\n\n{"cmd": "state"}\nnope\n')
    out = io.StringIO()
    assert run(lines, out, referee()) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["event"] for a in answers] == ["new", "state", "error"]
