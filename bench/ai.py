"""Benchmark of the AI: mean darts (shots) to sink a random fleet, per strategy, and decision time.

    python bench/ai.py [--games N] [--seed S] [--workers W] [--json] [--out FILE]
                       [--only dartboard/heatmap,classic/heatmap,...]

Every strategy plays the same N boards (fleets drawn uniformly with the seed). Games run in
worker processes, one per core by default; each game has its own seeded randomness, so the
figures do not depend on how games are spread over the workers.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.ai.record import Record
from kiosk.ai.selfplay import play
from kiosk.ai.strategies import HuntTarget, Perfect, RandomShots, grid_parity
from kiosk.board import Board, Profile, board_for
from kiosk.classic import ai as classic
from kiosk.classic import fleet as classic_fleet
from kiosk.darts.decision import decide
from kiosk.darts.fleet import DEFAULT_FLEET, random_fleet
from kiosk.darts.heatmap import choose_target
from kiosk.darts.shooters import HeatShots
from kiosk.geometry import cell_centre
from kiosk.scatter import throw

SIGMA = 30.0
DARTBOARD = ("random", "hunt_target", "heatmap", "sigma30_naive", "sigma30_aimed")
CLASSIC = ("random", "parity_hunt_target", "heatmap")


class Aimed:
    """A scatter thrower that decides once per state of the record: a dart that changes nothing
    (off the board, or on a known cell) leaves the same decision, so it is not recomputed.
    The decision (heat + aim) is timed; the throw is not."""

    def __init__(self, board: Board, decide: Callable[[Record, random.Random], tuple[float, float]]) -> None:
        self.board = board
        self.decide = decide
        self.last: tuple[Record, tuple[float, float]] | None = None
        self.times: list[float] = []

    def __call__(self, record: Record, rng: random.Random) -> Hashable:
        if self.last is None or self.last[0] is not record:
            start = time.perf_counter()
            aim = self.decide(record, rng)
            self.times.append(time.perf_counter() - start)
            self.last = (record, aim)
        return throw(self.board, self.last[1], SIGMA, rng).cell


class Timed:
    """A shooter whose every decision is timed (the perfect thrower's cell choice)."""

    def __init__(self, shooter: Callable[[Record, random.Random], Hashable]) -> None:
        self.shooter = shooter
        self.times: list[float] = []

    def __call__(self, record: Record, rng: random.Random) -> Hashable:
        start = time.perf_counter()
        cell = self.shooter(record, rng)
        self.times.append(time.perf_counter() - start)
        return cell


def _naive(board: Board, record: Record, rng: random.Random) -> tuple[float, float]:
    return cell_centre(choose_target(board, record, DEFAULT_FLEET, rng), board)


def _aimed(board: Board, record: Record, rng: random.Random) -> tuple[float, float]:
    # The kiosk's own call (solo mode, coach): heat, target and aim in one decision.
    aim = decide(board, record, DEFAULT_FLEET, SIGMA, rng).aim
    return (aim.x, aim.y)


@functools.cache
def _boards(seed: int, games: int) -> tuple[list, list]:
    board = board_for(Profile.FOUR_RING)
    rng = random.Random(seed)
    darts = [random_fleet(board, DEFAULT_FLEET, rng) for _ in range(games)]
    rng = random.Random(seed + 1)
    # The same draws as before the rules moved to kiosk.classic, so the figures still compare.
    grids = [classic_fleet.random_fleet(rng) for _ in range(games)]
    return darts, grids


def _game(task: tuple[str, str, int, int, int]) -> tuple[str, str, int, list[float]]:
    game, name, index, seed, games = task
    darts_fleets, grid_fleets = _boards(seed, games)
    rng = random.Random(f"{seed}:{game}:{name}:{index}")
    board = board_for(Profile.FOUR_RING)
    if game == "classic":
        cells: tuple = classic.SQUARES
        shooter: Callable = {
            "random": RandomShots(classic.SQUARES),
            "parity_hunt_target": HuntTarget(classic.SQUARES, classic.neighbours, grid_parity),
            "heatmap": Timed(lambda r, g: classic.choose_target(r, classic.CLASSIC_FLEET, g)),
        }[name]
        ships = grid_fleets[index].ships
    else:
        cells = board.cells
        if name == "sigma30_naive":
            shooter = Aimed(board, functools.partial(_naive, board))
        elif name == "sigma30_aimed":
            shooter = Aimed(board, functools.partial(_aimed, board))
        else:
            shooter = {
                "random": RandomShots(board.cells),
                "hunt_target": HuntTarget(board.cells, board.neighbours),
                "heatmap": Timed(Perfect(HeatShots(board, DEFAULT_FLEET))),
            }[name]
        ships = darts_fleets[index].ships
    darts = play(ships, frozenset(cells), shooter, rng)
    timed = (isinstance(shooter, Aimed) and name == "sigma30_aimed") or isinstance(shooter, Timed)
    return game, name, darts, shooter.times if timed else []


@contextlib.contextmanager
def _pool(workers: int) -> Iterator[Callable]:
    """`imap_unordered` of a fork pool, or plain `map` in this process for one worker: a fork
    from a process with threads (pytest's, Kivy's) can deadlock a child on a lock it inherited."""
    if workers <= 1:
        yield lambda fn, tasks, _chunk: map(fn, tasks)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield pool.imap_unordered


def run(games: int, seed: int, workers: int, progress: bool, only: frozenset[str] | None = None) -> dict:
    """`only`: a subset of "game/strategy" names (for tuning runs); the table needs them all."""
    tasks = [
        (game, name, i, seed, games)
        for game, names in (("dartboard", DARTBOARD), ("classic", CLASSIC))
        for name in names
        for i in range(games)
        if only is None or f"{game}/{name}" in only
    ]
    # Slow strategies first, so the workers finish together.
    tasks.sort(key=lambda t: t[1] in ("random", "hunt_target", "parity_hunt_target"))
    darts: dict[tuple[str, str], list[int]] = {}
    times: list[float] = []  # decide() in the aimed games: the kiosk's decision
    chooses: list[float] = []  # the perfect thrower's choose_target, both games
    start = time.perf_counter()
    with _pool(workers) as imap:
        for done, (game, name, n, t) in enumerate(imap(_game, tasks, 8), 1):
            darts.setdefault((game, name), []).append(n)
            if name == "sigma30_aimed":
                times += t
            else:
                chooses += t
            if progress and done % 500 == 0:
                print(f"  {done}/{len(tasks)} games, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    times.sort()
    chooses.sort()
    p99 = _quantile(times, 0.99)
    return {
        "games": games,
        "dartboard": {
            n: round(statistics.mean(darts[("dartboard", n)]), 2)
            for n in DARTBOARD
            if ("dartboard", n) in darts
        },
        "classic": {
            n: round(statistics.mean(darts[("classic", n)]), 2) for n in CLASSIC if ("classic", n) in darts
        },
        "decision_ms_p99": round(p99, 2),
        "_spread": {f"{g}/{n}": round(statistics.stdev(v) / len(v) ** 0.5, 2) for (g, n), v in darts.items()},
        "_seconds": round(time.perf_counter() - start, 1),
        "_decisions": len(times),
        "_decision_ms_median": round(_quantile(times, 0.5), 2),
        "_decision_ms_p999": round(_quantile(times, 0.999), 2),
        "_decision_ms_max": round(times[-1] * 1000, 2) if times else float("nan"),
        "_choose_ms_p99": round(_quantile(chooses, 0.99), 2),
        "_choose_ms_median": round(_quantile(chooses, 0.5), 2),
        "_chooses": len(chooses),
    }


def _quantile(sorted_times: list[float], q: float) -> float:
    """In ms; nan for no times."""
    if not sorted_times:
        return float("nan")
    return sorted_times[min(len(sorted_times) - 1, int(q * len(sorted_times)))] * 1000


def table(result: dict) -> str:
    lines = [f"{'game':10} {'strategy':20} {'mean darts':>10} {'± s.e.':>7}"]
    for game in ("dartboard", "classic"):
        for name, mean in result[game].items():
            lines.append(f"{game:10} {name:20} {mean:10.2f} {result['_spread'][f'{game}/{name}']:7.2f}")
    d = result["dartboard"]
    lines += [
        "",
        f"boards: {result['games']} (the same for every strategy)",
        f"dartboard heatmap / random: {d['heatmap'] / d['random']:.3f}  (goal <= 0.45)",
        f"aimed / naive at sigma 30 mm: {d['sigma30_aimed'] / d['sigma30_naive']:.3f}  (goal <= 0.9)",
        f"classic heatmap: {result['classic']['heatmap']:.2f}  (goal <= 42)",
        f"decision (heat + aim) p99: {result['decision_ms_p99']:.2f} ms, median "
        f"{result['_decision_ms_median']} ms over {result['_decisions']} decisions  (goal <= 15)",
        f"    p99.9 {result['_decision_ms_p999']:.2f} ms, slowest {result['_decision_ms_max']:.2f} ms"
        " (the first decision of each worker builds the landing table)",
        f"perfect thrower's choose_target p99: {result['_choose_ms_p99']:.2f} ms, median "
        f"{result['_choose_ms_median']} ms over {result['_chooses']} choices (both games)",
        f"wall time: {result['_seconds']} s",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="boards per strategy (2000)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--out", type=Path, help="also write the JSON object to this file")
    parser.add_argument(
        "--only",
        help="comma-separated game/strategy names, for tuning runs "
        "(prints the JSON object; tune on seeds other than the default's)",
    )
    args = parser.parse_args(argv)
    only = frozenset(args.only.split(",")) if args.only else None
    if only is not None:
        names = {f"{g}/{n}" for g, ns in (("dartboard", DARTBOARD), ("classic", CLASSIC)) for n in ns}
        if only - names:
            parser.error(f"unknown strategies: {', '.join(sorted(only - names))}")
    result = run(args.games, args.seed, args.workers, progress=not args.json, only=only)
    figures = json.dumps({k: v for k, v in result.items() if not k.startswith("_")})
    if args.out:
        args.out.write_text(figures + "\n")
    print(figures if args.json or only is not None else table(result))


if __name__ == "__main__":
    main()
