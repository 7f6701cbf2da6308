"""The classic 10x10 grid: model, targeting, baselines."""

from __future__ import annotations

import random

import pytest

from kiosk.ai import Method, Record, classic
from kiosk.ai.selfplay import play
from kiosk.ai.strategies import HuntTarget, RandomShots, grid_parity
from kiosk.darts.match import Result


def test_squares_and_notation():
    assert len(classic.SQUARES) == 100
    assert classic.parse_square("a1") == classic.Square(0, 1)
    assert classic.parse_square(" J10 ").code == "J10"
    for bad in ("K1", "A0", "A11", "A01", "", "1A"):
        with pytest.raises(ValueError, match="not a square"):
            classic.parse_square(bad)
    assert set(classic.neighbours(classic.parse_square("A1"))) == {
        classic.parse_square("B1"), classic.parse_square("A2")}


@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_placement_counts(length):
    ships = classic.placements(length)
    assert len(ships) == 2 * 10 * (11 - length)
    assert len({s.cells for s in ships}) == len(ships)


def test_random_fleets_are_legal_and_shots_are_told_right():
    rng = random.Random(2)
    fleet = classic.random_fleet(classic.CLASSIC_FLEET, rng)
    assert sorted(s.length for s in fleet.ships) == sorted(classic.CLASSIC_FLEET)
    assert len(fleet.cells) == sum(classic.CLASSIC_FLEET)
    ship = fleet.ships[-1]
    shots: dict = {}
    for square in ship.cells[:-1]:
        assert classic.fire(fleet, shots, square) == (Result.HIT, None)
        shots[square] = Result.HIT
    assert classic.fire(fleet, shots, ship.cells[-1]) == (Result.SUNK, ship)
    assert classic.fire(fleet, shots, ship.cells[0]) == (Result.REPEAT, None)
    empty = next(s for s in classic.SQUARES if s not in fleet.cells)
    assert classic.fire(fleet, shots, empty) == (Result.MISS, None)


def test_grid_heat_invariants():
    rng = random.Random(6)
    fleet = classic.random_fleet(classic.CLASSIC_FLEET, rng)
    record = Record()
    for square in rng.sample(classic.SQUARES, 40):
        result, ship = classic.fire(fleet, record.shots, square)
        record = record.with_shot(square, result, ship)
    heat = classic.heatmap(record, classic.CLASSIC_FLEET, rng)
    sunk = {c for s in record.sunk for c in s.cells}
    hits = [c for c, r in record.shots.items() if r.scores and c not in sunk]
    left = sum(classic.CLASSIC_FLEET) - len(sunk) - len(hits)
    assert sum(heat.values()) == pytest.approx(left)
    target = classic.choose_target(record, classic.CLASSIC_FLEET, rng, heat=heat)
    assert target not in record.shots and heat[target] > 0


def test_a_corner_walled_in_by_misses_is_empty():
    a1 = classic.parse_square("A1")
    shots = {classic.parse_square(c): Result.MISS for c in ("B1", "A2")}
    for method in (Method.EXACT, Method.SAMPLED):
        heat = classic.heatmap(Record(shots), (2,), random.Random(1), method=method)
        assert heat[a1] == 0
        assert sum(heat.values()) == pytest.approx(2)


def test_games_finish_for_every_shooter():
    rng = random.Random(8)
    shooters = [
        lambda r, g: classic.choose_target(r, classic.CLASSIC_FLEET, g),
        RandomShots(classic.SQUARES),
        HuntTarget(classic.SQUARES, classic.neighbours, grid_parity),
    ]
    for shooter in shooters:
        fleet = classic.random_fleet(classic.CLASSIC_FLEET, rng)
        darts = play(fleet.ships, frozenset(classic.SQUARES), shooter, rng)
        assert 17 <= darts <= 100
