"""Classic Battleship on a 10x10 grid (RULES.md section 4): a small pure model and its targeting.

Squares `A1`..`J10` (columns A-J, rows 1-10), fleet 5, 4, 3, 3, 2, ships horizontal or vertical,
inside the grid, no overlap, touching allowed. Who fires next (a hit fires again) is a match
rule and lives with the classic mode, not here.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from kiosk.ai.posterior import Estimate, Method, Space
from kiosk.ai.record import Record
from kiosk.ai.targeting import estimate, pick
from kiosk.darts.match import Result

COLUMNS = "ABCDEFGHIJ"
SIZE = 10
CLASSIC_FLEET: tuple[int, ...] = (5, 4, 3, 3, 2)


@dataclass(frozen=True, order=True)
class Square:
    """One square: `column` 0..9 (A..J), `row` 1..10."""

    column: int
    row: int

    @property
    def code(self) -> str:
        return f"{COLUMNS[self.column]}{self.row}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Square({self.code})"


SQUARES: tuple[Square, ...] = tuple(Square(c, r) for r in range(1, SIZE + 1) for c in range(SIZE))


def parse_square(text: str) -> Square:
    """`A1`..`J10`, case-insensitive; the error names the bad token."""
    token = str(text).strip().upper()
    column, digits = token[:1], token[1:]
    if (len(column) == 1 and column in COLUMNS and digits.isascii() and digits.isdigit()
            and digits == str(int(digits)) and 1 <= int(digits) <= SIZE):
        return Square(COLUMNS.index(column), int(digits))
    raise ValueError(f"{str(text).strip()!r} is not a square (A1 to J10)")


def neighbours(square: Square) -> tuple[Square, ...]:
    c, r = square.column, square.row
    near = ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1))
    return tuple(Square(x, y) for x, y in near if 0 <= x < SIZE and 1 <= y <= SIZE)


@dataclass(frozen=True)
class GridShip:
    """A ship's squares, left to right or top to bottom."""

    cells: tuple[Square, ...]

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def horizontal(self) -> bool:
        return len({s.row for s in self.cells}) == 1

    @property
    def code(self) -> str:
        return "-".join(s.code for s in self.cells)

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True)
class GridFleet:
    ships: tuple[GridShip, ...]

    @functools.cached_property
    def cells(self) -> frozenset[Square]:
        return frozenset(s for ship in self.ships for s in ship.cells)

    def ship_at(self, square: Square) -> GridShip | None:
        return next((ship for ship in self.ships if square in ship.cells), None)


@functools.cache
def placements(length: int) -> tuple[GridShip, ...]:
    """Every position of a ship of this length: horizontal ones first, then vertical."""
    ships = [GridShip(tuple(Square(c + k, r) for k in range(length)))
             for r in range(1, SIZE + 1) for c in range(SIZE - length + 1)]
    ships += [GridShip(tuple(Square(c, r + k) for k in range(length)))
              for c in range(SIZE) for r in range(1, SIZE - length + 2)]
    return tuple(ships)


def random_fleet(lengths: Sequence[int], rng: random.Random) -> GridFleet:
    """A uniformly random fleet: on any overlap the whole fleet is drawn again."""
    while True:
        ships = [rng.choice(placements(n)) for n in sorted(lengths, reverse=True)]
        squares = [s for ship in ships for s in ship.cells]
        if len(squares) == len(set(squares)):
            return GridFleet(tuple(ships))


def fire(fleet: GridFleet, shots: Mapping[Square, Result], square: Square
         ) -> tuple[Result, GridShip | None]:
    """What a shot at `square` is told, given the earlier shots; the ship if it sank."""
    if square in shots:
        return Result.REPEAT, None
    ship = fleet.ship_at(square)
    if ship is None:
        return Result.MISS, None
    if all(s == square or shots.get(s, Result.MISS).scores for s in ship.cells):
        return Result.SUNK, ship
    return Result.HIT, None


@functools.cache
def space() -> Space:
    index = square_index()
    return Space(len(SQUARES), {n: tuple(tuple(index[s] for s in ship.cells)
                                         for ship in placements(n)) for n in range(2, 6)})


@functools.cache
def square_index() -> dict[Square, int]:
    return {s: i for i, s in enumerate(SQUARES)}


def grid_estimate(record: Record, lengths: Sequence[int] = CLASSIC_FLEET,
                  rng: random.Random | None = None, *, samples: int | None = None,
                  method: Method | None = None) -> Estimate:
    return estimate(space(), square_index(), record, lengths, rng or random.Random(),
                    samples=samples, method=method)


def heatmap(record: Record, lengths: Sequence[int] = CLASSIC_FLEET,
            rng: random.Random | None = None, *, samples: int | None = None,
            method: Method | None = None) -> dict[Square, float]:
    """Per square, the probability that a shot there hits an unsunk ship (0 on shot squares)."""
    est = grid_estimate(record, lengths, rng, samples=samples, method=method)
    return dict(zip(SQUARES, (float(p) for p in est.probabilities), strict=True))


def choose_target(record: Record, lengths: Sequence[int] = CLASSIC_FLEET,
                  rng: random.Random | None = None,
                  heat: dict[Square, float] | None = None) -> Square:
    """The unshot square with the most heat."""
    rng = rng or random.Random()
    if heat is None:
        heat = heatmap(record, lengths, rng)
    square = pick(SQUARES, np.array([heat[s] for s in SQUARES]), record, rng)
    assert isinstance(square, Square)
    return square
