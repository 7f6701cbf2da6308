"""A game of classic 10x10 Battleship as a pure state machine (RULES.md section 4).

`Match.apply(command) -> events` (no I/O, no clock, no randomness of its own; see `kiosk.game`).
Players are 0 and 1; in `solo` and `daily` player 1 is the computer. The match never plays for
the computer: its shots are `Fire` commands like anyone's, chosen outside from its own `Radar`
and submitted by a driver (the line protocol's referee, the service). A `daily` game hides the
fleet of its date (`daily_fleet`), a function of the date alone.

Filled in where the seed is silent (docs/classic.md): a hit fires again, a miss passes the turn
(in `daily` the player fires on); a shot at a square already fired at is refused, not spent; a
fleet can be re-placed until its player's first shot or the first shot at it (after that the
shots already told would no longer be true); `daily` needs no fleet of the player's (nobody
shoots at it).
"""

from __future__ import annotations

import contextlib
import datetime
import enum
import hashlib
import hmac
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from kiosk.classic.fleet import CLASSES, Fleet, Ship, random_fleet
from kiosk.classic.grid import GRID, Square
from kiosk.game import Outcome, PlayerResult, Result, RuleError
from kiosk.i18n import _, speaking
from kiosk.names import kept_name

COMPUTER = "Computer"  # the computer's name in results when the front end names none


class Mode(enum.Enum):
    DUEL = "duel"
    SOLO = "solo"  # against the computer, which shoots back
    DAILY = "daily"  # the date's fleet, a shooting gallery: the computer does not shoot


class ComputerLevel(enum.Enum):
    """How well the computer shoots in `solo` (docs/classic.md has each level's measured mean)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


class Phase(enum.Enum):
    PLACING = "placing"
    PLAYING = "playing"
    OVER = "over"


class AlreadyFiredError(RuleError):
    """A shot at a square this player has already fired at: refused, no shot spent."""


class NotYourTurnError(RuleError):
    """A shot by the player who is not to fire."""


class FleetLockedError(RuleError):
    """A fleet that can no longer be placed or moved."""


@dataclass(frozen=True)
class Setup:
    """A new game. `players`: the names (in `solo` and `daily` the human's alone may be given;
    the computer is named by the front end). `level`: the computer's in `solo`. `date`: the
    day whose fleet a `daily` game hides."""

    mode: Mode = Mode.DUEL
    players: tuple[str, ...] = ()
    first: int = 0
    level: ComputerLevel = ComputerLevel.NORMAL
    date: datetime.date | None = None
    # A solo game started with a seed (a script's): the computer's every decision is drawn from
    # it and the game's progress, so the game plays the same after a restart.
    seed: int | None = None

    def __post_init__(self) -> None:
        # Names are kept as the replay reads them, whoever built the setup (`kiosk.names`).
        object.__setattr__(self, "players", tuple(kept_name(p) for p in self.players))

    @property
    def computer(self) -> int | None:
        """The computer's side, or None in a duel."""
        return None if self.mode is Mode.DUEL else 1

    def name(self, side: int) -> str:
        if side < len(self.players):
            return self.players[side]
        if side == self.computer:
            return COMPUTER
        return default_name(side)


def default_name(side: int, language: str | None = None) -> str:
    """The name of a player who gave none ("Player 1"): in `language` (a phone's own, for the
    game it starts: `kiosk.classic.rooms`), else in the language `_` speaks now (the kiosk's).
    Only this message is said in `language`: nothing else the caller does speaks it."""
    with speaking(language) if language is not None else contextlib.nullcontext():
        return _("Player {number}").format(number=side + 1)


def daily_fleet(key: bytes, day: datetime.date) -> Fleet:
    """The fleet every `daily` game of this date hides on the kiosk whose secret key this is
    (`kiosk.secret`): nobody can work it out from the date and the published code. It is placed
    as the computer's `Place` (a secret in the store), like a solo game's."""
    return random_fleet(
        random.Random(hmac.new(key, f"classic-daily:{day.isoformat()}".encode(), hashlib.sha256).digest())
    )


# ---- commands ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """A player's fleet (again, to re-place it before the shooting reaches it)."""

    side: int
    fleet: Fleet


@dataclass(frozen=True)
class Fire:
    side: int
    square: Square


@dataclass(frozen=True)
class Ready:
    """The friend watching a solo game is ready for a duel (the line protocol's `ready`): kept
    in the log, so a `duel` after a restart still finds the friend ready."""


Command = Place | Fire | Ready


# ---- events -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    side: int


@dataclass(frozen=True)
class ShotFired:
    """One shot and what it is told. `number`: the shot of this turn (1, 2, ..). `ship`: only
    on SUNK, the ship revealed (named and outlined)."""

    side: int
    name: str
    number: int
    square: Square
    result: Result
    ship: Ship | None = None


@dataclass(frozen=True)
class TurnPassed:
    """A miss: `player` fires next."""

    side: int


@dataclass(frozen=True)
class Won:
    side: int


@dataclass(frozen=True)
class FriendReady:
    pass


Event = Placed | ShotFired | TurnPassed | Won | FriendReady


# ---- what a side knows -------------------------------------------------------------------


@dataclass(frozen=True)
class Radar:
    """What one player knows of the enemy fleet: its own shots and the ships it has sunk.

    Public by construction (shot results and sunk ships only): this is all the computer is
    given to choose its shots from.
    """

    shots: Mapping[Square, Result] = field(default_factory=dict)
    sunk: tuple[Ship, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "shots", MappingProxyType(dict(self.shots)))


@dataclass
class _Side:
    fleet: Fleet | None = None
    shots: dict[Square, Result] = field(default_factory=dict)  # this side's shots, in order
    sunk: list[Ship] = field(default_factory=list)  # enemy ships this side sank, in order
    turns: int = 0


class Match:
    """One game; see the module's docstring. `log` holds every accepted command."""

    def __init__(self, setup: Setup) -> None:
        if setup.first not in (0, 1):
            raise RuleError(_("'first' must be 0 or 1"))
        if setup.mode is Mode.DAILY:
            if setup.date is None:
                raise RuleError(_("a daily game needs its date"))
            if setup.first != 0:
                raise RuleError(_("in a daily game the player fires first"))
        self.setup = setup
        self._log: list[Command] = []
        self._sides = (_Side(), _Side())
        self._turn = setup.first
        self._shot_of_turn = 0
        self._winner: int | None = None
        self._friend_ready = False

    # -- kiosk.game.Game --

    @property
    def log(self) -> Sequence[Command]:
        return tuple(self._log)

    @property
    def version(self) -> int:
        return len(self._log)

    def apply(self, command: Command) -> list[Event]:
        """Carry out one command; a `RuleError` leaves the match exactly as it was."""
        if isinstance(command, Place):
            events = self._place(command)
        elif isinstance(command, Fire):
            events = self._fire(command)
        elif isinstance(command, Ready):
            if self.setup.mode is not Mode.SOLO or self._winner is not None:
                raise RuleError(_("'ready' is for a friend watching a solo game"))
            self._friend_ready = True
            events = [FriendReady()]
        else:
            raise RuleError(_("unknown command"))
        self._log.append(command)
        return events

    def public_view(self) -> dict[str, Any]:
        """What anyone may see: both radars (shots, hits, sunk ships), the turn, the tallies."""
        return {
            "mode": self.setup.mode.value,
            "phase": self.phase.value,
            "players": [self.setup.name(side) for side in (0, 1)],
            "turn": self.turn,
            "winner": self._winner,
            "placed": [side.fleet is not None for side in self._sides],
            "shots": [len(side.shots) for side in self._sides],
            "hits": [self.hits(side) for side in (0, 1)],
            "sunk": [[ship.kind.value for ship in self._sides[1 - side].sunk] for side in (0, 1)],
            "radars": [self.radar_view(side) for side in (0, 1)],
        }

    def private_view(self, side: int) -> dict[str, Any]:
        """What `side`'s own screen may show: its fleet and the shots at it, plus the public part.
        Nothing of the other fleet but its sunk ships."""
        side = _check_player(side)
        fleet = self._sides[side].fleet
        incoming = self._sides[1 - side].shots
        return {
            **self.public_view(),
            "player": side,
            "fleet": [ship.code for ship in fleet.ships] if fleet is not None else [],
            "incoming": {
                "hit": [s.code for s, r in incoming.items() if r is not Result.MISS],
                "miss": [s.code for s, r in incoming.items() if r is Result.MISS],
            },
            "radar": self.radar_view(side),
        }

    def outcome(self) -> Outcome:
        turns = sum(side.turns for side in self._sides)
        if self._winner is None:
            return Outcome(False, None, turns)
        results = tuple(
            PlayerResult(
                side=i,
                player=self.setup.name(i),
                shots=len(s.shots),
                hits=self.hits(i),
                sunk=len(s.sunk),
                turns=s.turns,
                won=self._winner == i,
            )
            for i, s in enumerate(self._sides)
        )
        return Outcome(True, self._winner, turns, results)

    # -- reading the game --

    @property
    def phase(self) -> Phase:
        if self._winner is not None:
            return Phase.OVER
        if self._sides[1].fleet is None or (
            self._sides[0].fleet is None and self.setup.mode is not Mode.DAILY
        ):
            return Phase.PLACING
        return Phase.PLAYING

    @property
    def turn(self) -> int | None:
        """Who fires next (before the shooting: who fires first); None once the game is over."""
        return None if self._winner is not None else self._turn

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def decision_seed(self) -> str | None:
        """In a seeded solo game, what the computer's next decision draws its randomness from:
        the seed and how far the game has come, so that it decides the same after a restart as
        without one. None in an unseeded game."""
        return None if self.setup.seed is None else f"{self.setup.seed}:{self.version}"

    @property
    def friend_ready(self) -> bool:
        """A friend watching this solo game said it is ready for a duel."""
        return self._friend_ready

    @property
    def computer_to_move(self) -> bool:
        """Whether the computer is to fire now (solo, in play, its turn): the driver's cue to
        ask it for a square and submit the shot."""
        return (
            self.setup.mode is Mode.SOLO and self.phase is Phase.PLAYING and self._turn == self.setup.computer
        )

    def radar(self, side: int) -> Radar:
        """`side`'s shots at the enemy and the enemy ships it sank (public)."""
        own = self._sides[_check_player(side)]
        return Radar(own.shots, tuple(own.sunk))

    def radar_view(self, side: int) -> dict[str, Any]:
        own = self._sides[side]
        return {
            "hit": [s.code for s, r in own.shots.items() if r is not Result.MISS],
            "miss": [s.code for s, r in own.shots.items() if r is Result.MISS],
            "sunk": [{"ship": ship.kind.value, "cells": [s.code for s in ship.cells]} for ship in own.sunk],
        }

    def shots(self, side: int) -> int:
        return len(self._sides[side].shots)

    def hits(self, side: int) -> int:
        return sum(1 for r in self._sides[side].shots.values() if r is not Result.MISS)

    def sunk_own(self, side: int) -> tuple[Ship, ...]:
        """`side`'s OWN ships sunk so far, in the order they sank (public once sunk)."""
        return tuple(self._sides[1 - side].sunk)

    def fleet(self, side: int) -> Fleet | None:
        """PRIVATE: `side`'s own fleet, for that side's screen and for keeping it in a rematch.
        Never hand it to the other side or to the computer's shooting."""
        return self._sides[_check_player(side)].fleet

    def may_place(self, side: int) -> bool:
        """Whether `side` may (re-)place its fleet now."""
        try:
            self._check_may_place(_check_player(side))
        except RuleError:
            return False
        return True

    # -- the machine --

    def _check_may_place(self, side: int) -> None:
        if self._winner is not None:
            raise FleetLockedError(_("the game is over"))
        if side == 1 and self.setup.mode is Mode.DAILY and self._sides[1].fleet is not None:
            raise FleetLockedError(_("the daily fleet is set by the date"))
        if self._sides[side].shots:
            raise FleetLockedError(
                _("{name} has fired: the fleet stays where it is").format(name=self.setup.name(side))
            )
        if self._sides[1 - side].shots:
            raise FleetLockedError(
                _("{name}'s fleet has been fired at: it stays where it is").format(name=self.setup.name(side))
            )

    def _place(self, command: Place) -> list[Event]:
        side = _check_player(command.side)
        if not isinstance(command.fleet, Fleet):
            raise RuleError(_("a fleet is needed"))
        self._check_may_place(side)
        self._sides[side].fleet = command.fleet
        return [Placed(side)]

    def _fire(self, command: Fire) -> list[Event]:
        side = _check_player(command.side)
        square = command.square
        if square not in GRID:
            raise RuleError(_("{square} is not a square (A1 to J10)").format(square=square))
        phase = self.phase
        if phase is Phase.OVER:
            raise RuleError(_("the game is over"))
        if phase is Phase.PLACING:
            waiting = [self.setup.name(i) for i in (0, 1) if self._sides[i].fleet is None]
            raise RuleError(_("waiting for the fleet of {names}").format(names=", ".join(waiting)))
        if side != self._turn:
            raise NotYourTurnError(_("it is {name}'s turn").format(name=self.setup.name(self._turn)))
        own, enemy = self._sides[side], self._sides[1 - side]
        if square in own.shots:
            raise AlreadyFiredError(
                _("{square} has already been fired at: choose another square").format(square=square.code)
            )
        assert enemy.fleet is not None
        if self._shot_of_turn == 0:
            own.turns += 1
        self._shot_of_turn += 1
        ship = enemy.fleet.ship_at(square)
        sunk: Ship | None = None
        if ship is None:
            result = Result.MISS
        elif all(s == square or s in own.shots for s in ship.cells):
            result, sunk = Result.SUNK, ship
            own.sunk.append(ship)
        else:
            result = Result.HIT
        own.shots[square] = result
        events: list[Event] = [
            ShotFired(side, self.setup.name(side), self._shot_of_turn, square, result, sunk)
        ]
        if len(own.sunk) == len(CLASSES):
            self._winner = side
            events.append(Won(side))
        elif result is Result.MISS and self.setup.mode is not Mode.DAILY:
            # In a daily game the player fires on: the whole game is one turn.
            self._shot_of_turn = 0
            self._turn = 1 - side
            events.append(TurnPassed(self._turn))
        return events


def _check_player(player: object) -> int:
    if type(player) is not int or player not in (0, 1):
        raise RuleError(_("player must be 0 or 1"))
    return player
