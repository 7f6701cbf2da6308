"""Benchmark of the Battleship Express computer: round-robin of the levels, and decision time.

    python bench/express.py [--games N] [--seed S] [--players 2,3,4] [--variants admiral,captain]
                            [--only normal-easy,hard-normal,hard-easy] [--workers W] [--json]
    python bench/express.py --exact [--variants admiral,captain]

For each number of players, game and pairing "A-B", one seat is A and the others are B; A sits
in each seat in turn for N games (2000 by default), so every seat order is played equally. The
games run through the real rules engine (`kiosk.express.match`); each computer lays its own
line and reads only the public view. Every game has its own seed (dice, lines, the computers'
tie-breaks), so the figures do not depend on how games are spread over the worker processes.
Printed: A's win rate with a 95 % Wilson interval next to a fair share (1/players), and the
decision time of each level (p50, p99, max) once its tables are built (`prepare`, as the kiosk
does when a game is set up).

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
import itertools
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

from kiosk.express import odds
from kiosk.express.ai import Computer, Strategy
from kiosk.express.levels import Judge, prepare
from kiosk.express.match import Match, Phase, Setup, stalemate
from kiosk.express.position import Position, options
from kiosk.express.rules import FLEET, Rules, Ship, ShipRules, Variant

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
    a, b = (Strategy(name) for name in batch.pairing.split("-"))
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
    parser.add_argument("--exact", action="store_true", help="exact two-player figures (no dice)")
    args = parser.parse_args(argv)
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
    rows: list[dict[str, Any]] = []
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


# ---- exact two-player figures (--exact) -------------------------------------------------

Weights = np.ndarray | None  # a policy: for each attack its share of the state's choice; None: best


class TwoPlayers:
    """Every two-player position of one game and every attack from it, as arrays.

    A state is (mover's line, other's line), the mover to act; the points are what each has
    sunk. An attack leads on a sink to the mover's state again (or a win), on a miss to the
    other player's state. The Admiral's Carrier rolls before it declares: its value is an
    expectation over how the six dice fall (by the counts of the two target faces and Bursts,
    84 ways) of the better declaration, or of the one a level would make.
    """

    def __init__(self, variant: Variant, rules: Rules | None = None) -> None:
        self.variant, self.rules = variant, rules or Rules()
        ships = [self.rules.ship(variant, s) for s in FLEET]
        defense = [s.defense for s in ships]
        self.lines = [t for k in range(len(FLEET) + 1) for t in itertools.permutations(range(5), k)]
        index = {line: i for i, line in enumerate(self.lines)}
        size = len(self.lines)
        self.states = size * size
        self.WIN, self.LOSE = self.states, self.states + 1  # the value arrays' two extra slots
        self.state = lambda a, b: index[a] * size + index[b]
        carrier = ships[FLEET.index(Ship.CARRIER)]
        self.joint: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        if carrier.roll_first:
            for d1, d2 in itertools.product(set(defense), repeat=2):
                ways: dict[tuple[int, int, int], float] = defaultdict(float)
                for counts, p in odds.first_rolls(carrier.dice):
                    ways[counts[0], counts[1], counts[odds.BURST_INDEX]] += float(p)
                table = np.array([
                    (p, float(odds._after(carrier, d1, carrier.dice, 0, carrier.rolls, t1, u)),
                     float(odds._after(carrier, d2, carrier.dice, 0, carrier.rolls, t2, u)))
                    for (t1, t2, u), p in sorted(ways.items())])
                self.joint[d1, d2] = (table[:, 0], table[:, 1], table[:, 2])
        def stuck(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
            return stalemate((_ships(a), _ships(b)), lambda ship: self.rules.ship(variant, ship))

        def sunk(line: tuple[int, ...], theirs: tuple[int, ...], y: int) -> int:
            """Where sinking `y` leads: a win, a stalemate (most points win; a tie goes to the
            sinker), or the mover's next attack."""
            rest = tuple(s for s in theirs if s != y)
            if not rest:
                return self.WIN
            if stuck(line, rest):
                return self.WIN if len(rest) <= len(line) else self.LOSE
            return self.state(line, rest)

        attacks: list[tuple[float, ...]] = []
        for l1 in self.lines:
            for l2 in self.lines:
                if not l1 or not l2 or stuck(l1, l2):
                    continue
                for x in l1:
                    after = [((x, *(s for s in l1 if s != x)), True)]
                    if ships[x].stays and l1[0] != x:
                        after.append((l1, False))
                    for line, moved in after:
                        fail = self.state(l2, line)
                        sinks = [(y, sunk(line, l2, y)) for y in (l2 if ships[x].anywhere else l2[:2])]
                        if ships[x].roll_first:
                            (y1, s1), (y2, s2) = sinks[0], sinks[-1]
                            attacks.append((self.state(l1, l2), 1, 0.0, s1, s2, fail, defense[y1],
                                            defense[y2], x, moved, y1, y2))
                        else:
                            attacks.extend((self.state(l1, l2), 0, odds_float(ships[x], defense[y]), s,
                                            0, fail, 0, 0, x, moved, y, y) for y, s in sinks)
        a = np.array(attacks, dtype=float)
        (self.at, self.carrier, self.p, self.sink1, self.sink2, self.fail, self.d1, self.d2,
         self.ship, self.moved, self.t1, self.t2) = (a[:, i] for i in range(12))
        for name in ("at", "carrier", "sink1", "sink2", "fail", "d1", "d2", "ship", "t1", "t2"):
            setattr(self, name, getattr(self, name).astype(int))
        self.moved = self.moved.astype(bool)
        self.carriers = np.flatnonzero(self.carrier)  # the Carrier attacks, rows of `declare`
        perms = list(itertools.permutations(range(5)))
        self.start = np.array([self.state(a, b) for a in perms for b in perms])

    def groups(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """The Carrier attacks by their two targets' defenses: (positions among `carriers`,
        their rows, chance of each fall of the dice, sink chance at target 1, at target 2)."""
        found = []
        for (d1, d2), (p, q1, q2) in self.joint.items():
            among = np.flatnonzero((self.d1[self.carriers] == d1) & (self.d2[self.carriers] == d2))
            if len(among):
                found.append((among, self.carriers[among], p, q1, q2))
        return found

    def values(self, own: np.ndarray, other: np.ndarray, declare: np.ndarray | None) -> np.ndarray:
        """Each attack's value to the mover, who wins `own` from its next states and loses what
        the other wins from its. `declare`: for each Carrier attack (row of `carriers`) and way
        its dice fall, the share declared at the first target (None: the better one)."""
        miss = 1 - other[self.fail]
        out = self.p * own[self.sink1] + (1 - self.p) * miss
        for among, rows, p, q1, q2 in self.groups():
            base = miss[rows]
            gain1 = np.outer(own[self.sink1[rows]] - base, q1)
            gain2 = np.outer(own[self.sink2[rows]] - base, q2)
            chosen = (np.maximum(gain1, gain2) if declare is None
                      else declare[among] * gain1 + (1 - declare[among]) * gain2)
            out[rows] = base + chosen @ p
        return out

    def play(self, values: np.ndarray, weights: Weights) -> np.ndarray:
        """A state's value when its mover picks attacks by `weights` (None: the best)."""
        if weights is None:
            best = np.full(self.states + 2, -np.inf)
            np.maximum.at(best, self.at, values)
            best[~np.isfinite(best)] = 0.0
        else:
            best = np.bincount(self.at, weights=weights * values, minlength=self.states + 2)
        best[self.WIN], best[self.LOSE] = 1.0, 0.0
        return best

    def duel(self, a: tuple[Weights, np.ndarray | None], b: tuple[Weights, np.ndarray | None]
             ) -> tuple[np.ndarray, np.ndarray]:
        """A's chance to win in every state where A moves, and B's where B moves."""
        win_a = np.zeros(self.states + 2)
        win_b = np.zeros(self.states + 2)
        for _sweep in range(5000):
            new_a = self.play(self.values(win_a, win_b, a[1]), a[0])
            new_b = self.play(self.values(win_b, win_a, b[1]), b[0])
            change = max(np.abs(new_a - win_a).max(), np.abs(new_b - win_b).max())
            win_a, win_b = new_a, new_b
            if change < 1e-10:
                break
        return win_a, win_b

    def seats(self, win_a: np.ndarray, win_b: np.ndarray, line: tuple[int, ...] | None = None
              ) -> tuple[float, float]:
        """A's chance moving first and moving second: B's line at random, A's too or `line`."""
        if line is None:
            return float(win_a[self.start].mean()), float(1 - win_b[self.start].mean())
        others = list(itertools.permutations(range(5)))
        return (float(np.mean([win_a[self.state(line, b)] for b in others])),
                float(np.mean([1 - win_b[self.state(b, line)] for b in others])))

    def argmax(self, scores: np.ndarray) -> np.ndarray:
        """Weights sharing each state's choice among its best-scoring attacks (ties at random)."""
        best = np.full(self.states + 2, -np.inf)
        np.maximum.at(best, self.at, scores)
        top = scores >= best[self.at] - 1e-12
        return top / np.bincount(self.at, weights=top, minlength=self.states + 2)[self.at]

    def easy(self) -> tuple[np.ndarray, np.ndarray]:
        """A ship at random, then one of its attacks at random; the Carrier declares at random."""
        key = self.at * 8 + self.ship
        per_ship = np.bincount(key, minlength=(self.states + 2) * 8)[key]
        ships = np.bincount(self.at, weights=1.0 / per_ship, minlength=self.states + 2)[self.at]
        return 1.0 / per_ship / ships, np.full((len(self.carriers), 84), 0.5)

    def normal(self) -> tuple[np.ndarray, np.ndarray]:
        """The best chance to sink; the Carrier declares the likelier target."""
        scores = self.p.copy()
        declare = np.full((len(self.carriers), 84), 0.5)
        for among, rows, p, q1, q2 in self.groups():
            scores[rows] = np.maximum(q1, q2) @ p
            declare[among] = (q1 > q2) + 0.5 * (q1 == q2)
        return self.argmax(scores), declare

    def minimax(self) -> tuple[np.ndarray, np.ndarray]:
        """Perfect play: each side the best reply to the other's best (value iteration of the
        zero-sum game), and its declaration by those values."""
        value = np.zeros(self.states + 2)
        for _sweep in range(5000):
            new = self.play(self.values(value, value, None), None)
            change = np.abs(new - value).max()
            value = new
            if change < 1e-10:
                break
        declare = np.full((len(self.carriers), 84), 0.5)
        miss = 1 - value[self.fail]
        for among, rows, _p, q1, q2 in self.groups():
            one = np.outer(value[self.sink1[rows]] - miss[rows], q1)
            two = np.outer(value[self.sink2[rows]] - miss[rows], q2)
            declare[among] = (one > two) + 0.5 * (one == two)
        return self.argmax(self.values(value, value, None)), declare

    def hard(self) -> tuple[np.ndarray, np.ndarray]:
        """The hard level's own choice in every state (its `Judge`, as in a game), and how it
        would declare the Carrier's target for every fall of the dice."""
        rows = {(int(s), int(x), bool(m), int(t) if not c else -1): i for i, (s, x, m, t, c) in
                enumerate(zip(self.at, self.ship, self.moved, self.t1, self.carrier, strict=True))}
        among = {int(row): k for k, row in enumerate(self.carriers)}
        moves = set(self.at.tolist())
        weights = np.zeros(len(self.at))
        declare = np.full((len(self.carriers), 84), 0.5)
        size = len(self.lines)
        for state in range(self.states):
            mine, theirs = self.lines[state // size], self.lines[state % size]
            if not mine or not theirs or state not in moves:
                continue
            pos = Position(self.variant, self.rules, (_ships(mine), _ships(theirs)),
                           (5 - len(theirs), 5 - len(mine)), 5, 0)
            judge = Judge(pos)
            found = options(pos)
            values = [judge.attack(o) for o in found]
            chosen = [o for o, v in zip(found, values, strict=True) if v >= max(values) - 1e-12]
            for option in chosen:
                target = -1 if option.target is None else FLEET.index(option.target.ship)
                row = rows[state, FLEET.index(option.ship), option.line[0] is option.ship, target]
                weights[row] += 1 / len(chosen)
                if option.target is None:
                    _p, q1, q2 = self.joint[self.d1[row], self.d2[row]]
                    gains = judge.gains(option)
                    one, two = q1 * gains[0], q2 * gains[-1]
                    declare[among[row]] = (one > two) + 0.5 * (one == two)
        return weights, declare


def _ships(line: tuple[int, ...]) -> tuple[Ship, ...]:
    return tuple(FLEET[i] for i in line)


def odds_float(attacker: ShipRules, defense: int) -> float:
    return float(odds.chance(attacker, defense))


def exact(variant: Variant) -> None:
    started = time.time()
    game = TwoPlayers(variant)
    easy, normal, hard, perfect = game.easy(), game.normal(), game.hard(), game.minimax()
    best: tuple[Weights, np.ndarray | None] = (None, None)
    guarded = tuple(FLEET.index(s) for s in Computer(Strategy.HARD).line(variant))
    rows = [("normal", "easy", normal, easy), ("hard", "easy", hard, easy),
            ("hard", "normal", hard, normal), ("best response", "easy", best, easy),
            ("best response", "normal", best, normal), ("minimax", "normal", perfect, normal),
            ("normal", "normal", normal, normal)]
    print(f"{variant.value}: exact two-player chances (both seats; lines at random unless said)")
    print(f"  {'A':<26} {'B':<7} {'A first':>8} {'A second':>9} {'A overall':>10}")

    def show(name: str, other: str, first: float, second: float) -> None:
        print(f"  {name:<26} {other:<7} {100 * first:>7.2f}% {100 * second:>8.2f}% "
              f"{50 * (first + second):>9.2f}%", flush=True)

    for a_name, b_name, a, b in rows:
        win_a, win_b = game.duel(a, b)
        show(a_name, b_name, *game.seats(win_a, win_b))
        if a_name == "hard":
            show("hard, its own line", b_name, *game.seats(win_a, win_b, guarded))
        if a_name in ("best response", "minimax"):
            lines = [game.seats(win_a, win_b, line) for line in itertools.permutations(range(5))]
            show(f"{a_name}, best line", b_name, *max(lines, key=sum))
    print(f"  ({time.time() - started:.0f} s)")


if __name__ == "__main__":
    sys.exit(main())
