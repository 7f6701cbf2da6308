"""What one step of policy improvement over Express's hard computer is worth with 3 and 4 players.

    python bench/express_rollouts.py [--players 4] [--variant admiral] [--games N] [--best K]
                                     [--select R] [--evaluate E] [--seed S] [--workers W]

Hard plays against normal players through the real rules engine (`kiosk.express.match`), in each
seat in turn, N games a seat, on the seeds of `bench/express.py`. At each of hard's decisions
the candidates are its K best attacks by its own first look (the race right after each sink:
`Judge.attack` without lookahead; every declaration where its Carrier has rolled) and its own
choice. Each candidate is valued by R playouts of the rest of the game from a copy of the match
(hard plays hard's seat, normal the others, as they play; fresh dice, the same for every
candidate of the decision); the best is then played again on E other playouts against hard's own
choice. The mean difference, summed over a game's decisions, is what the improved policy (hard,
but at each decision the candidate the playouts prefer) would win more per game, to first order
(the performance difference of one policy-improvement step). Printed per seat, with its
standard error over games. docs/express.md (What is weak) has the figures.
"""

from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from express import game_seed

from kiosk.express.ai import Computer, Strategy
from kiosk.express.dice import DiceCup
from kiosk.express.levels import Judge, prepare
from kiosk.express.match import Attack, Declare, Match, Phase, Setup
from kiosk.express.position import Position, declarations, options
from kiosk.express.rules import Variant

Command = Attack | Declare


@dataclass(frozen=True)
class Job:
    players: int
    variant: str
    seat: int  # hard's
    first: int
    count: int
    best: int  # K
    select: int  # R
    evaluate: int  # E
    seed: int


@dataclass(frozen=True)
class Row:
    seat: int
    number: int
    decisions: int  # with more than one candidate
    gain: float  # summed over the game's decisions, in wins
    won: bool


def finish(match: Match, seat: int, seed: int) -> bool:
    """Play `match` to its end, hard in `seat`, normal elsewhere; whether hard won."""
    computers = [
        Computer(Strategy.HARD if p == seat else Strategy.NORMAL, game_seed(seed, "computer", p))
        for p in range(len(match.players))
    ]
    while match.phase is not Phase.OVER:
        match.apply(computers[match.turn].decide(match.public_view()))
    return match.winner == seat


def playouts(match: Match, command: Command, seat: int, seeds: list[int]) -> int:
    """Hard's wins over playouts of `command` from a copy of `match`, each on its own dice (the
    copy's cup is replaced: the game they start from is never moved)."""
    wins = 0
    for seed in seeds:
        played = copy.deepcopy(match)
        played._s.cup = DiceCup(seed)  # fresh dice for this playout; the rest of the state as is
        played.apply(command)
        wins += finish(played, seat, seed)
    return wins


def candidates(match: Match, best: int) -> list[Command]:
    """Hard's `best` attacks by its first look, or every declaration of a rolled Carrier."""
    pos = Position.from_view(match.public_view())
    if pos.pending is not None:
        return [Declare(target, side=pos.turn) for target, _chance in declarations(pos)]
    found = options(pos)
    judge = Judge(pos)
    judge.lookahead = 0
    values = [judge.attack(option) for option in found]
    order = sorted(range(len(found)), key=values.__getitem__, reverse=True)[:best]
    return [found[i].command(pos.turn) for i in order]


def run(job: Job) -> list[Row]:
    variant = Variant(job.variant)
    prepare(variant)
    rows = []
    for number in range(job.first, job.first + job.count):
        seed = game_seed(job.seed, job.players, job.variant, "hard-normal", job.seat, number)
        levels = [Strategy.HARD if p == job.seat else Strategy.NORMAL for p in range(job.players)]
        computers = [Computer(level, game_seed(seed, p)) for p, level in enumerate(levels)]
        setup = Setup.create(
            [f"P{p}" for p in range(job.players)],
            variant=variant,
            lines=[c.line(variant, players=job.players) for c in computers],
            seed=seed,
        )
        match = Match(setup)
        gain, decisions = 0.0, 0
        while match.phase is not Phase.OVER:
            chosen = computers[match.turn].decide(match.public_view())
            if match.turn == job.seat:
                found = candidates(match, job.best)
                if chosen not in found:
                    found.append(chosen)
                if len(found) > 1:
                    decisions += 1
                    chosen_by = [game_seed(seed, "select", match.version, i) for i in range(job.select)]
                    wins = [playouts(match, c, job.seat, chosen_by) for c in found]
                    better = found[max(range(len(found)), key=wins.__getitem__)]
                    if better != chosen:
                        fresh = [game_seed(seed, "evaluate", match.version, i) for i in range(job.evaluate)]
                        ahead = playouts(match, better, job.seat, fresh)
                        gain += (ahead - playouts(match, chosen, job.seat, fresh)) / job.evaluate
            match.apply(chosen)
        rows.append(Row(job.seat, number, decisions, gain, match.winner == job.seat))
    return rows


def mean_and_error(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    spread = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, math.sqrt(spread / n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(3, 4), default=4)
    parser.add_argument("--variant", choices=[v.value for v in Variant], default="admiral")
    parser.add_argument("--games", type=int, default=50, help="games per seat")
    parser.add_argument("--best", type=int, default=4, help="K: hard's best attacks by its first look")
    parser.add_argument("--select", type=int, default=1000, help="R: playouts per candidate to choose")
    parser.add_argument("--evaluate", type=int, default=1000, help="E: playouts to value the choice")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--workers", type=int, default=max(1, (multiprocessing.cpu_count() or 1)))
    parser.add_argument("--chunk", type=int, default=5, help="games per job")
    args = parser.parse_args(argv)
    jobs = [
        Job(args.players, args.variant, seat, first, min(args.chunk, args.games - first),
            args.best, args.select, args.evaluate, args.seed)
        for seat in range(args.players)
        for first in range(0, args.games, args.chunk)
    ]  # fmt: skip
    start = time.monotonic()
    rows: list[Row] = []
    with multiprocessing.Pool(args.workers) as pool:
        for part in pool.imap_unordered(run, jobs):
            rows.extend(part)
    gain, error = mean_and_error([r.gain for r in rows])
    print(
        f"{args.players} players, {args.variant}: {len(rows)} games (hard in each seat in turn), "
        f"K={args.best} R={args.select} E={args.evaluate}, seed {args.seed}"
    )
    print(
        f"hard won {100 * sum(r.won for r in rows) / len(rows):.1f} %, "
        f"{sum(r.decisions for r in rows) / len(rows):.2f} decisions with a choice per game"
    )
    print(f"one improvement step by playouts: {100 * gain:+.2f} points per game (s.e. {100 * error:.2f})")
    for seat in range(args.players):
        mine = [r.gain for r in rows if r.seat == seat]
        seat_gain, seat_error = mean_and_error(mine)
        print(f"  seat {seat + 1}: {100 * seat_gain:+.2f} (s.e. {100 * seat_error:.2f}, {len(mine)} games)")
    print(f"{time.monotonic() - start:.0f} s, {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
