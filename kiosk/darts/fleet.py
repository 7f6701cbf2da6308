"""Ships and fleets: notation, validation with precise messages, enumeration, random fleets.

RULES.md section 2 is the reference. A ship is a frozen set of cells in canonical order
(circular: clockwise; radial: rim first, Bull last), so equal ships compare equal however
they were written.
"""

from __future__ import annotations

import enum
import functools
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kiosk.board import NUMBER_INDEX, NUMBERS, Board, Cell, CellError, Ring
from kiosk.errors import PlacementError
from kiosk.i18n import _

MIN_SHIP, MAX_SHIP = 2, 5
PRESETS: dict[str, tuple[int, ...]] = {
    "default": (2, 3, 4, 5),
    "classic-five": (5, 4, 3, 3, 2),
}
DEFAULT_FLEET = PRESETS["default"]


class Orientation(enum.Enum):
    CIRCULAR = "circular"
    RADIAL = "radial"


@dataclass(frozen=True)
class Ship:
    cells: tuple[Cell, ...]
    orientation: Orientation

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def code(self) -> str:
        return "-".join(cell.code for cell in self.cells)

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True)
class Fleet:
    ships: tuple[Ship, ...]

    @functools.cached_property
    def cells(self) -> frozenset[Cell]:
        return frozenset(cell for ship in self.ships for cell in ship.cells)

    @functools.cached_property
    def _ship_index(self) -> dict[Cell, int]:
        return {cell: i for i, ship in enumerate(self.ships) for cell in ship.cells}

    def ship_index_at(self, cell: Cell) -> int | None:
        return self._ship_index.get(cell)

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(ship.length for ship in self.ships)

    @property
    def code(self) -> str:
        return " ".join(ship.code for ship in self.ships)

    def __str__(self) -> str:
        return self.code


def parse_lengths(value: str | Iterable[int]) -> tuple[int, ...]:
    """A fleet list: a preset name, `"5,4,3,2"` or a sequence of ints, each 2..5."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in PRESETS:
            return tuple(sorted(PRESETS[text]))
        parts = [p for p in re.split(r"[,\s]+", text) if p]
        if not parts or not all(p.isdigit() for p in parts):
            raise PlacementError(
                _("fleet {value!r}: give ship lengths like 2,3,4,5 or a preset ({presets})").format(
                    value=value, presets=", ".join(PRESETS)
                )
            )
        lengths = tuple(int(p) for p in parts)
    else:
        try:
            lengths = tuple(value)
        except TypeError:
            raise PlacementError(_("fleet must be a list of ship lengths")) from None
        if not all(type(n) is int for n in lengths):
            raise PlacementError(_("fleet must be a list of whole numbers"))
    if not lengths:
        raise PlacementError(_("a fleet needs at least one ship"))
    bad = [n for n in lengths if not MIN_SHIP <= n <= MAX_SHIP]
    if bad:
        raise PlacementError(_("ship length {n} is not allowed: ships are 2 to 5 long").format(n=bad[0]))
    return tuple(sorted(lengths))


def _circular_order(cells: Sequence[Cell]) -> list[Cell] | None:
    """The cells clockwise if they are consecutive numbers of one ring, else None."""
    indices = {NUMBER_INDEX[c.number] for c in cells}
    starts = [i for i in indices if (i - 1) % 20 not in indices]
    if len(starts) != 1:
        return None
    ring = cells[0].ring
    return [Cell(ring, NUMBERS[(starts[0] + k) % 20]) for k in range(len(cells))]


def _radial_order(cells: Sequence[Cell], board: Board) -> list[Cell] | None:
    """The cells rim first if they form a path along one spoke, else None."""
    kinds = {c.ring for c in cells}
    links: dict[Ring, list[Ring]] = {k: [] for k in kinds}
    for a, b in board.spoke_edges():
        if a in kinds and b in kinds:
            links[a].append(b)
            links[b].append(a)
    if any(len(v) > 2 for v in links.values()):
        return None
    ends = [k for k, v in links.items() if len(v) <= 1]
    if len(kinds) > 1 and len(ends) != 2:
        return None
    order = board.spoke_rings
    start = min(ends, key=order.index)
    path, prev = [start], None
    while len(path) < len(kinds):
        nxt = [k for k in links[path[-1]] if k != prev]
        if not nxt:
            return None
        prev = path[-1]
        path.append(nxt[0])
    if len(path) != len(kinds):
        return None
    number = next(c.number for c in cells if c.ring is not Ring.BULL)
    return [board.spoke_cell(k, number) for k in path]


def make_ship(cells: Sequence[Cell], board: Board, label: str | None = None) -> Ship:
    """Validate cells as one ship; the error says which rule is broken and by which ship."""
    name = label or "-".join(c.code for c in cells)
    if len(cells) < MIN_SHIP or len(cells) > MAX_SHIP:
        raise PlacementError(
            _("ship {ship} has length {n}; ships are 2 to 5 long").format(ship=name, n=len(cells))
        )
    for cell in cells:
        if cell not in board:
            raise PlacementError(
                _("ship {ship}: {cell} is not a cell of this board").format(ship=name, cell=cell.code)
            )
    if len(set(cells)) != len(cells):
        raise PlacementError(_("ship {ship}: a cell is used twice").format(ship=name))
    has_bull = any(c.ring is Ring.BULL for c in cells)
    rings = {c.ring for c in cells}
    numbers = {c.number for c in cells if c.ring is not Ring.BULL}
    if len(rings) == 1 and not has_bull:
        order = _circular_order(cells)
        if order is None:
            raise PlacementError(
                _("ship {ship}: gap – the numbers are not next to each other on the ring").format(ship=name)
            )
        return Ship(tuple(order), Orientation.CIRCULAR)
    if len(numbers) == 1:
        order = _radial_order(cells, board)
        if order is None:
            raise PlacementError(
                _("ship {ship}: gap – the cells are not next to each other along the spoke").format(ship=name)
            )
        return Ship(tuple(order), Orientation.RADIAL)
    if has_bull and len(rings - {Ring.BULL}) == 1:
        raise PlacementError(_("ship {ship}: the Bull is never part of a circular ship").format(ship=name))
    raise PlacementError(_("ship {ship}: cells are not in one ring or along one number").format(ship=name))


def parse_ship(text: str, board: Board) -> Ship:
    tokens = [t for t in str(text).strip().split("-")]
    if not text or any(not t.strip() for t in tokens):
        raise PlacementError(
            _("ship {ship!r}: write its cells joined by '-', like T20-T1-T18").format(ship=text)
        )
    try:
        cells = [board.parse(t, allow_miss=False) for t in tokens]
    except CellError as err:
        raise PlacementError(_("ship {ship}: {error}").format(ship=text, error=err)) from None
    return make_ship(cells, board, label=str(text).strip().upper())


def make_fleet(ships: Sequence[Ship], lengths: Sequence[int]) -> Fleet:
    """Check a set of valid ships against the required fleet: lengths and overlaps."""
    want, have = Counter(lengths), Counter(s.length for s in ships)
    if want != have:
        raise PlacementError(
            _("wrong fleet: this game needs ships of length {want}, got {have}").format(
                want=_fmt_lengths(want), have=_fmt_lengths(have) or "none"
            )
        )
    seen: dict[Cell, Ship] = {}
    for ship in ships:
        for cell in ship.cells:
            if cell in seen:
                raise PlacementError(
                    _("overlap: ships {a} and {b} share {cell}").format(
                        a=seen[cell].code, b=ship.code, cell=cell.code
                    )
                )
            seen[cell] = ship
    return Fleet(tuple(sorted(ships, key=lambda s: (s.length, s.code))))


def _fmt_lengths(counter: Counter[int]) -> str:
    return ", ".join(str(n) for n in sorted(counter.elements()))


def parse_fleet(text: str, board: Board, lengths: Sequence[int]) -> Fleet:
    """A fleet written as ships separated by spaces or commas."""
    parts = [p for p in re.split(r"[\s,]+", str(text).strip()) if p]
    if not parts:
        raise PlacementError(_("no ships given"))
    return make_fleet([parse_ship(p, board) for p in parts], lengths)


@functools.cache
def ship_placements(board: Board, length: int) -> tuple[Ship, ...]:
    """Every legal position of one ship of this length, each once."""
    found: list[Ship] = []
    for ring in board.circular_rings:
        for i in range(20):
            cells = [Cell(ring, NUMBERS[(i + k) % 20]) for k in range(length)]
            found.append(Ship(tuple(cells), Orientation.CIRCULAR))
    kinds = board.spoke_rings
    seen: set[tuple[Ring, ...]] = set()
    for path in _spoke_paths(board, length):
        key = path if kinds.index(path[0]) < kinds.index(path[-1]) else path[::-1]
        if key in seen:
            continue
        seen.add(key)
        for n in NUMBERS:
            found.append(Ship(tuple(board.spoke_cell(k, n) for k in key), Orientation.RADIAL))
    return tuple(found)


def _spoke_paths(board: Board, length: int) -> list[tuple[Ring, ...]]:
    links: dict[Ring, list[Ring]] = {k: [] for k in board.spoke_rings}
    for a, b in board.spoke_edges():
        links[a].append(b)
        links[b].append(a)
    paths: list[tuple[Ring, ...]] = []

    def extend(path: tuple[Ring, ...]) -> None:
        if len(path) == length:
            paths.append(path)
            return
        for nxt in links[path[-1]]:
            if nxt not in path:
                extend((*path, nxt))

    for start in board.spoke_rings:
        extend((start,))
    return paths


# A random fleet must come, on average, within this many draws of the whole fleet (each draw
# picks every ship, then looks for an overlap): about a second on a Raspberry Pi 4. A fleet that
# needs more would block the kiosk's loop each time one is drawn.
MAX_DRAW_TRIES = 10_000
_ODDS_SAMPLES = 200


@functools.cache
def _cell_masks(board: Board, length: int) -> tuple[int, ...]:
    """Every legal position of a ship of this length, as a bit mask of the board's cells."""
    bit = {cell: 1 << i for i, cell in enumerate(board.cells)}
    return tuple(sum(bit[c] for c in ship.cells) for ship in ship_placements(board, length))


def _draw_odds(board: Board, lengths: Sequence[int]) -> float:
    """The chance that one draw of `random_fleet` (every ship uniformly, independently) has no
    overlap, estimated by sequential importance sampling with a fixed seed (so a config is
    judged the same every time): each ship is drawn among the places still free and the sample
    weighs how many of its places were free."""
    rng = random.Random(0)
    order = sorted(lengths, reverse=True)
    total = 0.0
    for _sample in range(_ODDS_SAMPLES):
        taken, weight = 0, 1.0
        for length in order:
            places = _cell_masks(board, length)
            free = [m for m in places if not m & taken]
            if not free:
                weight = 0.0
                break
            weight *= len(free) / len(places)
            taken |= rng.choice(free)
        total += weight
    return total / _ODDS_SAMPLES


@functools.cache
def fleet_problem(board: Board, lengths: tuple[int, ...]) -> str | None:
    """Why ships of these lengths cannot be played on this board (None: they can): more cells
    than the board has, no way to place them all, or a random fleet that takes too long to draw."""
    need, have = sum(lengths), len(board.cells)
    names = {"ships": len(lengths), "profile": board.profile.value}
    if need > have:
        return _(
            "{ships} ships need {need} cells; the {profile} board has {have}: use fewer or shorter ships"
        ).format(need=need, have=have, **names)
    odds = _draw_odds(board, lengths)
    if odds == 0.0:
        return _(
            "{ships} ships of these lengths cannot all be placed on the {profile} board "
            "without overlapping: use fewer or shorter ships"
        ).format(**names)
    if odds * MAX_DRAW_TRIES < 1.0:
        return _(
            "{ships} ships of these lengths barely fit the {profile} board: a random fleet "
            "would take about {tries} draws (over a second); use fewer or shorter ships"
        ).format(tries=f"{round(1 / odds):,}", **names)
    return None


def random_fleet(board: Board, lengths: Sequence[int], rng: random.Random) -> Fleet:
    """A uniformly random legal fleet.

    Every ship is drawn uniformly from its placements and the whole fleet is drawn again on any
    overlap: re-rolling only the clashing ship would favour some fleets over others.
    """
    order = sorted(lengths, reverse=True)
    for _attempt in range(100_000):
        ships = [rng.choice(ship_placements(board, n)) for n in order]
        cells = [c for s in ships for c in s.cells]
        if len(cells) == len(set(cells)):
            return make_fleet(ships, lengths)
    raise PlacementError(_("no room for this fleet on this board"))
