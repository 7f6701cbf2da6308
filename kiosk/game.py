"""What every game is, so that one service and one store can run any of them.

A game (the dart game, classic 10x10, Battleship Express) is a pure state machine, python-chess's
`push`/`pop` in spirit:

* `apply(command) -> events`: no I/O, no clock, no randomness of its own (a seed or an RNG comes
  in the setup or the command). A command the rules refuse raises `RuleError` (or a subclass)
  and leaves the game exactly as it was. A command that is accepted but changes nothing (a dart
  while the darts are being pulled out) returns its events without growing `log`.
* `log`: every accepted command in order; `version` is `len(log)`. Replaying `log` on a new game
  of the same setup gives the same game: that is how a stored game resumes and undo is exact.
* `public_view()` and `private_view(side)`: plain JSON-able dicts, the ONLY door to hidden
  information. The public view never holds an unsunk ship; a private view holds that side's own
  fleet and nothing of the other's.
* `outcome()`: over or not, the winner, and per-player results for the statistics.

A `GameKind` tells the service and the store how to keep one kind of game: its name, how its
setup and commands become JSON and back, which part of a command is secret (a fleet: stored apart
from the command log and read back only to replay), and how to build a game from a setup.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeGuard, TypeVar

from kiosk.board import Cell
from kiosk.errors import DartshipError, ReplayError, RuleError
from kiosk.i18n import _
from kiosk.inputs import InputEvent
from kiosk.sound import Sound
from kiosk.speech import Phrasebook

__all__ = [
    "DartshipError",
    "Game",
    "GameKind",
    "Outcome",
    "PlayerResult",
    "ReplayError",
    "RuleError",
    "Secret",
    "Shot",
    "replay",
]


@dataclass(frozen=True)
class PlayerResult:
    """One player's part in a finished game, for the statistics (public)."""

    side: int
    player: str
    shots: int  # darts thrown, shots fired, attacks made
    hits: int
    sunk: int  # enemy ships sunk
    turns: int  # visits or turns played
    won: bool


class Result(enum.Enum):
    """What one shot did, in every game that shoots (a dart, a classic shot): the word the
    kiosk announces. REPEAT: a cell already shot (the dart game counts it; classic refuses it)."""

    MISS = "miss"
    HIT = "hit"
    SUNK = "sunk"
    REPEAT = "repeat"

    @property
    def scores(self) -> bool:
        return self in (Result.HIT, Result.SUNK)


@dataclass(frozen=True)
class Outcome:
    """Where a game stands, as the store keeps it beside the command log."""

    over: bool
    winner: int | None = None
    turns: int = 0  # the game's length so far (visits, turns)
    results: tuple[PlayerResult, ...] = ()  # filled once the game is over


@dataclass(frozen=True)
class Shot:
    """One shot as the store logs it for the statistics: who, at what, with what result."""

    side: int
    player: str
    number: int  # the dart of the visit, the shot of the turn, the roll of the attack
    target: str
    result: str


@dataclass(frozen=True)
class Secret:
    """The hidden part of a command (a side's fleet), stored apart from the command log."""

    side: int
    text: str


C = TypeVar("C")  # a kind's commands
E = TypeVar("E")  # a kind's events
S = TypeVar("S")  # a kind's setup
G = TypeVar("G", bound="Game[Any, Any]")


class Game(Protocol[C, E]):
    """The shape every game has (see the module's docstring)."""

    @property
    def setup(self) -> Any: ...

    @property
    def log(self) -> Sequence[C]: ...

    @property
    def version(self) -> int: ...

    def apply(self, command: C) -> list[E]: ...

    def public_view(self) -> dict[str, Any]: ...

    def private_view(self, side: int) -> dict[str, Any]: ...

    def outcome(self) -> Outcome: ...


class HoldsAGame(Protocol):
    """What has a game in play (the service, each phone room's): `GameKind.in_play` asks it."""

    @property
    def match(self) -> object: ...


class GameKind(abc.ABC, Generic[S, C, E, G]):
    """How the service and the store keep one kind of game (one instance per kind).

    Must: `name` (stored with every game: "darts", "classic", "express"), `game_type` and
    `event_types` (the kind's game class and event classes: `in_play` and `events_of` check
    them), `new`, and the four converters. `command_to_dict` returns the public body to log
    and, for a command that carries a side's fleet, that fleet as a `Secret` (the body must
    then not hold it); `command_from_dict` gets the secret back to rebuild the command. May:
    `shots` (what the statistics log of a batch of events; nothing by default).
    """

    name: str
    game_type: type[G]
    event_types: tuple[type[object], ...]

    def in_play(self, holder: HoldsAGame) -> G | None:
        """The game in play if it is of this kind (None: no game, or another kind's): the one
        way a game's screens, pages and participants ask "is this my game"."""
        game = holder.match
        return game if isinstance(game, self.game_type) else None

    def is_event(self, event: object) -> TypeGuard[E]:
        """Whether `event` is one of this kind's events."""
        return isinstance(event, self.event_types)

    @abc.abstractmethod
    def new(self, setup: S) -> G:
        """A new game of this setup, before its first command."""

    @abc.abstractmethod
    def setup_to_dict(self, setup: S) -> dict[str, Any]:
        """The setup as JSON (stored with the game; never holds a secret)."""

    @abc.abstractmethod
    def setup_from_dict(self, data: Mapping[str, Any]) -> S:
        """The setup back from `setup_to_dict`."""

    @abc.abstractmethod
    def command_to_dict(self, command: C) -> tuple[dict[str, Any], Secret | None]:
        """The public body of a command to log, and its secret part if it has one."""

    @abc.abstractmethod
    def command_from_dict(self, body: Mapping[str, Any], setup: S, secret: str | None) -> C:
        """The command back from its body (and its secret, where `command_to_dict` split one)."""

    def shots(self, events: Iterable[E]) -> Iterable[Shot]:
        """The shots among these events, for the statistics' shot log."""
        return ()

    def events_of(self, events: Sequence[object]) -> tuple[E, ...]:
        """This kind's events of a batch, typed: the service's updates carry any kind's events,
        and a listener of this kind reads them through here (another kind's are left out)."""
        return tuple(event for event in events if self.is_event(event))

    def follow_up(self, game: G, events: Sequence[E]) -> C | None:
        """A command that follows by itself once these events happened (the dart game starts
        once both fleets are in); the service submits it as from the system."""
        return None

    def command_for_input(self, game: G, event: InputEvent) -> C | str | None:
        """What a board input (a dart, a miss, a button) means in this game now: a command to
        submit, a message saying why it is refused, or None to let it pass unnoticed (warming-up
        darts before a game)."""
        return None

    def visit_darts(self, game: G) -> tuple[Cell, ...] | None:
        """The darts the game counts that the board may still hold, oldest first: the visit in
        play's so far, or before its first dart the visit just ended (ended by a tap before the
        darts were pulled out). A board found again after a restart holds darts the game may
        already count (`kiosk.inputs.HeldDarts`). None: this game has no visit of darts in play
        now."""
        return None

    def sound_for(self, events: Iterable[E]) -> Sound | None:
        """The one sound a batch of events deserves (the buzzer), or None."""
        return None

    def computer_sides(self, setup: S) -> frozenset[int]:
        """The sides the kiosk's computer plays in a game of this setup (the league counts
        only people)."""
        return frozenset()

    def side_names(self, setup: S) -> tuple[str, ...]:
        """The names of a game's sides, in order (teams, players), as the screens name the game
        ("Sharks v Jets"); empty when a kind does not say."""
        return ()

    def phrasebook(self) -> Phrasebook | None:
        """What the caller says for this kind's events (kiosk/<game>/calls.py), or None."""
        return None

    def command_word(self, command: C) -> str:
        """A command as a reason names it ("a shot"), in the reader's language: by its kind
        alone (a placement's fleet is secret). May: a kind without words gives its class's name."""
        return type(command).__name__


def replay(kind: GameKind[S, C, E, G], setup: S, log: Iterable[C]) -> G:
    """The one replay of every game: build a game from its setup and command log (a resumed game,
    a copy to try a command on). A command that no longer applies is a `ReplayError`, never
    skipped: a game rebuilt with a hole in it would not be the game that was played. The message
    names the command by its kind only (`GameKind.command_word`: a placement's fleet is secret)."""
    game = kind.new(setup)
    for number, command in enumerate(log, start=1):
        try:
            game.apply(command)
        except RuleError as err:
            raise ReplayError(
                _("command {number} ({command}) no longer applies: {error}").format(
                    number=number, command=kind.command_word(command), error=err
                )
            ) from err
    return game
