"""Aiming under scatter, checked by throwing simulated darts on the real geometry."""

from __future__ import annotations

import random

import pytest

from kiosk.ai import best_aim, hit_chance
from kiosk.board import Profile, board_for
from kiosk.geometry import cell_centre
from kiosk.scatter import Skill, land, sigma_for, throw


def _rate(board, heat, aim, sigma, rng, darts=6000):
    return sum(heat.get(throw(board, aim, sigma, rng).cell, 0.0) for _ in range(darts)) / darts


def test_aim_beats_the_centre_of_a_thin_likely_triple():
    board = board_for(Profile.FOUR_RING)
    heat = {board.parse("T20"): 0.5, board.parse("L3"): 0.4}
    aim = best_aim(board, heat, 30.0)
    naive = cell_centre(board.parse("T20"), board)
    rng = random.Random(7)
    aimed_rate, naive_rate = (
        _rate(board, heat, (aim.x, aim.y), 30.0, rng),
        _rate(board, heat, naive, 30.0, rng),
    )
    # Standard errors are below 0.005 here; the margin is many of them.
    assert aimed_rate > naive_rate + 0.05
    assert aim.p_hit == pytest.approx(aimed_rate, abs=0.015)


@pytest.mark.parametrize("profile", list(Profile))
def test_predicted_hit_chance_matches_simulated_darts(profile):
    board = board_for(profile)
    rng = random.Random(3)
    heat = {c: rng.random() for c in rng.sample(board.cells, 12)}
    for sigma in (12.0, 50.0):
        aim = best_aim(board, heat, sigma)
        assert aim.p_hit == pytest.approx(_rate(board, heat, (aim.x, aim.y), sigma, rng), abs=0.02)
        assert hit_chance(board, heat, (aim.x, aim.y), sigma) == pytest.approx(aim.p_hit)


def test_best_aim_is_no_worse_than_any_cell_centre():
    board = board_for(Profile.FOUR_RING)
    rng = random.Random(5)
    heat = {c: rng.random() ** 4 for c in board.cells}
    aim = best_aim(board, heat, 30.0)
    for cell in board.cells:
        # The table's grid is 2 mm, so a centre may fall between points: allow a hair.
        assert hit_chance(board, heat, cell_centre(cell, board), 30.0) <= aim.p_hit + 1e-3


def test_a_narrow_scatter_aims_into_the_hottest_cell():
    board = board_for(Profile.FOUR_RING)
    heat = {board.parse("D11"): 0.9, board.parse("S20"): 0.2}
    aim = best_aim(board, heat, 1.0)
    assert throw(board, (aim.x, aim.y), 0.0, random.Random(1)).cell == board.parse("D11")


def test_scatter_presets_and_landing():
    assert sigma_for("Pro") == Skill.PRO.sigma == 12.0 and sigma_for(Skill.NOVICE) == 80.0
    with pytest.raises(ValueError, match="unknown skill"):
        sigma_for("wizard")
    rng = random.Random(1)
    points = [land((10.0, -20.0), 30.0, rng) for _ in range(4000)]
    mean_x = sum(x for x, _ in points) / len(points)
    spread = (sum((y + 20.0) ** 2 for _, y in points) / len(points)) ** 0.5
    assert mean_x == pytest.approx(10.0, abs=2.0)
    assert spread == pytest.approx(30.0, rel=0.05)


def test_one_decision_gives_heat_target_and_aim():
    from kiosk.ai import Record
    from kiosk.darts.decision import decide
    from kiosk.darts.fleet import DEFAULT_FLEET
    from kiosk.game import Result

    board = board_for(Profile.FOUR_RING)
    record = Record({board.parse("T20"): Result.HIT, board.parse("BULL"): Result.MISS})
    decision = decide(board, record, DEFAULT_FLEET, Skill.PUB.sigma, random.Random(4))
    assert decision.target in board.neighbours(board.parse("T20"))
    assert decision.heat[decision.target] == max(decision.heat.values())
    assert decision.aim.p_hit == pytest.approx(
        hit_chance(board, dict(decision.heat), (decision.aim.x, decision.aim.y), 30.0)
    )


def test_the_benchmark_plays_a_subset_on_the_same_boards():
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "ai.py"
    spec = importlib.util.spec_from_file_location("bench_ai", path)
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench_ai"] = bench  # the worker pool finds its functions by module name
    spec.loader.exec_module(bench)
    only = frozenset({"classic/heatmap", "dartboard/random"})
    first = bench.run(3, 5, 1, False, only)
    assert set(first["classic"]) == {"heatmap"} and set(first["dartboard"]) == {"random"}
    # 17 ship squares need at least 17 shots; 14 ship cells at least 14 darts, at most 81.
    assert 17 <= first["classic"]["heatmap"] <= 100
    assert 14 <= first["dartboard"]["random"] <= 81
    # Seeded: the same boards and the same play again.
    assert bench.run(3, 5, 1, False, only)["dartboard"] == first["dartboard"]
