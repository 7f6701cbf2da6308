"""Benchmark of the Battleship Express computer: round-robin of the levels, and decision time.

    python bench/express.py [--games N] [--seed S] [--players 2,3,4] [--variants admiral,captain]
                            [--only normal-easy,hard-normal,hard-easy] [--workers W] [--json]

For each number of players, game and pairing "A-B", one seat is A and the others are B; A sits
in each seat in turn for N games (2000 by default), so every seat order is played equally. The
games run through the real rules engine (`kiosk.express.match`); each computer lays its own
line and reads only the public view. Every game has its own seed (dice, lines, the computers'
tie-breaks), so the figures do not depend on how games are spread over the worker processes.
Printed: A's win rate with a 95 % Wilson interval next to a fair share (1/players), and the
decision time of each level (p50, p99, max) once its tables are built (`prepare`, as the kiosk
does when a game is set up).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.ai.express import Computer, Level
from kiosk.ai.express.levels import prepare
from kiosk.express.match import Match, Phase, Setup
from kiosk.express.rules import Variant

PAIRINGS = ("normal-easy", "hard-normal", "hard-easy")


@dataclass(frozen=True)
class Batch:
    players: int
    variant: str
    pairing: str
    seat: int  # A's seat
    first: int  # game numbers first..first+count-1
    count: int
    seed: int


def game_seed(seed: int, *parts: object) -> int:
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def play(batch: Batch) -> tuple[Batch, int, dict[str, list[float]]]:
    """Play one batch; A's wins and every decision's time (seconds) per level."""
    variant = Variant(batch.variant)
    prepare(variant)
    a, b = (Level(name) for name in batch.pairing.split("-"))
    wins = 0
    times: dict[str, list[float]] = defaultdict(list)
    for number in range(batch.first, batch.first + batch.count):
        seed = game_seed(batch.seed, batch.players, batch.variant, batch.pairing, batch.seat, number)
        levels = [a if seat == batch.seat else b for seat in range(batch.players)]
        computers = [Computer(level, game_seed(seed, seat)) for seat, level in enumerate(levels)]
        setup = Setup.create([f"P{seat}" for seat in range(batch.players)], variant=variant,
                             lines=[c.line(variant) for c in computers], seed=seed)
        match = Match(setup)
        while match.phase is not Phase.OVER:
            view = match.public_view()
            computer = computers[match.turn]
            start = time.perf_counter()
            command = computer.decide(view)
            times[computer.level.value].append(time.perf_counter() - start)
            match.apply(command)
        wins += match.winner == batch.seat
    return batch, wins, dict(times)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/express.py", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing and seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--variants", default="admiral,captain")
    parser.add_argument("--only", default=",".join(PAIRINGS), help="pairings A-B, e.g. hard-normal")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--chunk", type=int, default=100, help="games per task")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    players = [int(p) for p in args.players.split(",")]
    variants = args.variants.split(",")
    pairings = args.only.split(",")
    for pairing in pairings:
        if any(name not in {level.value for level in Level} for name in pairing.split("-")):
            parser.error(f"unknown pairing {pairing!r}")
    batches = [Batch(n, v, pairing, seat, first, min(args.chunk, args.games - first), args.seed)
               for n in players for v in variants for pairing in pairings for seat in range(n)
               for first in range(0, args.games, args.chunk)]
    started = time.time()
    wins: dict[tuple[int, str, str], int] = defaultdict(int)
    games: dict[tuple[int, str, str], int] = defaultdict(int)
    times: dict[tuple[int, str], list[float]] = defaultdict(list)
    with multiprocessing.Pool(args.workers) as pool:
        for batch, won, decided in pool.imap_unordered(play, batches):
            key = (batch.players, batch.variant, batch.pairing)
            wins[key] += won
            games[key] += batch.count
            for level, seconds in decided.items():
                times[batch.players, level].extend(seconds)
    rows = []
    for key in sorted(games):
        low, high = wilson(wins[key], games[key])
        rows.append({"players": key[0], "game": key[1], "pairing": key[2], "games": games[key],
                     "win_rate": wins[key] / games[key], "ci95": [low, high], "fair": 1 / key[0]})
    timing = [{"players": n, "level": level, "decisions": len(values),
               "p50_ms": 1000 * percentile(values, 0.5), "p99_ms": 1000 * percentile(values, 0.99),
               "max_ms": 1000 * max(values)} for (n, level), values in sorted(times.items())]
    if args.json:
        print(json.dumps({"results": rows, "timing": timing, "seconds": time.time() - started},
                         indent=2))
        return 0
    print(f"{'players':>7} {'game':<8} {'A vs B':<14} {'games':>6} {'A wins':>7} {'95% CI':>16} "
          f"{'fair':>5}")
    for row in rows:
        low, high = row["ci95"]
        a, b = row["pairing"].split("-")
        print(f"{row['players']:>7} {row['game']:<8} {a + ' vs ' + b:<14} {row['games']:>6} "
              f"{100 * row['win_rate']:>6.1f}% {f'[{100 * low:.1f}, {100 * high:.1f}]':>16} "
              f"{100 * row['fair']:>4.0f}%")
    print()
    print(f"{'players':>7} {'level':<7} {'decisions':>9} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}")
    for t in timing:
        print(f"{t['players']:>7} {t['level']:<7} {t['decisions']:>9} {t['p50_ms']:>7.2f} "
              f"{t['p99_ms']:>7.2f} {t['max_ms']:>7.1f}")
    print(f"\n{time.time() - started:.0f} s, {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
