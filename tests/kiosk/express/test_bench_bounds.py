"""The bounds bench/express.py prints for three and four players: the first player's first turn
(exact over the dice, held against the real rules engine's dice) and the others' view without
A's line (`--untargetable`)."""

from __future__ import annotations

import argparse

import pytest

from kiosk.express.ai import Computer, Strategy
from kiosk.express.match import Match, Phase, Setup
from kiosk.express.rules import Ship, Variant

from .conftest import ANN, BO, CY, DEE, load_bench


@pytest.mark.parametrize(
    ("variant", "others"), [(Variant.ADMIRAL, [BO, CY]), (Variant.CAPTAIN, [BO, CY, DEE])]
)
def test_the_first_turn_is_what_normal_wins_there_in_the_real_game(variant, others):
    """Normal's chance to finish its first turn, computed exactly, against that many first turns
    of normal played with the engine's own dice (within 3 standard errors); the best chain
    is never less and no chance passes 1."""
    bench = load_bench()
    normal, best = bench.first_turn_chances(variant, others)
    assert 0 < normal <= best <= 1
    games, won = 3000, 0
    for seed in range(games):
        players = ["Ann", "Bo", "Cy", "Dee"][: len(others) + 1]
        match = Match(Setup.create(players, variant=variant, lines=[ANN, *others], seed=seed))
        computer = Computer(Strategy.NORMAL, seed)
        while match.phase is not Phase.OVER and match.turn == 0:
            match.apply(computer.decide(match.public_view()))
        won += match.phase is Phase.OVER and match.winner == 0
    error = (normal * (1 - normal) / games) ** 0.5
    assert abs(won / games - normal) < 3 * error


def test_the_untargetable_view_hides_only_as_line_and_only_while_others_are_afloat():
    bench = load_bench()
    view = {
        "turn": 1,
        "lines": [["Carrier"], ["Battleship"], ["Destroyer", "Submarine"]],
        "points": [0, 0, 0],
    }
    hidden = bench.hidden_from_others(view, 0)
    assert hidden["lines"] == [[], ["Battleship"], ["Destroyer", "Submarine"]]
    assert view["lines"][0] == ["Carrier"]  # the game's own view is not touched
    alone = {"turn": 1, "lines": [["Carrier"], ["Battleship"], []], "points": [0, 0, 0]}
    assert bench.hidden_from_others(alone, 0) is alone  # only A is left to aim at


def test_a_line_is_read_by_name_and_must_be_the_five_ships():
    bench = load_bench()
    assert bench.parse_line(" battleship,Submarine, DESTROYER,carrier,Patrol Boat") == (
        Ship.BATTLESHIP,
        Ship.SUBMARINE,
        Ship.DESTROYER,
        Ship.CARRIER,
        Ship.PATROL_BOAT,
    )
    for text in (
        "Battleship,Submarine,Destroyer,Carrier",
        "Battleship,Battleship,Destroyer,Carrier,Submarine",
    ):
        with pytest.raises(argparse.ArgumentTypeError, match="five ships"):
            bench.parse_line(text)
    with pytest.raises(argparse.ArgumentTypeError, match="'Cruiser'"):
        bench.parse_line("Cruiser,Submarine,Destroyer,Carrier,Patrol Boat")


def test_with_a_line_a_lays_it_in_its_seat_and_the_others_their_own(monkeypatch):
    bench = load_bench()
    laid = []
    original = Setup.create

    def create(*args, **kwargs):
        laid.append(kwargs["lines"])
        return original(*args, **kwargs)

    monkeypatch.setattr(bench.Setup, "create", staticmethod(create))
    line = bench.parse_line("Patrol Boat,Carrier,Submarine,Destroyer,Battleship")
    for seat in range(3):
        bench.play(bench.Batch(3, "admiral", "hard-normal", seat, 0, 2, 1, line=line))
    assert len(laid) == 6
    for number, lines in enumerate(laid):
        seat = number // 2
        assert lines[seat] == line
        assert all(other != line or player == seat for player, other in enumerate(lines))
    two: list = []
    monkeypatch.setattr(
        bench.Setup, "create", staticmethod(lambda *a, **k: two.append(k["lines"]) or original(*a, **k))
    )
    bench.play(bench.Batch(2, "admiral", "hard-normal", 0, 0, 1, 1, line=line))
    assert two[0][0] == Computer(Strategy.HARD).line(Variant.ADMIRAL, players=2)  # two players: its own
