"""The two-player game of Battleship Express, every position of it at once, solved exactly.

A two-player position is (the mover's line, the other's line), the mover to act: the points
follow from the lines (each player has sunk what the other has lost), so one game of one rules
table has 326 x 326 = 106 276 positions. Every attack from every position is a row of numpy
arrays: where a sink leads (the mover again, or the other player where the dice pass after a
sink, or the end), where a miss leads (the other player, facing the line the attack leaves), and
its chance to sink. The Admiral's Carrier rolls before it declares: with two targets its value
is an expectation over how its dice fall (the counts of the two targets' faces and the Bursts,
84 ways) of the better declaration; a lone target is a plain attack (only its face and the
Bursts count: `odds.chance`).

`Duel.solve()` is perfect play: value iteration of the zero-sum game (each side the best reply
to the other's best) until no value moves by 1e-12. The values are the mover's chance to win
under perfect play, and they are the exact optimal policy: in every position the attack with
the best expected value after it (`kiosk.express.solved` ships them, `bench/express.py
--exact` plays fixed policies against each other on the same rows).

Every house rule of a two-player game is in the rows: the points to win, a sinker going again
or not, and a game no sink can end (the most points win, a tie goes to the sinker).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from kiosk.express import odds
from kiosk.express.match import EXPOSED, stalemate
from kiosk.express.rules import FLEET, Rules, Ship, ShipRules, Variant

Indices = tuple[int, ...]  # a line as ship indices (`FLEET` order), front first
# Every line a player can have: the ships afloat in their order (326 of them).
LINES: tuple[Indices, ...] = tuple(
    t for k in range(len(FLEET) + 1) for t in itertools.permutations(range(len(FLEET)), k)
)
LINE_INDEX = {line: i for i, line in enumerate(LINES)}
FULL: tuple[Indices, ...] = tuple(itertools.permutations(range(len(FLEET))))  # the 120 starts
TOLERANCE = 1e-12


def state(mine: Indices, theirs: Indices) -> int:
    """The position's number: the mover's line `mine`, the other's `theirs`."""
    return LINE_INDEX[mine] * len(LINES) + LINE_INDEX[theirs]


STATES = len(LINES) ** 2
WIN, LOSE = STATES, STATES + 1  # two extra slots of every value array: the game is over


def ships(line: Indices) -> tuple[Ship, ...]:
    return tuple(FLEET[i] for i in line)


# A fixed policy: per attack its share of its state's choice, and per two-target Carrier attack
# and fall of the dice the share declared at the first target; None: the best (a best response)
Policy = tuple[np.ndarray | None, np.ndarray | None]
BEST: Policy = (None, None)


@dataclass(frozen=True)
class CarrierGroup:
    """The Carrier attacks whose two targets have these defenses: their positions among
    `Duel.carriers`, their rows, the chance of each way the first roll falls, and the chance to
    sink after it at the first target and at the second."""

    among: np.ndarray
    rows: np.ndarray
    falls: tuple[tuple[int, int, int], ...]  # (first target's faces, second's, Bursts)
    p: np.ndarray
    q1: np.ndarray
    q2: np.ndarray


class Duel:
    """Every two-player position of one game (`variant`, `rules`, `points_to_win`) and every
    attack from it, as arrays (see the module's docstring)."""

    def __init__(
        self, variant: Variant, rules: Rules | None = None, points_to_win: int | None = None
    ) -> None:
        self.variant, self.rules = variant, rules or Rules()
        self.points_to_win = points_to_win or self.rules.default_points(2)
        table = [self.rules.ship(variant, s) for s in FLEET]
        defense = [s.defense for s in table]
        again = self.rules.sinker_goes_again

        # A game no sink can end depends only on which ships each side has: one table of the
        # 32 x 32 fleets (asking `stalemate` for every row took most of the build).
        fleets = [tuple(i for i in range(len(FLEET)) if mask >> i & 1) for mask in range(1 << len(FLEET))]
        frozen = [
            [stalemate((ships(a), ships(b)), lambda ship: self.rules.ship(variant, ship)) for b in fleets]
            for a in fleets
        ]
        chance = [[float(odds.chance(attacker, d)) for d in defense] for attacker in table]

        def stuck(a: Indices, b: Indices) -> bool:
            return frozen[sum(1 << i for i in a)][sum(1 << i for i in b)]

        def sunk(line: Indices, theirs: Indices, y: int) -> tuple[int, bool]:
            """Where sinking `y` leads, and whether that slot is the mover's (else the other's,
            on turn because the dice pass after a sink)."""
            rest = tuple(s for s in theirs if s != y)
            if not rest or len(FLEET) - len(rest) >= self.points_to_win:
                return WIN, True
            if stuck(line, rest):  # the game is over: the most points win, a tie the sinker
                return (WIN if len(rest) <= len(line) else LOSE), True
            return (state(line, rest), True) if again else (state(rest, line), False)

        rows: list[tuple[float, ...]] = []
        for l1, l2 in itertools.product(LINES, LINES):
            if not l1 or not l2 or stuck(l1, l2):
                continue
            at = state(l1, l2)
            for x in l1:
                attacker = table[x]
                after = [((x, *(s for s in l1 if s != x)), True)]
                if attacker.stays and l1[0] != x:
                    after.append((l1, False))
                for line, moved in after:
                    fail = state(l2, line)
                    targets = l2 if attacker.anywhere else l2[:EXPOSED]
                    sinks = [(y, *sunk(line, l2, y)) for y in targets]
                    if attacker.roll_first and len(sinks) == 2:
                        (y1, s1, m1), (y2, s2, m2) = sinks
                        rows.append(
                            (at, 1, 0.0, s1, m1, s2, m2, fail, defense[y1], defense[y2], x, moved, y1, y2)
                        )
                    else:
                        rows.extend(
                            (
                                at,
                                0,
                                chance[x][y],
                                s,
                                m,
                                s,
                                m,
                                fail,
                                0,
                                0,
                                x,
                                moved,
                                y,
                                y,
                            )
                            for y, s, m in sinks
                        )
        a = np.array(rows, dtype=float)
        as_int = [a[:, i].astype(np.int64) for i in range(a.shape[1])]
        (
            self.at,
            self.carrier,
            _p,
            self.sink1,
            self.mine1,
            self.sink2,
            self.mine2,
            self.fail,
            self.d1,
            self.d2,
            self.ship,
            self.moved,
            self.t1,
            self.t2,
        ) = as_int
        self.p = a[:, 2]
        self.carrier = self.carrier.astype(bool)
        self.mine1, self.mine2 = self.mine1.astype(bool), self.mine2.astype(bool)
        self.moved = self.moved.astype(bool)
        self.carriers = np.flatnonzero(self.carrier)  # the two-target Carrier attacks
        self.groups = self._groups(table[FLEET.index(Ship.CARRIER)], set(defense))
        self.start = np.array([state(x, y) for x in FULL for y in FULL])

    def _groups(self, carrier: ShipRules, defenses: set[int]) -> list[CarrierGroup]:
        found = []
        for d1, d2 in itertools.product(sorted(defenses), repeat=2):
            among = np.flatnonzero((self.d1[self.carriers] == d1) & (self.d2[self.carriers] == d2))
            if not len(among):
                continue
            ways: dict[tuple[int, int, int], float] = defaultdict(float)
            for counts, chance in odds.first_rolls(carrier.dice):
                ways[counts[0], counts[1], counts[odds.BURST_INDEX]] += float(chance)
            after = [
                (
                    p,
                    float(odds.chance_after_split(carrier, d1, t1, u)),
                    float(odds.chance_after_split(carrier, d2, t2, u)),
                )
                for (t1, t2, u), p in sorted(ways.items())
            ]
            p, q1, q2 = (np.array(column) for column in zip(*after, strict=True))
            found.append(CarrierGroup(among, self.carriers[among], tuple(sorted(ways)), p, q1, q2))
        return found

    def outcomes(self, own: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per attack, the mover's chance to win after a miss, after sinking its (first) target
        and after sinking the second; the mover wins `own` from its states, the other `other`."""
        miss = 1 - other[self.fail]
        one = np.where(self.mine1, own[self.sink1], 1 - other[self.sink1])
        two = np.where(self.mine2, own[self.sink2], 1 - other[self.sink2])
        return miss, one, two

    def values(
        self,
        own: np.ndarray,
        other: np.ndarray,
        declare: np.ndarray | None = None,
        split: list[tuple[np.ndarray, np.ndarray]] | None = None,
    ) -> np.ndarray:
        """Each attack's value to the mover. `declare`: for each Carrier attack (row of
        `carriers`) and way its dice fall, the share declared at the first target (None: the
        better one); `split`: the same fixed declarations as `split(declare)` makes them."""
        miss, one, two = self.outcomes(own, other)
        out = self.p * one + (1 - self.p) * miss
        if split is None and declare is not None:
            split = self.split(declare)
        for k, g in enumerate(self.groups):
            base = miss[g.rows]
            if split is not None:  # fixed declarations: linear in the two gains
                first, second = split[k]
                out[g.rows] = base + (one[g.rows] - base) * first + (two[g.rows] - base) * second
                continue
            gain1 = np.outer(one[g.rows] - base, g.q1)
            gain2 = np.outer(two[g.rows] - base, g.q2)
            out[g.rows] = base + np.maximum(gain1, gain2) @ g.p
        return out

    def split(self, declare: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Fixed Carrier declarations folded over the falls of the dice: per group, each
        attack's chance to sink the first target and the second (the value is linear in them,
        so a sweep of a fixed policy needs no table of falls)."""
        return [((declare[g.among] * g.q1) @ g.p, ((1 - declare[g.among]) * g.q2) @ g.p) for g in self.groups]

    def play(self, values: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        """A state's value when its mover picks attacks by `weights` (its share of each
        state's choice; None: the best)."""
        if weights is None:
            best = np.full(STATES + 2, -np.inf)
            np.maximum.at(best, self.at, values)
            best[~np.isfinite(best)] = 0.0
        else:
            best = np.bincount(self.at, weights=weights * values, minlength=STATES + 2)
        best[WIN], best[LOSE] = 1.0, 0.0
        return best

    def solve(
        self,
        tolerance: float = TOLERANCE,
        sweeps: int = 100_000,
        progress: Callable[[int, float], None] | None = None,
    ) -> np.ndarray:
        """Perfect play: the mover's chance to win in every state (value iteration)."""
        value = np.zeros(STATES + 2)
        for sweep in range(sweeps):
            new = self.play(self.values(value, value), None)
            change = float(np.abs(new - value).max())
            value = new
            if progress is not None:
                progress(sweep, change)
            if change < tolerance:
                return value
        raise ArithmeticError(f"value iteration did not reach {tolerance} in {sweeps} sweeps")

    def evaluate(self, a: Policy, b: Policy, tolerance: float = TOLERANCE) -> tuple[np.ndarray, np.ndarray]:
        """Two fixed policies against each other (BEST: the best response to the other): A's
        chance to win in every state where A moves, and B's where B moves."""
        win_a = np.zeros(STATES + 2)
        win_b = np.zeros(STATES + 2)
        split_a = None if a[1] is None else self.split(a[1])
        split_b = None if b[1] is None else self.split(b[1])
        for _sweep in range(100_000):
            new_a = self.play(self.values(win_a, win_b, a[1], split_a), a[0])
            new_b = self.play(self.values(win_b, win_a, b[1], split_b), b[0])
            change = max(np.abs(new_a - win_a).max(), np.abs(new_b - win_b).max())
            win_a, win_b = new_a, new_b
            if change < tolerance:
                return win_a, win_b
        raise ArithmeticError(f"policy evaluation did not reach {tolerance}")

    def argmax(self, scores: np.ndarray) -> np.ndarray:
        """Weights sharing each state's choice among its best-scoring attacks (ties at random)."""
        best = np.full(STATES + 2, -np.inf)
        np.maximum.at(best, self.at, scores)
        top = scores >= best[self.at] - 1e-12
        return top / np.bincount(self.at, weights=top, minlength=STATES + 2)[self.at]

    def undecided(self) -> np.ndarray:
        """A Carrier declaration for each attack and fall of the dice: either target alike."""
        return np.full((len(self.carriers), len(self.groups[0].p) if self.groups else 0), 0.5)

    def greedy(self) -> Policy:
        """The normal level: the best chance to sink (ties at random); the Carrier declares the
        likelier target for its roll."""
        scores = self.p.copy()
        declare = self.undecided()
        for g in self.groups:
            scores[g.rows] = np.maximum(g.q1, g.q2) @ g.p
            declare[g.among] = (g.q1 > g.q2) + 0.5 * (g.q1 == g.q2)
        return self.argmax(scores), declare

    def perfect(self, value: np.ndarray) -> Policy:
        """The policy of solved values: the best attack, and the better declaration."""
        declare = self.undecided()
        miss, one, two = self.outcomes(value, value)
        for g in self.groups:
            gain1 = np.outer(one[g.rows] - miss[g.rows], g.q1)
            gain2 = np.outer(two[g.rows] - miss[g.rows], g.q2)
            declare[g.among] = (gain1 > gain2) + 0.5 * (gain1 == gain2)
        return self.argmax(self.values(value, value)), declare

    def seats(self, win_a: np.ndarray, win_b: np.ndarray, line: Indices | None = None) -> tuple[float, float]:
        """A's chance moving first and moving second: B's line at random, A's too or `line`."""
        if line is None:
            return float(win_a[self.start].mean()), float(1 - win_b[self.start].mean())
        return (
            float(np.mean([win_a[state(line, b)] for b in FULL])),
            float(np.mean([1 - win_b[state(b, line)] for b in FULL])),
        )

    def line_scores(self, win_a: np.ndarray, win_b: np.ndarray) -> np.ndarray:
        """For each of A's 120 starting lines (`FULL`), A's chance both seats alike, B's line
        at random."""
        size = len(FULL)
        first = win_a[self.start].reshape(size, size)
        second = 1 - win_b[self.start].reshape(size, size)  # B's line first, A's second
        return (first.mean(axis=1) + second.mean(axis=0)) / 2

    def residual(self, value: np.ndarray) -> float:
        """How far `value` is from perfect play: the largest change one more sweep makes."""
        return float(np.abs(self.play(self.values(value, value), None) - value).max())
