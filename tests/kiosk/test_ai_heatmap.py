"""The targeting engine: exact against brute force, sampling against exact, the invariants."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from kiosk.ai import Method, Record
from kiosk.ai.aim import cell_index
from kiosk.ai.posterior import Evidence, Space, _find_covers, evidence_of, marginals
from kiosk.ai.selfplay import fire, play
from kiosk.ai.strategies import Perfect
from kiosk.board import Profile, board_for
from kiosk.darts.decision import record_of
from kiosk.darts.fleet import DEFAULT_FLEET, PRESETS, make_ship, random_fleet
from kiosk.darts.heatmap import board_estimate, choose_target, heatmap, space_for
from kiosk.darts.shooters import HeatShots
from kiosk.game import Result


def _grid_space(width: int) -> Space:
    """A small square grid, so that every fleet can be listed by brute force."""
    index = {(x, y): y * width + x for y in range(width) for x in range(width)}
    placements = {}
    for n in (2, 3):
        rows = [
            tuple(index[(x + k, y)] for k in range(n)) for y in range(width) for x in range(width - n + 1)
        ]
        cols = [
            tuple(index[(x, y + k)] for k in range(n)) for x in range(width) for y in range(width - n + 1)
        ]
        placements[n] = tuple(rows + cols)
    return Space(width * width, placements)


def _brute_force(space: Space, ev: Evidence) -> np.ndarray | None:
    """The rules read literally: every tuple of placements, filtered."""
    known = ev.blocked | ev.hits
    heat = np.zeros(space.size)
    total = 0
    for fleet in itertools.product(*(space.placements[n] for n in ev.lengths)):
        cells = [c for ship in fleet for c in ship]
        if len(cells) != len(set(cells)) or set(cells) & ev.blocked:
            continue
        if not ev.hits <= set(cells) or any(set(ship) <= ev.hits for ship in fleet):
            continue
        total += 1
        for c in set(cells) - known:
            heat[c] += 1
    return heat / total if total else None


def _random_record(board, lengths, rng: random.Random, shots: int):
    fleet = random_fleet(board, lengths, rng)
    record = Record()
    for cell in rng.sample(board.cells, shots):
        result, ship = fire(fleet.ships, record, cell)
        record = record.with_shot(cell, result, ship)
    return fleet, record


def test_exact_and_sampled_match_brute_force_on_a_small_grid():
    space = _grid_space(4)
    rng = random.Random(4)
    checked = 0
    for _ in range(40):
        lengths = rng.choice([(3, 2, 2), (3, 3, 2), (2, 2)])
        order = rng.sample(range(16), 16)
        nb, nh = rng.randint(0, 5), rng.randint(0, 3)
        ev = Evidence(frozenset(order[:nb]), frozenset(order[nb : nb + nh]), lengths)
        truth = _brute_force(space, ev)
        if truth is None:
            continue
        exact = marginals(space, ev, rng, method=Method.EXACT)
        sampled = marginals(space, ev, rng, method=Method.SAMPLED, samples=12_000)
        assert exact.method is Method.EXACT
        assert np.abs(exact.probabilities - truth).max() < 1e-9
        assert sampled.method is Method.SAMPLED
        assert np.abs(sampled.probabilities - truth).max() < 0.045
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("profile", list(Profile))
@pytest.mark.parametrize("preset", ["default", "classic-five"])
def test_heat_sums_to_the_unsunk_ship_cells_still_to_hit(profile, preset):
    board, lengths = board_for(profile), PRESETS[preset]
    rng = random.Random(hash((profile.value, preset)) & 0xFFFF)
    for shots in (0, 12, 30, 45):
        _fleet, record = _random_record(board, lengths, rng, shots)
        sunk_cells = {c for s in record.sunk for c in s.cells}
        unsunk_hits = [c for c, r in record.shots.items() if r.scores and c not in sunk_cells]
        unsunk = sum(lengths) - sum(len(s.cells) for s in record.sunk)
        heat = heatmap(board, record, lengths, rng)
        assert sum(heat.values()) == pytest.approx(unsunk - len(unsunk_hits), abs=1e-6)
        assert all(heat[c] == 0 for c in record.shots)
        assert all(0 <= p <= 1 + 1e-9 for p in heat.values())


def test_exact_and_sampled_agree_on_a_dartboard_position():
    board = board_for(Profile.THREE_RING)
    rng = random.Random(11)
    _fleet, record = _random_record(board, (2, 3), rng, 25)
    exact = board_estimate(board, record, (2, 3), rng, method=Method.EXACT)
    sampled = board_estimate(board, record, (2, 3), rng, method=Method.SAMPLED, samples=20_000)
    assert exact.method is Method.EXACT and sampled.method is Method.SAMPLED
    assert np.abs(exact.probabilities - sampled.probabilities).max() < 0.03


@pytest.mark.parametrize("method", [Method.EXACT, Method.SAMPLED])
def test_a_cell_proven_empty_gets_zero(method):
    board = board_for(Profile.FOUR_RING)
    parse = board.parse
    # Every ship through T20 would use one of its four neighbours, all missed.
    shots = {parse(c): Result.MISS for c in ("T1", "T5", "L20", "S20")}
    # Enough other misses to make the exact count small.
    rng = random.Random(2)
    for cell in rng.sample([c for c in board.cells if c not in shots and c != parse("T20")], 50):
        shots[cell] = Result.MISS
    heat = heatmap(board, Record(shots), (2, 3), rng, method=method)
    assert heat[parse("T20")] == 0
    assert max(heat.values()) > 0


def test_a_hit_ship_with_no_unshot_cell_left_would_have_sunk():
    board = board_for(Profile.FOUR_RING)
    t20, t1 = board.parse("T20"), board.parse("T1")
    # With only a 2-ship left, two touching HITs cannot be that ship (it would be SUNK):
    # no fleet explains them, and the engine must say so rather than invent one.
    record = Record({t20: Result.HIT, t1: Result.HIT})
    est = board_estimate(board, record, (2,), random.Random(1))
    assert est.method is Method.FALLBACK
    # With a 3-ship they are two of its cells and its third is next to them, on the ring.
    heat = heatmap(board, record, (3,), random.Random(1), method=Method.EXACT)
    assert heat[board.parse("T18")] == pytest.approx(0.5)
    assert heat[board.parse("T5")] == pytest.approx(0.5)


def test_sunk_ship_cells_are_public_and_touching_hits_stay_ambiguous():
    board = board_for(Profile.FOUR_RING)
    p = board.parse
    sunk = make_ship([p("T20"), p("T1")], board)
    record = Record({p("T20"): Result.HIT, p("T1"): Result.SUNK, p("L20"): Result.HIT}, (sunk,))
    heat = heatmap(board, record, (2, 3), random.Random(3), method=Method.EXACT)
    # The hit on L20 belongs to the 3-ship. Radially it would need T20, which is the sunk
    # ship's, so it lies on the L ring: L12-L5-L20, L5-L20-L1 or L20-L1-L18, one in three each.
    assert heat[p("T20")] == 0 and heat[p("T1")] == 0
    assert sum(heat.values()) == pytest.approx(2)
    assert heat[p("D20")] == 0
    assert heat[p("L1")] == pytest.approx(2 / 3) and heat[p("L5")] == pytest.approx(2 / 3)
    assert heat[p("L18")] == pytest.approx(1 / 3) and heat[p("L12")] == pytest.approx(1 / 3)


def test_never_aims_at_a_known_cell_while_an_unknown_one_can_hold_a_ship():
    rng = random.Random(5)
    for profile in Profile:
        board = board_for(profile)
        for shots in (5, 20, 40):
            _fleet, record = _random_record(board, DEFAULT_FLEET, rng, shots)
            if len(record.sunk) == len(DEFAULT_FLEET):
                continue
            heat = heatmap(board, record, DEFAULT_FLEET, rng)
            cell = choose_target(board, record, DEFAULT_FLEET, rng, heat=heat)
            assert cell not in record.shots
            assert heat[cell] == max(heat[c] for c in board.cells if c not in record.shots)
            assert heat[cell] > 0


def test_games_against_random_fleets_finish_without_repeats():
    rng = random.Random(9)
    for profile, lengths in (
        (Profile.FOUR_RING, DEFAULT_FLEET),
        (Profile.THREE_RING, PRESETS["classic-five"]),
    ):
        board = board_for(profile)
        for _ in range(3):
            fleet = random_fleet(board, lengths, rng)
            darts = play(fleet.ships, frozenset(board.cells), Perfect(HeatShots(board, lengths)), rng)
            # A perfect thrower who never repeats a cell needs at most every cell.
            assert sum(lengths) <= darts <= len(board.cells)


def test_record_from_a_match():
    from kiosk.darts.match import Match, Place, Setup, Start, Team, Throw

    board = board_for(Profile.FOUR_RING)
    rng = random.Random(1)
    match = Match(Setup((Team("a", ("x",)), Team("b", ("y",)))))
    fleets = [random_fleet(board, DEFAULT_FLEET, rng) for _ in range(2)]
    match.apply(Place(0, fleets[0]))
    match.apply(Place(1, fleets[1]))
    match.apply(Start(first=0))
    target = fleets[1].ships[0]
    for cell in target.cells:
        match.apply(Throw(cell))
    record = record_of(match, 0)
    assert record.sunk == (target,)
    assert set(record.shots) == set(target.cells)
    heat = heatmap(board, record, DEFAULT_FLEET, rng)
    assert sum(heat.values()) == pytest.approx(sum(DEFAULT_FLEET) - target.length)


def _scattered_hits_position(board, lengths, seed):
    """A record with several unsunk hits far apart (what scatter produces): many ways to
    cover them, and free ships left to place around each way."""
    rng = random.Random(seed)
    while True:
        _fleet, record = _random_record(board, lengths, rng, 24)
        sunk = {c for s in record.sunk for c in s.cells}
        hits = [c for c, r in record.shots.items() if r.scores and c not in sunk]
        if len(hits) < 3:
            continue
        exact = board_estimate(board, record, lengths, rng, method=Method.EXACT)
        covers = _find_covers(space_for(board), _evidence(board, record, lengths))
        if 1_000 <= exact.fleets <= 60_000 and covers is not None and len(covers.used) >= 20:
            return record


def _evidence(board, record, lengths):
    sunk = [s.cells for s in record.sunk]
    misses = [c for c, r in record.shots.items() if r is Result.MISS]
    hits = [c for c, r in record.shots.items() if r.scores]
    return evidence_of(cell_index(board), lengths, misses, hits, sunk)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sampling_with_many_covers_agrees_with_exact_enumeration(seed):
    board = board_for(Profile.FOUR_RING)
    record = _scattered_hits_position(board, DEFAULT_FLEET, seed)
    rng = random.Random(seed)
    exact = board_estimate(board, record, DEFAULT_FLEET, rng, method=Method.EXACT)
    sampled = board_estimate(board, record, DEFAULT_FLEET, rng, method=Method.SAMPLED, samples=20_000)
    assert exact.method is Method.EXACT and sampled.method is Method.SAMPLED
    assert np.abs(exact.probabilities - sampled.probabilities).max() < 0.03
    # The fleets each method keeps are the posterior itself: their weighted occupancy is the
    # heat on every unshot cell.
    unshot = np.array([c not in record.shots for c in board.cells])
    for est in (exact, sampled):
        w = est.weights / est.weights.sum()
        assert np.allclose((w @ est.occupancy)[unshot], est.probabilities[unshot], atol=1e-9)


def test_exact_fleet_count_matches_brute_force_on_a_small_grid():
    space = _grid_space(4)
    rng = random.Random(9)
    for _ in range(15):
        order = rng.sample(range(16), 16)
        ev = Evidence(frozenset(order[:3]), frozenset(order[3:5]), (3, 2, 2))
        exact = marginals(space, ev, rng, method=Method.EXACT)
        count = sum(
            1
            for fleet in itertools.product(*(space.placements[n] for n in ev.lengths))
            if len({c for s in fleet for c in s}) == sum(ev.lengths)
            and not {c for s in fleet for c in s} & ev.blocked
            and ev.hits <= {c for s in fleet for c in s}
            and not any(set(s) <= ev.hits for s in fleet)
        )
        assert exact.fleets == count or (count == 0 and exact.method is Method.FALLBACK)


def test_the_ai_keeps_blas_on_one_thread_unless_the_environment_says_otherwise():
    import os
    import subprocess
    import sys

    code = "import kiosk.ai, os; print(os.environ['OPENBLAS_NUM_THREADS'])"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.strip() == "1"
    env["OPENBLAS_NUM_THREADS"] = "2"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.strip() == "2"
