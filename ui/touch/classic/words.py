"""What the kiosk says of a classic shot, big over the grid: HIT, MISS, SUNK with the ship's
name, the victory. Only what the rules tell: a hit never says which ship."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kiosk.classic.match import ShotFired, Won
from kiosk.game import Result
from kiosk.i18n import _

if TYPE_CHECKING:
    from kiosk.classic.match import ComputerLevel


def words_for(events: Sequence[Any], names: Sequence[str]) -> tuple[str, str, str, int] | None:
    """(word, second line, colour key, shooter) for a batch of events, or None to stay quiet.
    The second line names the shooter and the square ("Computer: B7"), or the ship sunk."""
    shown: tuple[str, str, str, int] | None = None
    for event in events:
        if isinstance(event, Won):
            return (_("SUNK!"), _("Victory for {team}!").format(team=names[event.side]), "win", event.side)
        if isinstance(event, ShotFired):
            where = f"{names[event.side]}: {event.square.code}"
            if event.result is Result.SUNK and event.ship is not None:
                shown = (_("SUNK!"), _("{ship} sunk").format(ship=event.ship.kind.label), "sunk", event.side)
            elif event.result is Result.HIT:
                shown = (_("HIT"), where, "hit", event.side)
            else:
                shown = (_("MISS"), where, "miss", event.side)
    return shown


def level_name(level: ComputerLevel) -> str:
    from kiosk.classic.match import ComputerLevel

    return {ComputerLevel.EASY: _("easy"), ComputerLevel.NORMAL: _("normal"), ComputerLevel.HARD: _("hard")}[
        level
    ]
