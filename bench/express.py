"""Benchmark of the Battleship Express computer: round-robin of the levels, and decision time.

    python bench/express.py [--games N] [--seed S] [--players 2,3,4] [--variants admiral,captain]
                            [--only normal-easy,hard-normal,hard-easy] [--workers W] [--json]
                            [--untargetable] [--line SHIP,SHIP,...]
    python bench/express.py --exact [--variants admiral,captain]
    python bench/express.py --first-turn DEALS [--players 3,4] [--variants admiral,captain]

For each number of players, game and pairing "A-B", one seat is A and the others are B; A sits
in each seat in turn for N games (2000 by default), so every seat order is played equally. The
games run through the real rules engine (`kiosk.express.match`); each computer lays its own
line and reads only the public view. Every game has its own seed (dice, lines, the computers'
tie-breaks), so the figures do not depend on how games are spread over the worker processes.
Printed: A's win rate with a 95 % Wilson interval next to a fair share (1/players), A's wins in
each seat, and the decision time of each level (p50, p99, max) once its tables are built
(`prepare`, as the kiosk does when a game is set up).

Two measures of the room for three and four players (docs/express.md, What is weak):
`--untargetable` plays the same games with the others deciding on a view without A's line, so no
one ever aims at A (what never being aimed at is worth; with four players it is worth less than
being aimed at, so it is no bound on what a line can do); `--first-turn` computes exactly, over the
dice, the first player's chance to win in its first turn, taking the best chance each time
(normal) and with the best chain any policy can play. `--line` has A lay the given line (front
first, ship names as in the rules, e.g. `Battleship,Destroyer,Submarine,Patrol Boat,Carrier`)
instead of its own, with three and four players: how the lines were compared.

`--exact` needs no dice at all: a two-player game has only 106 276 positions (each player's
line, the player on turn to move; the points follow from the lines), so the chance that a
policy beats another is solved exactly by value iteration over all of them, averaged over both
seats and uniformly random starting lines (or A's own line). It prints the levels against each
other, the best response to normal and to easy (the most ANY policy can win against them: the
ceiling of a goal), and perfect play (minimax). Minutes, not hours; docs/express.md has them.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from kiosk.express.ai import Computer, Strategy
from kiosk.express.duel import BEST, FULL, LINES, STATES, Duel, Policy, ships
from kiosk.express.levels import judge_for, prepare
from kiosk.express.match import EXPOSED, Match, Phase, Setup
from kiosk.express.position import Position, options, tables
from kiosk.express.rules import FLEET, Rules, Ship, Variant

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
    untargetable: bool = False  # the others never see A's line (`hidden_from_others`)
    line: tuple[Ship, ...] | None = None  # A's line with 3 and 4 players (`--line`), else its own


def game_seed(seed: int, *parts: object) -> int:
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def play(batch: Batch) -> tuple[Batch, int, dict[str, list[tuple[float, float]]]]:
    """Play one batch; A's wins and every decision's time per level (seconds: wall clock, and
    the CPU time of the deciding thread, which a loaded machine does not inflate)."""
    variant = Variant(batch.variant)
    prepare(variant)
    a, b = (Strategy(name) for name in batch.pairing.split("-"))
    wins = 0
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for number in range(batch.first, batch.first + batch.count):
        seed = game_seed(batch.seed, batch.players, batch.variant, batch.pairing, batch.seat, number)
        levels = [a if seat == batch.seat else b for seat in range(batch.players)]
        computers = [Computer(level, game_seed(seed, seat)) for seat, level in enumerate(levels)]
        setup = Setup.create(
            [f"P{seat}" for seat in range(batch.players)],
            variant=variant,
            lines=[
                batch.line
                if seat == batch.seat and batch.line and batch.players > 2
                else c.line(variant, players=batch.players)
                for seat, c in enumerate(computers)
            ],
            seed=seed,
        )
        match = Match(setup)
        while match.phase is not Phase.OVER:
            view = match.public_view()
            computer = computers[match.turn]
            if batch.untargetable and match.turn != batch.seat:
                view = hidden_from_others(view, batch.seat)
            start, cpu = time.perf_counter(), time.thread_time()
            command = computer.decide(view)
            times[computer.level.value].append((time.perf_counter() - start, time.thread_time() - cpu))
            match.apply(command)
        wins += match.winner == batch.seat
    return batch, wins, dict(times)


def parse_line(text: str) -> tuple[Ship, ...]:
    """`--line`: the five ships, front first, by their names (any case, comma-separated)."""
    names = {ship.value.lower(): ship for ship in FLEET}
    given = [name.strip() for name in text.split(",")]
    unknown = [name for name in given if name.lower() not in names]
    if unknown:
        raise argparse.ArgumentTypeError(f"no ship is called {unknown[0]!r}: {', '.join(names)}")
    line = tuple(names[name.lower()] for name in given)
    if sorted(line, key=FLEET.index) != list(FLEET):
        raise argparse.ArgumentTypeError("a line is the five ships, each once")
    return line


def hidden_from_others(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """The view the others decide on with `--untargetable`: A's line shown as empty, so no one
    ever aims at A (what never being aimed at is worth; the game itself is the real one).
    Where only A's ships are left to aim at, the real view."""
    mover = view["turn"]
    if not any(line for player, line in enumerate(view["lines"]) if player not in (seat, mover)):
        return view
    lines = [[] if player == seat else line for player, line in enumerate(view["lines"])]
    return {**view, "lines": lines}


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
    parser.add_argument(
        "--untargetable",
        action="store_true",
        help="the others never aim at A (they decide on a view without A's line): what that is worth",
    )
    parser.add_argument(
        "--first-turn",
        type=int,
        metavar="DEALS",
        help="the first player's chance to win in its first turn, normal's chain and the best, "
        "exact over the dice, averaged over DEALS random lines (3 and 4 players)",
    )
    parser.add_argument(
        "--line",
        type=parse_line,
        help="A lays this line with 3 and 4 players (front first, e.g. "
        "'Battleship,Destroyer,Submarine,Patrol Boat,Carrier') instead of its own",
    )
    parser.add_argument("--exact", action="store_true", help="exact two-player figures (no dice)")
    args = parser.parse_args(argv)
    if args.first_turn:
        for variant in args.variants.split(","):
            for n in (int(p) for p in args.players.split(",") if int(p) > 2):
                greedy, best = first_turn(Variant(variant), n, args.first_turn, args.seed)
                print(
                    f"{n} players, {variant}: the first player wins in its first turn "
                    f"{100 * greedy:.2f} % taking the best chance each time (normal), "
                    f"{100 * best:.2f} % with the best chain (no policy wins more there)"
                )
        return 0
    if args.exact:
        for variant in args.variants.split(","):
            exact(Variant(variant))
        return 0
    players = [int(p) for p in args.players.split(",")]
    variants = args.variants.split(",")
    pairings = args.only.split(",")
    for pairing in pairings:
        if any(name not in {level.value for level in Strategy} for name in pairing.split("-")):
            parser.error(f"unknown pairing {pairing!r}")
    batches = [
        Batch(
            n,
            v,
            pairing,
            seat,
            first,
            min(args.chunk, args.games - first),
            args.seed,
            args.untargetable,
            args.line,
        )
        for n in players
        for v in variants
        for pairing in pairings
        for seat in range(n)
        for first in range(0, args.games, args.chunk)
    ]
    started = time.time()
    wins: dict[tuple[int, str, str], int] = defaultdict(int)
    by_seat: dict[tuple[tuple[int, str, str], int], int] = defaultdict(int)
    games: dict[tuple[int, str, str], int] = defaultdict(int)
    times: dict[tuple[int, str], list[tuple[float, float]]] = defaultdict(list)
    load = os.getloadavg()
    with multiprocessing.Pool(args.workers) as pool:
        for batch, won, decided in pool.imap_unordered(play, batches):
            key = (batch.players, batch.variant, batch.pairing)
            wins[key] += won
            by_seat[key, batch.seat] += won
            games[key] += batch.count
            for level, seconds in decided.items():
                times[batch.players, level].extend(seconds)
    rows: list[dict[str, Any]] = []
    for key in sorted(games):
        low, high = wilson(wins[key], games[key])
        rows.append(
            {
                "players": key[0],
                "game": key[1],
                "pairing": key[2],
                "games": games[key],
                "win_rate": wins[key] / games[key],
                "ci95": [low, high],
                "fair": 1 / key[0],
                "by_seat": [by_seat[key, seat] * key[0] / games[key] for seat in range(key[0])],
            }
        )
    timing = []
    for (n, level), pairs in sorted(times.items()):
        wall, cpu = [w for w, _c in pairs], [c for _w, c in pairs]
        timing.append(
            {
                "players": n,
                "level": level,
                "decisions": len(pairs),
                "p50_ms": 1000 * percentile(wall, 0.5),
                "p99_ms": 1000 * percentile(wall, 0.99),
                "max_ms": 1000 * max(wall),
                "cpu_p50_ms": 1000 * percentile(cpu, 0.5),
                "cpu_p99_ms": 1000 * percentile(cpu, 0.99),
                "cpu_max_ms": 1000 * max(cpu),
            }
        )
    loads = (*load, *os.getloadavg())
    if args.json:
        print(
            json.dumps(
                {"results": rows, "timing": timing, "seconds": time.time() - started, "load": loads}, indent=2
            )
        )
        return 0
    if args.untargetable:
        print("A untargetable: the others never aim at A (a measure, not a way to play)")
    if args.line:
        print("A's line with 3 and 4 players: " + ", ".join(ship.value for ship in args.line))
    head = f"{'A wins':>7} {'95% CI':>16} {'s.e.':>5} {'fair':>5}  A wins in seat 1, 2, ..."
    print(f"{'players':>7} {'game':<8} {'A vs B':<14} {'games':>6} {head}")
    for row in rows:
        low, high = row["ci95"]
        a, b = row["pairing"].split("-")
        error = math.sqrt(row["win_rate"] * (1 - row["win_rate"]) / row["games"])
        print(
            f"{row['players']:>7} {row['game']:<8} {a + ' vs ' + b:<14} {row['games']:>6} "
            f"{100 * row['win_rate']:>6.1f}% {f'[{100 * low:.1f}, {100 * high:.1f}]':>16} "
            f"{100 * error:>5.2f} {100 * row['fair']:>4.0f}%  "
            + " ".join(f"{100 * rate:.1f}" for rate in row["by_seat"])
        )
    print()
    print("decision time (ms): wall clock, and the CPU time of the deciding thread")
    print(
        f"{'players':>7} {'level':<7} {'decisions':>9} {'p50':>7} {'p99':>7} {'max':>7} "
        f"{'cpu p50':>8} {'cpu p99':>8} {'cpu max':>8}"
    )
    for t in timing:
        print(
            f"{t['players']:>7} {t['level']:<7} {t['decisions']:>9} {t['p50_ms']:>7.2f} "
            f"{t['p99_ms']:>7.2f} {t['max_ms']:>7.1f} {t['cpu_p50_ms']:>8.2f} {t['cpu_p99_ms']:>8.2f} "
            f"{t['cpu_max_ms']:>8.1f}"
        )
    print("load average (1, 5, 15 min): start {:.1f} {:.1f} {:.1f}, end {:.1f} {:.1f} {:.1f}".format(*loads))
    print(f"\n{time.time() - started:.0f} s, {args.workers} worker(s)")
    return 0


# ---- the first player's first turn (--first-turn) ----------------------------------------


def first_turn(variant: Variant, players: int, deals: int, seed: int) -> tuple[float, float]:
    """`first_turn_chances` averaged over `deals` random lines of the others."""
    rng = np.random.default_rng(seed)
    greedy = chain = 0.0
    for _deal in range(deals):
        others = [tuple(FLEET[int(s)] for s in rng.permutation(len(FLEET))) for _p in range(players - 1)]
        normal, best = first_turn_chances(variant, others)
        greedy += normal
        chain += best
    return greedy / deals, chain / deals


def first_turn_chances(variant: Variant, others: list[tuple[Ship, ...]]) -> tuple[float, float]:
    """The first player's chance to reach the points target in its first turn, exactly over the
    dice (sinks in a row: its own line does not matter, any ship attacks), the others' lines
    being `others`: taking the best chance each time (normal; ties averaged, the Carrier
    declaring the likeliest target), and the best chain (each attack and each declaration the
    one with the most chance to finish the turn)."""
    rules = Rules()
    t = tables(variant, rules)
    players = len(others) + 1
    need = rules.default_points(players)
    mine = tuple(range(len(FLEET)))

    def targets(lines: tuple[tuple[int, ...], ...], ship: int) -> list[tuple[int, int]]:
        return [
            (side, s)
            for side in range(1, players)
            for s in (lines[side] if t.anywhere[ship] else lines[side][:EXPOSED])
        ]

    def sunk(lines: tuple[tuple[int, ...], ...], side: int, ship: int) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(s for s in line if s != ship) if p == side else line for p, line in enumerate(lines)
        )

    def split(found: list[tuple[int, int]]) -> np.ndarray:
        """Normal's Carrier: each target's share of the sinks when it declares the likeliest
        target after its roll (ties shared)."""
        after = np.stack([t.after_roll[s] for _side, s in found])
        top = after.max(axis=0)
        tied = after >= top - 1e-12
        return (t.weights * after * tied / tied.sum(axis=0)).sum(axis=1)

    best_memo: dict[tuple[tuple[tuple[int, ...], ...], int], float] = {}

    def best(lines: tuple[tuple[int, ...], ...], left: int) -> float:
        if left == 0:
            return 1.0
        key = (lines, left)
        if key not in best_memo:
            value = 0.0
            for ship in mine:
                found = targets(lines, ship)
                if not found:
                    continue
                worth = np.array([best(sunk(lines, side, s), left - 1) for side, s in found])
                if t.roll_first[ship]:
                    after = np.stack([t.after_roll[s] for _side, s in found]) * worth[:, None]
                    value = max(value, float((t.weights * after.max(axis=0)).sum()))
                else:
                    value = max(
                        value, max(t.chance[ship][s] * w for (_side, s), w in zip(found, worth, strict=True))
                    )
            best_memo[key] = value
        return best_memo[key]

    def normal(lines: tuple[tuple[int, ...], ...], left: int) -> float:
        if left == 0:
            return 1.0
        choices: list[tuple[float, list[tuple[float, int, int]]]] = []
        for ship in mine:
            found = targets(lines, ship)
            if not found:
                continue
            if t.roll_first[ship]:
                mask = sum({1 << s for _side, s in found})
                shares = split(found)
                choices.append(
                    (
                        t.declared[mask],
                        [(float(p), side, s) for p, (side, s) in zip(shares, found, strict=True)],
                    )
                )
            else:
                choices.extend((t.chance[ship][s], [(t.chance[ship][s], side, s)]) for side, s in found)
        top = max(chance for chance, _outcomes in choices)
        tied = [outcomes for chance, outcomes in choices if chance >= top - 1e-12]
        return sum(
            sum(p * normal(sunk(lines, side, s), left - 1) for p, side, s in outcomes) for outcomes in tied
        ) / len(tied)

    lines = (mine, *(tuple(FLEET.index(ship) for ship in line) for line in others))
    return normal(lines, need), best(lines, need)


# ---- exact two-player figures (--exact) -------------------------------------------------


class Exact:
    """Fixed policies played against each other on every row of `kiosk.express.duel.Duel`
    (easy and hard built here from the levels' own rules and code; normal, perfect play and the
    best response are the Duel's)."""

    def __init__(self, variant: Variant, game: Duel | None = None) -> None:
        self.variant = variant
        self.game = game or Duel(variant)

    def duel(self, a: Policy, b: Policy) -> tuple[np.ndarray, np.ndarray]:
        return self.game.evaluate(a, b, 1e-10)  # the figures have five decimals

    def normal(self) -> Policy:
        return self.game.greedy()

    def best_line(self, win_a: np.ndarray, win_b: np.ndarray) -> tuple[float, float]:
        return max((self.game.seats(win_a, win_b, line) for line in FULL), key=sum)

    def easy(self) -> Policy:
        """A ship at random, then one of its attacks at random; the Carrier declares at random."""
        at, ship = self.game.at, self.game.ship
        key = at * 8 + ship
        per_ship = np.bincount(key, minlength=(STATES + 2) * 8)[key]
        ships = np.bincount(at, weights=1.0 / per_ship, minlength=STATES + 2)[at]
        return 1.0 / per_ship / ships, self.game.undecided()

    def hard(self) -> Policy:
        """The hard level's own choice in every state (its judge, as in a game), and how it
        would declare the Carrier's target for every fall of the dice."""
        game = self.game
        # the Admiral's Carrier declares after its roll: its attack has no target yet
        carrier = FLEET.index(Ship.CARRIER) if game.rules.ship(self.variant, Ship.CARRIER).roll_first else -1
        rows = {
            (int(s), int(x), bool(m), -1 if x == carrier else int(t)): i
            for i, (s, x, m, t) in enumerate(zip(game.at, game.ship, game.moved, game.t1, strict=True))
        }
        among = {int(row): k for k, row in enumerate(game.carriers)}
        joint = {(int(game.d1[g.rows[0]]), int(game.d2[g.rows[0]])): g for g in game.groups}
        weights = np.zeros(len(game.at))
        declare = self.game.undecided()
        size = len(LINES)
        for at in np.unique(game.at):
            mine, theirs = LINES[at // size], LINES[at % size]
            pos = Position(
                self.variant,
                game.rules,
                (ships(mine), ships(theirs)),
                (5 - len(theirs), 5 - len(mine)),
                game.points_to_win,
                0,
            )
            found = options(pos)
            judge = judge_for(pos)
            values = [judge.attack(o) for o in found]
            chosen = [o for o, v in zip(found, values, strict=True) if v >= max(values) - 1e-12]
            for option in chosen:
                target = -1 if option.target is None else FLEET.index(option.target.ship)
                row = rows[at, FLEET.index(option.ship), option.line[0] is option.ship, target]
                weights[row] += 1 / len(chosen)
                if row in among:
                    g = joint[int(game.d1[row]), int(game.d2[row])]
                    gains = judge.gains(option)
                    one, two = g.q1 * gains[0], g.q2 * gains[-1]
                    declare[among[row]] = (one > two) + 0.5 * (one == two)
        return weights, declare


def exact(variant: Variant) -> None:
    started = time.time()
    bench = Exact(variant)
    game = bench.game
    easy, normal, hard = bench.easy(), bench.normal(), bench.hard()
    value = game.solve()
    perfect = game.perfect(value)
    own = tuple(FLEET.index(s) for s in Computer(Strategy.HARD).line(variant, players=2))
    levels = {"easy": easy, "normal": normal, "hard": hard, "minimax": perfect}
    print(
        f"{variant.value}: exact two-player chances of A against B, both seats, B's line at "
        f"random, A's at random, hard's ({''.join(FLEET[i].name[0] for i in own)}) or A's best; "
        f"the ceiling: the best response to B (the most any policy wins against it) with its "
        f"best line",
        flush=True,
    )
    print(
        f"  {'A':<8} {'B':<8} {'random line':>11} {'hard line':>10} {'best line':>10} "
        f"{'ceiling':>8} {'A first':>8} {'A second':>9}",
        flush=True,
    )
    pairs = {"normal": ("hard", "normal"), "minimax": ("hard",), "easy": ("hard", "normal")}
    for b_name, a_names in pairs.items():
        b = levels[b_name]
        # against perfect play the best response is perfect play: its best line is the ceiling
        ceiling = None if b_name == "minimax" else bench.best_line(*bench.duel(BEST, b))
        for a_name in a_names:
            win_a, win_b = bench.duel(levels[a_name], b)
            first, second = game.seats(win_a, win_b)
            mine = game.seats(win_a, win_b, own)
            best = bench.best_line(win_a, win_b)
            top = 50 * sum(ceiling or best)
            print(
                f"  {a_name:<8} {b_name:<8} {50 * (first + second):>10.3f}% "
                f"{50 * sum(mine):>9.3f}% {50 * sum(best):>9.3f}% {top:>7.3f}% "
                f"{100 * first:>7.3f}% {100 * second:>8.3f}%",
                flush=True,
            )
    print(f"  ({time.time() - started:.0f} s)")


if __name__ == "__main__":
    sys.exit(main())
