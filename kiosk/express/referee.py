"""`dartship express`: Battleship Express as a JSON line protocol (PROTOCOLS.md section 5).

One JSON object per input line, answered by JSON objects written and flushed before the next
line is read. Anything invalid (bad JSON, an unknown command or key, a move the rules refuse)
gets one `{"event": "error", "message": ...}` and changes nothing.

Every change of the game goes through a *runner*: `start(kind, setup)`, `submit(command) ->
events` and `game` (the current game or None). `MemoryRunner` keeps the game in memory; the
kiosk's `GameService` offers the same three with the SQLite store behind them (`--db`), so the
referee does not know which it has.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TextIO

from kiosk.express.match import Command, Event, Match, Setup
from kiosk.express.rules import Rules
from kiosk.express.wire import (
    EXPRESS,
    ExpressKind,
    command_from_dict,
    event_to_dict,
    new_to_dict,
    setup_from_new,
    state_to_dict,
)
from kiosk.game import RuleError
from kiosk.i18n import _
from kiosk.lines import WireError, command_name, command_of, error, serve, stdio


class Runner(Protocol):
    """What the referee needs of whoever keeps the game (in memory, or durably)."""

    @property
    def game(self) -> Any: ...  # the current game (a `Match` here), or None

    def start(self, kind: ExpressKind, setup: Setup) -> None: ...

    def submit(self, command: Command) -> list[Event]: ...


class MemoryRunner:
    """Keeps one game in memory: what `dartship express` uses without `--db`."""

    def __init__(self) -> None:
        self.game: Match | None = None

    def start(self, kind: ExpressKind, setup: Setup) -> None:
        self.game = kind.new(setup)

    def submit(self, command: Command) -> list[Event]:
        if self.game is None:
            raise RuleError(_("no game yet"))
        return self.game.apply(command)



class Referee:
    """Answers the protocol's commands for the runner's game."""

    def __init__(self, runner: Runner | None = None, rules: Rules | None = None) -> None:
        self.runner: Runner = runner if runner is not None else MemoryRunner()
        self.rules = rules or Rules()

    @property
    def match(self) -> Match | None:
        game = self.runner.game
        return game if isinstance(game, Match) else None

    def handle_line(self, line: str) -> list[dict[str, Any]]:
        try:
            return self.handle(command_of(line))
        except (RuleError, WireError) as err:
            return [error(str(err))]

    def handle(self, obj: dict[str, Any]) -> list[dict[str, Any]]:
        name = command_name(obj)
        if name == "new":
            setup = setup_from_new(obj, self.rules)
            self.runner.start(EXPRESS, setup)
            return [new_to_dict(setup)]
        command = None if name == "state" else command_from_dict(obj)
        match = self.match
        if match is None:
            raise WireError(_("no game yet: start one with {\"cmd\": \"new\", \"players\": [...]}"))
        if command is None:
            return [state_to_dict(match)]
        return [event_to_dict(event) for event in self.runner.submit(command)]


def run(stdin: Iterable[str | bytes], stdout: TextIO, runner: Runner | None = None,
        rules: Rules | None = None) -> int:
    referee = Referee(runner, rules)
    return serve(stdin, stdout, referee.handle_line)


def main_stdio(runner: Runner | None = None, rules: Rules | None = None) -> int:
    """`dartship express`: stdin to stdout until end of input (status 0)."""
    stdin, stdout = stdio()
    return run(stdin, stdout, runner, rules)
