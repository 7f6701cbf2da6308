"""The real board geometry in millimetres: for drawing, simulated throws and aiming.

Coordinates: origin at the centre of the bull, x to the right, y up, millimetres. Angles are
measured clockwise from the top (where 20 sits), in degrees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kiosk.board import BULL, MISS, NUMBER_INDEX, NUMBERS, Board, BullZone, Cell, Profile, Ring

# Regulation radii (mm from the centre).
INNER_BULL_R = 6.35
OUTER_BULL_R = 15.9
TRIPLE_INNER_R = 99.0
TRIPLE_OUTER_R = 107.0
DOUBLE_INNER_R = 162.0
DOUBLE_OUTER_R = 170.0
WEDGE_DEG = 18.0


@dataclass(frozen=True)
class Sector:
    """An annular sector: radii in mm, angles clockwise from the top in degrees."""

    r_inner: float
    r_outer: float
    start_deg: float
    end_deg: float

    @property
    def area(self) -> float:
        return math.pi * (self.r_outer**2 - self.r_inner**2) * (self.end_deg - self.start_deg) / 360

    def centroid(self) -> tuple[float, float]:
        """The point an honest thrower aims at: mid-radius, mid-angle."""
        r = (self.r_inner + self.r_outer) / 2
        a = math.radians((self.start_deg + self.end_deg) / 2)
        return (r * math.sin(a), r * math.cos(a))


_RING_BANDS = {
    Ring.DOUBLE: ((DOUBLE_INNER_R, DOUBLE_OUTER_R),),
    Ring.LARGE: ((TRIPLE_OUTER_R, DOUBLE_INNER_R),),
    Ring.TRIPLE: ((TRIPLE_INNER_R, TRIPLE_OUTER_R),),
    Ring.SMALL: ((OUTER_BULL_R, TRIPLE_INNER_R),),
}


def number_at_angle(angle_deg: float) -> int:
    """The number whose wedge holds this angle (clockwise from the top)."""
    index = math.floor(((angle_deg + WEDGE_DEG / 2) % 360) / WEDGE_DEG) % 20
    return NUMBERS[index]


def wedge_angles(number: int) -> tuple[float, float]:
    centre = NUMBER_INDEX[number] * WEDGE_DEG
    return (centre - WEDGE_DEG / 2, centre + WEDGE_DEG / 2)


def polar(x: float, y: float) -> tuple[float, float]:
    """(radius mm, angle degrees clockwise from the top) of a point."""
    return math.hypot(x, y), math.degrees(math.atan2(x, y)) % 360


def cell_at(x: float, y: float, board: Board) -> Cell:
    """The cell a dart landing at (x, y) mm scores; MISS off the double ring."""
    return landing(x, y, board)[0]


def landing(x: float, y: float, board: Board) -> tuple[Cell, BullZone]:
    """The cell a dart at (x, y) scores and what it means for a bull-off."""
    r, angle = polar(x, y)
    if r <= INNER_BULL_R:
        return BULL, BullZone.INNER
    if r <= OUTER_BULL_R:
        return BULL, BullZone.OUTER
    if r > DOUBLE_OUTER_R:
        return MISS, BullZone.MISS
    number = number_at_angle(angle)
    if r < TRIPLE_INNER_R:
        ring = Ring.SMALL
    elif r <= TRIPLE_OUTER_R:
        ring = Ring.TRIPLE
    elif r < DOUBLE_INNER_R:
        ring = Ring.SMALL if board.profile is Profile.THREE_RING else Ring.LARGE
    else:
        ring = Ring.DOUBLE
    return Cell(ring, number), BullZone.OTHER


def cell_sectors(cell: Cell, board: Board) -> tuple[Sector, ...]:
    """The area(s) of a cell. The merged single of a three-ring board is two sectors."""
    if cell.ring is Ring.BULL:
        return (Sector(0.0, OUTER_BULL_R, 0.0, 360.0),)
    if cell not in board:
        return ()
    start, end = wedge_angles(cell.number)
    bands: tuple[tuple[float, float], ...] = _RING_BANDS[cell.ring]
    if cell.ring is Ring.SMALL and board.profile is Profile.THREE_RING:
        bands = bands + _RING_BANDS[Ring.LARGE]
    return tuple(Sector(lo, hi, start, end) for lo, hi in bands)


def cell_centre(cell: Cell, board: Board) -> tuple[float, float]:
    """Where to aim for a cell: the centroid of its largest area (the bull's centre for BULL)."""
    if cell.ring is Ring.BULL:
        return (0.0, 0.0)
    sectors = cell_sectors(cell, board)
    if not sectors:
        raise ValueError(f"{cell} has no area on this board")
    return max(sectors, key=lambda s: s.area).centroid()
