"""The computer players: every level's commands are legal over many random games, each level
does what it says, and the race model behind hard agrees with closed forms."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest

from kiosk.express import odds
from kiosk.express.ai import Computer, Strategy, coach
from kiosk.express.levels import guarded_line
from kiosk.express.match import Attack, Declare, Match, Phase, QueueDice, Setup
from kiosk.express.position import Position, declarations, options
from kiosk.express.race import HORIZON, Racer, finished_by, win_chances
from kiosk.express.rules import FLEET, Rules, Variant

from .conftest import ANN, BO, B, C, D, P, S, faces, view_of

VARIANTS = list(Variant)


def play(
    levels: list[Strategy], variant: Variant, seed: int, rules: Rules | None = None, points: int | None = None
) -> Match:
    """A whole game between computers through the real rules; any refused command fails."""
    computers = [Computer(level, seed * 7 + seat) for seat, level in enumerate(levels)]
    setup = Setup.create(
        [f"P{n}" for n in range(len(levels))],
        variant=variant,
        seed=seed,
        lines=[c.line(variant, rules) for c in computers],
        rules=rules,
        points_to_win=points,
    )
    m = Match(setup)
    for _step in range(2000):
        if m.phase is Phase.OVER:
            return m
        view = json.loads(json.dumps(m.public_view()))  # only what a screen could send
        command = computers[m.turn].decide(view)
        assert m.refusal(command) is None, (command, m.refusal(command))
        m.apply(command)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("level", list(Strategy))
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_level_plays_only_legal_commands_to_the_end(level, variant):
    rng = random.Random(f"{level.value}-{variant.value}")
    for game in range(12):
        players = 2 + game % 3
        levels = [level] + [rng.choice(list(Strategy)) for _ in range(players - 1)]
        rng.shuffle(levels)
        rules = Rules(sinker_goes_again=rng.random() < 0.8, fleetless_skipped=rng.random() < 0.8)
        points = rng.randint(1, 5 * (players - 1))
        m = play(levels, variant, rng.randrange(10**6), rules, points)
        assert m.winner is not None


def test_the_carriers_second_step_is_a_legal_declaration():
    for level in Strategy:
        setup = Setup.create(["Ann", "Bo"], lines=[ANN, BO], seed=3)
        m = Match(setup)
        m.apply(QueueDice(faces("PPXSSD")))
        m.apply(Attack(C))
        command = Computer(level, 1).decide(m.public_view())
        assert isinstance(command, Declare) and m.refusal(command) is None


def test_normal_declares_the_likeliest_target_for_the_roll():
    m = Match(Setup.create(["Ann", "Bo"], lines=[ANN, (B, P, D, C, S)], seed=3))
    m.apply(QueueDice(faces("PPXSSD")))  # two Patrol Boat faces and a Burst: 3 hits on it
    m.apply(Attack(C))
    command = Computer(Strategy.NORMAL, 1).decide(m.public_view())
    assert command == Declare(command.target, side=0) and command.target.ship is P


def test_normal_takes_the_best_chance_to_sink():
    for seed in range(20):
        m = Match(Setup.create(["Ann", "Bo", "Cy"], seed=seed))
        view = m.public_view()
        pos = Position.from_view(view)
        best = max(o.chance for o in options(pos))
        command = Computer(Strategy.NORMAL, seed).decide(view)
        chosen = [o for o in options(pos) if o.command(0) == command]
        assert chosen and chosen[0].chance == best


def test_easy_tries_every_ship_sooner_or_later():
    m = Match(Setup.create(["Ann", "Bo"], seed=5))
    computer = Computer(Strategy.EASY, 2)
    assert {computer.decide(m.public_view()).ship for _ in range(200)} == set(FLEET)


def test_coach_gives_every_attack_its_exact_chance():
    m = Match(Setup.create(["Ann", "Bo"], lines=[ANN, BO], seed=5))
    found = coach(m.public_view())
    rules = Rules()
    for option in found:
        attacker = rules.table(option.ship)
        if option.target is None:
            targets = [(s, rules.table(s).defense) for s in BO[:2]]
            assert option.chance == pytest.approx(float(odds.best_declared(attacker, targets)))
        else:
            defense = rules.table(option.target.ship).defense
            assert option.chance == pytest.approx(float(odds.chance(attacker, defense)))
    # Four ships with two targets, the Submarine with five, the Carrier staying (it is first).
    assert len(found) == 4 * 2 - 2 + 5 + 1


def test_declarations_are_the_odds_after_the_roll():
    m = Match(Setup.create(["Ann", "Bo"], lines=[BO, ANN], seed=5))
    m.apply(QueueDice(faces("CCBSSD")))
    m.apply(Attack(C))
    pos = Position.from_view(m.public_view())
    carrier = Rules().carrier
    assert [(t.ship, round(c, 12)) for t, c in declarations(pos)] == [
        (s, round(float(odds.chance_after(carrier, Rules().table(s).defense, faces("CCBSSD"), s)), 12))
        for s in ANN[:2]
    ]


@pytest.mark.parametrize(
    ("variant", "line"), [(Variant.ADMIRAL, (B, S, D, C, P)), (Variant.CAPTAIN, (B, S, D, P, C))]
)
def test_hard_lays_its_strongest_defenses_first_and_its_best_attacker_behind_a_tie(variant, line):
    assert guarded_line(variant, Rules()) == line
    assert Computer(Strategy.HARD).line(variant) == line
    assert Computer(Strategy.HARD).line(variant, players=4) == line


def test_the_guarded_line_follows_the_house_rules():
    """A Destroyer made the hardest to sink goes first; two ships of equal defense go weaker
    attacker first (a Patrol Boat of 1 die behind nothing)."""
    rules = dataclasses.replace(
        Rules(),
        destroyer=dataclasses.replace(Rules().destroyer, defense=6),
        patrol_boat=dataclasses.replace(Rules().patrol_boat, dice=1, defense=5),
    )
    assert guarded_line(Variant.ADMIRAL, rules)[:3] == (D, P, B)


# ---- the race model ----------------------------------------------------------------------


def test_one_point_each_has_the_closed_form():
    for r, q in itertools.product((0.1, 0.5, 0.9), repeat=2):
        mover, other = win_chances([Racer(1, r, r), Racer(1, q, q)], mover=0)
        assert mover == pytest.approx(r / (1 - (1 - r) * (1 - q)), abs=1e-9)
        assert mover + other == pytest.approx(1)


def test_finishing_one_point_is_geometric():
    curve = finished_by(1, 0.3, 0.3, True)
    assert [round(x, 12) for x in curve[:4]] == [0, 0.3, round(1 - 0.7**2, 12), round(1 - 0.7**3, 12)]
    assert len(curve) == HORIZON + 1


def test_a_sinker_going_again_can_finish_in_one_turn():
    again = finished_by(3, 0.5, 0.5, True)[1]
    once = finished_by(3, 0.5, 0.5, False)[1]
    assert again == pytest.approx(0.125) and once == 0


def test_the_next_attack_alone_uses_the_exposure():
    # First attack sure, the rest never: one point in the first turn, never more.
    curve = finished_by(2, 1.0, 0.0, True)
    assert curve[1] == 0 and curve[-1] == 0
    assert finished_by(1, 1.0, 0.0, True)[1] == 1


def test_a_player_without_ships_never_wins_and_the_closest_is_favoured():
    chances = win_chances([Racer(3, 0.6, 0.6), Racer(1, 0.6, 0.6), Racer(2, 0.0, 0.0, afloat=False)], mover=0)
    assert chances[2] == 0 and chances[1] > chances[0] and sum(chances) == pytest.approx(1)


# ---- hard with three and four players: the lookahead -------------------------------------


def test_the_race_is_the_turn_by_turn_sum():
    """win_chances against the plain sum over turns and places it stands for."""
    rng = random.Random(4)
    for _case in range(200):
        count = rng.randint(2, 4)
        runners = [
            Racer(rng.randint(0, 4), rng.random(), rng.random(), rng.random() < 0.9) for _ in range(count)
        ]
        mover, again = rng.randrange(count), rng.random() < 0.5
        curves = [
            finished_by(r.needs, r.first, r.later, again)
            if r.afloat and r.needs > 0
            else (1.0 if r.needs <= 0 else 0.0,) * (HORIZON + 1)
            for r in runners
        ]
        order = [(mover + k) % count for k in range(count)]
        wins = [0.0] * count
        for turn in range(1, HORIZON + 1):
            for place, player in enumerate(order):
                now = curves[player][turn] - curves[player][turn - 1]
                for other_place, other in enumerate(order):
                    if other != player:
                        now *= 1 - curves[other][turn if other_place < place else turn - 1]
                wins[player] += now
        total = sum(wins)
        expected = [w / total for w in wins] if total > 1e-12 else [1 / count] * count
        assert win_chances(runners, mover, again) == pytest.approx(expected, abs=1e-12)


def _index(line: tuple) -> tuple[int, ...]:
    return tuple(FLEET.index(ship) for ship in line)


def test_hard_follows_a_sink_into_its_own_turn():
    """Ann (hard, Captain's game, 2 of 4 points, her Battleship alone) goes again after a sink:
    an attack is worth its chance times the best of her next attacks (what this sink uncovered,
    each to the win: 1) plus a miss times the race after the miss. Sinking Bo's Patrol Boat
    uncovers nothing new but leaves his Carrier (defense 3) beside his Battleship; sinking
    Cy's Destroyer leaves Cy's Battleship alone (defense 5): she takes the Patrol Boat."""
    from kiosk.express.levels import Judge

    rules = Rules()
    pos = Position(Variant.CAPTAIN, rules, ((B,), (P, B, C), (B, D)), (2, 0, 0), 4, 0)
    judge = Judge(pos)
    assert judge.lookahead == 1
    found = options(pos)
    chance = {FLEET.index(t): judge.t.chance[FLEET.index(B)][FLEET.index(t)] for t in FLEET}

    def after_miss(lines: tuple) -> float:
        return judge.standing(tuple(_index(line) for line in lines), (2, 0, 0), 1)

    def expected(sunk_lines: tuple, next_targets: list) -> float:
        """The value once the first sink is made: her best next attack (a sink wins)."""
        lines = tuple(_index(line) for line in sunk_lines)
        miss = judge.standing(lines, (3, 0, 0), 1)
        return max(chance[FLEET.index(t)] + (1 - chance[FLEET.index(t)]) * miss for t in next_targets)

    first_miss = after_miss(((B,), (P, B, C), (B, D)))
    patrol = (
        chance[FLEET.index(P)] * expected(((B,), (B, C), (B, D)), [B, C, B, D])
        + (1 - chance[FLEET.index(P)]) * first_miss
    )
    destroyer = (
        chance[FLEET.index(D)] * expected(((B,), (P, B, C), (B,)), [P, B, B])
        + (1 - chance[FLEET.index(D)]) * first_miss
    )
    values = {(o.target.side, o.target.ship): judge.attack(o) for o in found}
    assert values[1, P] == pytest.approx(patrol, abs=1e-12)
    assert values[2, D] == pytest.approx(destroyer, abs=1e-12)
    assert max(values, key=values.get) == (1, P)
    command = Computer(Strategy.HARD, 1).decide(view_of(pos))
    assert (command.target.side, command.target.ship) == (1, P)


@pytest.mark.parametrize("variant", list(Variant))
def test_the_race_runners_are_the_fleets_best_chances(variant):
    """The racers the hard level builds from its kept tables (`Tables.first_chance`,
    `Tables.sustained`, a line's masks) are, for any position, the plain computation: each
    player's best chance against the enemy ships exposed (a Submarine of the Admiral's game:
    against any ship), and its best ship's chances summed over every enemy ship afloat, over
    the enemy ships."""
    from kiosk.express.levels import Judge

    rules = Rules()
    rng = random.Random(26)
    for _ in range(200):
        players = rng.choice((3, 4))
        lines = tuple(tuple(rng.sample(FLEET, rng.randint(1, 5))) for p in range(players))
        points = tuple(rng.randint(0, 2) for _p in range(players))
        pos = Position(variant, rules, lines, points, 3, 0)
        judge = Judge(pos)
        t = judge.t
        indices = tuple(_index(line) for line in lines)
        racers = judge._runners(indices, points)
        for player, line in enumerate(indices):
            enemies = [s for other, theirs in enumerate(indices) if other != player for s in theirs]
            exposed = {s for other, theirs in enumerate(indices) if other != player for s in theirs[:2]}
            if not enemies:
                continue
            first = max(
                t.best[ship][sum(1 << s for s in (set(enemies) if t.anywhere[ship] else exposed))]
                for ship in line
            )
            later = max(sum(t.chance[ship][s] for s in enemies) for ship in line) / len(enemies)
            assert racers[player].first == pytest.approx(first, abs=1e-12)
            assert racers[player].later == pytest.approx(later, abs=1e-12)
            assert racers[player].needs == min(3 - points[player], len(enemies))
