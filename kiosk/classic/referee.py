"""`dartship classic`: classic 10x10 Battleship as a JSON line protocol (PROTOCOLS.md section 4).

One JSON object per input line; each is answered with a list of JSON objects, written and flushed
before the next line is read. Anything invalid (bad JSON, an unknown command, a bad square, an
illegal fleet, the wrong phase) gets one `{"event": "error", "message": ...}` and changes nothing.

Every change goes through the service that runs every game (`kiosk.service.GameService`):
without a store without `--db`, with it and its every answer committed first. The referee is
also the computer's driver in `solo`: after each accepted command, while it is the computer's
turn, it asks the computer for a square (from the computer's own radar only) and submits that
shot like any other.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TextIO

from kiosk.classic.fleet import random_fleet
from kiosk.classic.grid import Square
from kiosk.classic.leaderboard import Leaderboard, leaderboard_of
from kiosk.classic.match import (
    Command,
    ComputerLevel,
    Event,
    Fire,
    Match,
    Mode,
    Place,
    Radar,
    Ready,
    Setup,
    daily_fleet,
)
from kiosk.classic.wire import (
    CLASSIC,
    command_from_dict,
    event_to_dict,
    parse_date,
    player_of,
    setup_from_dict,
    state_to_dict,
    view_to_dict,
)
from kiosk.game import RuleError
from kiosk.i18n import _
from kiosk.lines import Answer, WireError, command_name, command_of, error, serve, stdio
from kiosk.names import same_name
from kiosk.service import GameService, Source


class Shooter(Protocol):
    """The computer as the referee drives it (`kiosk.classic.ai.Computer`): a square from its
    own radar. The rules room does not import the AI; the composition root hands it in."""

    def choose(self, radar: Radar) -> Square: ...


ComputerFactory = Callable[[ComputerLevel, random.Random], Shooter]


def _seed(obj: dict[str, Any]) -> random.Random:
    seed = obj.get("seed")
    if seed is not None and type(seed) is not int:
        raise WireError(_("'seed' must be a whole number"))
    return random.Random(seed)


class ClassicReferee:
    """Answers protocol lines for the service's game. `computer` makes the solo computer of a
    level (with its randomness); `today` gives the date of a `daily` game or a `leaderboard`
    that names none; `leaderboard`: the service's store's, or one in memory."""

    def __init__(
        self,
        service: GameService,
        computer: ComputerFactory,
        *,
        daily_key: bytes,
        leaderboard: Leaderboard | None = None,
        today: Callable[[], datetime.date] = datetime.date.today,
    ) -> None:
        self.service = service
        self.leaderboard = leaderboard or leaderboard_of(service)
        self.make_computer = computer
        self.daily_key = daily_key  # the kiosk's secret (`kiosk.secret`): the daily fleets
        self.today = today
        self._computer: Shooter | None = None
        self._computer_rng = random.Random()

    def resume(self) -> list[Answer]:
        """A game resumed on the computer's turn (a power cut after the human's miss was
        stored): the computer fires now, and these are its shots, to be written at once."""
        return [event_to_dict(e) for e in self._computer_turn()]

    @property
    def match(self) -> Match | None:
        game = self.service.match
        return game if isinstance(game, Match) else None

    def handle_line(self, line: str) -> list[Answer]:
        try:
            return self.handle(command_of(line))
        except RuleError as err:
            return [error(str(err))]

    def handle(self, obj: dict[str, Any]) -> list[Answer]:
        name = command_name(obj)
        if name == "new":
            return self._new(obj)
        if name == "leaderboard":
            return [self._leaderboard(obj)]
        if name not in ("place", "random_fleet", "fire", "state", "view", "ready", "duel"):
            raise WireError(_("unknown command {name!r}").format(name=name))
        match = self.match
        if match is None:
            raise WireError(_('no game yet: start one with {"cmd": "new"}'))
        if name == "state":
            return [state_to_dict(match)]
        if name == "view":
            return [view_to_dict(match, player_of(obj))]
        if name == "ready":
            return self._ready_for_duel(match)
        if name == "duel":
            return self._duel(match, obj)
        command: Command
        if name == "random_fleet":
            command = Place(player_of(obj), random_fleet(_seed(obj)))
        else:
            command = command_from_dict(obj, turn=match.turn)
        events = list(self._submit(command))
        return [event_to_dict(e) for e in [*events, *self._computer_turn()]]

    # -- games --

    def _submit(self, command: Command) -> list[Event]:
        return list(CLASSIC.events_of(self.service.submit(command, Source.SYSTEM)))

    def _start(self, setup: Setup) -> None:
        self.service.new_game(CLASSIC, setup)
        self._computer = None

    def _new(self, obj: dict[str, Any]) -> list[Answer]:
        setup = setup_from_dict(obj, self.today())
        # A new game's two names that differ only in case are one name, as on the touchscreen
        # (a stored game's setup is read as it was: `setup_from_dict` alone is not stricter).
        if len(setup.players) == 2 and same_name(*setup.players):
            raise WireError(_("the two players need different names"))
        rng = _seed(obj)  # checked before anything changes
        self._start(setup)
        if setup.mode is Mode.SOLO:
            self._submit(Place(1, random_fleet(rng)))
        elif setup.mode is Mode.DAILY and setup.date is not None:
            self._submit(Place(1, daily_fleet(self.daily_key, setup.date)))
        players = list(setup.players) or [setup.name(i) for i in (0, 1) if i == 0 or setup.mode is Mode.DUEL]
        return [{"event": "new", "mode": setup.mode.value, "players": players}]

    def _ready_for_duel(self, match: Match) -> list[Answer]:
        return [event_to_dict(e) for e in self._submit(Ready())]

    def _duel(self, match: Match, obj: dict[str, Any]) -> list[Answer]:
        if match.setup.mode is not Mode.SOLO or not match.friend_ready:
            raise RuleError(_("a duel starts from a solo game once the friend has tapped Ready"))
        players = obj.get("players")
        setup = setup_from_dict(
            {
                "mode": "duel",
                "players": players
                if players is not None
                else [match.setup.name(0), _("Player {number}").format(number=2)],
            }
        )
        rng = _seed(obj)
        kept = match.fleet(0) or random_fleet(rng)
        self._start(setup)
        events = [*self._submit(Place(0, kept)), *self._submit(Place(1, random_fleet(rng)))]
        return [
            {"event": "new", "mode": "duel", "players": list(setup.players)},
            *(event_to_dict(e) for e in events),
        ]

    def _leaderboard(self, obj: dict[str, Any]) -> Answer:
        day = parse_date(obj["date"]) if obj.get("date") is not None else self.today()
        entries = self.leaderboard.daily(day)
        return {
            "event": "leaderboard",
            "date": day.isoformat(),
            "entries": [{"player": e.player, "shots": e.shots} for e in entries],
        }

    # -- the computer --

    def _computer_turn(self) -> list[Event]:
        """The computer's shots while it is its turn in `solo` (after a human miss, or at the
        start when it fires first)."""
        events: list[Event] = []
        while True:
            match = self.match
            if match is None or not match.computer_to_move:
                return events
            if self._computer is None:
                self._computer = self.make_computer(match.setup.level, self._computer_rng)
            if match.decision_seed is not None:
                self._computer_rng.seed(match.decision_seed)
            square = self._computer.choose(match.radar(1))
            events += self._submit(Fire(1, square))


def run(stdin: Iterable[str | bytes], stdout: TextIO, referee: ClassicReferee) -> int:
    return serve(stdin, stdout, referee.handle_line, first=referee.resume())


def main_stdio(computer: ComputerFactory, service: GameService | None = None, *, daily_key: bytes) -> int:
    """`dartship classic`: a service without a store unless the caller passes the durable one.
    `computer`: `kiosk.classic.ai.Computer`; `daily_key`: the kiosk's secret."""
    service = service or GameService(None, venue="classic", follow_ups=False)
    stdin, stdout = stdio()
    return run(stdin, stdout, ClassicReferee(service, computer, daily_key=daily_key))
