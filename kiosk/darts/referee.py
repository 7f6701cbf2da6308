"""`dartship referee`: the rules engine as a JSON line protocol (PROTOCOLS.md section 3).

One JSON object per input line; the answers are written and flushed before the next line is
read. With a store, every accepted command is committed before its answer is written.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, TextIO

from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Command, HouseRules, Match, Place, RuleError
from kiosk.darts.wire import (
    command_from_dict,
    event_to_dict,
    setup_from_dict,
    setup_to_dict,
    state_to_dict,
)
from kiosk.i18n import _
from kiosk.lines import WireError, command_name, command_of, error, serve, stdio
from kiosk.names import same_name
from kiosk.service import GameService, Source
from kiosk.store import Store


class Referee:
    """Holds at most one game and answers commands for it, through the service that runs every
    game (with a store: each accepted command committed before it is answered)."""

    def __init__(self, store: Store | None = None, defaults: HouseRules | None = None) -> None:
        self.service = GameService(store, follow_ups=False)
        self.defaults = defaults or HouseRules()
        # Whatever the last game is, finished or not: `state` answers as before the restart
        # and a finished game's winning dart can still be undone (PROTOCOLS.md 3).
        self.service.resume(finished_within=None)

    @property
    def match(self) -> Match | None:
        return DARTS.in_play(self.service)

    def handle_line(self, line: str) -> list[dict[str, Any]]:
        try:
            return self.handle(command_of(line))
        except RuleError as err:
            return [error(str(err))]

    def handle(self, obj: dict[str, Any]) -> list[dict[str, Any]]:
        name = command_name(obj)
        if name == "new":
            return self._new(obj)
        if self.match is None:
            raise WireError(_('no game yet: start one with {"cmd": "new", "teams": [...]}'))
        if name == "state":
            return [state_to_dict(self.match)]
        command: Command
        if name == "random_fleet":
            command = self._random_fleet(obj)
        else:
            command = command_from_dict(obj, self.match.setup.rules)
        events = DARTS.events_of(self.service.submit(command, Source.SYSTEM))
        return [event_to_dict(e) for e in events]

    def _new(self, obj: dict[str, Any]) -> list[dict[str, Any]]:
        setup = setup_from_dict(obj, self.defaults)
        # A new game's two names that differ only in case are one name, as on the touchscreen
        # (a stored game's setup is read as it was: `setup_from_dict` alone is not stricter).
        if same_name(setup.teams[0].name, setup.teams[1].name):
            raise WireError(_("the two teams need different names"))
        self.service.new_game(DARTS, setup)
        return [{"event": "new", "teams": setup_to_dict(setup)["teams"]}]

    def _random_fleet(self, obj: dict[str, Any]) -> Place:
        assert self.match is not None
        team = obj.get("team")
        if type(team) is not int or team not in (0, 1):
            raise WireError(_("'team' must be 0 or 1"))
        seed = obj.get("seed")
        if seed is not None and (type(seed) is not int):
            raise WireError(_("'seed' must be a whole number"))
        rng = random.Random(seed) if seed is not None else random.Random()
        rules = self.match.setup.rules
        return Place(team, random_fleet(rules.board, rules.fleet, rng))


def run(
    stdin: Iterable[str | bytes],
    stdout: TextIO,
    store: Store | None = None,
    defaults: HouseRules | None = None,
) -> int:
    referee = Referee(store, defaults)
    return serve(stdin, stdout, referee.handle_line)


def main_stdio(store: Store | None, defaults: HouseRules | None = None) -> int:
    stdin, stdout = stdio()
    return run(stdin, stdout, store, defaults)
