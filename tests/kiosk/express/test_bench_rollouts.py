"""bench/express_rollouts.py, the measure of one policy-improvement step over hard: its playouts
never move the game they start from and are the same on the same seeds, hard's own choice is
always among the candidates it values, and its playouts agree with the exact chance where the
game ends with the attack."""

from __future__ import annotations

from kiosk.express.ai import Computer, Strategy
from kiosk.express.levels import FOLLOWED
from kiosk.express.match import Attack, Phase, Target
from kiosk.express.position import Position, options
from kiosk.express.rules import Variant

from .conftest import ANN, BO, CY, DEE, B, P, game, load_bench, snapshot


def test_playouts_leave_the_game_as_it_was_and_repeat_on_the_same_seeds():
    bench = load_bench("express_rollouts")
    match = game(ANN, BO, CY, DEE, seed=4)
    before = snapshot(match)
    command = Computer(Strategy.HARD, 1).decide(match.public_view())
    seeds = list(range(40))
    wins = bench.playouts(match, command, 0, seeds)
    assert snapshot(match) == before
    assert bench.playouts(match, command, 0, seeds) == wins
    assert 0 < wins < len(seeds)  # four players: neither always won nor always lost


def test_hards_own_choice_is_always_among_the_candidates():
    """Hard chooses among the FOLLOWED best of its first look, so K >= FOLLOWED candidates hold
    its choice (the bench adds it where they do not: this shows that never happens)."""
    bench = load_bench("express_rollouts")
    seen = 0
    for seed in range(60):
        match = game(ANN, BO, CY, DEE, seed=seed)
        computers = [Computer(Strategy.HARD, seed * 10 + p) for p in range(4)]
        while match.phase is not Phase.OVER:
            command = computers[match.turn].decide(match.public_view())
            if match.public_view()["phase"] == "attack":
                assert command in bench.candidates(match, FOLLOWED)
                seen += 1
            match.apply(command)
    assert seen > 100


def test_a_playout_of_an_attack_that_ends_the_game_wins_as_often_as_the_attack_sinks():
    """One point wins: Ann's Battleship at Cy's Patrol Boat wins at once where it sinks, so the
    playouts' wins are at least the exact chance to sink (within 3 standard errors); after a
    miss Ann wins only where Bo, Cy and Dee all miss in turn, which their own best chances
    bound."""
    bench = load_bench("express_rollouts")
    match = game(ANN, BO, CY, DEE, points=1, variant=Variant.CAPTAIN, seed=2)
    pos = Position.from_view(match.public_view())
    chance = next(o.chance for o in options(pos) if o.ship is B and o.target == Target(2, P))
    seeds = list(range(1500))
    wins = bench.playouts(match, Attack(B, Target(2, P), side=0), 0, seeds) / len(seeds)
    error = (chance * (1 - chance) / len(seeds)) ** 0.5
    assert wins > chance - 3 * error
    # Bo, Cy and Dee each miss with at most 1 - (the weakest of their best chances)
    worst = min(
        max(o.chance for o in options(Position.from_view({**match.public_view(), "turn": p})))
        for p in (1, 2, 3)
    )
    assert wins < chance + (1 - chance) * (1 - worst) ** 3 + 3 * error
