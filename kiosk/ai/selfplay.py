"""Whole games of one shooter against one hidden fleet, for the benchmark and the tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence

from kiosk.ai.record import HasCells, Record
from kiosk.game import Result


def fire(ships: Sequence[HasCells], record: Record, cell: Hashable) -> tuple[Result, HasCells | None]:
    """What the referee announces for a dart at `cell`; the ship if it sank.

    Mirrors `kiosk.darts.match.Match`: a shot cell is a REPEAT, a ship cell whose other cells were all
    hit before is SUNK.
    """
    if cell in record.shots:
        return Result.REPEAT, None
    for ship in ships:
        if cell in ship.cells:
            done = all(c == cell or record.shots.get(c, Result.MISS).scores for c in ship.cells)
            return (Result.SUNK, ship) if done else (Result.HIT, None)
    return Result.MISS, None


def play(
    ships: Sequence[HasCells],
    board_cells: frozenset[Hashable],
    thrower: Callable[[Record, random.Random], Hashable],
    rng: random.Random,
    limit: int = 10_000,
) -> int:
    """Darts until every ship is sunk. A dart off the board (a cell not in `board_cells`)
    counts and tells nothing, as in a match."""
    record = Record()
    darts = 0
    while len(record.sunk) < len(ships):
        if darts >= limit:
            raise RuntimeError(f"no win after {limit} darts")
        cell = thrower(record, rng)
        darts += 1
        if cell not in board_cells:
            continue
        result, ship = fire(ships, record, cell)
        record = record.with_shot(cell, result, ship)
    return darts
