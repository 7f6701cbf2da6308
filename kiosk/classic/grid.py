"""The classic grid: squares `A1`..`J10` and where a straight ship can lie.

A `Grid` of any size exists so that the fleet counts and the random fleets can be checked by
brute force on small grids; the game itself always plays on `GRID` (10 x 10).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from kiosk.game import RuleError
from kiosk.i18n import _

COLUMNS = "ABCDEFGHIJ"
SIZE = 10


class SquareError(RuleError):
    """Text that is not a square of the grid; the message names the bad token."""


@dataclass(frozen=True, order=True)
class Square:
    """One square: `column` 0..9 (A..J), `row` 1..10."""

    column: int
    row: int

    @property
    def code(self) -> str:
        return f"{chr(ord('A') + self.column)}{self.row}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Square({self.code})"


@dataclass(frozen=True)
class Grid:
    """A grid of `columns` x `rows` squares (columns A.., rows 1..)."""

    columns: int = SIZE
    rows: int = SIZE

    def __contains__(self, square: object) -> bool:
        return (
            isinstance(square, Square) and 0 <= square.column < self.columns and 1 <= square.row <= self.rows
        )

    @functools.cached_property
    def squares(self) -> tuple[Square, ...]:
        """Row by row, left to right: A1, B1, .., J1, A2, .."""
        return tuple(Square(c, r) for r in range(1, self.rows + 1) for c in range(self.columns))

    @functools.cached_property
    def index(self) -> dict[Square, int]:
        return {s: i for i, s in enumerate(self.squares)}

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """The squares left, right, above and below (no diagonals), inside the grid."""
        c, r = square.column, square.row
        near = (Square(c - 1, r), Square(c + 1, r), Square(c, r - 1), Square(c, r + 1))
        return tuple(s for s in near if s in self)

    def line(self, bow: Square, length: int, horizontal: bool) -> tuple[Square, ...]:
        """The squares of a straight ship from `bow` rightwards or downwards (may leave the grid:
        the caller checks)."""
        if horizontal:
            return tuple(Square(bow.column + k, bow.row) for k in range(length))
        return tuple(Square(bow.column, bow.row + k) for k in range(length))

    def placements(self, length: int) -> tuple[tuple[Square, ...], ...]:
        """Every position of a straight ship of this length: horizontal ones first (row by row),
        then vertical ones (column by column). The order is fixed: seeded random fleets and the
        AI's benchmark boards depend on it."""
        return _placements(self, length)


@functools.cache
def _placements(grid: Grid, length: int) -> tuple[tuple[Square, ...], ...]:
    found = [
        grid.line(Square(c, r), length, True)
        for r in range(1, grid.rows + 1)
        for c in range(grid.columns - length + 1)
    ]
    found += [
        grid.line(Square(c, r), length, False)
        for c in range(grid.columns)
        for r in range(1, grid.rows - length + 2)
    ]
    return tuple(found)


GRID = Grid()
SQUARES = GRID.squares

_SQUARE = re.compile(r"([A-Za-z])(\d{1,3})")


def loose_square(text: str) -> Square | None:
    """A letter and a number, inside the grid or not (so that a ship running off the grid can be
    named with its rule); None for anything else."""
    match = _SQUARE.fullmatch(str(text).strip())
    if match is None or match.group(2) != str(int(match.group(2))):
        return None
    letter = match.group(1).upper()
    return Square(ord(letter) - ord("A"), int(match.group(2)))


def parse_square(text: str, grid: Grid = GRID) -> Square:
    """`A1`..`J10`, case-insensitive; the error names the bad token."""
    square = loose_square(text)
    if square is None or square not in grid:
        raise SquareError(_("{token!r} is not a square (A1 to J10)").format(token=str(text).strip()))
    return square
