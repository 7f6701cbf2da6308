"""The exact odds (kiosk.express.odds) against EXPRESS.md's figures, brute-force enumeration
(on its own and through the rules engine) and 100 000 simulated attacks per pair."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from kiosk.express import odds
from kiosk.express.match import Attack, Match, QueueDice, Setup, Sunk, Target
from kiosk.express.rules import FACES, FLEET, Face, Rules, Ship, ShipRules, Variant

from .conftest import ANN, BO, B, C, P

SIX = Fraction(1, 6)


def test_express_md_check_figures():
    battleship = Rules().battleship  # 8 dice, 4 rolls, only the target face hits
    assert [round(float(odds.chance(battleship, d)), 3) for d in (5, 4, 3)] == [0.403, 0.675, 0.878]


# ---- brute force: every face of every die ------------------------------------------------


def enumerate_attack(rules: ShipRules, defense: int, dice: int, total: int, rolls: int) -> Fraction:
    """Every sequence of faces, the rules applied to each die (no counting formulas)."""
    if rolls == 0 or dice == 0:
        return Fraction(0)
    chance = Fraction(0)
    for roll in itertools.product(FACES, repeat=dice):
        hits = kept = 0
        burst = False
        for face in roll:
            if face is Face.CARRIER:  # the target's face
                hits, kept = hits + 1, kept + 1
            elif face is Face.BURST:
                burst = True
                hits += rules.burst
                kept += 1 if rules.burst else 0
        if (rules.burst_sinks and burst) or total + hits >= defense:
            chance += SIX**dice
        else:
            chance += SIX**dice * enumerate_attack(rules, defense, dice - kept, total + hits, rolls - 1)
    return chance


SMALL = [
    ShipRules(defense=1, dice=d, rolls=r, burst=b, burst_sinks=s)
    for d, r, b, s in itertools.product((1, 2, 3), (1, 2, 3), (0, 1, 2), (False, True))
    if d + r <= 5
]


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: f"{r.dice}d{r.rolls}r{r.burst}b{int(r.burst_sinks)}")
def test_chain_equals_brute_force_enumeration(rules):
    for defense in (1, 2, 3, 4):
        assert odds.chance(rules, defense) == enumerate_attack(rules, defense, rules.dice, 0, rules.rolls)


def engine_sinks(setup: Setup, first: list[Attack], dice: int) -> Fraction:
    """The engine itself over every roll of `dice` dice: the share of rolls that sink."""
    sinks = 0
    for roll in itertools.product(FACES, repeat=dice):
        m = Match(setup)
        m.apply(QueueDice(roll))
        events = [e for command in first for e in m.apply(command)]
        sinks += any(isinstance(e, Sunk) for e in events)
    return Fraction(sinks, 6**dice)


@pytest.mark.parametrize("target", [B, C, P])
def test_engine_submarine_agrees_with_the_odds(target):
    setup = Setup.create(["Ann", "Bo"], lines=[ANN, (B, C, P, Ship.SUBMARINE, Ship.DESTROYER)], seed=1)
    sub = setup.ship(Ship.SUBMARINE)
    defense = setup.ship(target).defense
    assert engine_sinks(setup, [Attack(Ship.SUBMARINE, Target(1, target))], 3) == odds.chance(sub, defense)


def test_engine_two_roll_attack_agrees_with_the_odds():
    """A Patrol Boat cut down to 2 dice and 2 rolls: every first roll and its re-rolls through
    the engine (the second roll's faces queued one by one: 36 x up to 36 games)."""
    rules = Rules(patrol_boat=ShipRules(defense=3, dice=2, rolls=2, burst=1))
    setup = Setup.create(["Ann", "Bo"], lines=[ANN, BO], seed=1, rules=rules)
    sinks = Fraction(0)
    for first in itertools.product(FACES, repeat=2):
        for second in itertools.product(FACES, repeat=2):
            m = Match(setup)
            m.apply(QueueDice(first + second))
            events = m.apply(Attack(Ship.PATROL_BOAT, Target(1, Ship.DESTROYER)))
            sinks += SIX**4 * any(isinstance(e, Sunk) for e in events)
    patrol = setup.ship(Ship.PATROL_BOAT)
    assert sinks == odds.chance(patrol, setup.ship(Ship.DESTROYER).defense)


# ---- the Carrier: after its first roll, and choosing after it ----------------------------


def test_carrier_chance_after_a_known_roll_is_its_last_roll_binomial():
    """After the first roll one roll is left, where the target face and the Burst each hit
    (1/3 a die): the chance is a binomial tail, a formula independent of the chain."""
    carrier = Rules().carrier
    for head in itertools.product(FACES, repeat=3):
        faces = (*head, Face.SUBMARINE, Face.SUBMARINE, Face.DESTROYER)
        for target in (B, C, P):
            defense = Rules().table(target).defense
            hits = sum(f in (target.face, Face.BURST) for f in faces)
            left, need = 6 - hits, defense - hits
            expected = sum(
                (
                    comb(left, j) * Fraction(1, 3) ** j * Fraction(2, 3) ** (left - j)
                    for j in range(max(need, 0), left + 1)
                ),
                Fraction(0),
            )
            assert odds.chance_after(carrier, defense, faces, target) == expected


def test_carrier_chance_before_rolling_for_a_fixed_target_is_the_declared_chance():
    carrier = Rules().carrier
    for defense in (3, 4, 5):
        expected = sum(
            (p * odds.chance_after_counts(carrier, defense, counts, C) for counts, p in odds.first_rolls(6)),
            Fraction(0),
        )
        assert expected == odds.chance(carrier, defense)


def test_first_rolls_are_every_roll_once():
    for dice in (1, 3, 6):
        rolls = odds.first_rolls(dice)
        assert sum(p for _c, p in rolls) == 1
        assert all(sum(counts) == dice for counts, _p in rolls)
        assert len(rolls) == len(set(c for c, _p in rolls))


def test_best_declared_equals_brute_force_over_every_first_roll():
    carrier = ShipRules(defense=3, dice=3, rolls=2, burst=1, roll_first=True)
    targets = [(C, 3), (P, 3)]
    brute = Fraction(0)
    for roll in itertools.product(FACES, repeat=3):
        brute += SIX**3 * max(odds.chance_after(carrier, d, roll, ship) for ship, d in targets)
    assert odds.best_declared(carrier, targets) == brute
    assert odds.best_declared(carrier, targets) > max(odds.chance(carrier, d) for _s, d in targets)
    assert odds.best_declared(carrier, []) == 0


# ---- simulation: 100 000 attacks a pair, vectorised --------------------------------------

ATTACKS = 100_000


def simulate(rules: ShipRules, defense: int, rng: np.random.Generator) -> float:
    """Roll `ATTACKS` attacks at once. Face 0 is the target's, face 1 the Burst: every target
    face has the same odds, so which two faces does not matter."""
    dice = np.full(ATTACKS, rules.dice)
    total = np.zeros(ATTACKS, dtype=int)
    sunk = np.zeros(ATTACKS, dtype=bool)
    for _roll in range(rules.rolls):
        faces = rng.integers(0, 6, size=(ATTACKS, rules.dice))
        rolled = np.arange(rules.dice)[None, :] < dice[:, None]  # the dice not set aside
        on_target = ((faces == 0) & rolled).sum(axis=1)
        bursts = ((faces == 1) & rolled).sum(axis=1)
        live = ~sunk & (dice > 0)
        total = np.where(live, total + on_target + rules.burst * bursts, total)
        dice = np.where(live, dice - on_target - (bursts if rules.burst else 0), dice)
        sunk |= live & ((total >= defense) | (rules.burst_sinks & (bursts > 0)))
    return float(sunk.mean())


@pytest.mark.parametrize("variant", list(Variant))
def test_every_pair_within_three_standard_errors_of_100000_simulated_attacks(variant):
    rules = Rules()
    rng = np.random.default_rng(20261130)
    for attacker, target in itertools.product(FLEET, FLEET):
        ship = rules.ship(variant, attacker)
        defense = rules.ship(variant, target).defense
        exact = float(odds.chance(ship, defense))
        simulated = simulate(ship, defense, rng)
        error = max((exact * (1 - exact) / ATTACKS) ** 0.5, 1 / ATTACKS)
        assert abs(simulated - exact) <= 3 * error, (variant, attacker, target, exact, simulated)
