"""Random games (hypothesis): the invariants always hold, and replaying the log (also through
the stored JSON) rebuilds exactly the same game, dice included."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.express.match import Attack, Declare, Match, Phase, QueueDice, Setup, Target, stalemate
from kiosk.express.rules import FACES, FLEET, Rules, Ship, Variant
from kiosk.express.wire import EXPRESS
from kiosk.game import RuleError, replay

from .conftest import snapshot


def check_invariants(m: Match) -> None:
    lines = m.lines()
    points = m.points()
    for player in range(len(m.players)):
        line, lost = lines[player], m.lost(player)
        assert sorted(line + lost, key=FLEET.index) == list(FLEET)
        assert points[player] == m.tally(player).sunk
    assert sum(points) == sum(len(m.lost(p)) for p in range(len(m.players)))
    assert (m.phase is Phase.TARGET) == (m.pending is not None)
    if m.phase is Phase.OVER:
        winner = m.winner
        assert winner is not None
        afloat = [p for p in range(len(lines)) if lines[p] and p != winner]
        fleet_gone = not m.setup.rules.fleetless_skipped and not all(lines)
        stuck = stalemate(lines, m.setup.ship)
        assert points[winner] >= m.setup.points_to_win or not afloat or fleet_gone or stuck
        # The last one with ships wins even with fewer points than a player already out.
        assert points[winner] == max(points) or not afloat
    else:
        assert m.winner is None and lines[m.turn] and not stalemate(lines, m.setup.ship)
        assert max(points) < m.setup.points_to_win


@st.composite
def setups(draw) -> Setup:
    players = draw(st.integers(2, 4))
    variant = draw(st.sampled_from(list(Variant)))
    most = 5 * (players - 1)
    points = draw(st.integers(1, most))
    rules = Rules(sinker_goes_again=draw(st.booleans()), fleetless_skipped=draw(st.booleans()))
    return Setup.create(
        [f"P{n}" for n in range(players)],
        variant=variant,
        points_to_win=points,
        seed=draw(st.integers(0, 2**63 - 1)),
        rules=rules,
    )


def a_command(m: Match, draw) -> object:
    """A legal command most of the time; sometimes dice, sometimes anything at all."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return QueueDice(tuple(draw(st.lists(st.sampled_from(FACES), min_size=1, max_size=10))))
    if kind == 1:  # anything: the rules must refuse it cleanly or accept it
        target = Target(draw(st.integers(-1, 4)), draw(st.sampled_from(FLEET)))
        return draw(
            st.sampled_from(
                [
                    Attack(draw(st.sampled_from(FLEET)), target),
                    Attack(draw(st.sampled_from(FLEET))),
                    Declare(target),
                ]
            )
        )
    if m.phase is Phase.TARGET:
        assert m.pending is not None
        return Declare(draw(st.sampled_from(m.targets(m.pending.ship))))
    ship = draw(st.sampled_from(m.line(m.turn)))
    rules = m.setup.ship(ship)
    if rules.roll_first:
        return Attack(ship, move=draw(st.booleans()))
    return Attack(ship, draw(st.sampled_from(m.targets(ship))))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_random_games_keep_the_invariants_and_replay_exactly(setup, data):
    m = Match(setup)
    for _step in range(300):
        if m.phase is Phase.OVER:
            break
        command = a_command(m, data.draw)
        before = snapshot(m)
        try:
            m.apply(command)
        except RuleError:
            assert snapshot(m) == before
        check_invariants(m)
    again = replay(EXPRESS, setup, m.log)
    assert snapshot(again) == snapshot(m)
    # The way the store keeps it: setup and commands as JSON, rebuilt by the kind.
    stored_setup = EXPRESS.setup_from_dict(EXPRESS.setup_to_dict(setup))
    stored_log = [EXPRESS.command_from_dict(EXPRESS.command_to_dict(c)[0], stored_setup, None) for c in m.log]
    assert snapshot(replay(EXPRESS, stored_setup, stored_log)) == snapshot(m)
    assert m.outcome().over == (m.phase is Phase.OVER)


def test_a_carrier_waiting_for_its_target_shows_the_same_dice_after_a_replay():
    setup = Setup.create(["Ann", "Bo"], seed=99)
    m = Match(setup)
    m.apply(Attack(Ship.CARRIER))
    again = replay(EXPRESS, setup, m.log)
    assert again.phase is Phase.TARGET
    assert again.public_view()["pending"] == m.public_view()["pending"]
    assert snapshot(again) == snapshot(m)
