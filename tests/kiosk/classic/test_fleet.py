"""The grid and the fleet: notation, the five named ships, every placement error, moving ships."""

from __future__ import annotations

import random

import pytest

from kiosk.classic.fleet import (
    CLASSES,
    Fleet,
    NotationError,
    NotStraightError,
    OutsideGridError,
    OverlapError,
    PlacementError,
    Ship,
    ShipClass,
    ShipLengthError,
    WrongFleetError,
    parse_fleet,
    parse_ship,
    random_fleet,
)
from kiosk.classic.grid import GRID, SQUARES, Grid, Square, SquareError, parse_square
from kiosk.game import RuleError

from .conftest import ANN


def test_squares_and_notation():
    assert len(SQUARES) == 100 and SQUARES[0].code == "A1" and SQUARES[-1].code == "J10"
    assert parse_square("a1") == Square(0, 1)
    assert parse_square(" J10 ").code == "J10"
    for bad in ("K1", "A0", "A11", "A01", "", "1A", "AA1", "B-2"):
        with pytest.raises(SquareError, match="not a square"):
            parse_square(bad)
    assert set(GRID.neighbours(parse_square("A1"))) == {parse_square("B1"), parse_square("A2")}
    assert len(GRID.neighbours(parse_square("E5"))) == 4


@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_placement_counts(length):
    ships = GRID.placements(length)
    assert len(ships) == 2 * 10 * (11 - length)
    assert len(set(ships)) == len(ships)
    assert all(s in GRID for ship in ships for s in ship)


def test_a_fleet_names_its_ships_and_reads_back():
    fleet = parse_fleet("e9-f9, j9-j7 H2-H4 C3-F3 A5-A1")  # any order, either direction
    assert [s.kind for s in fleet.ships] == list(CLASSES)
    assert fleet.code == "A1-A5 C3-F3 J7-J9 H2-H4 E9-F9"  # J7-J9 came first: the Cruiser
    assert fleet.ship(ShipClass.CRUISER).code == "J7-J9"
    assert fleet.ship(ShipClass.SUBMARINE).code == "H2-H4"
    assert parse_fleet(fleet.code) == fleet
    assert len(fleet.cells) == 17
    assert fleet.ship_at(parse_square("A3")).kind is ShipClass.CARRIER
    assert fleet.ship_at(parse_square("B3")) is None
    assert [k.length for k in CLASSES] == [5, 4, 3, 3, 2]


# Each rule, the error class, and what the message must name (the ship and the rule).
ERRORS = [
    ("A1A5 C3-F3 H2-H4 J7-J9 E9-F9", NotationError, ["A1A5", "two end squares"]),
    ("A1-A5-A6 C3-F3 H2-H4 J7-J9 E9-F9", NotationError, ["A1-A5-A6", "two end squares"]),
    ("A1-B5 C3-F3 H2-H4 J7-J9 E9-F9", NotStraightError, ["A1-B5", "neither horizontal"]),
    ("A1-A6 C3-F3 H2-H4 J7-J9 E9-F9", ShipLengthError, ["A1-A6", "6 squares", "2 to 5"]),
    ("A1-A1 C3-F3 H2-H4 J7-J9 E9-F9", ShipLengthError, ["A1-A1", "1 squares"]),
    ("A8-A12 C3-F3 H2-H4 J7-J9 E9-F9", OutsideGridError, ["Carrier", "A11", "outside the grid"]),
    ("A1-A5 H3-K3 H2-H4 J7-J9 E9-F9", OutsideGridError, ["Battleship", "K3", "outside"]),
    ("A1-A5 C3-F3 H2-H4 J7-J9", WrongFleetError, ["Destroyer", "missing"]),
    ("A1-A5 C3-F3 H2-H4 E9-F9", WrongFleetError, ["Submarine", "missing"]),
    ("A1-A5 C3-F3 H2-H4 J7-J9 E9-F9 A7-A8", WrongFleetError, ["length 2", "too many", "A7-A8"]),
    ("", WrongFleetError, ["no ships"]),
    ("A1-A5 A3-D3 H2-H4 J7-J9 E9-F9", OverlapError, ["Battleship", "Carrier", "A3", "overlaps"]),
    ("A1-A5 C3-F3 H2-H4 H4-J4 E9-F9", OverlapError, ["Submarine", "Cruiser", "H4"]),
]


@pytest.mark.parametrize(("text", "error", "words"), ERRORS)
def test_every_placement_error_names_the_ship_and_the_rule(text, error, words):
    with pytest.raises(error) as caught:
        parse_fleet(text)
    assert isinstance(caught.value, RuleError)
    for word in words:
        assert word in str(caught.value)


def test_touching_is_allowed():
    fleet = parse_fleet("A1-A5 B1-B4 C1-C3 D1-D3 E1-E2")
    assert len(fleet.cells) == 17


def test_a_ship_class_must_have_its_length():
    assert parse_ship("B2-D2", ShipClass.SUBMARINE).kind is ShipClass.SUBMARINE
    with pytest.raises(ShipLengthError, match="Destroyer"):
        parse_ship("B2-D2", ShipClass.DESTROYER)
    with pytest.raises(RuleError, match="not a ship"):
        ShipClass.parse("Canoe")
    assert ShipClass.parse("cruiser") is ShipClass.CRUISER


def test_moving_and_rotating_a_ship():
    fleet = parse_fleet(ANN)
    moved = fleet.moved(ShipClass.DESTROYER, parse_square("G6"), horizontal=False)
    assert moved.ship(ShipClass.DESTROYER).code == "G6-G7"
    assert moved.ships[:4] == fleet.ships[:4]
    assert moved.rotated(ShipClass.DESTROYER).ship(ShipClass.DESTROYER).code == "G6-H6"
    with pytest.raises(OverlapError, match="Carrier"):
        fleet.moved(ShipClass.DESTROYER, parse_square("A2"), horizontal=True)
    with pytest.raises(OutsideGridError, match="Destroyer"):
        fleet.moved(ShipClass.DESTROYER, parse_square("J5"), horizontal=True)
    with pytest.raises(OutsideGridError, match="Carrier"):
        fleet.rotated(ShipClass.CARRIER).moved(ShipClass.CARRIER, parse_square("G8"), False)


def test_a_fleet_value_cannot_be_illegal():
    fleet = parse_fleet(ANN)
    for cells in ("B2 B4", "B2 C3", "I10 J10 K10", "", "B2 B3 B4"):
        squares = tuple(Square(ord(c[0]) - 65, int(c[1:])) for c in cells.split())
        with pytest.raises(PlacementError, match="Destroyer"):
            Ship(ShipClass.DESTROYER, squares)
    with pytest.raises(WrongFleetError):
        Fleet(fleet.ships[:4])
    with pytest.raises(OverlapError):
        Fleet((*fleet.ships[:4], parse_ship("A4-B4")))


def test_random_fleets_are_legal_and_seeded():
    for seed in range(200):
        fleet = random_fleet(random.Random(seed))
        assert parse_fleet(fleet.code) == fleet
    assert random_fleet(random.Random(5)) == random_fleet(random.Random(5))


def test_small_grids_exist_for_counting():
    grid = Grid(4, 3)
    assert len(grid.squares) == 12
    assert Square(3, 3) in grid and Square(4, 1) not in grid and Square(0, 4) not in grid
    assert len(grid.placements(3)) == 3 * 2 + 4 * 1
