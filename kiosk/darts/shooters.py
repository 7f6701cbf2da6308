"""The dart game's shooters for the benchmarks: the engine's heat on the dartboard, and the two
ways to throw at its choice under scatter (the generic baselines are in `kiosk.ai.strategies`)."""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass

from kiosk.ai.aim import best_aim
from kiosk.ai.record import Record
from kiosk.board import Board, Cell
from kiosk.darts.heatmap import choose_target, heatmap
from kiosk.geometry import cell_centre
from kiosk.scatter import throw


@dataclass(frozen=True)
class HeatShots:
    """The engine: the unshot dartboard cell with the most heat."""

    board: Board
    lengths: tuple[int, ...]

    def __call__(self, record: Record, rng: random.Random) -> Hashable:
        return choose_target(self.board, record, self.lengths, rng)


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
