"""The dart game's targeting: the probability that each cell holds an unsunk enemy ship.

Both board profiles and any fleet: the placements come from `kiosk.darts.fleet.ship_placements`, so
the engine plays by exactly the rules the referee enforces.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

import numpy as np

from kiosk.ai.aim import cell_index
from kiosk.ai.posterior import Estimate, Method, Space
from kiosk.ai.record import Record
from kiosk.ai.targeting import estimate, pick
from kiosk.board import Board, Cell
from kiosk.darts.fleet import MAX_SHIP, MIN_SHIP, ship_placements


@functools.cache
def space_for(board: Board) -> Space:
    index = cell_index(board)
    placements = {
        n: tuple(tuple(index[c] for c in ship.cells) for ship in ship_placements(board, n))
        for n in range(MIN_SHIP, MAX_SHIP + 1)
    }
    return Space(len(board.cells), placements)


def board_estimate(
    board: Board,
    record: Record,
    lengths: Sequence[int],
    rng: random.Random,
    *,
    samples: int | None = None,
    method: Method | None = None,
) -> Estimate:
    """The raw estimate (heat in `board.cells` order, how it was found, fleets counted)."""
    return estimate(space_for(board), cell_index(board), record, lengths, rng, samples=samples, method=method)


def heatmap(
    board: Board,
    record: Record,
    lengths: Sequence[int],
    rng: random.Random,
    *,
    samples: int | None = None,
    method: Method | None = None,
) -> dict[Cell, float]:
    """Per cell of the board, the probability that a dart there hits an unsunk ship.

    Shot cells get 0 (there is nothing left to find there), so the values sum to the number of
    unsunk ship cells not yet hit.
    """
    est = board_estimate(board, record, lengths, rng, samples=samples, method=method)
    return dict(zip(board.cells, (float(p) for p in est.probabilities), strict=True))


def choose_target(
    board: Board,
    record: Record,
    lengths: Sequence[int],
    rng: random.Random,
    heat: dict[Cell, float] | None = None,
) -> Cell:
    """The cell to throw at for a perfect thrower: the unshot cell with the most heat."""
    if heat is None:
        heat = heatmap(board, record, lengths, rng)
    cell = pick(board.cells, np.array([heat[c] for c in board.cells]), record, rng)
    assert isinstance(cell, Cell)
    return cell
