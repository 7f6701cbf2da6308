"""What a computer player reads of Battleship Express: the public view, as a small pure model,
and every attack the rules allow from it with its exact chance to sink (as floats, cached).

The computer sees nothing the players cannot: `Position.from_view` takes the public view only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from kiosk.express import odds
from kiosk.express.match import Attack, Target, open_targets
from kiosk.express.rules import FACES, FLEET, Face, Rules, Ship, ShipRules, Variant

Line = tuple[Ship, ...]
Lines = tuple[tuple[int, ...], ...]  # every player's line as ship indices (`FLEET` order)


@dataclass(frozen=True)
class Position:
    variant: Variant
    rules: Rules
    lines: tuple[Line, ...]  # front first, one per player
    points: tuple[int, ...]
    points_to_win: int
    turn: int
    pending: tuple[Face, ...] | None = None  # the Carrier's first roll, waiting for its target

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Position:
        pending = view.get("pending")
        return cls(
            variant=Variant(view["game"]),
            rules=_rules(json.dumps(view["rules"], sort_keys=True)),
            lines=tuple(tuple(Ship(name) for name in line) for line in view["lines"]),
            points=tuple(view["points"]),
            points_to_win=int(view["points_to_win"]),
            turn=int(view["turn"]),
            pending=None if pending is None else tuple(Face(f) for f in pending["faces"]),
        )

    @property
    def players(self) -> int:
        return len(self.lines)

    def ship(self, ship: Ship) -> ShipRules:
        return self.rules.ship(self.variant, ship)

    def defense(self, ship: Ship) -> int:
        return self.ship(ship).defense

    def targets(self, player: int, ship: Ship) -> list[Target]:
        return open_targets(self.lines, player, self.ship(ship).anywhere)

    def needs(self, player: int) -> int:
        """Points `player` still needs (never more than the enemy ships afloat)."""
        afloat = sum(len(line) for p, line in enumerate(self.lines) if p != player)
        return max(0, min(self.points_to_win - self.points[player], afloat))


@dataclass(frozen=True)
class Option:
    """One attack the player on turn may make (the Carrier's: declared after its roll)."""

    ship: Ship
    line: Line  # the attacker's line after the attack's move
    target: Target | None  # None: the Admiral's Carrier, which rolls first
    chance: float  # to sink (for the Carrier: choosing the likeliest target after its roll)

    def command(self, player: int) -> Attack:
        moved = self.line[0] is self.ship
        return Attack(self.ship, self.target, move=moved and self.target is None, side=player)


def moved_to_front(line: Line, ship: Ship) -> Line:
    return (ship, *(s for s in line if s is not ship))


def options(pos: Position) -> list[Option]:
    """Every attack of the player on turn (a Carrier that may stay: both ways)."""
    me = pos.turn
    line = pos.lines[me]
    numbers = tables(pos.variant, pos.rules)
    found: list[Option] = []
    for ship in line:
        rules = pos.ship(ship)
        lines = [moved_to_front(line, ship)]
        if rules.stays and line[0] is not ship:
            lines.insert(0, line)
        targets = pos.targets(me, ship)
        row = numbers.chance[INDEX[ship]]
        for after in lines:
            if rules.roll_first:
                mask = sum({1 << INDEX[t.ship] for t in targets})
                found.append(Option(ship, after, None, numbers.declared[mask]))
            else:
                found.extend(Option(ship, after, t, row[INDEX[t.ship]]) for t in targets)
    return found


def declarations(pos: Position) -> list[tuple[Target, float]]:
    """The Carrier's targets once its first roll is known, with each one's chance."""
    assert pos.pending is not None
    carrier = pos.ship(Ship.CARRIER)
    counts = tuple(pos.pending.count(face) for face in FACES)
    return [
        (t, float(odds.chance_after_counts(carrier, pos.defense(t.ship), counts, t.ship)))
        for t in pos.targets(pos.turn, Ship.CARRIER)
    ]


class Tables:
    """The exact chances of one game's rules as floats, by ship index (`FLEET` order): the
    computer looks them up thousands of times a decision, and hashing enums there cost more
    than the rest of its thinking. Built once per rules (`tables`), about a second of fractions
    for the Admiral's game (every target set of the Carrier)."""

    def __init__(self, variant: Variant, rules: Rules) -> None:
        ships = [rules.ship(variant, ship) for ship in FLEET]
        self.chance = [[float(odds.chance(a, t.defense)) for t in ships] for a in ships]
        self.can_sink = [[a.can_sink(t.defense) for t in ships] for a in ships]
        self.anywhere = [a.anywhere for a in ships]
        self.stays = [a.stays for a in ships]
        # the hard level's race values by position (`levels.Judge.race`), kept across decisions
        self.races: dict[tuple[object, ...], tuple[float, ...]] = {}
        self._firsts: dict[tuple[int, int, int], float] = {}
        self._sustained: dict[tuple[int, int], float] = {}
        self.roll_first = [a.roll_first for a in ships]
        self.best: list[list[float]] = []  # by ship and bit mask of targets: its best chance
        carrier = ships[CARRIER]
        self.declared: dict[int, float] = {}  # by bit mask of target ships
        self.weights = np.zeros(0)
        self.after_roll: list[np.ndarray] = []
        if carrier.roll_first:
            rolls = odds.first_rolls(carrier.dice)
            self.weights = np.array([float(p) for _c, p in rolls])
            self.after_roll = [
                np.array([float(odds.chance_after_counts(carrier, t.defense, c, ship)) for c, _p in rolls])
                for ship, t in zip(FLEET, ships, strict=True)
            ]
            for mask in range(1, 1 << len(FLEET)):
                targets = [(FLEET[i], ships[i].defense) for i in range(len(FLEET)) if mask >> i & 1]
                self.declared[mask] = float(odds.best_declared(carrier, targets))
        masks = range(1 << len(FLEET))
        self.best = [
            [0.0]
            + [
                self.declared[mask]
                if self.roll_first[ship]
                else max(self.chance[ship][i] for i in range(len(FLEET)) if mask >> i & 1)
                for mask in masks[1:]
            ]
            for ship in range(len(FLEET))
        ]

    def first_chance(self, mine: int, exposed: int, anywhere: int) -> float:
        """The best chance of a fleet (bit mask of ship indices) against the enemy ships exposed
        (bit mask) and afloat (bit mask, for a ship that targets anywhere)."""
        key = (mine, exposed, anywhere)
        found = self._firsts.get(key)
        if found is None:
            found = self._firsts[key] = max(
                self.best[ship][anywhere if self.anywhere[ship] else exposed]
                for ship in range(len(FLEET))
                if mine >> ship & 1
            )
        return found

    def sustained(self, mine: int, enemies: int) -> float:
        """A fleet's (bit mask of ship indices) best ship against every enemy ship afloat: the
        sum of its chances, the race's sustained rate times the number of enemy ships.
        `enemies`: the enemy ships of each kind as digits in base `COUNT_BASE`."""
        key = (mine, enemies)
        found = self._sustained.get(key)
        if found is None:
            counts = [enemies // COUNT_BASE**kind % COUNT_BASE for kind in range(len(FLEET))]
            found = self._sustained[key] = max(
                sum(c * n for c, n in zip(self.chance[ship], counts, strict=True))
                for ship in range(len(FLEET))
                if mine >> ship & 1
            )
        return found


CARRIER = FLEET.index(Ship.CARRIER)
COUNT_BASE = 8  # more than the most players: a count of ships of one kind is one digit
INDEX = {ship: i for i, ship in enumerate(FLEET)}


@lru_cache(maxsize=16)
def tables(variant: Variant, rules: Rules) -> Tables:
    return Tables(variant, rules)


@cache
def _rules(text: str) -> Rules:
    """The view's rules, parsed once per distinct table (every decision reads them)."""
    return Rules.from_dict(json.loads(text))
