"""Simulator input: darts from taps, typed cells and the virtual thrower, fed to the service
exactly as a board's darts are (DartInput through `handle_input`, on the loop)."""

from __future__ import annotations

import random

from kiosk.darts.board import BULL, Board, BullZone, Cell, CellError
from kiosk.darts.geometry import cell_centre
from kiosk.darts.scatter import SKILLS, throw
from kiosk.inputs import DartInput
from kiosk.service import GameService


def tap_dart(service: GameService, cell: Cell, zone: BullZone) -> None:
    service.handle_input(DartInput(cell, raw="tap", zone=zone))


def typed_dart(service: GameService, board: Board, text: str) -> str | None:
    """Throw the typed cell (`T20`, `bull`, `miss`); returns the error for a bad token."""
    try:
        cell = board.parse(text)
    except CellError as err:
        return str(err)
    zone = BullZone.OTHER
    if cell == BULL:
        from kiosk.darts.board import bull_zone

        zone = bull_zone(text, cell)
    elif not cell.on_board:
        zone = BullZone.MISS
    service.handle_input(DartInput(cell, raw=text.strip(), zone=zone))
    return None


def virtual_dart(service: GameService, board: Board, aim: Cell, skill: str,
                 rng: random.Random) -> Cell:
    """A dart aimed at `aim`, scattered like a thrower of this skill; returns where it landed."""
    sigma = SKILLS.get(skill, SKILLS["pub"])
    landing = throw(board, cell_centre(aim, board) if aim.on_board else (0.0, 0.0), sigma, rng)
    service.handle_input(DartInput(landing.cell, raw="virtual", zone=landing.zone))
    return landing.cell
