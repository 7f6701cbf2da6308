"""The five ships, a fleet, how a fleet is written and checked, and uniformly random fleets.

RULES.md section 4: Carrier 5, Battleship 4, Cruiser 3, Submarine 3, Destroyer 2; horizontal or
vertical, inside the grid, no overlap, touching allowed. A fleet is written as its ships'
`start-end` squares in any order; the first ship of length 3 is the Cruiser, the second the
Submarine. Every refusal is a `PlacementError` (a `kiosk.game.RuleError`) whose message names
the ship and the rule it breaks; nothing of a refused fleet is kept.
"""

from __future__ import annotations

import enum
import functools
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kiosk.classic.grid import GRID, Grid, Square, loose_square
from kiosk.errors import PlacementError, RuleError
from kiosk.i18n import _, joined


class ShipClass(enum.Enum):
    """The five ships, in the order a fleet lists them. The value is the protocol's name."""

    CARRIER = "Carrier"
    BATTLESHIP = "Battleship"
    CRUISER = "Cruiser"
    SUBMARINE = "Submarine"
    DESTROYER = "Destroyer"

    @property
    def length(self) -> int:
        return _LENGTHS[self]

    @property
    def label(self) -> str:
        """The ship's name in the kiosk's language."""
        labels = {
            ShipClass.CARRIER: _("Carrier"),
            ShipClass.BATTLESHIP: _("Battleship"),
            ShipClass.CRUISER: _("Cruiser"),
            ShipClass.SUBMARINE: _("Submarine"),
            ShipClass.DESTROYER: _("Destroyer"),
        }
        return labels[self]

    @classmethod
    def parse(cls, name: str) -> ShipClass:
        for kind in cls:
            if str(name).strip().lower() == kind.value.lower():
                return kind
        raise RuleError(
            _("{name!r} is not a ship (Carrier, Battleship, Cruiser, Submarine, Destroyer)").format(name=name)
        )


_LENGTHS = {
    ShipClass.CARRIER: 5,
    ShipClass.BATTLESHIP: 4,
    ShipClass.CRUISER: 3,
    ShipClass.SUBMARINE: 3,
    ShipClass.DESTROYER: 2,
}
CLASSES: tuple[ShipClass, ...] = tuple(ShipClass)
LENGTHS: tuple[int, ...] = tuple(kind.length for kind in CLASSES)  # 5, 4, 3, 3, 2


class NotationError(PlacementError):
    """A ship not written as its two end squares."""


class NotStraightError(PlacementError):
    """A ship whose ends are neither in one row nor in one column."""


class ShipLengthError(PlacementError):
    """A ship no fleet has (shorter than 2 or longer than 5 squares)."""


class OutsideGridError(PlacementError):
    """A ship that runs off the grid."""


class WrongFleetError(PlacementError):
    """Not the five ships of the fleet: one missing or one too many of a length."""


class OverlapError(PlacementError):
    """Two ships on one square (touching is allowed)."""


@dataclass(frozen=True)
class Ship:
    """A placed ship: its class and its squares, left to right or top to bottom."""

    kind: ShipClass
    cells: tuple[Square, ...]

    def __post_init__(self) -> None:
        # A ship built by hand (a front end, a test) is held to the rules as a parsed one is.
        n = self.kind.length
        bow = self.cells[0] if self.cells else None
        if (
            bow is None
            or self.cells not in (GRID.line(bow, n, True), GRID.line(bow, n, False))
            or not all(s in GRID for s in self.cells)
        ):
            raise PlacementError(
                _("the {ship} lies on {n} squares in a row inside the grid").format(ship=self.kind.label, n=n)
            )

    @property
    def bow(self) -> Square:
        return self.cells[0]

    @property
    def horizontal(self) -> bool:
        return self.cells[0].row == self.cells[-1].row

    @property
    def code(self) -> str:
        """`start-end`, as the protocol writes a ship."""
        return f"{self.cells[0].code}-{self.cells[-1].code}"

    def __str__(self) -> str:
        return self.code


def _name(kind: ShipClass, code: str) -> str:
    """How a message names a ship: its class and its squares (its class said again in a
    phone's language with the message: `kiosk.i18n.joined`)."""
    return joined([kind.label, code], " ")


def _ship(kind: ShipClass, bow: Square, horizontal: bool, grid: Grid) -> Ship:
    cells = grid.line(bow, kind.length, horizontal)
    outside = next((s for s in cells if s not in grid), None)
    if outside is not None:
        raise OutsideGridError(
            _("{ship}: {square} is outside the grid (A1 to J10)").format(
                ship=_name(kind, f"{cells[0].code}-{cells[-1].code}"), square=outside.code
            )
        )
    return Ship(kind, cells)


@dataclass(frozen=True)
class Fleet:
    """The five ships, one of each class, in class order; no two share a square."""

    ships: tuple[Ship, ...]

    def __post_init__(self) -> None:
        if tuple(ship.kind for ship in self.ships) != CLASSES:
            raise WrongFleetError(_("a fleet is one Carrier, Battleship, Cruiser, Submarine and Destroyer"))
        _check_overlaps(self.ships)

    @functools.cached_property
    def cells(self) -> frozenset[Square]:
        return frozenset(s for ship in self.ships for s in ship.cells)

    @functools.cached_property
    def _by_square(self) -> dict[Square, Ship]:
        return {s: ship for ship in self.ships for s in ship.cells}

    def ship_at(self, square: Square) -> Ship | None:
        return self._by_square.get(square)

    def ship(self, kind: ShipClass) -> Ship:
        return self.ships[CLASSES.index(kind)]

    @property
    def code(self) -> str:
        """`A1-A5 C3-F3 H2-H4 J7-J9 E9-F9`: Carrier, Battleship, Cruiser, Submarine, Destroyer."""
        return " ".join(ship.code for ship in self.ships)

    def __str__(self) -> str:
        return self.code

    def moved(self, kind: ShipClass, bow: Square, horizontal: bool) -> Fleet:
        """The fleet with one ship moved (the touchscreen's "choose a ship, tap the grid"): its
        top or left square on `bow`. Refused if it leaves the grid or lands on another ship."""
        ship = _ship(kind, bow, horizontal, GRID)
        return Fleet(tuple(ship if s.kind is kind else s for s in self.ships))

    def rotated(self, kind: ShipClass) -> Fleet:
        """The fleet with one ship turned about its top or left square ("rotate")."""
        ship = self.ship(kind)
        return self.moved(kind, ship.bow, not ship.horizontal)


def _check_overlaps(ships: Iterable[Ship]) -> None:
    seen: dict[Square, Ship] = {}
    for ship in ships:
        for square in ship.cells:
            other = seen.get(square)
            if other is not None:
                raise OverlapError(
                    _("{ship} overlaps the {other} on {square}").format(
                        ship=_name(ship.kind, ship.code), other=other.kind.label, square=square.code
                    )
                )
            seen[square] = ship


@dataclass(frozen=True)
class _Written:
    """A ship as written, before it has a class: its squares in order and its length."""

    bow: Square
    stern: Square

    @property
    def code(self) -> str:
        return f"{self.bow.code}-{self.stern.code}"

    @property
    def length(self) -> int:
        return self.stern.row - self.bow.row + self.stern.column - self.bow.column + 1


def _written(text: str) -> _Written:
    token = str(text).strip()
    ends = token.split("-")
    squares = [loose_square(end) for end in ends]
    if len(ends) != 2 or squares[0] is None or squares[1] is None:
        raise NotationError(
            _("ship {ship!r}: write a ship as its two end squares, like A1-A5").format(ship=token)
        )
    bow, stern = sorted((squares[0], squares[1]), key=lambda s: (s.row, s.column))
    ship = _Written(bow, stern)
    if bow.row != stern.row and bow.column != stern.column:
        raise NotStraightError(_("ship {ship} is neither horizontal nor vertical").format(ship=ship.code))
    if ship.length not in LENGTHS:
        raise ShipLengthError(
            _("ship {ship} is {n} squares long; ships are 2 to 5 long").format(ship=ship.code, n=ship.length)
        )
    return ship


def _placed(kind: ShipClass, written: _Written) -> Ship:
    return _ship(kind, written.bow, written.bow.row == written.stern.row, GRID)


def parse_ship(text: str, kind: ShipClass | None = None) -> Ship:
    """One ship as `start-end` (either direction); its class from its length unless given (a
    ship of 3 is the Cruiser unless it is said to be the Submarine)."""
    written = _written(text)
    if kind is None:
        kind = next(k for k in CLASSES if k.length == written.length)
    elif kind.length != written.length:
        raise ShipLengthError(
            _("the {ship} is {n} squares long, not {m}").format(
                ship=kind.label, n=kind.length, m=written.length
            )
        )
    return _placed(kind, written)


def parse_fleet(text: str) -> Fleet:
    """Five ships as `start-end`, separated by spaces or commas, in any order."""
    tokens = [t for t in re.split(r"[\s,]+", str(text).strip()) if t]
    if not tokens:
        raise WrongFleetError(_("no ships given: write five ships like A1-A5 C3-F3 H2-H4 J7-J9 E9-F9"))
    written = [_written(token) for token in tokens]
    want, have = Counter(LENGTHS), Counter(w.length for w in written)
    for n in sorted(have, reverse=True):
        if have[n] > want[n]:
            raise WrongFleetError(
                _(
                    "one ship of length {n} too many ({ships}); the fleet is "
                    "Carrier 5, Battleship 4, Cruiser 3, Submarine 3, "
                    "Destroyer 2"
                ).format(n=n, ships=", ".join(w.code for w in written if w.length == n))
            )
    kinds = _classes_in_order(written)
    missing = next((k for k in CLASSES if k not in kinds), None)
    if missing is not None:
        raise WrongFleetError(
            _("the {ship} ({n} squares) is missing").format(ship=missing.label, n=missing.length)
        )
    ships = [_placed(kind, w) for kind, w in zip(kinds, written, strict=True)]
    return Fleet(tuple(sorted(ships, key=lambda s: CLASSES.index(s.kind))))


def _classes_in_order(written: Sequence[_Written]) -> list[ShipClass]:
    """Each written ship's class by its length, in the order written: the first ship of 3 is the
    Cruiser, the second the Submarine."""
    left = list(CLASSES)
    kinds = []
    for w in written:
        kind = next(k for k in left if k.length == w.length)
        left.remove(kind)
        kinds.append(kind)
    return kinds


def random_layout(
    lengths: Sequence[int], rng: random.Random, grid: Grid = GRID, attempts: int = 100_000
) -> tuple[tuple[Square, ...], ...]:
    """Uniformly random legal ships of these lengths (in this order) on any grid.

    Each ship is drawn uniformly from all its placements and the WHOLE fleet is drawn again on
    any overlap: every legal fleet is then equally likely. (Re-drawing only the clashing ship,
    or placing ship by ship among the squares left, favours fleets with fewer clashes.)
    """
    for _attempt in range(attempts):
        ships = [rng.choice(grid.placements(n)) for n in lengths]
        squares = [s for ship in ships for s in ship]
        if len(squares) == len(set(squares)):
            return tuple(ships)
    raise PlacementError(_("no room for this fleet on this grid"))


def random_fleet(rng: random.Random) -> Fleet:
    """A uniformly random classic fleet (see `random_layout`)."""
    layout = random_layout(LENGTHS, rng)
    return Fleet(tuple(Ship(kind, cells) for kind, cells in zip(CLASSES, layout, strict=True)))
