"""How real darts land: a 2-D Gaussian scatter around the aim point, on the real geometry.

Used by the virtual thrower (simulator), the AI's aiming and the benchmarks. The randomness is
always passed in, so games stay reproducible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kiosk.darts.board import Board, BullZone, Cell
from kiosk.darts.geometry import landing

# Standard deviation of the landing point per axis, in mm.
SKILLS: dict[str, float] = {"pro": 12.0, "pub": 30.0, "casual": 50.0, "novice": 80.0}


@dataclass(frozen=True)
class Landing:
    x: float
    y: float
    cell: Cell
    zone: BullZone


def land(aim: tuple[float, float], sigma: float, rng: random.Random) -> tuple[float, float]:
    """Where a dart aimed at `aim` (mm) lands for a thrower with scatter `sigma` (mm)."""
    return (aim[0] + rng.gauss(0.0, sigma), aim[1] + rng.gauss(0.0, sigma))


def throw(board: Board, aim: tuple[float, float], sigma: float, rng: random.Random) -> Landing:
    """A whole virtual throw: the landing point and what the board registers there."""
    x, y = land(aim, sigma, rng)
    cell, zone = landing(x, y, board)
    return Landing(x, y, cell, zone)
