"""The computer's seat in a classic solo game: a service listener that fires when it is to move.

Attached to a `GameService` (the kiosk's, and each phone room's); on every game it looks at the
setup and, in a solo game, fires the computer's shots until the game ends or another starts.
The rules room imports no AI: the computer itself (`kiosk.classic.ai.Computer`) is handed in as
a factory by whoever builds the seat (the composition root, the phone rooms).

Never on the loop's time: `choose` runs in an executor and its answer comes back to the loop,
which submits `Fire(1, square)` like any other command (committed before anyone hears of it).
Hard `ponder`s while the human thinks, in an executor of its own, so that a long ponder in one
room never holds up a decision in another (a decision then costs what `bench/classic.py`
measured for `choose`). The computer sees only its own `Radar` (its shots and the ships it has
sunk); the human's fleet is never read here.

People follow the shots one by one: each comes `Pace.shot` seconds after the one before (or
after the human's miss), the decision's own time counted in. A game resumed after a power cut
in the computer's turn goes on by itself.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from kiosk.classic.grid import SQUARES, Square
from kiosk.classic.match import ComputerLevel, Fire, Match, Mode, Radar, TurnPassed
from kiosk.classic.wire import CLASSIC
from kiosk.game import RuleError
from kiosk.later import Later
from kiosk.service import (
    GameService,
    GameStarted,
    MatchUpdate,
    ServiceEvent,
    ServiceListener,
    Source,
)

log = logging.getLogger("dartship.classic")

SOURCE = Source.COMPUTER


class Shooter(Protocol):
    """The computer as the seat drives it (`kiosk.classic.ai.Computer`)."""

    def choose(self, radar: Radar) -> Square: ...

    def ponder(self, radar: Radar) -> None: ...


ShooterFactory = Callable[[ComputerLevel, random.Random], Shooter]


@dataclass(frozen=True)
class ShotPace:
    """Seconds between the computer's shots, so that people see each land (0 in tests)."""

    shot: float = 1.0


_pools: dict[str, concurrent.futures.ThreadPoolExecutor] = {}


def pool(name: str, workers: int) -> concurrent.futures.ThreadPoolExecutor:
    """The shared executors: "choose" (answers someone waits for) and "ponder" (hard's thinking
    ahead, one thread, never in the way of an answer)."""
    if name not in _pools:
        _pools[name] = concurrent.futures.ThreadPoolExecutor(
            workers, thread_name_prefix=f"dartship-classic-{name}"
        )
    return _pools[name]


class ComputerSeat(ServiceListener):
    """Plays player 1 of the service's classic solo games (see the module's docstring)."""

    def __init__(
        self,
        service: GameService,
        loop: asyncio.AbstractEventLoop,
        make: ShooterFactory,
        *,
        pace: ShotPace = ShotPace(),
        rng: random.Random | None = None,
        executor: concurrent.futures.Executor | None = None,
        ponder_executor: concurrent.futures.Executor | None = None,
    ) -> None:
        self.service = service
        self.loop = loop
        self.make = make
        self.pace = pace
        self.rng = rng or random.Random()
        self.executor = executor
        self.ponder_executor = ponder_executor
        self.match: Match | None = None  # the solo game it plays now
        self.shooter: Shooter | None = None
        self._shooter_rng = random.Random()
        self.decision_seconds: list[float] = []  # each `choose`, timed in its thread (benches)
        self._later = Later(loop)
        self._pending: int | None = None  # the match version a decision is being made for
        self._firing: asyncio.Future[list[object]] | None = None  # a shot being committed

    def _let_go(self) -> None:
        self._drop()

    @property
    def idle(self) -> bool:
        """Nothing scheduled and no decision on its way (tests wait for this)."""
        return not self._later.pending and self._pending is None and self._firing is None

    @property
    def thinking(self) -> bool:
        """It is the computer's turn and its shot is coming (the screens say so)."""
        return self.match is not None and self.match.computer_to_move

    # -- hearing the service --

    def _heard(self, event: ServiceEvent) -> None:
        if isinstance(event, GameStarted):
            self._sync()
        elif isinstance(event, MatchUpdate) and self.match is not None:
            if self.match is not self.service.match:
                self._sync()
                return
            if any(isinstance(e, TurnPassed) and e.side == 0 for e in event.events):
                self._ponder()  # the human thinks now: so may the computer
            self.poke()

    def _sync(self) -> None:
        match = CLASSIC.in_play(self.service)
        if match is self.match:
            self.poke()
            return
        self._drop()
        if match is None or match.setup.mode is not Mode.SOLO or match.winner is not None:
            return
        self.match = match
        self._shooter_rng = random.Random(self.rng.getrandbits(64))
        self.shooter = self.make(match.setup.level, self._shooter_rng)
        if not match.computer_to_move:
            self._ponder()
        self.poke()

    def _drop(self) -> None:
        self._later.cancel()
        self._pending = None
        self._firing = None
        self.match, self.shooter = None, None

    # -- the machine --

    def poke(self) -> None:
        """Fire soon if it is the computer's turn (never from inside a listener: via the loop)."""
        match = self.match
        if match is None or self._pending is not None or self._later.pending or self._firing is not None:
            return
        if match.computer_to_move:
            version = match.version
            self._later.call(0.0, lambda: self._think(version))

    def _mine(self, version: int) -> bool:
        match = self.match
        if match is None or self.service.match is not match:
            return False
        return self.match is not None and self.match.version == version and self.match.computer_to_move

    def _think(self, version: int) -> None:
        if not self._mine(version):
            self.poke()
            return
        assert self.match is not None and self.shooter is not None
        radar = self.match.radar(1)  # its own shots and the ships it sank: nothing else
        shooter = self.shooter
        if self.match.decision_seed is not None:  # a seeded game plays the same after a restart
            self._shooter_rng.seed(self.match.decision_seed)
        self._pending = version
        started = self.loop.time()

        def timed() -> Square:
            begin = time.perf_counter()
            try:
                return shooter.choose(radar)
            finally:
                self.decision_seconds.append(time.perf_counter() - begin)

        try:
            future = self.loop.run_in_executor(self.executor, timed)
        except RuntimeError:  # the loop is shutting down (the kiosk stops)
            self._pending = None
            return
        future.add_done_callback(lambda f: self._decided(f, version, started))

    def _decided(self, future: asyncio.Future[Square], version: int, started: float) -> None:
        if self._pending != version:
            return  # dropped meanwhile (a new game)
        self._pending = None
        if not self._mine(version):
            self.poke()
            return
        try:
            square = future.result()
        except Exception:
            log.exception("the computer's decision failed: it fires at a square not shot yet")
            square = self._fallback()
        wait = self.pace.shot - (self.loop.time() - started)
        self._later.call(wait, lambda: self._fire(version, square))

    def _fallback(self) -> Square:
        assert self.match is not None
        shot = self.match.radar(1).shots
        return self.rng.choice([s for s in SQUARES if s not in shot])

    def _fire(self, version: int, square: Square) -> None:
        if not self._mine(version):
            self.poke()
            return
        # On a phone's table its commit is grouped with other tables' (`GameService.play`):
        # the seat waits for it before it looks at the game again.
        firing = self._firing = self.service.submit_soon(Fire(1, square), SOURCE)
        firing.add_done_callback(lambda done: self._fired(done, square))

    def _fired(self, firing: asyncio.Future[list[object]], square: Square) -> None:
        if self._firing is not firing:
            return  # dropped meanwhile (a new game)
        self._firing = None
        err = None if firing.cancelled() else firing.exception()
        if isinstance(err, RuleError):
            # Logged, not retried at once (no loop on a bad state): the next update wakes it.
            log.warning("the computer's shot at %s was refused: %s", square.code, err)
        elif err is not None:
            log.error("the computer's shot at %s failed", square.code, exc_info=err)
        self.poke()

    def _ponder(self) -> None:
        match, shooter = self.match, self.shooter
        if match is None or shooter is None or match.setup.level is not ComputerLevel.HARD:
            return
        try:
            future = self.loop.run_in_executor(self.ponder_executor, shooter.ponder, match.radar(1))
        except RuntimeError:
            return
        future.add_done_callback(_log_failure)


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("the computer's pondering failed", exc_info=future.exception())
