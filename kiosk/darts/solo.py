"""Solo mode: one team plays against the kiosk, which throws virtual darts at a chosen skill.

Pure logic, no Kivy. `SoloMode` is attached to the service once (by the composition root); on
every game (new or resumed) it looks at the setup and, when one team is the kiosk, runs a
`ComputerPlayer` for it until the game ends or another one starts.

Which team is the kiosk is part of the game itself (`Setup.computer`, a `KioskSeat`), stored with
the game's setup, so that a resumed game (after a power cut) picks it up again.

The computer player sees only public information: `record_of(match, team)` (its own
shots and the human ships it has sunk) and the match's public state. It never calls
`match.fleet()` of any team; its own fleet is placed through the service like a human team's
and is as secret as theirs (the placements table, never a log line).

Flow (all on the service's asyncio loop; the AI's decision runs in an executor):

* placing: the kiosk locks in a random fleet at once;
* bull-off: after a pause it throws one virtual dart at the bull (the players see where it
  landed, so "who was closer?" can still be answered by them);
* its visit: for each dart, a decision in the executor, a pause so that the players see the
  darts one by one, then a throw with the skill's scatter (`kiosk.scatter.throw`) submitted as
  a dart from source "kiosk";
* after its visit: there is nothing to pull out, so after `Pace.takeout` seconds it presses Next
  itself (the players may tap Next sooner);
* an Undo by the players that takes back one of its darts makes it *hold*: it does not throw
  the dart again by itself (else the players could never undo back into their own visit); it
  goes on when a new visit starts or when the players tap "Let the kiosk throw" (`resume`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kiosk.board import BULL
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import (
    BullOffDart,
    Command,
    KioskSeat,
    Match,
    Next,
    Phase,
    Place,
    RuleError,
    Setup,
    Team,
    Throw,
    Undone,
    VisitStarted,
)
from kiosk.geometry import cell_centre
from kiosk.later import Later
from kiosk.scatter import Landing, Skill, throw
from kiosk.service import (
    GameService,
    GameStarted,
    MatchUpdate,
    ServiceEvent,
    ServiceListener,
    Source,
)

if TYPE_CHECKING:
    from kiosk.darts.decision import Decision

log = logging.getLogger("dartship.solo")

SKILL_ORDER = tuple(Skill)  # weakest first, as the New game screen offers
SOURCE = Source.COMPUTER  # the MatchUpdate source of the kiosk's own commands


def kiosk_team(name: str) -> Team:
    """The kiosk's team in a Setup: one player, named like the team."""
    return Team(name, (name,))


def seat_of(setup: Setup) -> KioskSeat | None:
    """The kiosk's seat in a game, or None for a game of two human teams."""
    return setup.computer


@dataclass(frozen=True)
class ThrowPace:
    """Seconds the kiosk waits, so that people can follow it (all 0 in tests)."""

    dart: float = 1.2  # before each dart (and its bull-off dart)
    takeout: float | None = 3.0  # after its visit, before it presses Next itself (None: never)
    placing: float = 0.0


@dataclass(frozen=True)
class KioskDart:
    """One virtual dart of the kiosk: where it aimed and where it landed (public: the players
    see it on the screen)."""

    visit: int
    dart: int
    aim: tuple[float, float]
    landing: Landing


class ComputerPlayer:
    """Plays one team of one match by virtual darts. Created and stopped by `SoloMode`."""

    def __init__(
        self,
        service: GameService,
        match: Match,
        seat: KioskSeat,
        *,
        loop: asyncio.AbstractEventLoop,
        rng: random.Random,
        pace: ThrowPace = ThrowPace(),
        executor: concurrent.futures.Executor | None = None,
    ) -> None:
        self.service = service
        self.match = match
        self.seat = seat
        self.loop = loop
        self.rng = rng
        self.pace = pace
        self.executor = executor
        self.holding = False
        self.stopped = False
        self.darts: list[KioskDart] = []  # this visit's darts (the screen draws them)
        self.bull_off: Landing | None = None  # its last bull-off dart
        self.decisions = 0
        self._later = Later(loop)
        self._pending: int | None = None  # the match version of a decision in the executor
        self._listeners: list[Callable[[], None]] = []

    # -- what the screen asks --

    @property
    def team(self) -> int:
        return self.seat.side

    @property
    def idle(self) -> bool:
        """Nothing scheduled and no decision in the executor (the tests wait for this)."""
        return not self._later.pending and self._pending is None

    @property
    def busy(self) -> bool:
        """The kiosk's turn is running: it is thinking, waiting to throw, or about to press Next."""
        return not self.idle

    def on_change(self, callback: Callable[[], None]) -> None:
        """Called (on the loop) when `holding`, `darts` or `bull_off` change outside a MatchUpdate."""
        self._listeners.append(callback)

    def resume(self) -> None:
        """The players let the kiosk go on after they took back one of its darts."""
        if self.holding:
            self.holding = False
            self._changed()
        self.poke()

    def stop(self) -> None:
        self.stopped = True
        self._cancel()
        self._pending = None

    async def settled(self, rounds: int = 100_000) -> None:
        """Wait until the kiosk has nothing left to do for now (tests; bounded, never hangs)."""
        for _ in range(rounds):
            if self.idle or self.stopped:
                return
            await asyncio.sleep(0.001)

    # -- hearing the match --

    def heard(self, update: MatchUpdate) -> None:
        if self.stopped:
            return
        for event in update.events:
            if isinstance(event, VisitStarted):
                self.holding = False
                self.darts.clear()
            elif isinstance(event, Undone) and update.source != SOURCE:
                if self.darts:
                    self.darts.pop()
                if self.match.phase is Phase.THROWING and self.match.turn == self.team:
                    self.holding = True
        self.poke()

    def poke(self) -> None:
        """Look at the match again soon (never from inside a listener: always via the loop)."""
        if self.stopped:
            return
        match = self.match
        delay = 0.0
        if match.phase is Phase.PLACING:
            delay = self.pace.placing
        elif match.phase in (Phase.BULL_OFF, Phase.THROWING):
            delay = 0.0  # the decision starts now; the pause comes before the throw
        elif match.phase is Phase.TAKEOUT and match.turn == self.team:
            if self.pace.takeout is None:
                self._cancel()
                return
            delay = self.pace.takeout
        self._schedule(delay, self._step)

    # -- the machine --

    def _schedule(self, delay: float, action: Callable[[], None]) -> None:
        self._later.call(delay, lambda: None if self.stopped else action())

    def _cancel(self) -> None:
        self._later.cancel()

    def _changed(self) -> None:
        for callback in list(self._listeners):
            try:
                callback()
            except Exception:
                log.exception("a solo listener failed")

    def _mine(self) -> bool:
        return self.service.match is self.match and not self.stopped

    def _step(self) -> None:
        if not self._mine() or self._pending is not None:
            return
        match, team = self.match, self.team
        phase = match.phase
        if phase is Phase.PLACING:
            if not match.state().placed[team]:
                rules = match.setup.rules
                self._submit(Place(team, random_fleet(rules.board, rules.fleet, self.rng)))
        elif phase is Phase.BULL_OFF:
            if match.bull_off_zones()[team] is None and not match.bull_off_undecided:
                version = match.version
                self._schedule(self.pace.dart, lambda: self._bull_off_dart(version))
        elif match.turn != team or self.holding:
            return
        elif phase is Phase.THROWING:
            self._think()
        elif phase is Phase.TAKEOUT:
            self._submit(Next(visit=match.visits))

    def _bull_off_dart(self, version: int) -> None:
        if not self._mine() or self.match.version != version:
            self.poke()
            return
        landing = throw(self.match.board, cell_centre(BULL, self.match.board), self.seat.sigma, self.rng)
        self.bull_off = landing
        self._submit(BullOffDart(self.team, landing.zone, landing.cell))

    def _think(self) -> None:
        # The AI brings numpy: loaded when the kiosk first plays, not at every start.
        from kiosk.darts.decision import decide, record_of

        match = self.match
        version = match.version
        record = record_of(match, self.team)  # public: own shots, enemy ships sunk
        lengths = tuple(match.setup.rules.fleet)
        # A generator of its own for the executor: the shared one is used only on the loop.
        rng = random.Random(self.rng.getrandbits(64))
        self._pending = version
        started = self.loop.time()
        try:
            future = self.loop.run_in_executor(
                self.executor, decide, match.board, record, lengths, self.seat.sigma, rng
            )
        except RuntimeError:  # the loop is shutting down (the kiosk stops)
            self.stop()
            return
        future.add_done_callback(lambda f: self._decided(f, version, started))

    def _decided(self, future: asyncio.Future, version: int, started: float) -> None:
        if self._pending != version:
            return  # stopped, or a newer decision owns the slot
        self._pending = None
        if not self._mine():
            return
        if self.match.version != version:
            self.poke()  # an Undo or Correct came in while it thought
            return
        try:
            decision: Decision | None = future.result()
        except Exception:
            log.exception("the kiosk's decision failed: it aims at a cell not shot yet")
            decision = None
        self.decisions += 1
        aim = self._aim(decision)
        wait = self.pace.dart - (self.loop.time() - started)
        self._schedule(wait, lambda: self._throw(version, aim))

    def _aim(self, decision: Decision | None) -> tuple[float, float]:
        if decision is not None and math.isfinite(decision.aim.x) and math.isfinite(decision.aim.y):
            return (decision.aim.x, decision.aim.y)
        shots = self.match.shots(self.team)
        fresh = [c for c in self.match.board.cells if c not in shots]
        cell = self.rng.choice(fresh or list(self.match.board.cells))
        return cell_centre(cell, self.match.board)

    def _throw(self, version: int, aim: tuple[float, float]) -> None:
        if not self._mine():
            return
        if self.match.version != version or self.holding:
            self.poke()
            return
        landing = throw(self.match.board, aim, self.seat.sigma, self.rng)
        self.darts.append(KioskDart(self.match.visits, self.match.dart_in_visit + 1, aim, landing))
        if not self._submit(Throw(landing.cell)):
            self.darts.pop()

    def _submit(self, command: Command) -> bool:
        """Submit as the kiosk. A refusal is logged and not retried (no loop on a bad state):
        the next match update wakes the kiosk again."""
        try:
            self.service.submit(command, SOURCE)
        except RuleError as err:
            log.warning("the kiosk's %s was refused: %s", type(command).__name__, err)
            return False
        return True


@dataclass
class SoloMode(ServiceListener):
    """Watches the service's games and runs a `ComputerPlayer` for every solo game.

    Attach it before `service.resume()` (or any time: `attach` also looks at the running game).
    """

    service: GameService
    loop: asyncio.AbstractEventLoop
    pace: ThrowPace = ThrowPace()
    rng: random.Random = field(default_factory=random.Random)
    executor: concurrent.futures.Executor | None = None
    player: ComputerPlayer | None = None
    _on_player: list[Callable[[ComputerPlayer | None], None]] = field(default_factory=list)

    def _let_go(self) -> None:
        self._set_player(None)

    def seat(self) -> KioskSeat | None:
        """The kiosk's seat in the running game (None: no game, or two human teams)."""
        match = DARTS.in_play(self.service)
        return seat_of(match.setup) if match is not None else None

    def on_player(self, callback: Callable[[ComputerPlayer | None], None]) -> None:
        self._on_player.append(callback)

    def _heard(self, event: ServiceEvent) -> None:
        if isinstance(event, GameStarted):
            self._sync()
        elif isinstance(event, MatchUpdate) and self.player is not None:
            if self.player.match is not self.service.match:
                self._sync()
                return
            self.player.heard(event)
            if self.player.match.phase is Phase.OVER:
                # Stopped but kept until the next game: the screen still draws its last darts.
                self.player.stop()

    def _sync(self) -> None:
        match = DARTS.in_play(self.service)
        seat = seat_of(match.setup) if match is not None else None
        player = self.player
        if player is not None and (player.match is not match or seat != player.seat):
            self._set_player(None)
        if self.player is None and match is not None and seat is not None and match.phase is not Phase.OVER:
            log.info("the kiosk plays team %d at skill %s", seat.side + 1, seat.skill)
            self._set_player(
                ComputerPlayer(
                    self.service,
                    match,
                    seat,
                    loop=self.loop,
                    rng=random.Random(self.rng.getrandbits(64)),
                    pace=self.pace,
                    executor=self.executor,
                )
            )

    def _set_player(self, player: ComputerPlayer | None) -> None:
        if self.player is not None:
            self.player.stop()
        self.player = player
        if player is not None:
            player.poke()
        for callback in list(self._on_player):
            try:
                callback(player)
            except Exception:
                log.exception("a solo listener failed")
