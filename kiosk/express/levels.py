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
import math
import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

import numpy as np

from kiosk.express import duel, solved
from kiosk.express.match import EXPOSED, Attack, Declare, Target
from kiosk.express.position import (
    COUNT_BASE,
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
FOLLOWED = 3  # the hard level's best attacks followed further into its turn (`Judge.attacks`)
RACES_KEPT = 200_000  # race values kept per rules table (a few tens of MB at most)


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
        return self._best(found, judge_for(pos).attacks(found))

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

    lookahead = 1  # sinks followed within the attacker's own turn (0: the race right after a sink)

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.me = pos.turn
        self.t = tables(pos.variant, pos.rules)
        self.lines: Lines = tuple(_indices(line) for line in pos.lines)
        self._standings: dict[tuple[Lines, tuple[int, ...], int], float] = {}

    def attacks(self, found: Sequence[Option]) -> list[float]:
        """Each attack's value (`attack`): all of them judged with the race right after a sink,
        then the `FOLLOWED` best of those again, following `lookahead` sinks into the turn
        (where a choice is close, what each sink uncovers decides it); the others get -inf."""
        depth, self.lookahead = self.lookahead, 0
        values = [self.attack(o) for o in found]
        self.lookahead = depth
        if not depth:
            return values
        followed = sorted(range(len(found)), key=values.__getitem__, reverse=True)[:FOLLOWED]
        judged = [-math.inf] * len(found)  # the choice is among the followed ones
        for i in followed:
            judged[i] = self.attack(found[i])
        return judged

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
        lines = list(self.lines)
        lines[self.me] = line
        return self.sunk(lines, self.pos.points, target.side, INDEX[target.ship], self.lookahead)

    def sunk(
        self, lines: list[tuple[int, ...]], points: Sequence[int], side: int, ship: int, depth: int
    ) -> float:
        """The attacker's chance to win once it sinks `ship` of player `side` (`lines`: before
        the sink, its own line already moved); `depth`: sinks to follow in its own turn."""
        pos, me = self.pos, self.me
        lines = list(lines)
        lines[side] = tuple(s for s in lines[side] if s != ship)
        scored = list(points)
        scored[me] += 1
        if scored[me] >= pos.points_to_win or not any(lines[p] for p in range(len(lines)) if p != me):
            return 1.0
        if (not lines[side] and not pos.rules.fleetless_skipped) or self._stalemate(lines):
            return 1.0 if scored[me] == max(scored) else 0.0  # the game ends: the most points win
        if not pos.rules.sinker_goes_again:
            return self.standing(tuple(lines), tuple(scored), _next(lines, me))
        if depth > 0:
            return self.on_turn(tuple(lines), tuple(scored), depth)
        return self.standing(tuple(lines), tuple(scored), me)

    def on_turn(self, lines: Lines, points: tuple[int, ...], depth: int) -> float:
        """The attacker on turn again after a sink: the best of its next attacks, each judged
        by its exact chance, the line it leaves, and what that sink uncovers (`depth` sinks
        further). The Admiral's Carrier is valued as declaring first here (a lower bound)."""
        key = (lines, points, -1 - depth)
        found = self._standings.get(key)
        if found is not None:
            return found
        me, t = self.me, self.t
        line = lines[me]
        best = 0.0
        for ship in line:
            moved = (ship, *(s for s in line if s != ship))
            for after in (moved, line) if t.stays[ship] and line[0] != ship else (moved,):
                mine = list(lines)
                mine[me] = after
                miss = self.standing(tuple(mine), points, _next(mine, me))
                row = t.chance[ship]
                for side, theirs in enumerate(lines):
                    if side == me:
                        continue
                    for target in theirs if t.anywhere[ship] else theirs[:EXPOSED]:
                        chance = row[target]
                        if chance + (1 - chance) * miss <= best:
                            continue  # even a sure win after this sink would not beat the best
                        value = self.sunk(mine, points, side, target, depth - 1)
                        best = max(best, chance * value + (1 - chance) * miss)
        self._standings[key] = best
        return best

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
        found = self._standings.get(key)
        if found is None:
            found = self._standings[key] = self.race(lines, points, mover)[self.me]
        return found

    def race(self, lines: Lines, points: tuple[int, ...], mover: int) -> tuple[float, ...]:
        """Every player's chance to win in the race, kept with the rules' tables: the next
        decisions of a game meet most of these positions again."""
        again = self.pos.rules.sinker_goes_again
        key = (self.pos.points_to_win, again, lines, points, mover)
        found = self.t.races.get(key)
        if found is None:
            if len(self.t.races) >= RACES_KEPT:
                self.t.races.clear()
            found = self.t.races[key] = win_chances(self._runners(lines, points), mover, again)
        return found

    def _runners(self, lines: Lines, points: tuple[int, ...]) -> tuple[Racer, ...]:
        t = self.t
        masks, fronts, codes = zip(*map(_masks, lines), strict=True)
        afloat = sum(codes)  # ships afloat of each kind, a digit in base `len(lines) + 1` each
        ships_left = sum(map(len, lines))
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
            mine = masks[player]
            first = t.first_chance(mine, exposed, anywhere)
            later = t.sustained(mine, afloat - codes[player])
            runners.append(Racer(needs, first, later / enemies))
        return tuple(runners)


class Perfect(Judge):
    """Hard with two players: the chance to win after each outcome is perfect play's, read from
    the solved game, so the attack it finds best is the exact optimal policy's."""

    lookahead = 0  # the solved values already hold every later turn

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


@cache
def _masks(line: tuple[int, ...]) -> tuple[int, int, int]:
    """A line's ships and its exposed ships as bit masks of ship indices, and its ships as
    counts by kind (`Tables.sustained`: a digit per kind)."""
    return (
        sum(1 << ship for ship in line),
        sum(1 << ship for ship in line[:EXPOSED]),
        sum(COUNT_BASE**ship for ship in line),
    )


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
    """The hard level's line with three or four players: strongest defense first, all the way
    down, and where defenses tie the weaker attacker in front. The others aim at the weakest
    ship exposed anywhere, so a line whose next ship up is as hard to sink as the one it
    replaces keeps them shooting at each other; and of two ships as hard to sink, the one
    they can reach is the one hard misses least, so its best attacker stays behind:
    Battleship, Submarine, Destroyer, Carrier, Patrol Boat in the Admiral's game, Battleship,
    Submarine, Destroyer, Patrol Boat, Carrier in the Captain's (docs/express.md has what it
    is worth)."""
    chances = tables(variant, rules).chance

    def strength(ship: Ship) -> float:
        return sum(chances[INDEX[ship]]) / len(FLEET)

    return tuple(sorted(FLEET, key=lambda s: (-rules.ship(variant, s).defense, strength(s))))
