"""Exact chances that an attack sinks its target (pure; `Fraction`s, so nothing is rounded).

One attack is a small Markov chain: the state is (dice still rolled, hits set aside, rolls left);
one roll of k dice splits them into target faces, Bursts and the rest with multinomial odds
(each face 1/6). Every target face has the same odds, so a plain attack's chance depends only
on the attacker and the target's defense. The Carrier rolls before it declares: after its first
roll the chance is the chain from that roll on (`chance_after`), and before it rolls, choosing
the target after seeing the dice is worth `best_declared`, an expectation over the 462 ways six
dice can fall.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import comb, factorial, prod

from kiosk.express.rules import FACES, Face, Ship, ShipRules

ONE_FACE = Fraction(1, len(FACES))


@cache
def _splits(dice: int) -> tuple[tuple[int, int, Fraction], ...]:
    """(target faces, Bursts, probability) of one roll of `dice` dice."""
    other = 1 - 2 * ONE_FACE
    return tuple(
        (
            on_target,
            bursts,
            comb(dice, on_target)
            * comb(dice - on_target, bursts)
            * ONE_FACE ** (on_target + bursts)
            * other ** (dice - on_target - bursts),
        )
        for on_target in range(dice + 1)
        for bursts in range(dice - on_target + 1)
    )


@cache
def _chain(attacker: ShipRules, defense: int, dice: int, total: int, rolls: int) -> Fraction:
    """Chance to reach `defense` from `total` hits with `dice` dice and `rolls` rolls left."""
    if total >= defense:
        return Fraction(1)
    if dice == 0 or rolls == 0:
        return Fraction(0)
    chance = Fraction(0)
    for on_target, bursts, probability in _splits(dice):
        chance += probability * _after(attacker, defense, dice, total, rolls, on_target, bursts)
    return chance


def _after(
    attacker: ShipRules, defense: int, dice: int, total: int, rolls: int, on_target: int, bursts: int
) -> Fraction:
    """Chance once a roll of `dice` dice showed `on_target` target faces and `bursts` Bursts."""
    if attacker.burst_sinks and bursts:
        return Fraction(1)
    kept = on_target + (bursts if attacker.burst else 0)
    return _chain(attacker, defense, dice - kept, total + on_target + attacker.burst * bursts, rolls - 1)


def chance(attacker: ShipRules, defense: int) -> Fraction:
    """The chance that `attacker` sinks a target of `defense`, the target declared before rolling
    (for the Carrier too: a target fixed in advance has the same odds)."""
    return _chain(attacker, defense, attacker.dice, 0, attacker.rolls)


def chance_after(attacker: ShipRules, defense: int, faces: Sequence[Face], target: Ship) -> Fraction:
    """The Carrier's chance once its first roll is known and `target` is declared."""
    on_target = sum(face is target.face for face in faces)
    bursts = sum(face is Face.BURST for face in faces)
    return _after(attacker, defense, len(faces), 0, attacker.rolls, on_target, bursts)


@cache
def first_rolls(dice: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every way `dice` dice can fall, as counts per face (in `FACES` order), with its chance."""
    rolls = []
    for faces in combinations_with_replacement(range(len(FACES)), dice):
        counts = tuple(faces.count(face) for face in range(len(FACES)))
        ways = factorial(dice) // prod(factorial(c) for c in counts)
        rolls.append((counts, ways * ONE_FACE**dice))
    return tuple(rolls)


BURST_INDEX = FACES.index(Face.BURST)


def chance_after_split(attacker: ShipRules, defense: int, on_target: int, bursts: int) -> Fraction:
    """The chance once the first roll of all the attacker's dice showed `on_target` faces of the
    declared target and `bursts` Bursts (the Carrier: only those count, whatever else fell)."""
    return _after(attacker, defense, attacker.dice, 0, attacker.rolls, on_target, bursts)


def chance_after_counts(attacker: ShipRules, defense: int, counts: Sequence[int], target: Ship) -> Fraction:
    """`chance_after` for a first roll given as counts per face."""
    return _after(
        attacker,
        defense,
        sum(counts),
        0,
        attacker.rolls,
        counts[FACES.index(target.face)],
        counts[BURST_INDEX],
    )


def best_declared(attacker: ShipRules, targets: Iterable[tuple[Ship, int]]) -> Fraction:
    """The chance to sink one of `targets` (ship, defense) when the target is chosen after the
    first roll, always the likeliest one (the Carrier's power, before it rolls)."""
    options = tuple(targets)
    if not options:
        return Fraction(0)
    return sum(
        (
            probability
            * max(chance_after_counts(attacker, defense, counts, ship) for ship, defense in options)
            for counts, probability in first_rolls(attacker.dice)
        ),
        Fraction(0),
    )
