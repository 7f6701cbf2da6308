"""What the table shows of an attack, worked out from its rolls (no widgets): which dice count
against the target, the dice as they lie once an attack is over or waits, and its caption."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kiosk.express.match import Rolled, Setup, Target
from kiosk.express.rules import Face, Ship
from kiosk.i18n import _


def counting(rolled: Rolled, setup: Setup) -> list[bool]:
    """Per die of a roll: does it count against the target (and so is set aside)? None of the
    Carrier's first roll does until its target is declared."""
    if rolled.target is None or rolled.hits is None:
        return [False] * len(rolled.faces)
    rules = setup.ship(rolled.ship)
    burst_counts = rules.burst > 0 or rules.burst_sinks
    return [face is rolled.target.ship.face or (face is Face.BURST and burst_counts) for face in rolled.faces]


def defense_of(rolled: Rolled, setup: Setup) -> int | None:
    return None if rolled.target is None else setup.ship(rolled.target.ship).defense


@dataclass
class StillDice:
    """The dice of an attack as they lie at its end (or while the Carrier waits): the dice set
    aside by the earlier rolls, the last roll in the tray with its counting dice ringed."""

    kept: list[Face] = field(default_factory=list)
    faces: tuple[Face, ...] = ()
    counting: list[bool] = field(default_factory=list)
    last: Rolled | None = None


def still(rolls: Sequence[Rolled], setup: Setup) -> StillDice:
    shown = StillDice()
    for rolled in rolls:
        if shown.last is not None:
            shown.kept += [f for f, c in zip(shown.faces, shown.counting, strict=True) if c]
        shown.faces, shown.counting, shown.last = rolled.faces, counting(rolled, setup), rolled
    return shown


def caption(setup: Setup, player: int, ship: Ship, target: Target | None) -> str:
    """Who attacks whom: "Ann's Battleship attacks Bo's Carrier"."""
    attacker = _("{name}'s {ship}").format(name=setup.players[player], ship=ship.label)
    if target is None:
        return _("{attacker} rolls first").format(attacker=attacker)
    aimed = _("{name}'s {ship}").format(name=setup.players[target.side], ship=target.ship.label)
    return _("{attacker} attacks {target}").format(attacker=attacker, target=aimed)


def caption_of(rolled: Rolled, setup: Setup) -> str:
    return caption(setup, rolled.side, rolled.ship, rolled.target)
