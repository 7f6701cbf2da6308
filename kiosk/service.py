"""The service that runs a game: one owner for the match, the store and the fan-out.

Devices put input events on `queue` (from their threads, with `call_soon_threadsafe`); the
touchscreen and the phones call `submit` from the loop. Every accepted command is committed to
the store before any listener hears of it, so an announced dart survives a power cut.

Listeners get `MatchUpdate`s (the match's events: public by construction, a ship's cells
appear only once it is sunk) and `Notice`s (board connected, a bad line, a refused input).
A listener that fails is logged and dropped from nothing else: one broken screen never stops
the game.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass

from kiosk.config import Config
from kiosk.darts.board import MISS, BullZone
from kiosk.darts.fleet import Fleet, random_fleet
from kiosk.darts.match import (
    BullOffDart,
    Command,
    Event,
    Ignored,
    Match,
    Next,
    Phase,
    Place,
    RuleError,
    Setup,
    Start,
    TakeoutNeeded,
    Throw,
    Undo,
)
from kiosk.i18n import _
from kiosk.inputs import (
    BadLine,
    Button,
    ButtonInput,
    Connected,
    DartInput,
    Disconnected,
    Info,
    InputEvent,
    MissInput,
    StuckInput,
    UnmappedInput,
)
from kiosk.store import Store

log = logging.getLogger("dartship.service")


class NoticeKind(enum.Enum):
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    REFUSED = "refused"  # an input or command the rules did not accept now
    DEVICE = "device"  # stuck contact, unmapped contact, bad line, info


@dataclass(frozen=True)
class MatchUpdate:
    events: tuple[Event, ...]
    game: int
    source: str  # "board", "touch", "phone", "timer", "system"


@dataclass(frozen=True)
class Notice:
    kind: NoticeKind
    message: str


@dataclass(frozen=True)
class GameStarted:
    """A new game (or a resumed one) is now the service's match."""

    game: int
    resumed: bool


ServiceEvent = MatchUpdate | Notice | GameStarted
Listener = Callable[[ServiceEvent], None]


class GameService:
    def __init__(self, store: Store, config: Config, *, rng: random.Random | None = None) -> None:
        self.store = store
        self.config = config
        self.rng = rng or random.Random()
        self.queue: asyncio.Queue[InputEvent] = asyncio.Queue()
        self.match: Match | None = None
        self.game: int | None = None
        self.board_connected: bool | None = None  # None: no board reports (simulator)
        self._listeners: list[Listener] = []
        self._takeout_timer: asyncio.TimerHandle | None = None
        self._diversion: Callable[[InputEvent], bool] | None = None

    # -- listeners --

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)
        return unsubscribe

    def _tell(self, event: ServiceEvent) -> None:
        if isinstance(event, Notice):
            # Device and refusal notices are what an owner reads in the journal; they never
            # carry a placement.
            log.log(logging.WARNING if event.kind is NoticeKind.DISCONNECTED else logging.INFO,
                    "%s", event.message)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                log.exception("a listener failed on %s", type(event).__name__)

    # -- games --

    def new_game(self, setup: Setup) -> int:
        """Start a new game; an unfinished one stays in the database as abandoned."""
        self._cancel_takeout()
        match = Match(setup)
        self.game = self.store.new_game(setup)
        self.match = match
        self._tell(GameStarted(self.game, resumed=False))
        return self.game

    def resume(self) -> bool:
        """Pick up the unfinished game of the store, exactly where it stopped."""
        game = self.store.unfinished()
        if game is None:
            return False
        self.match, self.game = self.store.load(game), game
        self._tell(GameStarted(game, resumed=True))
        return True

    def submit(self, command: Command, source: str = "touch") -> list[Event]:
        """Apply, commit, then announce. `RuleError` (or a placement error) changes nothing."""
        if self.match is None or self.game is None:
            raise RuleError(_("no game is running"))
        events = self.match.apply(command)
        if any(isinstance(e, Ignored) for e in events):
            return events
        self.store.append(self.game, command, events, self.match)
        self._tell(MatchUpdate(tuple(events), self.game, source))
        self._after(events, source)
        return events

    def place(self, team: int, fleet: Fleet, source: str = "touch") -> list[Event]:
        return self.submit(Place(team, fleet), source)

    def random_fleet(self, team: int) -> Fleet:
        if self.match is None:
            raise RuleError(_("no game is running"))
        rules = self.match.setup.rules
        return random_fleet(rules.board, rules.fleet, self.rng)

    def _after(self, events: list[Event], source: str) -> None:
        """What follows by itself: the start once both fleets are in, the takeout timer."""
        assert self.match is not None
        state = self.match.state()
        if self.match.phase is Phase.PLACING and all(state.placed):
            self.submit(Start(None), "system")
            return
        if any(isinstance(e, TakeoutNeeded) for e in events):
            self._start_takeout_timer()
        elif self.match.phase is not Phase.TAKEOUT:
            self._cancel_takeout()

    def _start_takeout_timer(self) -> None:
        seconds = self.config["rules.takeout_seconds"]
        if not seconds:
            return
        self._cancel_takeout()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        visits = self.match.visits if self.match else 0

        def fire() -> None:
            self._takeout_timer = None
            if self.match and self.match.phase is Phase.TAKEOUT and self.match.visits == visits:
                self._try(Next(), "timer")
        self._takeout_timer = loop.call_later(seconds, fire)

    def _cancel_takeout(self) -> None:
        if self._takeout_timer is not None:
            self._takeout_timer.cancel()
            self._takeout_timer = None

    def _try(self, command: Command, source: str) -> list[Event]:
        try:
            return self.submit(command, source)
        except (RuleError, ValueError) as err:
            self._tell(Notice(NoticeKind.REFUSED, str(err)))
            return []

    # -- inputs from the devices --

    async def run(self) -> None:
        """Consume the device queue for ever (cancel the task to stop)."""
        while True:
            event = await self.queue.get()
            try:
                self.handle_input(event)
            except Exception:
                log.exception("input %s could not be handled", type(event).__name__)

    def divert(self, handler: Callable[[InputEvent], bool]) -> Callable[[], None]:
        """Let one screen (the learn wizard) take the board's inputs for a while.

        `handler` returns True for an event it consumed; the others go to the game as usual.
        Returns the function that gives the inputs back.
        """
        self._diversion = handler

        def restore() -> None:
            if self._diversion is handler:
                self._diversion = None
        return restore

    def handle_input(self, event: InputEvent) -> list[Event]:
        if self._diversion is not None and self._diversion(event):
            return []
        match event:
            case DartInput(cell, _raw, zone):
                return self._dart(cell, zone)
            case MissInput():
                return self._dart(MISS, BullZone.MISS)
            case ButtonInput(button):
                return self._button(button)
            case Connected(port):
                self.board_connected = True
                self._tell(Notice(NoticeKind.CONNECTED, _("board connected ({port})").format(
                    port=port)))
            case Disconnected(reason):
                self.board_connected = False
                self._tell(Notice(NoticeKind.DISCONNECTED, _("board disconnected: {reason}").format(
                    reason=reason)))
            case StuckInput(cell):
                self._tell(Notice(NoticeKind.DEVICE, _("contact {cell} seems stuck: counted once")
                                  .format(cell=cell.code)))
            case UnmappedInput(raw):
                self._tell(Notice(NoticeKind.DEVICE, _("contact {raw} is not in the board map")
                                  .format(raw=raw)))
            case BadLine(raw, reason):
                self._tell(Notice(NoticeKind.DEVICE, _("unreadable line from the board: {raw}")
                                  .format(raw=raw[:40] + (f" ({reason})" if reason else ""))))
            case Info(message):
                self._tell(Notice(NoticeKind.DEVICE, message))
        return []

    def _dart(self, cell, zone: BullZone) -> list[Event]:
        if self.match is None:
            return []
        computer = self.match.setup.computer
        if self.match.phase is Phase.BULL_OFF:
            zones = self.match.bull_off_zones()
            # The first team named throws first; in solo mode every board dart is the players'.
            waiting = [t for t in (0, 1) if zones[t] is None
                       and (computer is None or computer.team != t)]
            if self.match.bull_off_undecided or not waiting:
                return []
            return self._try(BullOffDart(waiting[0], zone), "board")
        if self.match.phase is Phase.PLACING:
            return []  # warming-up darts before the game: nothing to referee
        if computer is not None and self.match.turn == computer.team:
            # The kiosk throws its own (virtual) darts: a real dart now is not the players' turn.
            self._tell(Notice(NoticeKind.REFUSED, _("the kiosk is throwing: wait for your visit")))
            return []
        return self._try(Throw(cell), "board")

    def _button(self, button: Button) -> list[Event]:
        if self.match is None:
            return []
        command: Command = {Button.NEXT: Next(), Button.UNDO: Undo(), Button.MISS: Throw(MISS)}[button]
        return self._try(command, "board")
