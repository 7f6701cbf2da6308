"""The computer seats of a Battleship Express game: the kiosk playing any seat the setup gives it.

Pure logic, no Kivy. `ComputerSeats` is attached to the service once (by the composition root);
in an Express game whose setup names computer seats (`Setup.computers`, stored with the game,
so a game resumed after a power cut gets its computer players back) it plays each of them when
it is up, through the same commands as a person: `Attack`, and the Carrier's `Declare`.

At a readable pace: after every update it waits until the table has shown it (the dice of
the last attack roll by roll, `kiosk.express.pace`) and then `Pace.think` more, so the players
see each attack start, roll and end. The decision (`kiosk.express.ai.Computer.decide`; the first
one builds the exact tables, about a second) runs in an executor: the loop, and with it the
screen, never waits for it. A decision made for a game that changed meanwhile is dropped.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kiosk.express.match import Attack, Declare, Match, Phase
from kiosk.express.pace import Pace, climax, length
from kiosk.express.wire import EXPRESS
from kiosk.game import RuleError
from kiosk.service import (
    GameService,
    GameStarted,
    MatchUpdate,
    Notice,
    NoticeKind,
    ServiceEvent,
    ServiceListener,
    Source,
)

if TYPE_CHECKING:
    from kiosk.express.ai import Computer

log = logging.getLogger("dartship.express")

SOURCE = Source.COMPUTER


def _decide(computer: Computer, view: Mapping[str, Any]) -> Attack | Declare:
    """In the executor: the exact tables of the game's rules (built once), then the decision."""
    from kiosk.express.ai import prepare
    from kiosk.express.position import Position

    position = Position.from_view(view)
    prepare(position.variant, position.rules, position.players, position.points_to_win)
    return computer.decide(view)


class ComputerSeats(ServiceListener):
    def __init__(
        self,
        service: GameService,
        loop: asyncio.AbstractEventLoop,
        *,
        pace: Pace | None = None,
        rng: random.Random | None = None,
        executor: concurrent.futures.Executor | None = None,
    ) -> None:
        self.service = service
        self.loop = loop
        self.pace = pace if pace is not None else Pace()
        self.rng = rng or random.Random()
        self.executor = executor
        self.match: Match | None = None
        self.computers: dict[int, Computer] = {}  # seat -> its player, for the game in play
        self.decisions = 0
        self._timer: asyncio.TimerHandle | None = None
        self._pending: int | None = None  # the match version a decision is being made for

    # -- wiring --

    def _let_go(self) -> None:
        self._cancel()
        self._pending = None
        self.match, self.computers = None, {}

    # -- what the screen and the tests ask --

    def plays(self, player: int) -> bool:
        """Whether a computer plays this seat of the game in play."""
        return player in self.computers

    def sound_delay(self, events: Sequence[Any]) -> float:
        """Seconds from an Express update to its SUNK! on the screen (the buzzer waits for it)."""
        return climax(events, self.pace) if EXPRESS.in_play(self.service) is not None else 0.0

    @property
    def idle(self) -> bool:
        """Nothing scheduled and no decision in the executor."""
        return self._timer is None and self._pending is None

    @property
    def thinking(self) -> bool:
        """A computer seat is up and about to act (the screen says so)."""
        match = self.match
        return (
            match is not None
            and match.phase is not Phase.OVER
            and match.turn in self.computers
            and not self.idle
        )

    # -- hearing the service --

    def _heard(self, event: ServiceEvent) -> None:
        if isinstance(event, GameStarted):
            self._sync()
        elif isinstance(event, MatchUpdate) and self.match is not None:
            if self.service.match is not self.match:
                self._sync()
                return
            # Act once the table has shown this update, and a moment more.
            self._schedule(length(EXPRESS.events_of(event.events), self.pace) + self.pace.think)
        elif isinstance(event, Notice) and event.kind is NoticeKind.RESUMED:
            self._schedule(self.pace.think)  # saving works again after a pause: play on

    def _sync(self) -> None:
        """Take the game in play: its computer seats, each with a player of its level."""
        match = EXPRESS.in_play(self.service)
        if match is self.match:
            return
        self._cancel()
        self._pending = None
        self.match, self.computers = match, {}
        if match is None:
            return
        from kiosk.express.ai import Computer, Strategy  # numpy: only once a computer plays

        for player in range(len(match.players)):
            level = match.setup.computer(player)
            if level is not None:
                self.computers[player] = Computer(Strategy(level), self.rng.getrandbits(64))
        if self.computers:
            log.info("the kiosk plays seats %s", sorted(self.computers))
            self._schedule(self.pace.think)

    # -- the machine --

    def _schedule(self, delay: float) -> None:
        self._cancel()
        if not self.computers:
            return

        def fire() -> None:
            self._timer = None
            self._step()

        self._timer = self.loop.call_later(max(0.0, delay), fire)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _in_play(self) -> bool:
        """This seat's game is the service's game and is not over."""
        match = self.match
        if match is None or match.phase is Phase.OVER:
            return False
        return self.service.match is match

    def _step(self) -> None:
        match = self.match
        if not self._in_play() or self._pending is not None or self.service.paused:
            return
        assert match is not None  # in play
        computer = self.computers.get(match.turn)
        if computer is None:
            return
        version = match.version
        self._pending = version
        try:
            future = self.loop.run_in_executor(self.executor, _decide, computer, match.public_view())
        except RuntimeError:  # the loop is shutting down (the kiosk stops)
            self._pending = None
            return
        future.add_done_callback(lambda f: self._decided(f, match, version))

    def _decided(self, future: asyncio.Future[Attack | Declare], match: Match, version: int) -> None:
        if self._pending != version or self.match is not match:
            return  # another game, or closed
        self._pending = None
        if not self._in_play() or match.version != version:
            self._schedule(self.pace.think)  # the game moved on while it thought
            return
        try:
            command = future.result()
        except Exception:
            log.exception("a computer seat's decision failed")
            return
        self.decisions += 1
        try:
            self.service.submit(command, SOURCE)
        except RuleError as err:
            # Never retried in a loop: the next update wakes the seat again.
            log.warning("the computer's %s was refused: %s", type(command).__name__, err)

    async def settled(self, rounds: int = 100_000) -> None:
        """Wait until no seat has anything left to do for now (tests; bounded, never hangs)."""
        for _ in range(rounds):
            if self.idle:
                return
            await asyncio.sleep(0.001)
