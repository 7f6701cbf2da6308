"""The rules of Battleship Express (EXPRESS.md): every power, both games, turns, winning, dice."""

from __future__ import annotations

import dataclasses

import pytest

from kiosk.express.dice import generated_face
from kiosk.express.match import (
    Attack,
    AttackerError,
    Declare,
    DiceError,
    Match,
    Phase,
    PhaseError,
    QueueDice,
    Setup,
    SetupError,
    Target,
    TargetError,
    TurnError,
)
from kiosk.express.rules import Rules, Variant
from kiosk.express.wire import event_to_dict
from kiosk.game import RuleError

from .conftest import ANN, BO, CY, DEE, B, C, D, P, S, faces, game, queue, snapshot

CAPTAIN = Variant.CAPTAIN


def roll(player, ship, number, text, hits, total):
    return {
        "event": "roll",
        "player": player,
        "ship": ship.value,
        "roll": number,
        "faces": [f.value for f in faces(text)],
        "hits": hits,
        "total": total,
    }


def sunk(player, ship, by, points):
    return {"event": "sunk", "player": player, "ship": ship.value, "by": by, "points": points}


def turn(player):
    return {"event": "turn", "player": player}


def attack(match: Match, ship, target=None, dice: str = "", **kw) -> list[dict]:
    if dice:
        queue(match, dice)
    tgt = Target(*target) if target else None
    return [event_to_dict(e) for e in match.apply(Attack(ship, tgt, **kw))]


def declare(match: Match, target, dice: str = "") -> list[dict]:
    if dice:
        queue(match, dice)
    return [event_to_dict(e) for e in match.apply(Declare(Target(*target)))]


# ---- the five ships (Admiral's game) -----------------------------------------------------


def test_destroyer_moves_to_the_front_and_its_burst_is_two_hits():
    m = game()  # Ann: C B D S P, Bo: B D C S P
    events = attack(m, D, (1, B), "BBXPPP BSS")
    assert events == [
        roll(0, D, 1, "BBXPPP", 4, 4),
        roll(0, D, 2, "BSS", 1, 5),
        sunk(1, B, 0, [1, 0]),
        turn(0),
    ]
    assert m.line(0) == (D, C, B, S, P)
    assert m.line(1) == (D, C, S, P)  # the ships behind move up
    assert m.lost(1) == (B,) and m.points() == (1, 0)


def test_battleship_bursts_are_no_hit_and_are_rolled_again():
    m = game()
    events = attack(m, B, (1, D), "XXXXDDSS XXXXXX DDSSSS")
    assert events == [
        roll(0, B, 1, "XXXXDDSS", 2, 2),
        roll(0, B, 2, "XXXXXX", 0, 2),
        roll(0, B, 3, "DDSSSS", 2, 4),
        sunk(1, D, 0, [1, 0]),
        turn(0),
    ]
    assert m.line(0) == (B, C, D, S, P)


def test_battleship_rolls_four_times_then_the_dice_pass():
    m = game()
    events = attack(m, B, (1, B), "SSSSSSSS" * 4)
    assert [e["roll"] for e in events[:-1]] == [1, 2, 3, 4]
    assert events[-1] == turn(1)
    assert m.turn == 1 and m.points() == (0, 0)


def test_a_target_sinks_at_once_and_no_more_dice_are_rolled():
    m = game()
    events = attack(m, P, (1, D), "DDDDX SSSS")
    assert events == [roll(0, P, 1, "DDDDX", 5, 5), sunk(1, D, 0, [1, 0]), turn(0)]
    assert m.queued == 4  # the faces queued for later rolls wait for the next attack


def test_total_counts_every_hit_beyond_the_defense():
    m = game()
    events = attack(m, D, (1, D), "XXXSSS")
    assert events[0] == roll(0, D, 1, "XXXSSS", 6, 6)


def test_patrol_boat_rolls_five_dice_three_times_burst_one_hit():
    m = game()
    events = attack(m, P, (1, D), "XSSSS SSSS SSSS")
    assert events == [
        roll(0, P, 1, "XSSSS", 1, 1),
        roll(0, P, 2, "SSSS", 0, 1),
        roll(0, P, 3, "SSSS", 0, 1),
        turn(1),
    ]


def test_submarine_burst_sinks_whatever_the_defense_and_targets_anywhere():
    m = game(ANN, (P, D, C, S, B))  # Bo's Battleship (defense 5) last in line
    events = attack(m, S, (1, B), "SXS")
    assert events == [roll(0, S, 1, "SXS", 1, 1), sunk(1, B, 0, [1, 0]), turn(0)]
    events = attack(m, S, (1, S), "PPD")  # Bo's fourth ship; no hit, one roll only
    assert events == [roll(0, S, 1, "PPD", 0, 0), turn(1)]


def test_submarine_target_faces_count_as_usual():
    m = game(ANN, (P, D, C, S, B))
    assert attack(m, S, (1, P), "PPP") == [roll(0, S, 1, "PPP", 3, 3), sunk(1, P, 0, [1, 0]), turn(0)]


def test_carrier_rolls_first_then_declares_and_stays_in_place():
    m = game(BO, ANN)  # Ann: B D C S P (Carrier third), Bo: C B D S P
    assert attack(m, C, dice="CBXSSD") == [roll(0, C, 1, "CBXSSD", None, None)]
    assert m.phase is Phase.TARGET and m.line(0) == BO
    assert m.public_view()["pending"] == {
        "player": 0,
        "ship": "Carrier",
        "roll": 1,
        "faces": [f.value for f in faces("CBXSSD")],
    }
    # Against the Battleship: its face and the Burst count (2 hits, 2 dice aside), 4 dice left.
    assert declare(m, (1, B), "BBSS") == [roll(0, C, 1, "CBXSSD", 2, 2), roll(0, C, 2, "BBSS", 2, 4), turn(1)]
    assert m.phase is Phase.ATTACK and m.pending is None


def test_carrier_declared_target_can_sink_on_the_first_roll():
    m = game(BO, ANN)
    attack(m, C, dice="CCXSSD")
    assert declare(m, (1, C)) == [roll(0, C, 1, "CCXSSD", 3, 3), sunk(1, C, 0, [1, 0]), turn(0)]
    assert m.queued == 0


def test_carrier_moves_to_the_front_when_the_attack_says_move():
    m = game(BO, ANN)
    attack(m, C, dice="SSSSSS", move=True)
    assert m.line(0) == (C, B, D, S, P)


def test_carrier_may_not_name_its_target_before_rolling():
    m = game()
    before = snapshot(m)
    with pytest.raises(TargetError, match="rolls first"):
        m.apply(Attack(C, Target(1, B)))
    assert snapshot(m) == before


def test_carrier_target_must_still_be_among_the_first_two():
    m = game(BO, ANN)
    attack(m, C, dice="SSSSSS")
    before = snapshot(m)
    with pytest.raises(TargetError, match="first two ships of Bo's line"):
        m.apply(Declare(Target(1, S)))
    with pytest.raises(PhaseError, match="declare its target first"):
        m.apply(Attack(D, Target(1, C)))
    assert snapshot(m) == before and m.phase is Phase.TARGET


def test_a_declaration_without_a_waiting_roll_is_refused():
    m = game()
    with pytest.raises(PhaseError, match="no roll waits"):
        m.apply(Declare(Target(1, B)))


# ---- the Captain's game ------------------------------------------------------------------


def test_captain_every_ship_declares_first_and_rolls_twice_burst_one_hit():
    m = game(BO, ANN, variant=CAPTAIN)
    events = attack(m, C, (1, C), "XSSSSS SSSSS")
    assert events == [roll(0, C, 1, "XSSSSS", 1, 1), roll(0, C, 2, "SSSSS", 0, 1), turn(1)]
    assert m.line(0) == (C, B, D, S, P)  # every attacker moves to the front


def test_captain_battleship_burst_counts_one_hit():
    m = game(variant=CAPTAIN)
    assert attack(m, B, (1, B), "XXXBBSSS") == [
        roll(0, B, 1, "XXXBBSSS", 5, 5),
        sunk(1, B, 0, [1, 0]),
        turn(0),
    ]


def test_captain_carrier_must_name_its_target():
    m = game(variant=CAPTAIN)
    with pytest.raises(TargetError, match="must name its target"):
        m.apply(Attack(C))


def test_captain_submarine_has_no_power():
    m = game(ANN, (P, D, C, S, B), variant=CAPTAIN)
    with pytest.raises(TargetError, match="first two ships"):
        m.apply(Attack(S, Target(1, B)))
    # A Burst is one hit, no sink; three dice, all set aside: no dice left for a second roll.
    assert attack(m, S, (1, D), "DDX") == [roll(0, S, 1, "DDX", 3, 3), turn(1)]


# ---- turns, skipping, winning ------------------------------------------------------------


def test_turns_pass_clockwise_and_a_sinker_goes_again():
    m = game(ANN, BO, CY)
    assert attack(m, D, (1, B), "SSSSSS SSSSSS")[-1] == turn(1)
    assert attack(m, D, (2, P), "SSSSSS SSSSSS")[-1] == turn(2)
    assert attack(m, P, (0, D), "DDDXS")[-1] == turn(2)  # sunk: Cy again
    assert attack(m, P, (0, C), "SSSSS" * 3)[-1] == turn(0)
    assert [m.tally(p).turns for p in range(3)] == [2, 1, 1]


def test_the_player_field_must_be_the_player_on_turn():
    m = game()
    with pytest.raises(TurnError, match="it is Ann's turn"):
        m.apply(Attack(D, Target(0, C), side=1))
    m.apply(Attack(D, Target(1, B), side=0))


def test_a_player_without_ships_is_skipped():
    m = game(ANN, BO, CY, points=10)
    for ship in BO:
        attack(m, S, (1, ship), "XSS")
    assert m.line(1) == () and m.points() == (5, 0, 0) and m.turn == 0
    assert attack(m, S, (2, P), "SSS")[-1] == turn(2)
    assert attack(m, P, (0, S), "PPPPP" * 3)[-1] == turn(0)  # Bo is skipped
    with pytest.raises(TargetError, match="no longer in Bo's line"):
        m.apply(Attack(D, Target(1, B)))


def test_reaching_the_points_to_win_wins_and_ends_the_game():
    m = game(points=2)
    attack(m, S, (1, B), "X")
    events = attack(m, S, (1, P), "X")
    assert events[-2:] == [sunk(1, P, 0, [2, 0]), {"event": "win", "player": 0}]
    assert m.phase is Phase.OVER and m.winner == 0
    for command in (Attack(D, Target(1, D)), Declare(Target(1, D)), QueueDice(faces("X"))):
        with pytest.raises(PhaseError, match="the game is over"):
            m.apply(command)


def test_a_sink_that_leaves_no_opponent_with_a_ship_wins_below_the_points():
    m = game(ANN, BO, CY, points=10)
    attack(m, S, (1, B), "SSS")  # Ann misses
    attack(m, S, (2, P), "SSS")  # Bo misses
    attack(m, S, (1, B), "X")  # Cy sinks one of Bo's: Cy 1
    attack(m, S, (0, C), "SSS")
    for ship in m.line(1) + m.line(2):
        events = attack(m, S, (1 if ship in m.line(1) else 2, ship), "X")
    assert m.points() == (9, 0, 1)
    assert events[-1] == {"event": "win", "player": 0}


def test_two_players_play_to_the_whole_fleet_by_default():
    assert game().setup.points_to_win == 5
    assert game(ANN, BO, CY).setup.points_to_win == 4
    assert game(ANN, BO, CY, DEE).setup.points_to_win == 3


@pytest.mark.parametrize(("players", "most"), [(2, 5), (3, 10), (4, 15)])
def test_points_to_win_bounds(players, most):
    lines = (ANN, BO, CY, DEE)[:players]
    assert game(*lines, points=1).setup.points_to_win == 1
    assert game(*lines, points=most).setup.points_to_win == most
    for wrong in (0, most + 1):
        with pytest.raises(SetupError, match=f"points to win must be 1 to {most}"):
            game(*lines, points=wrong)


@pytest.mark.parametrize("names", [["Ann"], ["A", "B", "C", "D", "E"], ["Ann", "ann"], ["Ann", " "]])
def test_setup_refuses_wrong_players(names):
    with pytest.raises(SetupError):
        Setup.create(names, seed=1)


@pytest.mark.parametrize("line", [(C, B, D, S), (C, C, D, S, P), (C, B, D, S, P, P)])
def test_setup_refuses_a_line_without_each_ship_once(line):
    with pytest.raises(SetupError, match="each of the five ships once"):
        Setup.create(["Ann", "Bo"], lines=[ANN, line], seed=1)


def test_setup_draws_a_secret_seed_and_lines_from_it():
    one, two = Setup.create(["Ann", "Bo"]), Setup.create(["Ann", "Bo"])
    assert one.seed != two.seed
    again = Setup.create(["Ann", "Bo"], seed=one.seed)
    assert again.lines == one.lines and sorted(again.lines[0], key=str) == sorted(ANN, key=str)


# ---- house rules -------------------------------------------------------------------------


def test_house_rule_sinker_does_not_go_again():
    m = game(rules=Rules(sinker_goes_again=False))
    assert attack(m, S, (1, B), "X")[-1] == turn(1)


def test_house_rule_a_gone_fleet_ends_the_game_and_the_most_points_win():
    m = game(ANN, BO, CY, points=10, rules=Rules(fleetless_skipped=False))
    for ship in BO[:4]:
        attack(m, S, (1, ship), "X")  # Ann 4
    attack(m, S, (2, P), "SSS")
    attack(m, P, (2, P), "SSSSS" * 3)  # Bo misses
    events = attack(m, S, (1, P), "X")  # Cy empties Bo's fleet with 1 point: Ann leads
    assert events[-2:] == [sunk(1, P, 2, [4, 0, 1]), {"event": "win", "player": 0}]


def test_house_rule_numbers_change_the_table():
    rules = Rules(destroyer=dataclasses.replace(Rules().destroyer, dice=2, rolls=1), captain_rolls=3)
    m = game(rules=rules)
    assert attack(m, D, (1, B), "SS") == [roll(0, D, 1, "SS", 0, 0), turn(1)]
    assert Rules().ship(CAPTAIN, P).rolls == 2 and rules.ship(CAPTAIN, P).rolls == 3


# ---- the dice ----------------------------------------------------------------------------


def test_queued_faces_come_first_then_the_seed():
    m = game(seed=77)
    assert [event_to_dict(e) for e in m.apply(QueueDice(faces("SSS")))] == [{"event": "dice", "queued": 3}]
    assert [event_to_dict(e) for e in m.apply(QueueDice(faces("SX")))] == [{"event": "dice", "queued": 5}]
    events = m.apply(Attack(D, Target(1, B)))  # six dice: the five queued, then the seed's first
    assert events[0].faces == (*faces("SSSSX"), generated_face(77, 0))
    assert events[1].faces == tuple(generated_face(77, n) for n in range(1, 1 + len(events[1].faces)))
    assert m.queued == 0


def test_the_same_seed_rolls_the_same_dice():
    def first_roll(seed):
        return game(seed=seed).apply(Attack(B, Target(1, B)))[0].faces

    assert first_roll(5) == first_roll(5)
    assert len({first_roll(seed) for seed in range(20)}) == 20


def test_errors_change_nothing():
    m = game(BO, ANN, CY)
    queue(m, "CCSS")
    cases = [
        Attack(D, Target(0, C)),  # own line
        Attack(D, Target(1, S)),  # fourth in line
        Attack(D, Target(5, S)),  # no such player
        Attack(D),  # no target
        Attack(C, Target(1, C)),  # the Admiral's Carrier names no target
        Attack(D, Target(1, C), side=2),  # not Cy's turn
        Declare(Target(1, C)),  # no roll waits
        QueueDice(()),
    ]
    for command in cases:
        before = snapshot(m)
        with pytest.raises(RuleError):
            m.apply(command)
        assert snapshot(m) == before, command
    assert isinstance(m.refusal(cases[1]), TargetError)
    assert m.refusal(Attack(D, Target(1, C))) is None


def test_an_attacker_must_be_in_the_line():
    m = game()
    attack(m, S, (1, D), "SSS")
    attack(m, S, (0, B), "X")  # Bo sinks Ann's Battleship and goes again
    attack(m, S, (0, S), "SSS")
    with pytest.raises(AttackerError, match="Battleship is no longer in Ann's line"):
        m.apply(Attack(B, Target(1, S)))


def test_empty_dice_are_refused():
    with pytest.raises(DiceError):
        game().apply(QueueDice(()))


# ---- a game no sink can end ----------------------------------------------------------------


def test_a_captains_submarine_cannot_reach_defense_four():
    rules = Rules()
    assert rules.ship(CAPTAIN, S).can_sink(3) and not rules.ship(CAPTAIN, S).can_sink(4)
    assert rules.ship(Variant.ADMIRAL, S).can_sink(5)  # its Burst sinks anything


WEAK = dataclasses.replace(Rules().battleship, defense=3, dice=1, rolls=1, burst=0)
# Only Destroyers and Carriers (2 dice) can sink, and only Destroyers and Patrol Boats (defense 2).
TWO_DICE = Rules(
    battleship=WEAK,
    submarine=dataclasses.replace(WEAK, burst_sinks=False),
    carrier=dataclasses.replace(WEAK, dice=2),
    destroyer=dataclasses.replace(WEAK, defense=2, dice=2),
    patrol_boat=dataclasses.replace(WEAK, defense=2),
    captain_rolls=1,
    captain_burst=0,
)


def test_when_no_ship_can_sink_any_more_the_game_ends_and_a_tie_goes_to_the_sinker():
    m = game((P, D, C, B, S), (P, D, C, B, S), variant=CAPTAIN, rules=TWO_DICE)
    attack(m, C, (1, P), "PP")  # Ann 1
    attack(m, C, (1, D), "SS")  # miss
    attack(m, D, (0, P), "PP")  # Bo 1
    attack(m, D, (0, D), "DD")  # Bo 2: Ann has nothing left that a two-dice ship can sink ...
    attack(m, D, (0, C), "SS")  # ... but Ann's Carrier can still sink Bo's Destroyer
    events = attack(m, C, (1, D), "DD")  # Ann 2, and no ship left can sink any other
    assert events == [roll(0, C, 1, "DD", 2, 2), sunk(1, D, 0, [2, 2]), {"event": "win", "player": 0}]
    assert m.phase is Phase.OVER


def test_rules_that_let_no_ship_sink_make_no_game():
    nothing = Rules(
        **{ship: WEAK for ship in ("battleship", "destroyer", "carrier", "patrol_boat")},
        submarine=dataclasses.replace(WEAK, burst_sinks=False),
        captain_burst=0,
    )
    with pytest.raises(SetupError, match="no ship can ever sink"):
        game(rules=nothing, variant=CAPTAIN)
