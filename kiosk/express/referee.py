"""`dartship express`: Battleship Express as a JSON line protocol (PROTOCOLS.md section 5).

One JSON object per input line, answered by JSON objects written and flushed before the next
line is read. Anything invalid (bad JSON, an unknown command or key, a move the rules refuse)
gets one `{"event": "error", "message": ...}` and changes nothing.

Every change of the game goes through the service that runs every game
(`kiosk.service.GameService`): without a store, or with the SQLite store behind it (`--db`),
every answer committed first; the referee does not know which it has.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TextIO

from kiosk.express.match import Match
from kiosk.express.rules import Rules
from kiosk.express.wire import (
    EXPRESS,
    command_from_dict,
    event_to_dict,
    new_to_dict,
    setup_from_new,
    state_to_dict,
)
from kiosk.game import RuleError
from kiosk.i18n import _
from kiosk.lines import WireError, command_name, command_of, error, serve, stdio
from kiosk.service import GameService, Source


class Referee:
    """Answers the protocol's commands for the service's game."""

    def __init__(self, service: GameService | None = None, rules: Rules | None = None) -> None:
        self.service = service or GameService(None, venue="express", follow_ups=False)
        self.rules = rules or Rules()

    @property
    def match(self) -> Match | None:
        game = self.service.match
        return game if isinstance(game, Match) else None

    def handle_line(self, line: str) -> list[dict[str, Any]]:
        try:
            return self.handle(command_of(line))
        except RuleError as err:
            return [error(str(err))]

    def handle(self, obj: dict[str, Any]) -> list[dict[str, Any]]:
        name = command_name(obj)
        if name == "new":
            setup = setup_from_new(obj, self.rules)
            self.service.new_game(EXPRESS, setup)
            return [new_to_dict(setup)]
        command = None if name == "state" else command_from_dict(obj)
        match = self.match
        if match is None:
            raise WireError(_('no game yet: start one with {"cmd": "new", "players": [...]}'))
        if command is None:
            return [state_to_dict(match)]
        events = EXPRESS.events_of(self.service.submit(command, Source.SYSTEM))
        return [event_to_dict(event) for event in events]


def run(
    stdin: Iterable[str | bytes],
    stdout: TextIO,
    service: GameService | None = None,
    rules: Rules | None = None,
) -> int:
    referee = Referee(service, rules)
    return serve(stdin, stdout, referee.handle_line)


def main_stdio(service: GameService | None = None, rules: Rules | None = None) -> int:
    """`dartship express`: stdin to stdout until end of input (status 0)."""
    stdin, stdout = stdio()
    return run(stdin, stdout, service, rules)
