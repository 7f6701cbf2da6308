"""How many legal fleets there are, and how often each square is covered, computed exactly.

A transfer-matrix (profile) count. The squares are visited row by row; the state before a square
is what the ships placed so far cover of the squares still to come (a bit mask: the rest of a
horizontal ship, and the lower parts of vertical ships started above) and how many ships of each
length are placed. At a free square a ship may start there, rightwards or downwards, or the
square stays water. Every legal fleet is exactly one path through these states, so the number of
paths to the final state (everything placed, nothing pending) is the number of fleets. Paths are
counted per state, never listed: 10 x 10 with the classic five has about 8 million
(square, state) pairs and fifteen billion fleets. The states of a step are numpy arrays, so a
step is a few vectorised operations.

The forward counts (ways to reach a state) times the backward counts (ways to finish from it)
give, for every square, how many fleets put a ship on it: the exact marginals that a uniformly
random fleet must match.

Counted as sets of cells with lengths (two ships of equal length interchangeable), then
multiplied by the ways to tell equal lengths apart: see `FleetCount`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from kiosk.classic.grid import GRID, Grid, Square


@dataclass(frozen=True)
class FleetCount:
    """`unnamed`: fleets as sets of cells with lengths (the two ships of 3 not told apart).
    `named`: every ship told apart by name (Cruiser on B2-B4 and Submarine on D5-F5 is not the
    same fleet as the other way round): `unnamed` times the factorial of each repeated length's
    count (2! for the two 3s)."""

    unnamed: int
    named: int


@dataclass(frozen=True)
class _Moves:
    """What the count needs to know of a grid and a fleet."""

    grid: Grid
    lengths: tuple[int, ...]  # distinct lengths
    want: tuple[int, ...]  # how many ships of each
    radix: tuple[int, ...]  # the placed counts as one number: sum(placed[i] * radix[i])
    states: int  # product of (want + 1): the placed counts' range

    @property
    def done(self) -> int:
        return sum(w * r for w, r in zip(self.want, self.radix, strict=True))

    def at(self, index: int) -> list[tuple[int, int]]:
        """(length slot, shape) of each ship that can start on square `index`: the shape is the
        ship's cells as bits relative to `index` (row-major order)."""
        width = self.grid.columns
        row, column = divmod(index, width)
        found = []
        for slot, n in enumerate(self.lengths):
            if column + n <= width:
                found.append((slot, (1 << n) - 1))
            if n > 1 and row + n <= self.grid.rows:
                found.append((slot, sum(1 << (k * width) for k in range(n))))
        return found


def _moves(grid: Grid, lengths: Sequence[int]) -> _Moves:
    counts = Counter(lengths)
    if not counts or min(counts) < 1:
        raise ValueError("a fleet is one or more ships of length 1 or more")
    distinct = tuple(sorted(counts, reverse=True))
    want = tuple(counts[n] for n in distinct)
    radix = tuple(math.prod(w + 1 for w in want[:i]) for i in range(len(want)))
    states = math.prod(w + 1 for w in want)
    # Keys are mask * states + placed in int64: the mask reaches (longest - 1) rows ahead.
    if (grid.columns * (max(distinct) - 1) + 2) + math.log2(states) > 62:
        raise ValueError("grid too wide for this count")
    return _Moves(grid, distinct, want, radix, states)


def _successors(
    moves: _Moves, index: int, keys: np.ndarray
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """From the states before square `index`: the state after it if no ship starts there, and
    for each ship that can start there, which states allow it and the state after."""
    mask, placed = keys // moves.states, keys % moves.states
    free = (mask & 1) == 0
    water = (mask >> 1) * moves.states + placed
    starts = []
    for slot, shape in moves.at(index):
        room = (placed // moves.radix[slot]) % (moves.want[slot] + 1) < moves.want[slot]
        ok = free & room & ((mask & shape) == 0)
        after = ((mask | shape) >> 1) * moves.states + placed + moves.radix[slot]
        starts.append((ok, after))
    return water, starts


def _forward(moves: _Moves) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per square, the states before it (sorted keys) and the ways to reach each; one more
    entry for the end of the grid."""
    steps = [(np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64))]
    for index in range(moves.grid.columns * moves.grid.rows):
        keys, ways = steps[-1]
        water, starts = _successors(moves, index, keys)
        nxt = np.concatenate([water, *(after[ok] for ok, after in starts)])
        carried = np.concatenate([ways, *(ways[ok] for ok, _after in starts)])
        order = np.argsort(nxt, kind="stable")
        nxt, carried = nxt[order], carried[order]
        first = np.flatnonzero(np.r_[True, nxt[1:] != nxt[:-1]])
        steps.append((nxt[first], np.add.reduceat(carried, first)))
    return steps


def _count(moves: _Moves, steps: list[tuple[np.ndarray, np.ndarray]]) -> int:
    keys, ways = steps[-1]
    hit = np.flatnonzero(keys == moves.done)
    return int(ways[hit[0]]) if len(hit) else 0


def count_fleets(lengths: Sequence[int], grid: Grid = GRID) -> FleetCount:
    """The number of legal fleets of these ship lengths on this grid (straight ships, inside,
    no overlap, touching allowed)."""
    moves = _moves(grid, lengths)
    unnamed = _count(moves, _forward(moves))
    return FleetCount(unnamed, unnamed * math.prod(math.factorial(w) for w in moves.want))


def coverage(lengths: Sequence[int], grid: Grid = GRID) -> dict[Square, Fraction]:
    """For each square, the exact share of legal fleets that put a ship on it."""
    moves = _moves(grid, lengths)
    steps = _forward(moves)
    total = _count(moves, steps)
    if total == 0:
        raise ValueError("no legal fleet of these lengths fits this grid")
    keys, _ways = steps[-1]
    after = (keys == moves.done).astype(np.int64)  # ways to finish from the end of the grid
    covered: dict[Square, Fraction] = {}
    for index in range(len(steps) - 2, -1, -1):
        keys, ways = steps[index]
        following = steps[index + 1][0]
        water, starts = _successors(moves, index, keys)
        stay = after[np.searchsorted(following, water)]
        finish = stay.copy()
        for ok, ship in starts:
            finish[ok] += after[np.searchsorted(following, ship[ok])]
        # Fleets through a state cover the square unless the square stays water (it is free
        # and no ship starts on it).
        free = (keys // moves.states & 1) == 0
        covering = int((ways * (finish - np.where(free, stay, 0))).sum())
        covered[grid.squares[index]] = Fraction(covering, total)
        after = finish
    return dict(sorted(covered.items(), key=lambda item: grid.index[item[0]]))
