"""The match of RULES.md section 3 as a pure state machine."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.board import BULL, MISS, BullZone, Profile, board_for
from kiosk.darts.fleet import parse_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import (
    BullOffAgain,
    BullOffCloser,
    BullOffDart,
    BullOffMode,
    BullOffUndecided,
    Correct,
    Corrected,
    DartThrown,
    HouseRules,
    Ignored,
    Match,
    Next,
    Phase,
    Place,
    RuleError,
    Setup,
    Start,
    TakeoutNeeded,
    Team,
    Throw,
    Undo,
    Undone,
    Unplace,
    Unplaced,
    VisitStarted,
    Won,
)
from kiosk.game import Result, replay
from tests.kiosk.conftest import SHARK_FLEET, make_match, snapshot

FOUR = board_for(Profile.FOUR_RING)


def throw(match, code):
    return match.apply(Throw(FOUR.parse(code)))


def results(events):
    return [e.result for e in events if isinstance(e, DartThrown)]


def test_placing_phase_rules():
    m = Match(Setup((Team("A", ("A",)), Team("B", ("B",)))))
    with pytest.raises(RuleError, match="waiting for the fleet"):
        m.apply(Start(0))
    with pytest.raises(RuleError):
        m.apply(Throw(FOUR.parse("T20")))
    fleet = parse_fleet(SHARK_FLEET, FOUR, (2, 3, 4, 5))
    m.apply(Place(0, fleet))
    m.apply(Place(0, fleet))  # re-placing is allowed until both are locked in
    m.apply(Place(1, fleet))
    with pytest.raises(RuleError, match="locked in"):
        m.apply(Place(1, fleet))
    with pytest.raises(RuleError, match="team must be"):
        m.apply(Place(2, fleet))
    assert m.state().placed == (True, True)


def test_wrong_fleet_is_refused_and_nothing_kept():
    m = Match(Setup((Team("A", ("A",)), Team("B", ("B",))), HouseRules(fleet=(5, 4, 3, 3, 2))))
    fleet = parse_fleet(SHARK_FLEET, FOUR, (2, 3, 4, 5))
    with pytest.raises(RuleError, match="wrong fleet"):
        m.apply(Place(0, fleet))
    assert m.state().placed == (False, False)
    assert m.log == []


def test_hit_sunk_repeat_miss_and_announcements():
    m = make_match(start=1)  # Jets throw at the Sharks' fleet
    assert m.state().side == 1 and m.current_player() == "Cy"
    assert results(throw(m, "D3")) == [Result.HIT]
    events = throw(m, "D19")
    assert results(events) == [Result.SUNK]
    sunk = next(e for e in events if isinstance(e, DartThrown))
    assert sunk.ship is not None and {c.code for c in sunk.ship.cells} == {"D3", "D19"}
    events = throw(m, "D3")
    assert results(events) == [Result.REPEAT]
    assert isinstance(events[-1], TakeoutNeeded)
    assert throw(m, "T20") == [Ignored("takeout")]
    assert m.state().sunk == ((2,), ())
    assert m.tally(1).darts == 3 and m.tally(1).hits == 2 and m.tally(1).sunk == 1


def test_hit_events_never_reveal_the_ship():
    m = make_match(start=1)
    event = next(e for e in throw(m, "T1") if isinstance(e, DartThrown))
    assert event.result is Result.HIT and event.ship is None


def test_players_rotate_within_a_team():
    m = make_match(players=(("Ann", "Bo"), ("Cy", "Di", "Ed")), start=0)
    seen = []
    for _ in range(6):
        seen.append(m.current_player())
        m.apply(Next())
    assert seen == ["Ann", "Cy", "Bo", "Di", "Ann", "Ed"]


def test_next_pads_misses_and_starts_next_visit():
    m = make_match(start=0)
    throw(m, "T5")
    events = m.apply(Next())
    padded = [e for e in events if isinstance(e, DartThrown)]
    assert [(e.dart, e.cell, e.padded) for e in padded] == [(2, MISS, True), (3, MISS, True)]
    assert isinstance(events[-1], VisitStarted) and events[-1].side == 1
    assert m.tally(0).darts == 3


def test_next_after_takeout():
    m = make_match(start=0)
    for code in ("T5", "T6", "T7"):
        throw(m, code)
    assert m.phase is Phase.TAKEOUT
    assert m.state().side == 1 and m.state().dart == 1  # who throws next
    events = m.apply(Next())
    assert events == [VisitStarted(1, "Cy", 2)]


def test_the_visit_s_darts_are_its_own_through_the_takeout_and_undo():
    """What a board found again after a restart compares its held darts with (HeldDarts)."""
    m = make_match(start=0)
    assert m.visit_darts() == ()
    parsed = [FOUR.parse(code) for code in ("T5", "T6", "T7")]
    for code in ("T5", "T6", "T7"):
        throw(m, code)
    assert m.phase is Phase.TAKEOUT and m.visit_darts() == tuple(parsed)
    m.apply(Next())
    assert m.visit_darts() == ()
    throw(m, "S1")
    m.apply(Undo())
    throw(m, "D2")
    assert m.visit_darts() == (FOUR.parse("D2"),)
    assert DARTS.visit_darts(m) == (FOUR.parse("D2"),)


def test_undo_restores_turn_across_a_visit_boundary():
    m = make_match(start=0)
    for code in ("T5", "T6", "T7"):
        throw(m, code)
    before_last = None
    m2 = make_match(start=0)
    throw(m2, "T5")
    throw(m2, "T6")
    before_last = snapshot(m2)
    m.apply(Next())
    assert m.apply(Undo()) == [Undone(FOUR.parse("T7"))]
    assert snapshot(m) == before_last


def test_undo_all_the_way_back_and_no_further():
    m = make_match(start=0)
    start = snapshot(m)
    for code in ("T5", "T6", "T7"):
        throw(m, code)
    m.apply(Next())
    for _ in range(3):
        m.apply(Undo())
    assert snapshot(m) == start
    with pytest.raises(RuleError, match="no dart"):
        m.apply(Undo())


def test_correct_offers_new_result_and_can_win_or_unwin():
    m = make_match(start=1)
    sharks = m.fleet(0)
    cells = sorted(sharks.cells, key=lambda c: c.code)
    # hit every cell but the last, spread over visits
    for cell in cells[:-1]:
        m.apply(Throw(cell))
        if m.phase is Phase.TAKEOUT:
            m.apply(Next())
            m.apply(Next())  # the Sharks' visit: three padded misses
    m.apply(Throw(FOUR.parse("T5")))  # misread: it was the last ship cell
    events = m.apply(Correct(cells[-1]))
    assert isinstance(events[0], Corrected) and events[0].result is Result.SUNK
    assert Won(1) in events and m.winner == 1 and m.phase is Phase.OVER
    events = m.apply(Correct(FOUR.parse("T5")))
    assert events[0].result is Result.MISS and m.winner is None and m.phase is not Phase.OVER


def test_win_ends_visit_at_once():
    rules = HouseRules(fleet=(2,))
    m = Match(Setup((Team("A", ("A",)), Team("B", ("B",))), rules))
    m.apply(Place(0, parse_fleet("T20-T1", FOUR, (2,))))
    m.apply(Place(1, parse_fleet("D3-D19", FOUR, (2,))))
    m.apply(Start(0))
    throw(m, "D3")
    events = throw(m, "D19")
    assert events[-1] == Won(0)
    assert not any(isinstance(e, TakeoutNeeded) for e in events)
    with pytest.raises(RuleError):
        throw(m, "T5")
    with pytest.raises(RuleError):
        m.apply(Next())
    assert m.state().winner == 0 and m.state().phase is Phase.OVER


def test_miss_cell_scores_nothing_and_never_repeats():
    m = make_match(start=0)
    assert results(m.apply(Throw(MISS))) == [Result.MISS]
    assert results(m.apply(Throw(MISS))) == [Result.MISS]


def _bull_match(mode: BullOffMode) -> Match:
    return make_match(rules=HouseRules(bull_off=mode), start=None)


@pytest.mark.parametrize(
    ("a", "b", "starts"),
    [
        (BullZone.INNER, BullZone.OUTER, 0),
        (BullZone.OUTER, BullZone.INNER, 1),
        (BullZone.OUTER, BullZone.OTHER, 0),
        (BullZone.MISS, BullZone.OTHER, 1),
        (BullZone.BULL, BullZone.OTHER, 0),
        (BullZone.OTHER, BullZone.BULL, 1),
    ],
)
def test_bull_off_normal_decides_where_the_sensor_can(a, b, starts):
    m = _bull_match(BullOffMode.NORMAL)
    m.apply(Start())
    assert m.phase is Phase.BULL_OFF
    m.apply(BullOffDart(0, a))
    events = m.apply(BullOffDart(1, b))
    assert isinstance(events[-1], VisitStarted) and events[-1].side == starts


@pytest.mark.parametrize(
    ("a", "b"),
    [(BullZone.OTHER, BullZone.OTHER), (BullZone.BULL, BullZone.INNER), (BullZone.OUTER, BullZone.OUTER)],
)
def test_bull_off_normal_asks_who_was_closer(a, b):
    m = _bull_match(BullOffMode.NORMAL)
    m.apply(Start())
    m.apply(BullOffDart(0, a))
    assert m.apply(BullOffDart(1, b))[-1] == BullOffUndecided()
    with pytest.raises(RuleError):
        m.apply(BullOffDart(0, a))
    events = m.apply(BullOffCloser(1))
    assert events[-1].side == 1 and m.phase is Phase.THROWING


def test_bull_off_official_throw_again():
    m = _bull_match(BullOffMode.OFFICIAL)
    m.apply(Start())
    m.apply(BullOffDart(0, BullZone.OTHER))
    assert m.apply(BullOffDart(1, BullZone.MISS))[-1] == BullOffAgain()
    m.apply(BullOffDart(0, BullZone.OUTER))
    assert m.apply(BullOffDart(1, BullZone.INNER))[-1] == BullOffAgain()
    m.apply(BullOffDart(0, BullZone.OTHER))
    assert m.apply(BullOffDart(1, BullZone.OUTER))[-1].side == 1


def test_bull_off_off_first_named_starts():
    m = _bull_match(BullOffMode.OFF)
    assert m.apply(Start())[-1] == VisitStarted(0, "Ann", 1)


def test_darts_per_visit_house_rule():
    m = make_match(rules=HouseRules(darts_per_visit=1), start=0)
    assert isinstance(throw(m, "T5")[-1], TakeoutNeeded)


def test_three_ring_game_refuses_large_single():
    rules = HouseRules(profile=Profile.THREE_RING)
    m = make_match(rules=rules, start=0)
    from kiosk.board import Cell, Ring

    with pytest.raises(RuleError):
        m.apply(Throw(Cell(Ring.LARGE, 20)))
    m.apply(Throw(board_for("three-ring").parse("L20")))  # read as the merged single


# ---- property-based: random games --------------------------------------------------------

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["throw", "throw", "throw", "throw", "next", "undo", "correct", "miss"]),
        st.integers(0, 80),
    ),
    min_size=1,
    max_size=160,
)


def _play(m: Match, actions, on_throw=None) -> None:
    cells = FOUR.cells
    for kind, n in actions:
        if m.phase is Phase.OVER and kind not in ("undo", "correct"):
            continue
        try:
            if kind == "throw":
                if on_throw is not None and m.phase is Phase.THROWING:
                    on_throw(m, cells[n])
                m.apply(Throw(cells[n]))
            elif kind == "miss":
                m.apply(Throw(MISS))
            elif kind == "next":
                m.apply(Next())
            elif kind == "undo":
                m.apply(Undo())
            else:
                m.apply(Correct(cells[n]))
        except RuleError:
            pass


def _check_invariants(m: Match) -> None:
    state = m.state()
    for team in (0, 1):
        enemy_fleet = m.fleet(1 - team)
        tally = m.tally(team)
        players = m.player_tallies(team)
        assert tally.darts == sum(p.darts for p in players.values())
        assert tally.hits == sum(p.hits for p in players.values())
        assert 0 <= tally.hits <= tally.darts
        shots = m.shots(team)
        for cell, result in shots.items():
            assert cell in FOUR
            assert result.scores == (cell in enemy_fleet.cells)
            assert result is not Result.REPEAT
        scored = {c for c, r in shots.items() if r.scores}
        sunk = m.sunk_ships(1 - team)
        assert len(sunk) == tally.sunk == len(state.sunk[1 - team])
        for ship in sunk:
            assert set(ship.cells) <= scored
        # a ship is sunk exactly when all its cells are hit
        assert {s for s in enemy_fleet.ships if set(s.cells) <= scored} == set(sunk)
        assert tally.hits == len(scored)
    if state.winner is not None:
        assert state.phase is Phase.OVER
        assert len(m.sunk_ships(1 - state.winner)) == len(m.fleet(1 - state.winner).ships)
    else:
        assert state.phase in (Phase.THROWING, Phase.TAKEOUT)
    if state.phase is Phase.THROWING:
        assert 1 <= state.dart <= 3


@settings(max_examples=150, deadline=None)
@given(actions=ACTIONS, seed=st.integers(0, 10_000), first=st.sampled_from([0, 1]))
def test_random_games_never_break_an_invariant(actions, seed, first):
    m = make_match(seed=seed, start=first)
    _play(m, actions)
    _check_invariants(m)


@settings(max_examples=80, deadline=None)
@given(actions=ACTIONS, seed=st.integers(0, 10_000))
def test_undo_after_any_dart_equals_the_state_before_it(actions, seed):
    m = make_match(seed=seed, start=0)

    def check(match: Match, cell) -> None:
        before = snapshot(match)
        again = replay(DARTS, match.setup, list(match.log))
        match.apply(Throw(cell))
        match.apply(Undo())
        assert snapshot(match) == before == snapshot(again)

    _play(m, actions, on_throw=check)


@settings(max_examples=80, deadline=None)
@given(actions=ACTIONS, seed=st.integers(0, 10_000))
def test_replaying_the_log_gives_the_same_state(actions, seed):
    m = make_match(seed=seed, start=1)
    _play(m, actions)
    assert snapshot(replay(DARTS, m.setup, m.log)) == snapshot(m)


def test_random_full_games_finish():
    rng = random.Random(5)
    for seed in range(20):
        m = make_match(seed=seed, start=seed % 2)
        cells = list(FOUR.cells)
        guard = 0
        while m.phase is not Phase.OVER and guard < 2000:
            guard += 1
            if m.phase is Phase.TAKEOUT:
                m.apply(Next())
            else:
                m.apply(Throw(rng.choice([*cells, MISS, BULL])))
        assert m.phase is Phase.OVER and m.winner in (0, 1)
        _check_invariants(m)


def test_unplace_until_both_are_locked_in():
    m = Match(Setup((Team("A", ("A",)), Team("B", ("B",)))))
    fleet = parse_fleet(SHARK_FLEET, FOUR, (2, 3, 4, 5))
    with pytest.raises(RuleError, match="not placed"):
        m.apply(Unplace(0))
    m.apply(Place(0, fleet))
    assert m.apply(Unplace(0)) == [Unplaced(0)]
    assert m.state().placed == (False, False) and m.fleet(0) is None
    m.apply(Place(0, fleet))
    m.apply(Place(1, fleet))
    with pytest.raises(RuleError, match="locked in"):
        m.apply(Unplace(1))
    assert snapshot(replay(DARTS, m.setup, m.log)) == snapshot(m)


@pytest.mark.parametrize("mode", [BullOffMode.NORMAL, BullOffMode.OFFICIAL])
def test_bull_off_one_dart_each(mode):
    """A side's second bull-off dart is refused: it may not replace the first (S20, then DB)."""
    m = _bull_match(mode)
    m.apply(Start())
    m.apply(BullOffDart(0, BullZone.OTHER))
    before = snapshot(m)
    with pytest.raises(RuleError, match="one dart each"):
        m.apply(BullOffDart(0, BullZone.INNER))
    assert snapshot(m) == before
    events = m.apply(BullOffDart(1, BullZone.OUTER))
    assert events[-1].side == 1  # the Jets' outer bull beats the Sharks' only dart, S20
