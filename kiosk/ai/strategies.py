"""Shooters to measure the engine against, on any grid of cells (the dart game's own, which
throw under scatter, are in `kiosk.darts.shooters`).

A shooter maps what is known (a `Record`) to the cell it wants next. The baselines are the
usual yardsticks: random, hunt/target (random until a hit, then its neighbours) and, on the
grid, parity hunt/target (hunt on one colour of the checkerboard: every ship of length >= 2
covers both colours). `Perfect` throws exactly at what a shooter wants.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from kiosk.ai.record import Record


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


# ---- throwers: where the dart really lands -------------------------------------------------


@dataclass(frozen=True)
class Perfect:
    """A thrower who always hits the cell they aim at."""

    shooter: Callable[[Record, random.Random], Hashable]

    def __call__(self, record: Record, rng: random.Random) -> Hashable:
        return self.shooter(record, rng)


def grid_parity(square: Hashable) -> bool:
    column, row = getattr(square, "column", 0), getattr(square, "row", 0)
    return (column + row) % 2 == 0
