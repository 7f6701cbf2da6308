"""The computer's three levels of Battleship Express. Each reads the public view only and answers
with the command a player would send (`Attack`, or `Declare` for the Carrier's second step).

* easy: a legal attack at random.
* normal: the attack with the best chance to sink (ties at random); the Carrier's chance counts
  choosing its target after the roll.
* hard: the best expected outcome: for every attack, the chance to sink times its chance to win
  after the sink (it goes again), plus the chance to miss times its chance to win after the miss
  (the next player on turn, facing the line this attack leaves exposed). With two players that
  chance is perfect play's (the solved game, `kiosk.express.solved`): hard plays the exact
  optimal policy and lays the line that wins most under perfect play. With three and four,
  `race.win_chances`: who is closest to winning, at what rate each player scores. Figures and
  the method: docs/express.md.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from kiosk.express import duel, solved
from kiosk.express.match import EXPOSED, Attack, Declare, Target
from kiosk.express.position import (
    INDEX,
    Line,
    Lines,
    Option,
    Position,
    declarations,
    options,
    tables,
)
from kiosk.express.race import Racer, win_chances
from kiosk.express.rules import FLEET, Rules, Ship, Variant

T = TypeVar("T")


class Strategy(enum.Enum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


class Computer:
    """One computer seat: `decide(view)` gives the command for the player on turn."""

    def __init__(self, level: Strategy, seed: int | None = None) -> None:
        self.level = level
        self.rng = random.Random(seed)

    def decide(self, view: Mapping[str, Any]) -> Attack | Declare:
        pos = Position.from_view(view)
        if view["phase"] == "target":
            return Declare(self._declare(pos), side=pos.turn)
        return self._attack(pos).command(pos.turn)

    def line(
        self,
        variant: Variant,
        rules: Rules | None = None,
        players: int | None = None,
        points_to_win: int | None = None,
    ) -> Line:
        """How this level lays out its ships before the game (front first). Hard with two
        players: the line that wins most under perfect play (once the game is solved), else
        the guarded line."""
        rules = rules or Rules()
        if self.level is Strategy.HARD:
            if players == 2:
                found = solved.solution(variant, rules, points_to_win or rules.default_points(2))
                if found is not None:
                    return tuple(FLEET[i] for i in found.line)
            return guarded_line(variant, rules)
        ships = list(FLEET)
        self.rng.shuffle(ships)
        return tuple(ships)

    # -- the levels --

    def _attack(self, pos: Position) -> Option:
        found = options(pos)
        if self.level is Strategy.EASY:
            ship = self.rng.choice(pos.lines[pos.turn])
            return self.rng.choice([o for o in found if o.ship is ship])
        if self.level is Strategy.NORMAL:
            return self._best(found, [o.chance for o in found])
        judge = judge_for(pos)
        return self._best(found, [judge.attack(o) for o in found])

    def _declare(self, pos: Position) -> Target:
        found = declarations(pos)
        if self.level is Strategy.EASY:
            return self.rng.choice(found)[0]
        if self.level is Strategy.NORMAL:
            return self._best([t for t, _c in found], [c for _t, c in found])
        judge = judge_for(pos)
        return self._best([t for t, _c in found], [judge.declared(t, c) for t, c in found])

    def _best(self, items: Sequence[T], values: Sequence[float]) -> T:
        top = max(values)
        return self.rng.choice(
            [item for item, value in zip(items, values, strict=True) if value >= top - 1e-12]
        )


# ---- hard: the value of an attack -------------------------------------------------------


class Judge:
    """The hard level's view of one decision: the attacker's chance to win after each outcome.
    Its cache of standings lives as long as the decision (positions seldom repeat across turns)."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.me = pos.turn
        self.t = tables(pos.variant, pos.rules)
        self.lines: Lines = tuple(_indices(line) for line in pos.lines)
        self._standings: dict[tuple[Lines, tuple[int, ...], int], float] = {}

    def attack(self, option: Option) -> float:
        """The chance to win after this attack, in expectation over its dice."""
        line = _indices(option.line)
        miss = self.after_miss(line)
        if option.target is not None:
            return option.chance * self.after_sink(line, option.target) + (1 - option.chance) * miss
        # The Admiral's Carrier: for every way its first roll falls, the best target to declare.
        targets = self.pos.targets(self.me, Ship.CARRIER)
        gains = np.array(self.gains(option))
        chances = np.stack([self.t.after_roll[INDEX[t.ship]] for t in targets])
        return miss + float((self.t.weights * (chances * gains[:, None]).max(axis=0)).sum())

    def gains(self, option: Option) -> list[float]:
        """For each target the Carrier may declare after its roll (`Position.targets` order):
        how much sinking it adds to the attacker's chance to win over a miss."""
        line = _indices(option.line)
        miss = self.after_miss(line)
        return [self.after_sink(line, t) - miss for t in self.pos.targets(self.me, Ship.CARRIER)]

    def declared(self, target: Target, chance: float) -> float:
        """The chance to win after declaring `target` for a Carrier roll with this `chance`."""
        line = self.lines[self.me]
        return chance * self.after_sink(line, target) + (1 - chance) * self.after_miss(line)

    def after_sink(self, line: tuple[int, ...], target: Target) -> float:
        """Once `target` is sunk, the attacker's own line being `line`."""
        pos, me = self.pos, self.me
        lines = list(self.lines)
        lines[me] = line
        sunk = INDEX[target.ship]
        lines[target.side] = tuple(s for s in lines[target.side] if s != sunk)
        points = list(pos.points)
        points[me] += 1
        if points[me] >= pos.points_to_win or not any(lines[p] for p in range(len(lines)) if p != me):
            return 1.0
        if (not lines[target.side] and not pos.rules.fleetless_skipped) or self._stalemate(lines):
            return 1.0 if points[me] == max(points) else 0.0  # the game ends: the most points win
        mover = me if pos.rules.sinker_goes_again else _next(lines, me)
        return self.standing(tuple(lines), tuple(points), mover)

    def _stalemate(self, lines: Sequence[tuple[int, ...]]) -> bool:
        """No ship left can sink any enemy ship (`kiosk.express.match.stalemate`)."""
        can = self.t.can_sink
        return not any(
            can[ship][enemy]
            for player, line in enumerate(lines)
            for ship in line
            for other, enemies in enumerate(lines)
            if other != player
            for enemy in enemies
        )

    def after_miss(self, line: tuple[int, ...]) -> float:
        """When the attack misses and the dice pass on."""
        lines = list(self.lines)
        lines[self.me] = line
        return self.standing(tuple(lines), self.pos.points, _next(lines, self.me))

    def standing(self, lines: Lines, points: tuple[int, ...], mover: int) -> float:
        """The attacker's chance to win from here, `mover` on turn (the race of `race.py`)."""
        key = (lines, points, mover)
        if key not in self._standings:
            self._standings[key] = self._race(lines, points, mover)
        return self._standings[key]

    def _race(self, lines: Lines, points: tuple[int, ...], mover: int) -> float:
        t = self.t
        masks = [sum(1 << ship for ship in line) for line in lines]
        fronts = [sum(1 << ship for ship in line[:EXPOSED]) for line in lines]
        afloat = [sum(mask >> ship & 1 for mask in masks) for ship in range(len(FLEET))]
        ships_left = sum(len(line) for line in lines)
        runners = []
        for player, line in enumerate(lines):
            enemies = ships_left - len(line)
            needs = min(self.pos.points_to_win - points[player], enemies)
            if not line or not enemies:
                runners.append(Racer(needs, 0.0, 0.0, afloat=bool(line)))
                continue
            exposed = anywhere = 0  # bit masks of the enemy ships exposed, and afloat
            for other, mask in enumerate(masks):
                if other != player:
                    exposed |= fronts[other]
                    anywhere |= mask
            # Its next attack against what is exposed now; every later one by fleets alone: its
            # best ship against an average enemy ship (blending in the exposure measured worse).
            first = max(t.best[ship][anywhere if t.anywhere[ship] else exposed] for ship in line)
            mine = masks[player]
            later = max(
                sum(row[enemy] * (afloat[enemy] - (mine >> enemy & 1)) for enemy in range(len(FLEET)))
                for row in (t.chance[s] for s in line)
            )
            runners.append(Racer(needs, first, later / enemies))
        return win_chances(runners, mover, self.pos.rules.sinker_goes_again)[self.me]


class Perfect(Judge):
    """Hard with two players: the chance to win after each outcome is perfect play's, read from
    the solved game, so the attack it finds best is the exact optimal policy's."""

    def __init__(self, pos: Position, values: np.ndarray) -> None:
        super().__init__(pos)
        self.values = values

    def standing(self, lines: Lines, points: tuple[int, ...], mover: int) -> float:
        me, other = self.me, 1 - self.me
        if mover == me:
            return float(self.values[duel.state(lines[me], lines[other])])
        return 1.0 - float(self.values[duel.state(lines[other], lines[me])])


def judge_for(pos: Position) -> Judge:
    """Perfect play where the two-player game of these rules is solved, else the race."""
    if pos.players == 2:
        found = solved.solution(pos.variant, pos.rules, pos.points_to_win)
        if found is not None:
            return Perfect(pos, found.values)
    return Judge(pos)


def _indices(line: Line) -> tuple[int, ...]:
    return tuple(INDEX[ship] for ship in line)


def _next(lines: Sequence[tuple[int, ...]], player: int) -> int:
    count = len(lines)
    return next(p for p in ((player + k) % count for k in range(1, count + 1)) if lines[p])


def prepare(
    variant: Variant, rules: Rules | None = None, players: int | None = None, points_to_win: int | None = None
) -> None:
    """Build the exact tables a game needs (about a second of fractions for the Admiral's game)
    before its first decision, e.g. while the setup screen closes, so no decision waits. With
    two players also the solved game: the shipped file read (a few ms), or for other rules its
    solve started in the background."""
    rules = rules or Rules()
    tables(variant, rules)
    if players == 2:
        solved.solution(variant, rules, points_to_win or rules.default_points(2))


def guarded_line(variant: Variant, rules: Rules) -> Line:
    """The hard level's line: the two best defenses in front (the weaker attacker first where
    defenses tie), then the weakest attackers, the best one last, hidden until it attacks.
    It is the line the exact two-player solution found best for the first player, in both games
    (docs/express.md)."""
    chances = tables(variant, rules).chance

    def strength(ship: Ship) -> float:
        return sum(chances[INDEX[ship]]) / len(FLEET)

    def defense(ship: Ship) -> int:
        return rules.ship(variant, ship).defense

    front = sorted(FLEET, key=lambda s: (-defense(s), strength(s)))[:2]
    rest = sorted((s for s in FLEET if s not in front), key=lambda s: (strength(s), defense(s)))
    return (*front, *rest)
