"""The JSON shapes and the `GameKind`: what the store keeps, the shot log, the views."""

from __future__ import annotations

import dataclasses
import json

import pytest

from kiosk.express.match import Attack, Declare, Match, QueueDice, Setup, Target
from kiosk.express.rules import Rules, Variant
from kiosk.express.wire import EXPRESS, WireError, command_from_dict, command_to_dict
from kiosk.game import Shot

from .conftest import ANN, BO, CY, B, C, D, S, faces, game, queue


@pytest.mark.parametrize(
    "command",
    [
        QueueDice(faces("CXB")),
        Attack(D, Target(1, B)),
        Attack(C, move=True, side=0),
        Attack(C),
        Declare(Target(2, S), side=1),
    ],
)
def test_commands_round_trip_through_json(command):
    body = json.loads(json.dumps(command_to_dict(command)))
    assert command_from_dict(body) == command


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ({"cmd": "attack"}, "ship"),
        ({"cmd": "attack", "ship": "Destroyer", "target": [1, "Carrier"]}, "target"),
        ({"cmd": "attack", "ship": "Destroyer", "target": {"player": 1, "ship": "C", "x": 1}}, "x"),
        ({"cmd": "target"}, "target"),
        ({"cmd": "dice", "faces": "Burst"}, "faces"),
        ({"cmd": "dice", "faces": ["Joker"]}, "Joker"),
        ({"cmd": "roll"}, "roll"),
    ],
)
def test_bad_commands_say_what_is_wrong(body, word):
    with pytest.raises(WireError, match=word):
        command_from_dict(body)


def test_the_kind_keeps_setup_and_rules_and_replays():
    rules = Rules(destroyer=dataclasses.replace(Rules().destroyer, dice=5), sinker_goes_again=False)
    setup = Setup.create(
        ["Ann", "Bo", "Cy"],
        variant=Variant.CAPTAIN,
        points_to_win=7,
        lines=[ANN, BO, CY],
        seed=123,
        rules=rules,
    )
    data = json.loads(json.dumps(EXPRESS.setup_to_dict(setup)))
    assert EXPRESS.name == "express"
    assert EXPRESS.setup_from_dict(data) == setup
    body, secret = EXPRESS.command_to_dict(Attack(D, Target(1, B)))
    assert secret is None and EXPRESS.command_from_dict(body, setup, None) == Attack(D, Target(1, B))
    assert isinstance(EXPRESS.new(setup), Match)


def test_shots_log_every_roll_once_with_its_faces():
    m = game(BO, ANN)  # Ann's Carrier rolls first
    queue(m, "CBXSSD BBSS")
    events = m.apply(Attack(C)) + m.apply(Declare(Target(1, B)))
    assert list(EXPRESS.shots(events)) == [
        Shot(0, "Ann", 1, "", "Carrier,Battleship,Burst,Submarine,Submarine,Destroyer"),
        Shot(0, "Ann", 2, "1:Battleship", "Battleship,Battleship,Submarine,Submarine"),
    ]


def test_views_show_the_whole_table_and_outcome_counts_per_player():
    m = game(points=1)
    queue(m, "SSSSSS SSSSSS")
    m.apply(Attack(D, Target(1, B)))  # Ann misses
    queue(m, "X")
    m.apply(Attack(S, Target(0, C)))  # Bo sinks Ann's Carrier: 1 point wins
    view = m.public_view()
    assert view["lines"] == [
        ["Destroyer", "Battleship", "Submarine", "Patrol Boat"],
        ["Submarine", "Battleship", "Destroyer", "Carrier", "Patrol Boat"],
    ]
    assert (view["phase"], view["winner"], view["points"], view["sunk"]) == (
        "over",
        1,
        [0, 1],
        [["Carrier"], []],
    )
    assert view["stats"][1] == {"attacks": 1, "hits": 1, "sunk": 1, "turns": 1}
    assert json.loads(json.dumps(view)) == view
    assert m.private_view(0) == {**view, "side": 0}
    outcome = m.outcome()
    assert (outcome.over, outcome.winner, outcome.turns) == (True, 1, 2)
    assert [(r.player, r.shots, r.hits, r.sunk, r.turns, r.won) for r in outcome.results] == [
        ("Ann", 1, 0, 0, 1, False),
        ("Bo", 1, 1, 1, 1, True),
    ]


def test_an_unfinished_game_has_no_results_yet():
    outcome = game().outcome()
    assert not outcome.over and outcome.results == () and outcome.turns == 1
