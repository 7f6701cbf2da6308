"""The solved two-player game (`kiosk.express.duel`, the shipped `kiosk.express.solved` values)
and the exact bench built on it: a Carrier against a lone target counts that target's face
only, the exact figures agree with games thrown die by die, the shipped values are perfect play
for today's rules, and the hard computer plays them."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from kiosk.express import odds, solved
from kiosk.express.ai import Computer, Strategy
from kiosk.express.duel import FULL, STATES, Duel, ships, state
from kiosk.express.levels import Perfect, guarded_line, judge_for
from kiosk.express.match import Match, Phase, Setup
from kiosk.express.position import Position, options
from kiosk.express.rules import FACES, FLEET, Rules, Ship, Variant

from .conftest import B, C, D, P, S, load_bench, view_of

pytestmark = pytest.mark.slow  # each game's rows take ~20 s to build


_games: dict[Variant, Duel] = {}


def duel_of(variant: Variant) -> Duel:
    """Each game's rows, built once for the module."""
    if variant not in _games:
        _games[variant] = Duel(variant)
    return _games[variant]


@pytest.fixture(scope="module")
def exact():
    return load_bench().Exact(Variant.ADMIRAL, duel_of(Variant.ADMIRAL))


@pytest.fixture(scope="module")
def normal_duel(exact):
    """Normal against normal, exactly: A's chance to win where A moves, B's where B moves."""
    policy = exact.normal()
    return exact.duel(policy, policy)


def rows_of(game: Duel, at: int) -> range:
    return range(int(np.searchsorted(game.at, at)), int(np.searchsorted(game.at, at, "right")))


def test_a_carrier_against_a_lone_target_counts_only_its_face(exact):
    game, carrier = exact.game, Rules().carrier
    for lone, expected in ((P, 0.7538), (C, 0.7538), (B, 0.1705), (D, 0.4528)):
        rows = [
            r
            for r in rows_of(game, state((FLEET.index(C), FLEET.index(S)), (FLEET.index(lone),)))
            if FLEET[game.ship[r]] is C
        ]
        assert rows and not game.carrier[rows].any()  # a plain attack, not the two-target table
        chances = {float(game.p[r]) for r in rows}
        assert chances == {float(odds.chance(carrier, Rules().table(lone).defense))}
        assert round(chances.pop(), 4) == expected


def attack(rules: Rules, ship: Ship, target: Ship, rng: random.Random, first: tuple | None = None) -> bool:
    """One attack thrown die by die, counted by the rules' own `ShipRules.count`: sunk?"""
    attacker, defense = rules.table(ship), rules.table(target).defense
    dice = total = 0
    dice = attacker.dice
    for roll in range(attacker.rolls):
        if dice == 0:
            break
        faces = first if roll == 0 and first else tuple(rng.choice(FACES) for _ in range(dice))
        count = attacker.count(faces, target)
        total, dice = total + count.hits, dice - count.kept
        if count.sinks or total >= defense:
            return True
    return False


def test_the_carrier_against_a_lone_battleship_thrown_die_by_die(normal_duel):
    """Ann has her Carrier, Bo his Battleship: each attack is forced, so Ann's chance is the
    closed form of two alternating shots; the exact bench, the closed form and 20 000 games
    thrown die by die agree (the old bench said 26.7 %: a second ship's face counted)."""
    win_a, _win_b = normal_duel
    rules = Rules()
    p = float(odds.chance(rules.carrier, rules.battleship.defense))
    q = float(odds.chance(rules.battleship, rules.carrier.defense))
    closed = p / (1 - (1 - p) * (1 - q))
    at = state((FLEET.index(C),), (FLEET.index(B),))
    assert win_a[at] == pytest.approx(closed, abs=1e-9)
    rng = random.Random(26)
    games, wins = 20_000, 0
    for _game in range(games):
        while True:
            first = tuple(rng.choice(FACES) for _ in range(rules.carrier.dice))  # roll, declare
            if attack(rules, C, B, rng, first):
                wins += 1
                break
            if attack(rules, B, C, rng):
                break
    error = math.sqrt(closed * (1 - closed) / games)
    assert abs(wins / games - closed) < 3 * error, (wins / games, closed)


def test_the_exact_figures_agree_with_real_games(exact):
    """Normal against easy: the exact chance of each starting pair of lines against games
    through the real rules engine, the dice thrown one by one (within 3 standard errors)."""
    a_policy, b_policy = exact.normal(), exact.easy()
    win_a, _win_b = exact.duel(a_policy, b_policy)
    rng = random.Random(7)
    games, wins, expected, variance = 3000, 0, 0.0, 0.0
    for number in range(games):
        lines = [rng.sample(FLEET, 5), rng.sample(FLEET, 5)]
        chance = float(win_a[state(*(tuple(FLEET.index(s) for s in line) for line in lines))])
        computers = [
            Computer(Strategy.NORMAL, rng.getrandbits(32)),
            Computer(Strategy.EASY, rng.getrandbits(32)),
        ]
        match = Match(Setup.create(["A", "B"], lines=lines, seed=number + 1))
        while match.phase is not Phase.OVER:
            match.apply(computers[match.turn].decide(match.public_view()))
        wins += match.winner == 0
        expected += chance
        variance += chance * (1 - chance)
    assert abs(wins - expected) < 3 * math.sqrt(variance), (wins / games, expected / games)


@pytest.mark.parametrize("variant", list(Variant))
def test_the_shipped_solution_is_perfect_play_for_todays_rules(variant):
    """The values are a fixed point of perfect play (value iteration's one solution): one more
    sweep moves none by more than float32 rounding; the line is the one that wins most under
    perfect play against normal."""
    rules = Rules()
    path = solved.SHIPPED / solved.filename(variant, rules, rules.default_points(2))
    assert path.is_file(), f"run python -m kiosk.express.solved to write {path.name}"
    found = solved.solution(variant, rules, rules.default_points(2), build=False)
    assert found is not None and found.values.shape == (STATES + 2,)
    game = duel_of(variant)
    assert game.residual(found.values) < 1e-6
    assert game.residual(np.clip(found.values + 1e-4 * (np.arange(STATES + 2) % 3 == 0), 0, 1)) > 1e-5
    first = float(found.values[game.start].mean())  # the first player's edge between equals
    assert 0.55 < first < 0.7
    against_normal, against_perfect = solved.line_scores(game, found.values, 1e-10)
    mine = FULL.index(found.line)
    near = against_normal >= against_normal.max() - solved.NEAR
    assert near[mine]  # as good as the best line against normal, or near-equal to it
    assert against_perfect[mine] >= against_perfect[near].max() - 1e-9  # and perfect play's pick
    assert against_perfect[mine] > 0.5  # so it is no worse than a line at random against perfect play
    if variant is Variant.ADMIRAL:  # the line matters there (in the Captain's game: 0.003 points)
        assert against_normal.max() - against_normal.min() > 0.01
    else:
        assert against_normal.max() - against_normal.min() < solved.NEAR


@pytest.mark.parametrize("variant", list(Variant))
def test_hard_takes_the_best_attack_of_perfect_play(variant):
    """The level's own code (a view, `Perfect` judge) against the solved values on the rows
    of the exact game: in 300 random positions its attack is one of the best."""
    rules = Rules()
    found = solved.solution(variant, rules, 5, build=False).values
    game = duel_of(variant)
    q = game.values(found, found)
    rng = random.Random(variant.value)
    carrier = FLEET.index(C)
    checked = 0
    while checked < 300:
        mine = tuple(rng.sample(range(5), rng.randint(1, 5)))
        theirs = tuple(rng.sample(range(5), rng.randint(1, 5)))
        rows = rows_of(game, state(mine, theirs))
        if not rows:
            continue  # a game no sink can end: over before anyone moves
        pos = Position(variant, rules, (ships(mine), ships(theirs)), (5 - len(theirs), 5 - len(mine)), 5, 0)
        assert isinstance(judge_for(pos), Perfect)
        command = Computer(Strategy.HARD, checked).decide(view_of(pos))
        moved = command.ship is ships(mine)[0] or command.move or not rules.ship(variant, command.ship).stays
        target = -1 if command.target is None else FLEET.index(command.target.ship)
        chosen = [
            r
            for r in rows
            if FLEET[game.ship[r]] is command.ship
            and bool(game.moved[r]) == moved
            and ((target == -1 and game.ship[r] == carrier) or game.t1[r] == target)
        ]
        assert chosen, command
        assert max(q[r] for r in chosen) >= max(q[r] for r in rows) - 1e-6
        checked += 1


def test_hard_lays_the_solved_line_with_two_players_only():
    for variant in Variant:
        line = tuple(FLEET[i] for i in solved.solution(variant, Rules(), 5, build=False).line)
        assert Computer(Strategy.HARD, 3).line(variant, players=2) == line
        assert Computer(Strategy.HARD, 3).line(variant, players=3) == guarded_line(variant, Rules())
        assert sorted(line, key=FLEET.index) == list(FLEET)


def test_other_rules_are_solved_in_the_background(tmp_path, monkeypatch):
    """Points to win 1 (the first sink wins) is not shipped: the first request starts a solve
    in another process and answers None at once (hard judges by its race meanwhile); the
    cached file is perfect play and the next game reads it."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    rules = Rules()
    pos = Position(Variant.CAPTAIN, rules, (tuple(FLEET), tuple(FLEET)), (0, 0), 1, 0)
    assert not isinstance(judge_for(pos), Perfect)  # not solved yet: the race, at once
    solution = solved.wait(Variant.CAPTAIN, rules, 1, timeout=600)
    assert solution is not None
    found = solution.values
    assert (tmp_path / "express-solved" / solved.filename(Variant.CAPTAIN, rules, 1)).is_file()
    assert isinstance(judge_for(pos), Perfect)
    # With one point to win, the mover wins at once with its first sink or later: its chance
    # is its best first shot's at least.
    start = state(tuple(range(5)), tuple(range(5)))
    best = max(o.chance for o in options(pos))
    assert best <= found[start] <= 1
