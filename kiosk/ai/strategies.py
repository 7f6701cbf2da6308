"""Shooters to measure the engine against, and the two ways to throw at its choice.

A shooter maps what is known (a `Record`) to the cell it wants next. The baselines are the
usual yardsticks: random, hunt/target (random until a hit, then its neighbours) and, on the
grid, parity hunt/target (hunt on one colour of the checkerboard: every ship of length >= 2
covers both colours). A thrower turns a wanted cell into where the dart lands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from kiosk.ai.aim import best_aim
from kiosk.ai.heatmap import choose_target, heatmap
from kiosk.ai.record import Record
from kiosk.board import Board, Cell
from kiosk.geometry import cell_centre
from kiosk.scatter import throw


def _open(cells: Iterable[Hashable], record: Record) -> list[Hashable]:
    known = record.known
    return [c for c in cells if c not in known]


def _unsunk_hits(record: Record) -> list[Hashable]:
    sunk = {c for ship in record.sunk for c in ship.cells}
    return [c for c, r in record.shots.items() if r.scores and c not in sunk]


@dataclass(frozen=True)
class RandomShots:
    cells: tuple[Hashable, ...]

    def __call__(self, record: Record, rng: random.Random) -> Hashable:
        return rng.choice(_open(self.cells, record))


@dataclass(frozen=True)
class HuntTarget:
    """Random (or parity) hunting; after a hit, the open neighbours of the unsunk hits,
    preferring those that touch most hits (they extend a line of hits more often)."""

    cells: tuple[Hashable, ...]
    neighbours: Callable[[Hashable], Iterable[Hashable]]
    parity: Callable[[Hashable], bool] | None = None

    def __call__(self, record: Record, rng: random.Random) -> Hashable:
        known = record.known
        touching: dict[Hashable, int] = {}
        for hit in _unsunk_hits(record):
            for near in self.neighbours(hit):
                if near not in known:
                    touching[near] = touching.get(near, 0) + 1
        if touching:
            most = max(touching.values())
            return rng.choice(sorted((c for c, k in touching.items() if k == most), key=str))
        open_ = _open(self.cells, record)
        if self.parity is not None:
            even = [c for c in open_ if self.parity(c)]
            open_ = even or open_
        return rng.choice(open_)


@dataclass(frozen=True)
class HeatShots:
    """The engine: the unshot dartboard cell with the most heat."""

    board: Board
    lengths: tuple[int, ...]

    def __call__(self, record: Record, rng: random.Random) -> Hashable:
        return choose_target(self.board, record, self.lengths, rng)


# ---- throwers: where the dart really lands -------------------------------------------------


@dataclass(frozen=True)
class Perfect:
    """A thrower who always hits the cell they aim at."""

    shooter: Callable[[Record, random.Random], Hashable]

    def __call__(self, record: Record, rng: random.Random) -> Hashable:
        return self.shooter(record, rng)


@dataclass(frozen=True)
class NaiveAim:
    """Aims at the centre of the engine's cell, with Gaussian scatter `sigma` (mm)."""

    board: Board
    lengths: tuple[int, ...]
    sigma: float

    def __call__(self, record: Record, rng: random.Random) -> Cell:
        cell = choose_target(self.board, record, self.lengths, rng)
        return throw(self.board, cell_centre(cell, self.board), self.sigma, rng).cell


@dataclass(frozen=True)
class BestAim:
    """Aims where the heat spread by the scatter is highest (`best_aim`)."""

    board: Board
    lengths: tuple[int, ...]
    sigma: float

    def __call__(self, record: Record, rng: random.Random) -> Cell:
        heat = heatmap(self.board, record, self.lengths, rng)
        aim = best_aim(self.board, heat, self.sigma, rng)
        return throw(self.board, (aim.x, aim.y), self.sigma, rng).cell


def grid_parity(square: Hashable) -> bool:
    column, row = getattr(square, "column", 0), getattr(square, "row", 0)
    return (column + row) % 2 == 0

