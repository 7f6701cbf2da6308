"""The dartboard as a battleship board: cells, rings, profiles, notation and neighbours.

RULES.md section 1 is the reference. A `Board` is built once per profile and answers every
question about cells; nothing here knows about ships or games.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from kiosk.errors import CellError
from kiosk.i18n import _

# Clockwise from the top.
NUMBERS: tuple[int, ...] = (20, 1, 18, 4, 13, 6, 10, 15, 2, 17, 3, 19, 7, 16, 8, 11, 14, 9, 12, 5)
NUMBER_INDEX: dict[int, int] = {n: i for i, n in enumerate(NUMBERS)}


class Ring(enum.Enum):
    """Where on a number a cell lies. `OFF` is the pseudo-ring of a dart that scored no cell."""

    DOUBLE = "D"
    LARGE = "L"
    TRIPLE = "T"
    SMALL = "S"
    BULL = "BULL"
    OFF = "MISS"


class Profile(enum.Enum):
    """What the board can report (RULES.md 1, board profiles)."""

    FOUR_RING = "four-ring"
    THREE_RING = "three-ring"

    @classmethod
    def parse(cls, text: str) -> Profile:
        for profile in cls:
            if profile.value == str(text).strip().lower():
                return profile
        raise CellError(_("unknown board profile {name!r}: use four-ring or three-ring").format(name=text))


class BullZone(enum.Enum):
    """Which part of the bull a bull-off dart reached, as far as the board could tell."""

    INNER = "inner"
    OUTER = "outer"
    BULL = "bull"  # the bull, but the board cannot say which part
    OTHER = "other"  # any other cell
    MISS = "miss"


@dataclass(frozen=True)
class Cell:
    """One cell of the board. Bull and MISS carry number 0."""

    ring: Ring
    number: int = 0

    @property
    def code(self) -> str:
        if self.ring in (Ring.BULL, Ring.OFF):
            return self.ring.value
        return f"{self.ring.value}{self.number}"

    @property
    def on_board(self) -> bool:
        return self.ring is not Ring.OFF

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Cell({self.code})"


BULL = Cell(Ring.BULL)
MISS = Cell(Ring.OFF)

_BULL_SPELLINGS = {
    "BULL": BullZone.BULL,
    "B": BullZone.BULL,
    "BULLSEYE": BullZone.BULL,
    "SB": BullZone.OUTER,
    "OB": BullZone.OUTER,
    "25": BullZone.OUTER,
    "DB": BullZone.INNER,
    "IB": BullZone.INNER,
    "50": BullZone.INNER,
}
_MISS_SPELLINGS = {"MISS", "OFF", "0", "M"}
_RING_LETTERS = {
    "D": Ring.DOUBLE,
    "L": Ring.LARGE,
    "O": Ring.LARGE,
    "T": Ring.TRIPLE,
    "S": Ring.SMALL,
    "I": Ring.SMALL,
}

# The spoke of a number as a graph of ring kinds (the Bull is the inner end of every spoke).
_SPOKE_EDGES = {
    Profile.FOUR_RING: (
        (Ring.DOUBLE, Ring.LARGE),
        (Ring.LARGE, Ring.TRIPLE),
        (Ring.TRIPLE, Ring.SMALL),
        (Ring.SMALL, Ring.BULL),
    ),
    # The merged single lies on both sides of the triple: it touches D, T and the Bull.
    Profile.THREE_RING: (
        (Ring.DOUBLE, Ring.SMALL),
        (Ring.SMALL, Ring.TRIPLE),
        (Ring.SMALL, Ring.BULL),
    ),
}
_CIRCULAR_RINGS = {
    Profile.FOUR_RING: (Ring.DOUBLE, Ring.LARGE, Ring.TRIPLE, Ring.SMALL),
    Profile.THREE_RING: (Ring.DOUBLE, Ring.TRIPLE, Ring.SMALL),
}
# Rim inwards: used to order radial ships and to lay out pickers.
RADIAL_ORDER = (Ring.DOUBLE, Ring.LARGE, Ring.TRIPLE, Ring.SMALL, Ring.BULL)


def bull_zone(text: str, cell: Cell) -> BullZone:
    """What a raw spelling tells about a bull-off dart (`DB` is the inner bull, `25` the outer)."""
    if not cell.on_board:
        return BullZone.MISS
    if cell.ring is not Ring.BULL:
        return BullZone.OTHER
    return _BULL_SPELLINGS.get(str(text).strip().upper(), BullZone.BULL)


@dataclass(frozen=True)
class Board:
    """The cells of one profile and how they touch."""

    profile: Profile

    @functools.cached_property
    def circular_rings(self) -> tuple[Ring, ...]:
        return _CIRCULAR_RINGS[self.profile]

    @functools.cached_property
    def spoke_rings(self) -> tuple[Ring, ...]:
        """Ring kinds of a spoke, rim first, Bull last."""
        kinds = {ring for edge in _SPOKE_EDGES[self.profile] for ring in edge}
        return tuple(ring for ring in RADIAL_ORDER if ring in kinds)

    @functools.cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell: number by number in board order, rim inwards, then the Bull."""
        cells = [Cell(ring, n) for n in NUMBERS for ring in self.spoke_rings if ring is not Ring.BULL]
        cells.append(BULL)
        return tuple(cells)

    @functools.cached_property
    def _cell_set(self) -> frozenset[Cell]:
        return frozenset(self.cells)

    @functools.cached_property
    def _neighbours(self) -> dict[Cell, frozenset[Cell]]:
        links: dict[Cell, set[Cell]] = {cell: set() for cell in self.cells}
        for ring in self.circular_rings:
            for i, n in enumerate(NUMBERS):
                a, b = Cell(ring, n), Cell(ring, NUMBERS[(i + 1) % 20])
                links[a].add(b)
                links[b].add(a)
        for n in NUMBERS:
            for inner, outer in _SPOKE_EDGES[self.profile]:
                a, b = self.spoke_cell(inner, n), self.spoke_cell(outer, n)
                links[a].add(b)
                links[b].add(a)
        return {cell: frozenset(others) for cell, others in links.items()}

    def spoke_cell(self, ring: Ring, number: int) -> Cell:
        return BULL if ring is Ring.BULL else Cell(ring, number)

    def spoke_edges(self) -> tuple[tuple[Ring, Ring], ...]:
        return _SPOKE_EDGES[self.profile]

    def __contains__(self, cell: object) -> bool:
        return cell in self._cell_set

    def neighbours(self, cell: Cell) -> frozenset[Cell]:
        """The cells that touch `cell` (same ring next number, same number next ring)."""
        if cell not in self:
            raise CellError(_("{cell} is not a cell of this board").format(cell=cell.code))
        return self._neighbours[cell]

    def ring_cells(self, ring: Ring) -> tuple[Cell, ...]:
        return tuple(Cell(ring, n) for n in NUMBERS)

    def parse(self, text: str, *, allow_miss: bool = True) -> Cell:
        """Read one cell in any accepted spelling; `CellError` names the bad token."""
        token = str(text).strip().upper()
        if not token:
            # Throw with nothing typed (the host page said "'' is not a cell").
            raise CellError(_("type a cell first (T20, L5, S11, D3, BULL or MISS)"))
        if token in _BULL_SPELLINGS:
            return BULL
        if token in _MISS_SPELLINGS:
            if allow_miss:
                return MISS
            raise CellError(_("MISS is not a cell of the board here"))
        ring = _RING_LETTERS.get(token[:1])
        digits = token[1:]
        if ring is None or not digits.isascii() or not digits.isdigit():
            raise CellError(
                _("{token!r} is not a cell (try T20, L5, S11, D3, BULL or MISS)").format(
                    token=str(text).strip()
                )
            )
        number = int(digits)
        if number not in NUMBER_INDEX or digits != str(number):
            raise CellError(
                _("{token!r}: there is no number {number} on a dartboard").format(
                    token=str(text).strip(), number=digits
                )
            )
        if self.profile is Profile.THREE_RING and ring is Ring.LARGE:
            # The board cannot tell the two singles apart: both are the merged single.
            ring = Ring.SMALL
        return Cell(ring, number)

    def format(self, cell: Cell) -> str:
        return cell.code


@functools.cache
def board_for(profile: Profile | str = Profile.FOUR_RING) -> Board:
    if isinstance(profile, str):
        profile = Profile.parse(profile)
    return Board(profile)
