"""`dartship express` (PROTOCOLS.md section 5): each row of the table and each settled detail."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from kiosk.express.referee import Referee, run
from kiosk.service import GameService

ANN = ["Carrier", "Battleship", "Destroyer", "Submarine", "Patrol Boat"]
BO = ["Battleship", "Destroyer", "Carrier", "Submarine", "Patrol Boat"]
CY = ["Patrol Boat", "Submarine", "Carrier", "Destroyer", "Battleship"]


def ask(ref: Referee, obj) -> list[dict]:
    return ref.handle_line(obj if isinstance(obj, str) else json.dumps(obj))


def one_error(answers: list[dict], *words: str) -> str:
    assert len(answers) == 1 and answers[0]["event"] == "error", answers
    message = answers[0]["message"]
    for word in words:
        assert word in message, message
    return message


def new(ref: Referee, **keys) -> list[dict]:
    return ask(ref, {"cmd": "new", "players": ["Ann", "Bo"], "lines": [ANN, BO], **keys})


def dice(ref: Referee, *names: str) -> list[dict]:
    return ask(ref, {"cmd": "dice", "faces": list(names)})


def attack(ref: Referee, ship: str, owner: int | None = None, target: str | None = None, **extra):
    """An `attack`; `owner` and `target` name the target ship, `extra` adds keys (player, move)."""
    cmd = {"cmd": "attack", "ship": ship, **extra}
    if target is not None:
        cmd["target"] = {"player": owner, "ship": target}
    return ask(ref, cmd)


def state(ref: Referee) -> dict:
    return ask(ref, {"cmd": "state"})[0]


@pytest.fixture
def ref() -> Referee:
    r = Referee()
    new(r)
    return r


# ---- new ---------------------------------------------------------------------------------


def test_new_answers_players_and_lines_front_first():
    r = Referee()
    answer = ask(
        r,
        {
            "cmd": "new",
            "players": ["Ann", "Bo", "Cy"],
            "game": "admiral",
            "points_to_win": 4,
            "lines": [ANN, BO, CY],
            "seed": 5,
        },
    )
    assert answer == [{"event": "new", "players": ["Ann", "Bo", "Cy"], "lines": [ANN, BO, CY]}]
    assert state(r) == {
        "event": "state",
        "game": "admiral",
        "turn": 0,
        "phase": "attack",
        "lines": [ANN, BO, CY],
        "points": [0, 0, 0],
        "winner": None,
    }


def test_new_defaults_admiral_points_by_players_random_lines():
    r = Referee()
    lines = ask(r, {"cmd": "new", "players": ["Ann", "Bo", "Cy", "Dee"]})[0]["lines"]
    assert len(lines) == 4 and all(sorted(line) == sorted(ANN) for line in lines)
    assert state(r)["game"] == "admiral"
    assert r.match is not None and r.match.setup.points_to_win == 3
    ask(r, {"cmd": "new", "players": ["Ann", "Bo"]})
    assert r.match.setup.points_to_win == 5


def test_a_given_seed_makes_lines_and_every_die_reproducible():
    def play(seed):
        r = Referee()
        answers = ask(r, {"cmd": "new", "players": ["Ann", "Bo", "Cy"], "seed": seed})
        line = answers[0]["lines"][0]
        ship = next(s for s in line if s != "Carrier")
        target = answers[0]["lines"][1][0]
        return answers + attack(r, ship, 1, target)

    assert play(11) == play(11)
    assert play(11) != play(12)


@pytest.mark.parametrize(("players", "most"), [(2, 5), (3, 10), (4, 15)])
def test_points_to_win_is_1_to_5_times_opponents(players, most):
    names = ["Ann", "Bo", "Cy", "Dee"][:players]
    r = Referee()
    for good in (1, most):
        assert ask(r, {"cmd": "new", "players": names, "points_to_win": good})[0]["event"] == "new"
    for bad in (0, most + 1):
        one_error(ask(r, {"cmd": "new", "players": names, "points_to_win": bad}), str(most))


@pytest.mark.parametrize(
    "obj",
    [
        {"cmd": "new"},
        {"cmd": "new", "players": ["Ann"]},
        {"cmd": "new", "players": ["A", "B", "C", "D", "E"]},
        {"cmd": "new", "players": "Ann, Bo"},
        {"cmd": "new", "players": ["Ann", "Bo"], "game": "general"},
        {"cmd": "new", "players": ["Ann", "Bo"], "seed": "x"},
        {"cmd": "new", "players": ["Ann", "Bo"], "points_to_win": True},
        {"cmd": "new", "players": ["Ann", "Bo"], "lines": [ANN]},
        {"cmd": "new", "players": ["Ann", "Bo"], "lines": [ANN, ["Carrier", "Yacht"]]},
        {"cmd": "new", "players": ["Ann", "Bo"], "colour": "red"},
    ],
)
def test_a_bad_new_is_one_error_and_keeps_the_game(ref, obj):
    before = state(ref)
    one_error(ask(ref, obj))
    assert state(ref) == before


# ---- dice --------------------------------------------------------------------------------


def test_dice_queue_counts_every_face_waiting_and_new_empties_it(ref):
    assert dice(ref, "Carrier", "Burst") == [{"event": "dice", "queued": 2}]
    assert dice(ref, "burst", "PATROL BOAT", "Submarine") == [{"event": "dice", "queued": 5}]
    new(ref)
    assert dice(ref, "Destroyer") == [{"event": "dice", "queued": 1}]


def test_queued_faces_are_the_next_dice_shown(ref):
    dice(ref, *["Submarine"] * 12)
    answers = attack(ref, "Destroyer", 1, "Battleship")
    assert [a["faces"] for a in answers[:2]] == [["Submarine"] * 6, ["Submarine"] * 6]
    assert answers[2] == {"event": "turn", "player": 1}


@pytest.mark.parametrize("faces", [[], "Burst", ["Burst", "Joker"], [3]])
def test_bad_faces_are_one_error(ref, faces):
    one_error(ask(ref, {"cmd": "dice", "faces": faces}))
    assert ask(ref, {"cmd": "dice", "faces": ["Burst"]}) == [{"event": "dice", "queued": 1}]


# ---- attack ------------------------------------------------------------------------------


def test_attack_rolls_then_sunk_and_the_attacker_goes_again(ref):
    dice(
        ref,
        "Battleship",
        "Battleship",
        "Burst",
        "Patrol Boat",
        "Patrol Boat",
        "Patrol Boat",
        "Battleship",
        "Submarine",
        "Submarine",
    )
    assert attack(ref, "Destroyer", 1, "Battleship") == [
        {
            "event": "roll",
            "player": 0,
            "ship": "Destroyer",
            "roll": 1,
            "faces": ["Battleship", "Battleship", "Burst", "Patrol Boat", "Patrol Boat", "Patrol Boat"],
            "hits": 4,
            "total": 4,
        },
        {
            "event": "roll",
            "player": 0,
            "ship": "Destroyer",
            "roll": 2,
            "faces": ["Battleship", "Submarine", "Submarine"],
            "hits": 1,
            "total": 5,
        },
        {"event": "sunk", "player": 1, "ship": "Battleship", "by": 0, "points": [1, 0]},
        {"event": "turn", "player": 0},
    ]
    assert state(ref)["lines"] == [
        ["Destroyer", "Carrier", "Battleship", "Submarine", "Patrol Boat"],
        ["Destroyer", "Carrier", "Submarine", "Patrol Boat"],
    ]


def test_attack_that_fails_passes_the_dice(ref):
    dice(ref, *["Carrier"] * 5 * 3)
    answers = attack(ref, "Patrol Boat", 1, "Destroyer")
    assert [a["event"] for a in answers] == ["roll", "roll", "roll", "turn"]
    assert [a["total"] for a in answers[:3]] == [0, 0, 0]
    assert answers[-1] == {"event": "turn", "player": 1}


def test_the_sink_that_reaches_the_points_wins():
    r = Referee()
    new(r, points_to_win=1)
    dice(r, "Burst")
    assert attack(r, "Submarine", 1, "Patrol Boat")[-2:] == [
        {"event": "sunk", "player": 1, "ship": "Patrol Boat", "by": 0, "points": [1, 0]},
        {"event": "win", "player": 0},
    ]
    assert state(r)["phase"] == "over" and state(r)["winner"] == 0
    one_error(attack(r, "Destroyer", 1, "Battleship"), "over")


def test_a_sink_that_leaves_no_opponent_with_a_ship_wins():
    r = Referee()
    ask(r, {"cmd": "new", "players": ["Ann", "Bo", "Cy"], "lines": [ANN, BO, CY], "points_to_win": 10})
    for player, line in ((1, BO), (2, CY)):
        for ship in line:
            dice(r, "Burst")
            answers = attack(r, "Submarine", player, ship)
    assert answers[-1] == {"event": "win", "player": 0}


# ---- the Carrier -------------------------------------------------------------------------


def test_carrier_rolls_first_then_target_recounts_and_rolls_again():
    r = Referee()
    new(r, lines=[BO, ANN])  # Ann's Carrier is third, Bo's Carrier first
    dice(
        r,
        "Carrier",
        "Battleship",
        "Burst",
        "Submarine",
        "Submarine",
        "Destroyer",
        "Battleship",
        "Battleship",
        "Submarine",
        "Submarine",
    )
    first = {
        "event": "roll",
        "player": 0,
        "ship": "Carrier",
        "roll": 1,
        "faces": ["Carrier", "Battleship", "Burst", "Submarine", "Submarine", "Destroyer"],
    }
    assert attack(r, "Carrier") == [{**first, "hits": None, "total": None}]
    assert state(r)["phase"] == "target"
    assert state(r)["lines"][0] == BO  # stays where it is
    assert ask(r, {"cmd": "target", "target": {"player": 1, "ship": "Battleship"}}) == [
        {**first, "hits": 2, "total": 2},
        {
            "event": "roll",
            "player": 0,
            "ship": "Carrier",
            "roll": 2,
            "faces": ["Battleship", "Battleship", "Submarine", "Submarine"],
            "hits": 2,
            "total": 4,
        },
        {"event": "turn", "player": 1},
    ]
    assert state(r)["phase"] == "attack"


def test_carrier_moves_to_the_front_only_when_the_attack_says_move():
    r = Referee()
    new(r, lines=[BO, ANN])
    attack(r, "Carrier", move=True)
    assert state(r)["lines"][0] == ["Carrier", "Battleship", "Destroyer", "Submarine", "Patrol Boat"]


def test_admirals_carrier_naming_a_target_is_refused(ref):
    before = state(ref)
    one_error(attack(ref, "Carrier", 1, "Battleship"), "rolls first")
    assert state(ref) == before


def test_target_is_only_for_a_waiting_carrier_roll(ref):
    one_error(ask(ref, {"cmd": "target", "target": {"player": 1, "ship": "Battleship"}}), "Carrier")
    attack(ref, "Carrier")
    one_error(attack(ref, "Destroyer", 1, "Battleship"), "declare its target first")
    one_error(
        ask(ref, {"cmd": "target", "target": {"player": 1, "ship": "Submarine"}}),
        "first two ships of Bo's line",
    )
    assert state(ref)["phase"] == "target"


def test_captains_game_every_attack_names_its_target_and_moves():
    r = Referee()
    new(r, game="captain", lines=[BO, ANN])
    one_error(attack(r, "Carrier"), "must name its target")
    dice(r, *["Submarine"] * 12)
    answers = attack(r, "Carrier", 1, "Carrier")
    assert [a.get("total") for a in answers] == [0, 0, None]
    assert state(r)["lines"][0][0] == "Carrier"
    assert state(r)["game"] == "captain"


# ---- the Submarine and counting ----------------------------------------------------------


def test_submarine_burst_counts_one_hit_and_sinks_whatever_the_total(ref):
    dice(ref, "Burst", "Destroyer", "Carrier")
    answers = attack(ref, "Submarine", 1, "Patrol Boat")  # fifth in Bo's line: anywhere
    assert answers[0]["hits"] == 1 and answers[0]["total"] == 1
    assert answers[1] == {"event": "sunk", "player": 1, "ship": "Patrol Boat", "by": 0, "points": [1, 0]}


def test_a_destroyer_burst_is_one_die_set_aside_worth_two(ref):
    dice(
        ref,
        "Burst",
        "Carrier",
        "Carrier",
        "Carrier",
        "Carrier",
        "Carrier",
        "Carrier",
        "Carrier",
        "Carrier",
        "Carrier",
        "Carrier",
    )
    answers = attack(ref, "Destroyer", 1, "Battleship")
    assert answers[0]["hits"] == 2 and answers[0]["total"] == 2
    assert len(answers[1]["faces"]) == 5  # the Burst is the one die set aside


def test_no_dice_left_means_no_further_roll():
    r = Referee()
    new(r, game="captain")
    dice(r, "Destroyer", "Destroyer", "Burst")
    answers = attack(r, "Submarine", 1, "Destroyer")  # three dice, all set aside: total 3 of 4
    assert answers == [
        {
            "event": "roll",
            "player": 0,
            "ship": "Submarine",
            "roll": 1,
            "faces": ["Destroyer", "Destroyer", "Burst"],
            "hits": 3,
            "total": 3,
        },
        {"event": "turn", "player": 1},
    ]


# ---- refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        (
            {"cmd": "attack", "ship": "Destroyer", "target": {"player": 1, "ship": "Carrier"}},
            ["first two ships of Bo's line"],
        ),
        ({"cmd": "attack", "ship": "Destroyer", "target": {"player": 0, "ship": "Carrier"}}, ["own line"]),
        (
            {
                "cmd": "attack",
                "ship": "Destroyer",
                "target": {"player": 1, "ship": "Battleship"},
                "player": 1,
            },
            ["Ann's turn"],
        ),
        ({"cmd": "attack", "ship": "Yacht", "target": {"player": 1, "ship": "Battleship"}}, ["Yacht"]),
        ({"cmd": "attack", "ship": "Destroyer"}, ["must name its target"]),
        ({"cmd": "attack", "ship": "Destroyer", "target": {"player": 1}}, ["ship"]),
        ({"cmd": "attack", "ship": "Destroyer", "target": {"player": "1", "ship": "Battleship"}}, ["player"]),
        (
            {
                "cmd": "attack",
                "ship": "Destroyer",
                "target": {"player": 1, "ship": "Battleship"},
                "move": "yes",
            },
            ["move"],
        ),
        (
            {"cmd": "attack", "ship": "Destroyer", "target": {"player": 1, "ship": "Battleship"}, "speed": 3},
            ["speed"],
        ),
        ({"cmd": "fire", "cell": "B7"}, ["fire"]),
        ({"cmd": 3}, ["cmd"]),
        ({"ship": "Destroyer"}, ["cmd"]),
        ("[1, 2]", ["JSON object"]),
        ("{not json", ["JSON"]),
    ],
)
def test_each_refusal_is_one_error_and_changes_nothing(ref, obj, words):
    dice(ref, "Burst")
    before = state(ref)
    one_error(ask(ref, obj), *words)
    assert state(ref) == before
    assert dice(ref, "Burst") == [{"event": "dice", "queued": 2}]  # the queue is untouched


def test_a_ship_no_longer_in_the_line_cannot_attack_or_be_targeted(ref):
    dice(ref, "Submarine", "Submarine", "Submarine", "Burst")
    attack(ref, "Submarine", 1, "Destroyer")  # Ann misses
    attack(ref, "Submarine", 0, "Battleship")  # Bo sinks Ann's Battleship, goes again
    ask(ref, {"cmd": "dice", "faces": ["Carrier"] * 3})
    attack(ref, "Submarine", 0, "Destroyer")
    one_error(attack(ref, "Battleship", 1, "Submarine"), "Battleship", "Ann's line")


def test_the_player_key_must_be_the_player_on_turn(ref):
    dice(ref, *["Carrier"] * 12)
    assert attack(ref, "Destroyer", 1, "Battleship", player=0)[-1] == {"event": "turn", "player": 1}
    one_error(attack(ref, "Carrier", player=0), "Bo's turn")
    attack(ref, "Carrier", player=1)
    one_error(
        ask(ref, {"cmd": "target", "player": 0, "target": {"player": 0, "ship": "Destroyer"}}), "Bo's turn"
    )


def test_commands_before_new_are_errors():
    r = Referee()
    one_error(ask(r, {"cmd": "state"}), "new")
    one_error(dice(r, "Burst"), "new")


# ---- the program -------------------------------------------------------------------------


def test_run_answers_line_by_line_and_skips_blank_lines():
    lines = (
        "\n".join(
            [
                json.dumps({"cmd": "new", "players": ["Ann", "Bo"], "lines": [ANN, BO]}),
                "",
                json.dumps({"cmd": "dice", "faces": ["Burst"]}),
                "oops",
                json.dumps({"cmd": "state"}),
            ]
        )
        + "\n"
    )
    out = io.StringIO()
    assert run(io.StringIO(lines), out, GameService(None, follow_ups=False)) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["event"] for a in answers] == ["new", "dice", "error", "state"]


def test_main_stdio_ends_with_status_0_at_end_of_input():
    script = "from kiosk.express.referee import main_stdio; raise SystemExit(main_stdio())"
    done = subprocess.run(
        [sys.executable, "-c", script], input='{"cmd": "state"}\n', text=True, capture_output=True, timeout=30
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["event"] == "error"
