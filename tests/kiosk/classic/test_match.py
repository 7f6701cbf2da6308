"""The match: turns, shots, sinking, winning, refusals that change nothing, re-placing, the
daily fleet, views that never leak, outcome, and replay (hypothesis random games)."""

from __future__ import annotations

import datetime
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.classic.fleet import parse_fleet, random_fleet
from kiosk.classic.grid import SQUARES, parse_square
from kiosk.classic.match import (
    AlreadyFiredError,
    ComputerLevel,
    Fire,
    FleetLockedError,
    Match,
    Mode,
    NotYourTurnError,
    Phase,
    Place,
    Placed,
    Setup,
    ShotFired,
    TurnPassed,
    Won,
    daily_fleet,
)
from kiosk.classic.wire import CLASSIC
from kiosk.game import ReplayError, Result, RuleError, replay

from .conftest import ANN, BO, DAY, duel


def fire(match: Match, code: str, player: int | None = None) -> list:
    return match.apply(Fire(match.turn if player is None else player, parse_square(code)))


def snapshot(match: Match) -> tuple:
    return (
        json.dumps(match.public_view()),
        json.dumps(match.private_view(0)),
        json.dumps(match.private_view(1)),
        match.outcome(),
        match.version,
    )


def test_a_hit_fires_again_a_miss_passes():
    match = duel()
    assert match.phase is Phase.PLAYING and match.turn == 0
    assert fire(match, "B1") == [ShotFired(0, "Ann", 1, parse_square("B1"), Result.HIT)]
    assert match.turn == 0
    assert fire(match, "A1") == [ShotFired(0, "Ann", 2, parse_square("A1"), Result.MISS), TurnPassed(1)]
    assert match.turn == 1
    assert fire(match, "A2")[0].number == 1  # a new turn counts its shots from 1


def test_sunk_names_and_outlines_the_ship_and_the_last_one_wins():
    match = duel()
    fire(match, "H9")
    events = fire(match, "H10")
    destroyer = parse_fleet(BO).ships[4]
    assert events == [ShotFired(0, "Ann", 2, parse_square("H10"), Result.SUNK, destroyer)]
    assert match.radar(0).sunk == (destroyer,)
    assert match.public_view()["sunk"] == [[], ["Destroyer"]]  # Bo's own ships sunk
    for code in ("B1", "C1", "D1", "E1", "F1", "J1", "J2", "J3", "J4", "A7", "B7", "C7", "D5", "D6"):
        fire(match, code)
    events = fire(match, "D7")
    assert [type(e) for e in events] == [ShotFired, Won]
    assert events[0].ship.kind.value == "Submarine" and events[1] == Won(0)
    assert match.phase is Phase.OVER and match.winner == 0 and match.turn is None
    with pytest.raises(RuleError, match="over"):
        fire(match, "J10", 1)
    outcome = match.outcome()
    assert outcome.over and outcome.winner == 0 and outcome.turns == 1
    ann, bo = outcome.results
    assert (ann.player, ann.shots, ann.hits, ann.sunk, ann.turns, ann.won) == ("Ann", 17, 17, 5, 1, True)
    assert (bo.player, bo.shots, bo.hits, bo.sunk, bo.turns, bo.won) == ("Bo", 0, 0, 0, 0, False)


def test_a_square_fired_at_again_is_refused_and_not_spent():
    match = duel()
    fire(match, "B1")
    before = snapshot(match)
    with pytest.raises(AlreadyFiredError, match="B1"):
        fire(match, "B1")
    assert snapshot(match) == before and match.turn == 0


def test_refusals_change_nothing():
    match = Match(Setup(Mode.DUEL, ("Ann", "Bo")))
    with pytest.raises(RuleError, match="waiting for the fleet of Ann, Bo"):
        fire(match, "A1", 0)
    match.apply(Place(0, parse_fleet(ANN)))
    with pytest.raises(RuleError, match="Bo"):
        fire(match, "A1", 0)
    match.apply(Place(1, parse_fleet(BO)))
    before = snapshot(match)
    with pytest.raises(NotYourTurnError, match="Ann"):
        fire(match, "A1", 1)
    with pytest.raises(RuleError, match="0 or 1"):
        match.apply(Fire(2, parse_square("A1")))
    with pytest.raises(RuleError, match="0 or 1"):
        match.apply(Place(True, parse_fleet(ANN)))  # type: ignore[arg-type]
    assert snapshot(match) == before


def test_re_placing_until_the_first_shot_that_concerns_the_fleet():
    match = duel()
    other = random_fleet(random.Random(3))
    assert match.apply(Place(0, other)) == [Placed(0)]  # before any shot: both may
    assert match.may_place(1)
    fire(match, "A1")  # Ann misses: Bo's fleet has been fired at
    with pytest.raises(FleetLockedError, match="Ann has fired"):
        match.apply(Place(0, parse_fleet(ANN)))
    with pytest.raises(FleetLockedError, match="Bo's fleet has been fired at"):
        match.apply(Place(1, parse_fleet(ANN)))
    assert not match.may_place(0) and not match.may_place(1)
    assert match.fleet(0) == other


def test_solo_the_computer_is_player_one_and_plays_by_commands():
    match = Match(Setup(Mode.SOLO, ("Ann",)))
    assert match.setup.name(1) == "Computer" and match.phase is Phase.PLACING
    match.apply(Place(1, parse_fleet(BO)))
    match.apply(Place(0, parse_fleet(ANN)))
    assert not match.computer_to_move
    assert fire(match, "A1") == [ShotFired(0, "Ann", 1, parse_square("A1"), Result.MISS), TurnPassed(1)]
    assert match.computer_to_move
    assert fire(match, "A1", 1)[0].result is Result.HIT  # the computer's own shot command
    assert match.turn == 1 and match.computer_to_move
    assert not duel(first=1).computer_to_move  # a duel has no computer


KEY = b"k" * 32


def test_daily_hides_the_fleet_of_the_date_and_the_player_fires_on():
    match = Match(Setup(Mode.DAILY, ("Ann",), date=DAY))
    assert match.phase is Phase.PLACING  # the date's fleet comes as the computer's Place
    match.apply(Place(1, daily_fleet(KEY, DAY)))
    assert daily_fleet(KEY, DAY + datetime.timedelta(days=1)) != daily_fleet(KEY, DAY)
    assert match.phase is Phase.PLAYING  # no fleet of the player's is needed
    miss = next(s for s in SQUARES if s not in match.fleet(1).cells)
    assert match.apply(Fire(0, miss)) == [ShotFired(0, "Ann", 1, miss, Result.MISS)]
    assert match.turn == 0
    with pytest.raises(FleetLockedError, match="date"):
        match.apply(Place(1, parse_fleet(BO)))
    for square in sorted(match.fleet(1).cells):
        events = match.apply(Fire(0, square))
    assert events[-1] == Won(0)
    assert match.outcome().results[0].shots == 18


def test_daily_fleet_is_a_function_of_the_kiosks_secret_and_the_date():
    days = [datetime.date(2026, 1, 1) + datetime.timedelta(days=k) for k in range(30)]
    first = [daily_fleet(KEY, d) for d in days]
    random.seed(99)  # nothing global matters
    assert [daily_fleet(KEY, d) for d in days] == first
    assert len({f.code for f in first}) == 30
    # Another kiosk's secret hides other fleets: the code and the date alone tell nothing.
    assert all(daily_fleet(b"o" * 32, d) != f for d, f in zip(days, first, strict=True))


def test_setups_that_do_not_make_sense_are_refused():
    with pytest.raises(RuleError):
        Match(Setup(Mode.DAILY))
    with pytest.raises(RuleError):
        Match(Setup(Mode.DAILY, date=DAY, first=1))
    with pytest.raises(RuleError):
        Match(Setup(first=2))


def test_replay_through_the_store_form_keeps_the_fleet_secret():
    match = duel()
    for code in ("B1", "C1", "A1", "A1", "J10"):
        fire(match, code)
    bodies = [CLASSIC.command_to_dict(c) for c in match.log]
    for (body, secret), command in zip(bodies, match.log, strict=True):
        if isinstance(command, Place):
            assert secret is not None and secret.side == command.side
            assert not re.search(r"[A-J]\d", json.dumps(body))  # no square of the fleet
        else:
            assert secret is None
    setup = CLASSIC.setup_from_dict(json.loads(json.dumps(CLASSIC.setup_to_dict(match.setup))))
    log = [
        CLASSIC.command_from_dict(json.loads(json.dumps(body)), setup, secret.text if secret else None)
        for body, secret in bodies
    ]
    again = replay(CLASSIC, setup, log)
    assert snapshot(again) == snapshot(match)


@pytest.mark.parametrize(
    "setup",
    [
        Setup(),
        Setup(Mode.SOLO, level=ComputerLevel.EASY, first=1),
        Setup(Mode.DAILY, date=DAY),
        Setup(Mode.SOLO, ("Ann", "HAL"), level=ComputerLevel.HARD),
        Setup(Mode.DUEL, ("Ann", "Bo"), 1),
    ],
)
def test_every_setup_survives_the_store_form(setup):
    assert CLASSIC.setup_from_dict(json.loads(json.dumps(CLASSIC.setup_to_dict(setup)))) == setup


def test_a_log_that_no_longer_applies_is_an_error_not_a_hole():
    match = duel()
    fire(match, "A1")
    with pytest.raises(ReplayError):
        replay(CLASSIC, match.setup, [*match.log, match.log[-1]])


def test_shots_for_the_statistics():
    match = duel()
    shots = list(CLASSIC.shots(fire(match, "B1") + fire(match, "A1")))
    assert [(s.side, s.player, s.number, s.target, s.result) for s in shots] == [
        (0, "Ann", 1, "B1", "hit"),
        (0, "Ann", 2, "A1", "miss"),
    ]


# ---- random games ------------------------------------------------------------------------

CODES = re.compile(r"\b[A-J](?:10|[1-9])\b")


def mentioned(view: dict) -> set[str]:
    return set(CODES.findall(json.dumps(view)))


def secret_squares(match: Match, side: int) -> set[str]:
    """`side`'s ship squares that no view may show: not shot at and not of a sunk ship."""
    fleet = match.fleet(side)
    if fleet is None:
        return set()
    known = set(match.radar(1 - side).shots) | {s for ship in match.radar(1 - side).sunk for s in ship.cells}
    return {s.code for s in fleet.cells - known}


def check_invariants(match: Match) -> None:
    # The two grids share square names, so each part of a view is checked against the grid it
    # shows: a radar shows the enemy's grid.
    public = match.public_view()
    assert not mentioned({k: v for k, v in public.items() if k != "radars"})
    for side in (0, 1):
        assert not mentioned(public["radars"][side]) & secret_squares(match, 1 - side)
        view = match.private_view(side)
        assert {k: view[k] for k in public} == public
        assert set(view) - set(public) == {"player", "fleet", "incoming", "radar"}
        assert view["radar"] == public["radars"][side]
        assert mentioned(view["incoming"]) <= {s.code for s in match.radar(1 - side).shots}
        fleet = match.fleet(side)
        assert view["fleet"] == ([s.code for s in fleet.ships] if fleet else [])
        radar = match.radar(side)
        assert public["shots"][side] == len(radar.shots) <= 100
        hits = [s for s, r in radar.shots.items() if r is not Result.MISS]
        assert public["hits"][side] == len(hits) == len(view["radar"]["hit"])
        assert {s for ship in radar.sunk for s in ship.cells} <= set(hits)
        assert len(radar.sunk) == sum(1 for r in radar.shots.values() if r is Result.SUNK)
    assert (match.winner is None) == (match.phase is not Phase.OVER)


@settings(max_examples=60, deadline=None)
@given(
    mode=st.sampled_from(list(Mode)),
    seed=st.integers(0, 10**6),
    moves=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 99), st.booleans()), max_size=220),
)
def test_random_games_keep_every_invariant_and_replay_exactly(mode, seed, moves):
    rng = random.Random(seed)
    match = Match(Setup(mode, ("Ann", "Bo") if mode is Mode.DUEL else ("Ann",), date=DAY))
    for side in (0, 1):
        match.apply(
            Place(side, daily_fleet(KEY, DAY) if mode is Mode.DAILY and side == 1 else random_fleet(rng))
        )
    for who, index, replace in moves:
        before = snapshot(match)
        try:
            if replace:
                match.apply(Place(who, random_fleet(rng)))
            else:
                # Mostly the player whose turn it is, sometimes the wrong one.
                player = match.turn if who == 0 and match.turn is not None else who
                match.apply(Fire(player, SQUARES[index]))
        except RuleError:
            assert snapshot(match) == before  # refused: nothing changed
        check_invariants(match)
    assert snapshot(replay(CLASSIC, match.setup, match.log)) == snapshot(match)
