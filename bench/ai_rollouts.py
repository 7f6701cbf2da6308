"""How much search would a rollout player need? The noise of whole-game rollouts, measured.

    python bench/ai_rollouts.py [--game dartboard|classic] [--positions N] [--truths R]
                                [--seed S] [--json]

The one known way to play better than greedy on the posterior is search: before each dart, play
the rest of the game out (greedy after the candidate cell) on fleets drawn from the posterior,
and throw at the candidate with the fewest darts on average. This measures whether that fits the
decision budget (15 ms). Along greedy games it takes positions where the best cell is not a sure
hit and plays out, on the same R drawn fleets and with the same random numbers, greedy's cell
and the runner-up. Per position it prints the mean and the spread (standard deviation) of the
paired difference in darts, and how many rollouts per candidate would tell a 0.1-dart difference
at two standard errors: (2 x spread / 0.1)^2. The summary turns that into seconds per decision
with the measured time of one rollout.

Drawn fleets: a consistent fleet's unsunk-ship cells come from the engine's posterior (exact
enumeration or its unbiased sampler); they are split into ships by a reading chosen at random
among those that keep every unsunk ship with an unshot cell (a split is unique except where
ships touch).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.ai.posterior import Estimate, Space
from kiosk.ai.record import Record
from kiosk.ai.selfplay import fire
from kiosk.board import Profile, board_for
from kiosk.classic import ai as classic
from kiosk.classic import fleet as classic_fleet
from kiosk.darts.fleet import DEFAULT_FLEET, random_fleet
from kiosk.darts.heatmap import board_estimate, choose_target, space_for

RESOLVE_DARTS = 0.1  # the size of difference a rollout player has to tell apart
SURE = 0.999  # heat of a sure hit: no decision to make


@dataclass(frozen=True)
class Ship:
    cells: tuple[Hashable, ...]


@dataclass(frozen=True)
class Game:
    cells: tuple[Hashable, ...]
    lengths: tuple[int, ...]
    space: Space
    estimate: Callable[[Record, random.Random, int | None], Estimate]
    greedy: Callable[[Record, random.Random], Hashable]
    fleet: Callable[[random.Random], list[Ship]]


def game_named(name: str) -> Game:
    if name == "classic":
        lengths = tuple(classic.CLASSIC_FLEET)
        return Game(
            classic.SQUARES,
            lengths,
            classic.space(),
            lambda r, g, n: classic.grid_estimate(r, lengths, g, samples=n),
            lambda r, g: classic.choose_target(r, lengths, g),
            lambda g: [Ship(s.cells) for s in classic_fleet.random_fleet(g).ships],
        )
    board = board_for(Profile.FOUR_RING)
    lengths = tuple(DEFAULT_FLEET)
    return Game(
        board.cells,
        lengths,
        space_for(board),
        lambda r, g, n: board_estimate(board, r, lengths, g, samples=n),
        lambda r, g: choose_target(board, r, lengths, g),
        lambda g: [Ship(s.cells) for s in random_fleet(board, lengths, g).ships],
    )


def splits(
    space: Space, cells: frozenset[int], lengths: Sequence[int], hit: frozenset[int]
) -> list[list[tuple[int, ...]]]:
    """Every way to cut `cells` into placements of `lengths`, each keeping an unshot cell."""
    found: list[list[tuple[int, ...]]] = []

    def extend(left: frozenset[int], todo: tuple[int, ...], ships: list[tuple[int, ...]]) -> None:
        if not left:
            if not todo:
                found.append(ships)
            return
        first = min(left)
        for i, n in enumerate(todo):
            if i and todo[i - 1] == n:
                continue
            for p in space.placements[n]:
                if first in p and left.issuperset(p) and not hit.issuperset(p):
                    extend(left.difference(p), todo[:i] + todo[i + 1 :], [*ships, p])

    extend(cells, tuple(sorted(lengths)), [])
    return found


def draw_truths(game: Game, record: Record, rng: random.Random, n: int) -> list[list[Ship]]:
    est = game.estimate(record, rng, 3000)
    assert est.occupancy is not None and est.weights is not None
    index = {c: i for i, c in enumerate(game.cells)}
    hit = frozenset(index[c] for c, r in record.shots.items() if r.scores)
    left = list(game.lengths)
    for ship in record.sunk:
        left.remove(len(ship.cells))
    weights = est.weights / est.weights.sum()
    np_rng = np.random.default_rng(rng.getrandbits(32))
    truths: list[list[Ship]] = []
    for _ in range(50 * n):
        if len(truths) == n:
            break
        row = est.occupancy[np_rng.choice(len(weights), p=weights)]
        ways = splits(game.space, frozenset(np.flatnonzero(row).tolist()), left, hit)
        if ways:  # every consistent fleet's cells split into ships; this only skips oddities
            ships = rng.choice(ways)
            truths.append(
                [
                    *map(Ship, (s.cells for s in record.sunk)),
                    *(Ship(tuple(game.cells[i] for i in p)) for p in ships),
                ]
            )
    if len(truths) < n:
        raise RuntimeError(f"only {len(truths)} of {n} drawn fleets could be split into ships")
    return truths


def play_out(game: Game, record: Record, fleet: list[Ship], first: Hashable, rng: random.Random) -> int:
    darts, cell = 0, first
    while len(record.sunk) < len(game.lengths):
        cell = cell if cell is not None else game.greedy(record, rng)
        result, ship = fire(fleet, record, cell)
        record = record.with_shot(cell, result, ship)
        darts, cell = darts + 1, None
    return darts


def two_best(game: Game, record: Record, rng: random.Random) -> tuple[list[Hashable], float]:
    heat = game.estimate(record, rng, None).probabilities.copy()
    for c in record.shots:
        heat[game.cells.index(c)] = -1.0
    order = np.argsort(-heat)
    return [game.cells[i] for i in order[:2]], float(heat[order[0]])


def run(name: str, positions: int, truths: int, seed: int, progress: bool) -> dict:
    game = game_named(name)
    rng = random.Random(seed)
    rows: list[dict] = []
    rollout_s: list[float] = []
    board_no = 0
    while len(rows) < positions:
        board_no += 1
        fleet = game.fleet(random.Random(f"{seed}:{board_no}"))
        record, dart = Record(), 0
        while len(record.sunk) < len(game.lengths) and len(rows) < positions:
            pair, top = two_best(game, record, rng)
            if top < SURE and rng.random() < 0.3:
                diffs = []
                for truth in draw_truths(game, record, rng, truths):
                    s = rng.getrandbits(32)
                    start = time.perf_counter()
                    a, b = (play_out(game, record, truth, c, random.Random(s)) for c in pair)
                    rollout_s.append((time.perf_counter() - start) / 2)
                    diffs.append(b - a)
                spread = statistics.stdev(diffs)
                rows.append(
                    {
                        "dart": dart,
                        "heat": round(top, 3),
                        "runner_up_minus_greedy": round(statistics.mean(diffs), 3),
                        "spread": round(spread, 2),
                        "rollouts_needed": round((2 * spread / RESOLVE_DARTS) ** 2),
                    }
                )
                if progress:
                    print(f"  position {len(rows)}: {rows[-1]}", file=sys.stderr)
            result, ship = fire(fleet, record, pair[0])
            record = record.with_shot(pair[0], result, ship)
            dart += 1
    ms = statistics.mean(rollout_s) * 1000
    needed = statistics.median(r["rollouts_needed"] for r in rows)
    return {
        "game": name,
        "positions": positions,
        "truths": truths,
        "seed": seed,
        "median_spread": round(statistics.median(r["spread"] for r in rows), 2),
        "mean_abs_difference": round(statistics.mean(abs(r["runner_up_minus_greedy"]) for r in rows), 3),
        "rollout_ms": round(ms, 1),
        "median_rollouts_needed": round(needed),
        "seconds_per_decision_two_candidates": round(2 * needed * ms / 1000, 1),
        "positions_detail": rows,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=("dartboard", "classic"), default="dartboard")
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--truths", type=int, default=200, help="drawn fleets per position")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.game, args.positions, args.truths, args.seed, progress=not args.json)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['game']}: {result['positions']} positions, {result['truths']} drawn fleets each")
    print(f"spread of the paired difference (median): {result['median_spread']} darts")
    print(f"mean |runner-up - greedy|: {result['mean_abs_difference']} darts")
    print(f"one rollout: {result['rollout_ms']} ms")
    print(
        f"rollouts per candidate to tell {RESOLVE_DARTS} darts apart (median): "
        f"{result['median_rollouts_needed']}"
    )
    print(
        f"so one decision between just two cells: {result['seconds_per_decision_two_candidates']} s"
        " (budget 0.015 s)"
    )


if __name__ == "__main__":
    main()
