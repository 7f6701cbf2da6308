"""Luck: the ships each player sank against the ships their attacks were expected to sink.

Every attack had an exact chance to sink its target (`kiosk.express.odds`); their sum is what
the player could expect, and sinks minus that is luck (+1.2: more than a ship above the odds).
The Admiral's Carrier picks its target after its first roll, so its attack is expected to sink
with the chance of picking well (`odds.best_declared` over the targets open when it attacked):
a roll that leaves only a poor target is bad luck, a poor pick after a good roll is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from kiosk.express import odds
from kiosk.express.match import Attack, Command, Match, Setup
from kiosk.express.rules import Ship, ShipRules


@lru_cache(maxsize=256)
def _declared(carrier: ShipRules, targets: frozenset[tuple[Ship, int]]) -> Fraction:
    return odds.best_declared(carrier, sorted(targets, key=lambda t: (t[0].value, t[1])))


def expected_sinks(setup: Setup, log: Sequence[Command]) -> tuple[Fraction, ...]:
    """Per player, the sum of the chances of their attacks to sink (exact)."""
    match = Match(setup)
    expected = [Fraction(0)] * len(setup.players)
    for command in log:
        if isinstance(command, Attack):
            rules = setup.ship(command.ship)
            if command.target is not None:
                chance = odds.chance(rules, setup.ship(command.target.ship).defense)
            else:
                targets = frozenset((t.ship, setup.ship(t.ship).defense) for t in match.targets(command.ship))
                chance = _declared(rules, targets)
            expected[match.turn] += chance
        match.apply(command)
    return tuple(expected)


def luck(match: Match) -> tuple[float, ...]:
    """Per player: ships sunk minus ships expected."""
    expected = expected_sinks(match.setup, match.log)
    return tuple(match.tally(p).sunk - float(e) for p, e in enumerate(expected))
