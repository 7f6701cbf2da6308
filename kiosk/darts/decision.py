"""One decision of the kiosk's AI (solo mode) or coach: heat, the cell, and where to aim."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from kiosk.ai.aim import Aim, best_aim
from kiosk.ai.posterior import Method
from kiosk.ai.record import Record
from kiosk.ai.targeting import pick
from kiosk.board import Board, Cell
from kiosk.darts.heatmap import board_estimate
from kiosk.darts.match import Match


@dataclass(frozen=True)
class Decision:
    """`heat`: per cell, the chance a dart there hits an unsunk ship (the coach's shading).
    `target`: the best cell for a thrower who never misses. `aim`: the best point (mm) for a
    thrower with the given scatter and the chance it hits. `method`: how the heat was found."""

    heat: Mapping[Cell, float]
    target: Cell
    aim: Aim
    method: Method


def decide(
    board: Board, record: Record, lengths: Sequence[int], sigma: float, rng: random.Random
) -> Decision:
    """Pure and self-contained: safe to run in an executor (pass a `random.Random` of its own)."""
    est = board_estimate(board, record, lengths, rng)
    heat = dict(zip(board.cells, (float(p) for p in est.probabilities), strict=True))
    target = pick(board.cells, np.asarray(est.probabilities), record, rng)
    assert isinstance(target, Cell)
    return Decision(MappingProxyType(heat), target, best_aim(board, heat, sigma, rng), est.method)


def record_of(match: Match, team: int) -> Record:
    """What `team` knows about the enemy fleet in a match (public: its shots, the ships sunk)."""
    return Record(match.shots(team), match.sunk_ships(1 - team))
