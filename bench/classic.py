"""Benchmark of classic 10x10: the computer's levels (shots to win, decision time) and the exact
number of legal fleets.

    python bench/classic.py [--games N] [--seed S] [--workers W] [--levels easy,normal,hard]
                            [--json] [--count]

Every level plays the same N fleets (uniformly random, seeded) in solo matches driven through
`kiosk.classic.match` commands, with the computer firing first: a hit fires again, a miss passes
the turn to the "human", who always misses (it fires at water), so the game lasts until the
computer has sunk the fleet. Every answer the players would wait for is timed
(`Computer.choose`): the first of each computer turn and the others apart. During the human's
turns the computer ponders (`Computer.ponder`, timed apart; only `hard` does anything), as the
kiosk lets it while the human thinks. Games run in worker processes, one per core by default,
so the timings are those of a busy machine.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.classic.ai import Computer
from kiosk.classic.count import count_fleets
from kiosk.classic.fleet import LENGTHS, random_fleet
from kiosk.classic.grid import SQUARES
from kiosk.classic.match import ComputerLevel, Fire, Match, Mode, Phase, Place, Radar, Setup

Timing = list[float]


def _game(task: tuple[str, int, int]) -> tuple[str, int, Timing, Timing, Timing]:
    """One game: (level, computer's shots, first answers of its turns (ms), its other answers,
    its ponders)."""
    level_name, index, seed = task
    level = ComputerLevel(level_name)
    target = random_fleet(random.Random(f"{seed}:board:{index}"))  # the same for every level
    computers = random_fleet(random.Random(f"{seed}:other:{index}"))
    water = iter([s for s in SQUARES if s not in computers.cells])
    computer = Computer(level, random.Random(f"{seed}:{level_name}:{index}"))
    match = Match(Setup(Mode.SOLO, ("bench",), first=1, level=level))
    match.apply(Place(0, target))
    match.apply(Place(1, computers))
    first: Timing = []
    later: Timing = []
    ponders: Timing = []
    new_turn = True
    while match.phase is not Phase.OVER:
        if match.turn == 0:
            start = time.perf_counter()
            computer.ponder(match.radar(1))
            ponders.append((time.perf_counter() - start) * 1000)
            match.apply(Fire(0, next(water)))
            new_turn = True
            continue
        start = time.perf_counter()
        square = computer.choose(match.radar(1))
        (first if new_turn else later).append((time.perf_counter() - start) * 1000)
        new_turn = False
        match.apply(Fire(1, square))
    assert match.winner == 1
    return level_name, match.shots(1), first, later, ponders


def _warm_up() -> None:
    """Build each worker's caches (placements, numpy) before anything is timed: a kiosk does
    this once at start, not per decision."""
    for level in ComputerLevel:
        computer = Computer(level, random.Random(0))
        computer.ponder(Radar())
        computer.choose(Radar())


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(games: int, seed: int, workers: int, levels: list[str]) -> dict:
    tasks = [(level, i, seed) for level in levels for i in range(games)]
    tasks.sort(key=lambda t: t[0] != "hard")  # the slow level first, so workers end together
    shots: dict[str, list[int]] = {level: [] for level in levels}
    first: dict[str, Timing] = {level: [] for level in levels}
    later: dict[str, Timing] = {level: [] for level in levels}
    ponders: dict[str, Timing] = {level: [] for level in levels}
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers, _warm_up) as pool:
        for level, n, f, la, p in pool.imap_unordered(_game, tasks, 4):
            shots[level].append(n)
            first[level] += f
            later[level] += la
            ponders[level] += p
    out: dict = {"games": games, "seed": seed, "workers": workers, "levels": {}}
    for level in levels:
        values = shots[level]
        mean = statistics.mean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
        every = first[level] + later[level]
        out["levels"][level] = {
            "mean_shots": round(mean, 2),
            "ci95": [round(mean - half, 2), round(mean + half, 2)],
            "median_shots": statistics.median(values),
            "decision_ms_p50": round(quantile(every, 0.5), 2),
            "decision_ms_p99": round(quantile(every, 0.99), 2),
            "first_answer_ms_p99": round(quantile(first[level], 0.99), 2),
            "other_answers_ms_p99": round(quantile(later[level], 0.99), 2),
            "decision_ms_max": round(max(every), 2),
            "ponder_ms_p50": round(quantile(ponders[level], 0.5), 2),
            "ponder_ms_p99": round(quantile(ponders[level], 0.99), 2),
            "decisions": len(every),
        }
    out["seconds"] = round(time.perf_counter() - start, 1)
    # Timings depend on what else the machine runs: say how busy it was.
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return out


def table(result: dict) -> str:
    lines = [
        f"{result['games']} fleets per level, seed {result['seed']}, "
        f"{result['workers']} workers, {result['seconds']} s, load average "
        f"{' '.join(str(x) for x in result['load_average'])} on {os.cpu_count()} cores",
        f"{'level':8} {'mean shots':>10} {'95% CI':>15} {'median':>7} {'p50 ms':>7} "
        f"{'p99 ms':>7} {'1st p99':>8} {'max ms':>7} {'ponder p99':>10}",
    ]
    for level, r in result["levels"].items():
        ci = f"{r['ci95'][0]:.2f}-{r['ci95'][1]:.2f}"
        lines.append(
            f"{level:8} {r['mean_shots']:10.2f} {ci:>15} {r['median_shots']:7} "
            f"{r['decision_ms_p50']:7.2f} {r['decision_ms_p99']:7.2f} "
            f"{r['first_answer_ms_p99']:8.2f} {r['decision_ms_max']:7.2f} "
            f"{r['ponder_ms_p99']:10.2f}"
        )
    lines.append("goal: decision p99 <= 50 ms for normal, and for hard's first answer")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="fleets per level (1000)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--count", action="store_true", help="also count the legal fleets on 10 x 10 exactly (about 2 s)"
    )
    args = parser.parse_args(argv)
    levels = [ComputerLevel(name).value for name in args.levels.split(",")]
    result = run(args.games, args.seed, args.workers, levels)
    if args.count:
        start = time.perf_counter()
        count = count_fleets(LENGTHS)
        result["fleets"] = {
            "named": count.named,
            "unnamed": count.unnamed,
            "seconds": round(time.perf_counter() - start, 2),
        }
    if args.json:
        print(json.dumps(result))
        return
    print(table(result))
    if args.count:
        fleets = result["fleets"]
        print(
            f"legal fleets: {fleets['named']:,} with the Cruiser and the Submarine told apart, "
            f"{fleets['unnamed']:,} as cell sets ({fleets['seconds']} s)"
        )


if __name__ == "__main__":
    main()
