"""Computer players and the coach's odds for Battleship Express (see `levels`).

prepare(Variant.ADMIRAL)                          # build the exact tables (once, ~1 s)
computer = Computer(Strategy.HARD, seed=7)
line = computer.line(Variant.ADMIRAL)             # how it lays out its ships
command = computer.decide(match.public_view())   # an Attack, or the Carrier's Declare
chances = coach(match.public_view())              # every legal attack with its chance
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.express.levels import Computer, Strategy, prepare
from kiosk.express.position import Option, Position, declarations, options


def coach(view: Mapping[str, Any]) -> list[Option]:
    """Every attack the player on turn may make, each with its exact chance to sink (rounded to
    a float); the Carrier's options count choosing the target after its roll."""
    return options(Position.from_view(view))


__all__ = ["Computer", "Option", "Position", "Strategy", "coach", "declarations", "options", "prepare"]
