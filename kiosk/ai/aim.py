"""Aiming under scatter: the point that gives the best chance of hitting a ship cell.

A dart aimed at `a` lands at `a + N(0, sigma^2 I)`. The chance of a hit is the heat of the cells,
weighted by how likely the dart is to land in each: the heat map spread by the scatter, over the
real geometry (a dart off the board is a miss). Thin doubles and triples are where this differs
from "aim at the centre of the likeliest cell": a triple at 0.5 loses to a big single at 0.4.

For each (profile, sigma) a landing table is built once: for every aim point of a 2 mm grid on
the board, the probability of landing in each cell. Cells are rasterised at 1 mm with
`kiosk.geometry.cell_at` itself, so the table agrees with what the referee scores; the Gaussian is
separable, so each cell's column is two small matrix products. A decision is then one
matrix-vector product.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from kiosk.board import Board, Cell, Profile, board_for
from kiosk.geometry import DOUBLE_OUTER_R, cell_at, cell_centre

PIXEL_MM = 1.0
AIM_STEP_MM = 2.0
# Aim points reach a little past the double: with a wide scatter the best point for a double
# can lie on its outer edge, never farther.
AIM_RADIUS_MM = DOUBLE_OUTER_R + 2.0
# Below this the scatter is narrower than the raster: aim at a cell's centre.
MIN_SIGMA_MM = 2.0


class Aim(NamedTuple):
    x: float
    y: float
    p_hit: float


@functools.cache
def cell_index(board: Board) -> dict[Cell, int]:
    return {cell: i for i, cell in enumerate(board.cells)}


@dataclass(frozen=True, eq=False)
class LandingTable:
    """For each aim point, the probability of a dart landing in each cell of the board."""

    points: np.ndarray  # (n_points, 2) mm
    chances: np.ndarray  # (n_points, n_cells) float32

    def hit_chances(self, heat: np.ndarray) -> np.ndarray:
        """Per aim point, the chance of hitting a ship for this heat (in board.cells order)."""
        return self.chances @ heat.astype(np.float32)


@functools.cache
def _raster(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """The cell index of every 1 mm pixel (-1 off the board) and the pixel centres' axis."""
    board = board_for(profile)
    index = cell_index(board)
    half = math.ceil(DOUBLE_OUTER_R / PIXEL_MM) + 1
    axis = (np.arange(-half, half) + 0.5) * PIXEL_MM
    image = np.full((len(axis), len(axis)), -1, dtype=np.int16)
    for iy, y in enumerate(axis):
        for ix, x in enumerate(axis):
            if x * x + y * y <= (DOUBLE_OUTER_R + PIXEL_MM) ** 2:
                cell = cell_at(float(x), float(y), board)
                if cell.on_board:
                    image[iy, ix] = index[cell]
    return image, axis


def _gauss(aims: np.ndarray, pixels: np.ndarray, sigma: float) -> np.ndarray:
    """(aims, pixels): probability that a 1-D scatter from each aim lands in each pixel."""
    d = (pixels[None, :] - aims[:, None]) / sigma
    return np.exp(-0.5 * d * d) * (PIXEL_MM / (sigma * math.sqrt(2 * math.pi)))


@functools.lru_cache(maxsize=16)
def landing_table(profile: Profile, sigma: float) -> LandingTable:
    image, axis = _raster(profile)
    n_cells = len(board_for(profile).cells)
    steps = int(AIM_RADIUS_MM // AIM_STEP_MM)
    aims = np.arange(-steps, steps + 1) * AIM_STEP_MM
    gauss = _gauss(aims, axis, sigma).astype(np.float32)
    ax, ay = np.meshgrid(aims, aims)  # [iy, ix]
    inside = (ax * ax + ay * ay <= AIM_RADIUS_MM**2).ravel()
    chances = np.zeros((int(inside.sum()), n_cells), dtype=np.float32)
    for c in range(n_cells):
        rows, cols = np.nonzero(image == c)
        r0, r1, c0, c1 = rows.min(), rows.max() + 1, cols.min(), cols.max() + 1
        block = (image[r0:r1, c0:c1] == c).astype(np.float32)
        spread = gauss[:, r0:r1] @ block @ gauss[:, c0:c1].T  # [aim y, aim x]
        chances[:, c] = spread.ravel()[inside]
    points = np.stack([ax.ravel()[inside], ay.ravel()[inside]], axis=1)
    return LandingTable(points, chances)


def best_aim(board: Board, heat: dict[Cell, float], sigma: float, rng: random.Random | None = None) -> Aim:
    """Where to aim (mm, origin at the bull, y up) and the chance that the dart hits a ship.

    `heat` is what `heatmap` returns (0 on shot cells, so darts there count as wasted). With an
    `rng`, equally good points are chosen between at random.
    """
    values = np.array([heat.get(c, 0.0) for c in board.cells])
    if sigma < MIN_SIGMA_MM:
        best = max(range(len(values)), key=lambda i: values[i])
        x, y = cell_centre(board.cells[best], board)
        return Aim(x, y, float(values[best]))
    table = landing_table(board.profile, round(float(sigma), 1))
    chances = table.hit_chances(values)
    top = float(chances.max())
    if rng is None:
        i = int(chances.argmax())
    else:
        i = rng.choice(np.flatnonzero(chances >= top * (1 - 1e-6)).tolist())
    x, y = table.points[i]
    return Aim(float(x), float(y), top)


def hit_chance(board: Board, heat: dict[Cell, float], aim: tuple[float, float], sigma: float) -> float:
    """The chance of hitting a ship when aiming at the table point nearest to `aim`."""
    table = landing_table(board.profile, round(float(sigma), 1))
    values = np.array([heat.get(c, 0.0) for c in board.cells])
    d = ((table.points - np.asarray(aim)) ** 2).sum(axis=1)
    return float(table.chances[int(d.argmin())] @ values)
