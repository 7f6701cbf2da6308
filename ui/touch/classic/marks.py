"""What a classic grid shows, from the match: the only place the screens read it.

`radar_of` is public (a side's own shots and the enemy ships it sank); `fleet_of` is that
side's PRIVATE view (its own ships and the shots at them) and is drawn only on a screen that
is that side's own: the touchscreen in solo (the team against the computer), never in a duel.
"""

from __future__ import annotations

from kiosk.classic.grid import Square
from kiosk.classic.match import Match
from kiosk.game import Result

Marks = dict[Square, str]
Cells = tuple[Square, ...]


def radar_of(match: Match, side: int) -> tuple[Marks, list[Cells]]:
    """`side`'s shots at the enemy (hit, miss) and the enemy ships it sank (outlined)."""
    radar = match.radar(side)
    marks = {square: "miss" if result is Result.MISS else "hit" for square, result in radar.shots.items()}
    sunk = [ship.cells for ship in radar.sunk]
    for cells in sunk:
        for square in cells:
            marks[square] = "sunk"
    return marks, sunk


def fleet_of(match: Match, side: int) -> tuple[Marks, list[Cells], list[Cells]]:
    """PRIVATE: `side`'s ships, the enemy's shots at them, and its ships the enemy sank."""
    fleet = match.fleet(side)
    marks, sunk = radar_of(match, 1 - side)
    ships = [ship.cells for ship in fleet.ships] if fleet is not None else []
    return marks, ships, sunk
