"""From a record to heat and a target, for any board the engine has a `Space` for."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from kiosk.ai.posterior import Estimate, Method, Space, evidence_of, marginals
from kiosk.ai.record import Record
from kiosk.game import Result

# Heat differences below this are sampling noise, not a reason to prefer a cell.
TIE = 1e-9


def estimate(
    space: Space,
    index: Mapping[Any, int],
    record: Record,
    lengths: Sequence[int],
    rng: random.Random,
    *,
    samples: int | None = None,
    method: Method | None = None,
    exact_limit: int | None = None,
) -> Estimate:
    misses, hits = [], []
    for cell, result in record.shots.items():
        if cell not in index:
            continue  # a dart off the board says nothing about the ships
        if result is Result.MISS:
            misses.append(cell)
        elif result.scores:
            # A SUNK whose ship is not listed is still a hit of some unsunk ship.
            hits.append(cell)
    sunk = [ship.cells for ship in record.sunk]
    evidence = evidence_of(index, lengths, misses, hits, sunk)
    return marginals(space, evidence, rng, samples=samples, method=method, exact_limit=exact_limit)


def two_step(est: Estimate, open_: np.ndarray) -> np.ndarray:
    """Per cell, the expected hits of a dart there plus the best dart after it.

    From the posterior's fleets: P(c and d) is the chance both hit; after a hit on c the best
    next dart d hits with P(c and d), after a miss with P(d) - P(c and d). Greedy play takes only
    the first term; the second prefers darts whose answer tells where to throw next.
    """
    if est.occupancy is None or est.weights is None:
        return est.probabilities
    occ = est.occupancy.astype(np.float32)
    w = (est.weights / est.weights.sum()).astype(np.float32)
    p = est.probabilities
    both = (occ * w[:, None]).T @ occ
    np.fill_diagonal(both, -np.inf)
    both[:, ~open_] = -np.inf
    after_miss = p[None, :] - both
    after_miss[both == -np.inf] = -np.inf
    return p + both.max(axis=1) + after_miss.max(axis=1)


def pick(cells: Sequence[Hashable], heat: np.ndarray, record: Record, rng: random.Random) -> Hashable:
    """The unshot cell with the most heat; ties at random so the AI is not predictable.

    Only unshot cells are candidates, so a known cell is never chosen while any cell is left.
    """
    known = record.known
    open_ = [i for i, cell in enumerate(cells) if cell not in known]
    if not open_:
        raise ValueError("every cell has been shot")
    best = max(heat[i] for i in open_)
    top = [i for i in open_ if heat[i] >= best - TIE]
    return cells[rng.choice(top)]
