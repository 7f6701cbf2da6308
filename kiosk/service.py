"""The service that runs one game of any kind: apply -> commit -> announce; owns the input queue.

Devices put input events on `queue` (from their threads, with `call_soon_threadsafe`); the
touchscreen, the phones and the computer players call `submit` from the loop. Every accepted
command is committed to the store before any listener hears of it, so an announced dart survives
a power cut. If the commit fails (a full disk), the game in memory is rebuilt from the store, the
command is refused (`NotSaved`), everyone is told "cannot save: the game is paused", and the
service retries the store until writes work again; then play resumes by itself. Nothing is ever
announced that is not stored, and play never goes on from memory alone.

Listeners get `MatchUpdate`s (the game's events: public by construction), `Notice`s (board
connected, a bad line, a refused input, paused/resumed) and `GameStarted`. A listener that fails
is logged; one broken screen never stops the game.
"""

from __future__ import annotations

import abc
import contextlib
import enum
import functools
import logging
import random
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

from kiosk import store_faults
from kiosk.board import Cell, Profile
from kiosk.errors import AlreadyDone
from kiosk.game import Game, GameKind, RuleError
from kiosk.i18n import _, recording
from kiosk.inputs import (
    BadLine,
    ButtonInput,
    Connected,
    CorrectInput,
    DartInput,
    Disconnected,
    HeldDarts,
    Info,
    InputEvent,
    MissInput,
    StuckInput,
    TakeoutInput,
    UnmappedInput,
)
from kiosk.store import Store, StoreError

if TYPE_CHECKING:
    import asyncio
    import concurrent.futures

log = logging.getLogger("dartship.service")

RETRY_SECONDS = 2.0  # how often a paused service tries the store again


class Source(enum.Enum):
    """Where a command came from (the screens animate a board dart, not a phone's)."""

    BOARD = "board"  # a device: the board, its buttons, the simulator
    TOUCH = "touch"
    PHONE = "phone"
    HOST = "host"  # the host page of a headless kiosk
    TIMER = "timer"
    SYSTEM = "system"  # what follows by itself (the start once both fleets are in)
    COMPUTER = "kiosk"  # the kiosk's own computer player


class NoticeKind(enum.Enum):
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    REFUSED = "refused"  # an input or command the rules did not accept now
    DEVICE = "device"  # stuck contact, unmapped contact, bad line, info
    PAUSED = "paused"  # the store cannot save: nothing is played until it can
    RESUMED = "resumed"
    ABANDONED = "abandoned"  # staff ended the game in play: stored as abandoned, no winner


class NotSaved(RuleError):
    """The command could not be stored: it is not done, and the game is paused."""


E_co = TypeVar("E_co", covariant=True)
S = TypeVar("S")


@dataclass(frozen=True)
class MatchUpdate(Generic[E_co]):
    """What a committed command did: its events (a kind's own; `GameKind.events_of` gives them
    typed), the game, and where the command came from."""

    events: tuple[E_co, ...]
    game: int
    source: Source


@dataclass(frozen=True)
class Notice:
    kind: NoticeKind
    message: str


@dataclass(frozen=True)
class GameStarted:
    """A game is now the service's match: a new one, a resumed one, or the same one rebuilt
    from the store (after a failed commit), which every holder of the old object must drop."""

    game: int
    resumed: bool


@dataclass
class _Commit:
    """A write waiting for the group's commit (`GameService.play`, `start_game`)."""

    write: concurrent.futures.Future[Any]
    announce: Callable[[Any], None]  # on the loop, once committed
    failed: Callable[[BaseException], RuleError]  # the error its caller gets
    told: asyncio.Future[None]  # done once committed and announced, or failed
    error: RuleError | None = None


ServiceEvent = MatchUpdate[object] | Notice | GameStarted
Listener = Callable[[ServiceEvent], None]
_STORE_ERRORS = (sqlite3.Error, OSError, StoreError)


class GameService:
    def __init__(
        self,
        store: Store | None,
        *,
        rng: random.Random | None = None,
        venue: str = "kiosk",
        follow_ups: bool = True,
        grouped: bool = False,
    ) -> None:
        """`follow_ups=False` submits only what it is given (the line protocols, where the
        script says `start` itself). `grouped`: `play` and `submit_soon` commit through the
        store's writer thread, in one transaction with other games' commands (the phones'
        tables: many games at once); `submit` always commits at once."""
        self.store = store
        self.venue = venue
        self.follow_ups = follow_ups
        self.grouped = grouped and store is not None
        self._commit: _Commit | None = None  # the command being committed by the group
        self.rng = rng or random.Random()
        self.kind: GameKind[Any, Any, Any, Any] | None = None
        self.match: Game[Any, Any] | None = None
        self.game: int | None = None
        self.board_connected: bool | None = None  # None: no board reports (simulator)
        self.board_camera = False  # the board gone is a camera scorer (Disconnected.camera)
        # What the board can report (the board input's `profile`, wired by the composition
        # root): a board whose dialect cannot tell the two singles apart reports three rings
        # whatever board.profile says. None: no board, board.profile as configured.
        self.board_profile: Callable[[], Profile | None] = lambda: None
        # False while the board has not said yet what it reports (`BoardInput.rings_told`).
        self.board_rings_told: Callable[[], bool] = lambda: True
        # True when the board ends a visit itself as its darts are pulled out
        # (`BoardInput.takes_out`): the screens then say so rather than ask for Next.
        self.board_takes_out: Callable[[], bool] = lambda: False
        self.paused: str | None = None  # why the store cannot save, while it cannot
        self._listeners: list[Listener] = []
        self._taking_part: list[Listener] = []  # heard first: the game's own players and timers
        self._participants: dict[str, list[ServiceListener]] = {}  # by kind of game
        self._diversion: Callable[[InputEvent], bool] | None = None
        self._retry: asyncio.TimerHandle | None = None
        self._memory_games = 0  # ids of games without a store count down from -1

    @functools.cached_property
    def queue(self) -> asyncio.Queue[InputEvent]:
        """The inputs (darts, buttons) the service task takes one by one. Made when first
        asked for, with asyncio imported then: the line protocols never use it, and their
        first answer does not wait for asyncio's import."""
        import asyncio

        return asyncio.Queue()

    # -- listeners --

    def subscribe(self, listener: Listener, *, takes_part: bool = False) -> Callable[[], None]:
        """`takes_part`: a participant of the game (a computer seat, a timer), which hears every
        event before the faces do, so that a screen shows what the participant made of it."""
        group = self._taking_part if takes_part else self._listeners
        group.append(listener)

        def unsubscribe() -> None:
            if listener in group:
                group.remove(listener)

        return unsubscribe

    def host(self, kind: str, participants: Sequence[ServiceListener]) -> None:
        """A kind of game's participants (its computer seats, timers): attached while a game of
        that kind is in play, let go when a game of another kind starts and at `dismiss`."""
        self._participants.setdefault(kind, []).extend(participants)
        self._seat_participants()

    def participants(self) -> list[ServiceListener]:
        return [p for participants in self._participants.values() for p in participants]

    def dismiss(self) -> None:
        """Let every participant go (the kiosk stops)."""
        for participant in self.participants():
            participant.close()
        self._participants.clear()

    def _seat_participants(self) -> None:
        playing = self.kind.name if self.kind is not None else None
        for kind, participants in self._participants.items():
            for participant in participants:
                if kind != playing:
                    if participant.attached:
                        participant.close()
                elif not participant.attached:
                    participant.attach()  # it looks at the game in play at once

    def tell(self, event: ServiceEvent) -> None:
        listeners = [*self._taking_part, *self._listeners]
        if isinstance(event, GameStarted):
            # The participants seated now have looked at the new game already; those let go
            # hear nothing more.
            self._seat_participants()
            listeners = [
                listener
                for listener in listeners
                if listener in self._taking_part or listener in self._listeners
            ]
        if isinstance(event, Notice):
            # Device and refusal notices are what an owner reads in the journal; they never
            # carry a placement.
            level = (
                logging.WARNING
                if event.kind in (NoticeKind.DISCONNECTED, NoticeKind.PAUSED)
                else logging.INFO
            )
            log.log(level, "%s", event.message)
        for listener in listeners:
            try:
                listener(event)
            except Exception:
                log.exception("a listener failed on %s", type(event).__name__)

    # -- games --

    def new_game(self, kind: GameKind[S, Any, Any, Any], setup: S) -> int:
        """Start a new game; an unfinished one of this venue stays stored as abandoned."""
        self._flush()
        self._check_writable()
        match = kind.new(setup)
        if self.store is not None:
            try:
                game = self.store.games.new_game(kind, setup, venue=self.venue)
            except _STORE_ERRORS as err:
                raise NotSaved(_("cannot save: {reason}").format(reason=self._why(err))) from None
        else:
            self._memory_games -= 1
            game = self._memory_games
        self.kind, self.match, self.game = kind, match, game
        self.tell(GameStarted(game, resumed=False))
        return game

    def abandon(self) -> int:
        """End the game in play without a winner (staff, for a game a team walked away from):
        stored as abandoned first, then dropped, then told (`Notice(ABANDONED)`). Returns the
        game; RuleError when none is in play, NotSaved when the store cannot say so."""
        self._flush()
        game, match, kind = self.game, self.match, self.kind
        if game is None or match is None or kind is None or match.outcome().over:
            raise RuleError(_("no game is in play"))
        self._check_writable()
        if self.store is not None:
            try:
                self.store.games.abandon(game)
            except _STORE_ERRORS as err:
                raise NotSaved(_("cannot save: {reason}").format(reason=self._why(err))) from None
        self.kind = self.match = self.game = None
        self.tell(Notice(NoticeKind.ABANDONED, _("game {game} abandoned").format(game=game)))
        return game

    def resume(self, finished_within: float | None = 0.0) -> bool:
        """Pick up the last game of the store exactly where it stopped: an unfinished one, or
        one that ended at most `finished_within` seconds ago (None: however long ago, the line
        protocols' promise; the kiosk shows a just-finished game's result and lets its winning
        dart be undone). An abandoned last game brings nothing back."""
        if self.store is None:
            return False
        self._flush()
        try:
            return self._resume(self.store, finished_within)
        except (sqlite3.Error, OSError) as err:
            raise StoreError(self._why(err)) from None

    def _resume(self, store: Store, finished_within: float | None) -> bool:
        last = store.games.last_game(self.venue)
        if last is None:
            return False
        game, status, finished = last
        if status == "over" and finished_within is not None:
            # A clock that went back (a Pi without a real-time clock, after a power cut) makes
            # the age negative: that game did just end.
            age = (datetime.now(UTC) - finished).total_seconds() if finished else float("inf")
            if age > finished_within:
                return False
        elif status != "playing" and status != "over":
            return False
        self.kind, self.match = store.games.restore(game)
        self.game = game
        self.tell(GameStarted(game, resumed=True))
        return True

    def submit(self, command: object, source: Source = Source.TOUCH) -> list[object]:
        """Apply, commit, then announce: a command of any kind, which the game in play judges.
        `RuleError` (or a placement error) changes nothing; `NotSaved` (a RuleError too) means
        the store failed: nothing done, the game paused."""
        self._flush()
        match, kind, game = self._playing()
        self._admit(kind, command, source)
        before = match.version
        events = match.apply(command)
        if match.version == before:
            return events  # accepted, changed nothing (a dart while the darts come out)
        if self.store is not None:
            try:
                self.store.games.append(game, kind, command, events, match)
            except _STORE_ERRORS as err:
                self._pause(err)
                raise NotSaved(self.paused or "") from None
        self._announce(match, kind, game, events, source, grouped=False)
        return events

    def _admit(self, kind: GameKind[Any, Any, Any, Any], command: object, source: Source) -> None:
        """The game's participants may refuse a command before it is applied (RuleError): what
        needs a clock or knows the sources stays out of the pure game (the dart game's guard
        against a Next that comes twice)."""
        for participant in self._participants.get(kind.name, ()):
            if participant.attached:
                participant.admit(command, source)

    def _playing(self) -> tuple[Game[Any, Any], GameKind[Any, Any, Any, Any], int]:
        if self.match is None or self.kind is None or self.game is None:
            raise RuleError(_("no game is running"))
        self._check_writable()
        return self.match, self.kind, self.game

    def _announce(
        self,
        match: Game[Any, Any],
        kind: GameKind[Any, Any, Any, Any],
        game: int,
        events: list[object],
        source: Source,
        *,
        grouped: bool,
    ) -> None:
        """A committed command: everyone hears it, then what follows by itself is submitted
        (`grouped`: its commit too)."""
        self.tell(MatchUpdate[object](tuple(events), game, source))
        follow = kind.follow_up(match, events) if self.follow_ups else None
        if follow is not None:
            if grouped:
                self._begin(follow, Source.SYSTEM)
            else:
                self.submit(follow, Source.SYSTEM)

    # -- commits grouped with other games' (the phones' tables) --

    async def play(self, command: object, source: Source = Source.TOUCH) -> list[object]:
        """`submit` without the loop waiting for the disk: on a grouped service the command is
        applied, its commit queued with other games' (`Store.group`), and this returns once it
        is committed and announced and whatever followed by itself is too. Until then the
        service is `committing`: `settled()` waits for it, and no other command of this game
        is applied (one at a time, in order)."""
        await self.settled()
        if not self.grouped or self._loop() is None:
            return self.submit(command, source)
        events, commit = self._begin(command, source)
        await self.settled()
        if commit is not None and commit.error is not None:
            raise commit.error
        return events

    def submit_soon(self, command: object, source: Source) -> asyncio.Future[list[object]]:
        """`play` as a future (for callbacks: the computer's seat). A service that is not
        grouped submits at once: the future is done when this returns."""
        import asyncio

        if self.grouped:
            return asyncio.ensure_future(self.play(command, source))
        future: asyncio.Future[list[object]] = asyncio.get_running_loop().create_future()
        try:
            future.set_result(self.submit(command, source))
        except RuleError as err:
            future.set_exception(err)
        return future

    @property
    def committing(self) -> bool:
        """A command was applied and is not yet committed: its game shows what is not stored,
        so nothing of it may be answered or sent now (`settled()`)."""
        return self._commit is not None

    async def settled(self) -> None:
        """Returns once no command of this service waits for its commit; the caller then reads
        the game with no await in between, and so answers only what is stored."""
        import asyncio

        while self._commit is not None:
            await asyncio.shield(self._commit.told)

    async def start_game(self, kind: GameKind[S, Any, Any, Any], setup: S) -> int:
        """`new_game` without the loop waiting for the disk (see `play`): everyone hears of the
        new game once its row is committed."""
        await self.settled()
        if not self.grouped or self.store is None or self._loop() is None:
            return self.new_game(kind, setup)
        self._check_writable()
        match = kind.new(setup)
        started: list[int] = []

        def announce(game: object) -> None:
            assert isinstance(game, int)
            self.kind, self.match, self.game = kind, match, game
            started.append(game)
            self.tell(GameStarted(game, resumed=False))

        def failed(err: BaseException) -> RuleError:
            return NotSaved(_("cannot save: {reason}").format(reason=self._why(err)))

        try:
            write = self.store.games.new_game_grouped(kind, setup, venue=self.venue)
        except _STORE_ERRORS as err:
            raise failed(err) from None
        commit = self._queue(write, announce, failed)
        await self.settled()
        if commit.error is not None:
            raise commit.error
        return started[0]

    def _begin(self, command: object, source: Source) -> tuple[list[object], _Commit | None]:
        assert self.store is not None and self._commit is None
        match, kind, game = self._playing()
        self._admit(kind, command, source)
        before = match.version
        events = match.apply(command)
        if match.version == before:
            return events, None

        def announce(_result: object) -> None:
            if self.match is match and self.game == game:
                self._announce(match, kind, game, events, source, grouped=True)

        def failed(err: BaseException) -> RuleError:
            self._pause(err)
            return NotSaved(self.paused or "")

        try:
            write = self.store.games.append_grouped(game, kind, command, events, match)
        except _STORE_ERRORS as err:
            raise failed(err) from None
        return events, self._queue(write, announce, failed)

    def _queue(
        self,
        write: concurrent.futures.Future[Any],
        announce: Callable[[Any], None],
        failed: Callable[[BaseException], RuleError],
    ) -> _Commit:
        """`write` is on its way to the disk: until it is committed, this service is
        `committing`; then `announce(result)` (on the loop), or `failed(err)` gives the error."""
        loop = self._loop()
        assert loop is not None
        commit = self._commit = _Commit(write, announce, failed, loop.create_future())

        def committed(_done: object) -> None:  # on the writer thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._finish, commit)

        write.add_done_callback(committed)
        return commit

    def _finish(self, commit: _Commit) -> None:
        """The group is done with `commit`: announce it, or (its commit failed) say why."""
        if self._commit is not commit:
            return  # finished already (`_flush`)
        self._commit = None
        try:
            try:
                result = commit.write.result()
            except _STORE_ERRORS as err:
                commit.error = commit.failed(err)
                return
            commit.announce(result)
        except RuleError as err:  # a follow-up refused
            commit.error = err
        finally:
            if not commit.told.done():
                commit.told.set_result(None)

    def _flush(self) -> None:
        """Before anything done at once: the command being committed is waited for (blocking,
        for one group's commit) and announced, so that what comes next comes after it."""
        import concurrent.futures

        while self._commit is not None:
            commit = self._commit
            concurrent.futures.wait([commit.write])
            self._finish(commit)

    @staticmethod
    def _loop() -> asyncio.AbstractEventLoop | None:
        import asyncio

        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    def try_submit(self, command: object, source: Source) -> list[object]:
        """Submit, telling a refusal to everyone instead of raising (inputs nobody waits on).
        A command whose work was done already (`AlreadyDone`) is only written in the journal:
        nothing is wrong, so no screen shows it and the buzzer does not beep."""
        try:
            return self.submit(command, source)
        except AlreadyDone as err:
            log.info("%s from %s: %s", type(command).__name__, source.value, err)
            return []
        except RuleError as err:
            self.tell(Notice(NoticeKind.REFUSED, str(err)))
            return []

    # -- when the store cannot save --

    def _check_writable(self) -> None:
        if self.paused is not None and not self._try_store():
            raise NotSaved(self.paused)

    def _pause(self, err: BaseException) -> None:
        """The commit failed: drop the game in memory for the one in the store, tell everyone,
        and keep trying the store."""
        with recording():  # how it was made: each phone hears it in its own language
            self.paused = _("cannot save: the game is paused ({reason})").format(reason=self._why(err))
        log.error("commit failed: %s", err)
        self._rebuild()
        self.tell(Notice(NoticeKind.PAUSED, self.paused))
        self._schedule_retry()

    def _why(self, err: BaseException) -> str:
        """A failed write in the owner's words: the disk is full, the file is read-only..."""
        if isinstance(err, StoreError) or self.store is None:
            return str(err)
        return store_faults.explain(err, self.store.path)

    def _rebuild(self) -> None:
        assert self.game is not None and self.kind is not None and self.match is not None
        try:
            assert self.store is not None
            self.match = self.store.games.load(self.game)
        except (*_STORE_ERRORS, ValueError) as err:
            # The store cannot even be read: what it holds is every command but the last (each
            # earlier one was committed before it was announced), so replay those.
            log.error(
                "the store cannot be read either (%s): the game is rebuilt from its committed commands", err
            )
            from kiosk.game import replay

            self.match = replay(self.kind, self.match.setup, list(self.match.log)[:-1])
        self.tell(GameStarted(self.game, resumed=True))

    def _try_store(self) -> bool:
        """One try of a real write; on success the pause ends and everyone is told."""
        if self.paused is None:
            return True
        try:
            assert self.store is not None
            self.store.meta.probe()
        except _STORE_ERRORS as err:
            log.debug("the store still cannot save: %s", err)
            return False
        self.paused = None
        self._cancel_retry()
        self.tell(Notice(NoticeKind.RESUMED, _("saving works again: play on")))
        return True

    def _schedule_retry(self) -> None:
        self._cancel_retry()
        import asyncio

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (the referee): the next command tries the store again

        def retry() -> None:
            self._retry = None
            if not self._try_store():
                self._schedule_retry()

        self._retry = loop.call_later(RETRY_SECONDS, retry)

    def _cancel_retry(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None

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

    def handle_input(self, event: InputEvent) -> Sequence[Any]:
        if self._diversion is not None and self._diversion(event):
            return []
        match event:
            case DartInput() | MissInput() | ButtonInput() | CorrectInput() | TakeoutInput():
                if self.match is None or self.kind is None:
                    return []
                meant = self.kind.command_for_input(self.match, event)
                if isinstance(meant, str):
                    self.tell(Notice(NoticeKind.REFUSED, meant))
                    return []
                return [] if meant is None else self.try_submit(meant, Source.BOARD)
            case Connected(port):
                self.board_connected = True
                self.tell(Notice(NoticeKind.CONNECTED, _("board connected ({port})").format(port=port)))
            case Disconnected(reason, camera):
                self.board_connected = False
                self.board_camera = camera
                self.tell(
                    Notice(NoticeKind.DISCONNECTED, _("board disconnected: {reason}").format(reason=reason))
                )
            case StuckInput(cell):
                self.tell(
                    Notice(
                        NoticeKind.DEVICE,
                        _("contact {cell} seems stuck: counted once").format(cell=cell.code),
                    )
                )
            case UnmappedInput(raw):
                self.tell(
                    Notice(NoticeKind.DEVICE, _("contact {raw} is not in the board map").format(raw=raw))
                )
            case BadLine(raw, reason):
                self.tell(
                    Notice(
                        NoticeKind.DEVICE,
                        _("unreadable line from the board: {raw}").format(
                            raw=raw[:40] + (f" ({reason})" if reason else "")
                        ),
                    )
                )
            case HeldDarts(message, cells):
                if self._visit_counts(cells):
                    log.info("the board holds %d darts the visit in play already counts", len(cells))
                else:
                    self.tell(Notice(NoticeKind.DEVICE, message))
            case Info(message):
                self.tell(Notice(NoticeKind.DEVICE, message))
        return []

    def _visit_counts(self, cells: tuple[Cell, ...]) -> bool:
        """Whether the visit in play already counts these darts, first to last in this order (a
        game resumed after a restart whose board kept them): then none is missing."""
        if self.match is None or self.kind is None:
            return False
        counted = self.kind.visit_darts(self.match)
        return counted is not None and counted[: len(cells)] == cells


class ServiceListener(abc.ABC):
    """What the listeners that play a part in the service's games share (the computer players):
    `attach` subscribes once and looks at the game in play at once; `close` lets go. A subclass
    has `service` and defines `_heard(event)`, `_sync()` (look at the game in play) and
    `_let_go()` (drop what it holds)."""

    service: GameService
    _unsubscribe: Callable[[], None] | None = None  # set while attached

    @property
    def attached(self) -> bool:
        return self._unsubscribe is not None

    @abc.abstractmethod
    def _heard(self, event: ServiceEvent) -> None:
        """A service event (the game started, moved on, a notice)."""

    @abc.abstractmethod
    def _sync(self) -> None:
        """Look at the game in play: take part if it is one's own, let go otherwise."""

    @abc.abstractmethod
    def _let_go(self) -> None:
        """Drop what it holds (timers, decisions on their way, the game)."""

    def admit(self, command: object, source: Source) -> None:
        """Before a command of its game is applied, from `source`: raise RuleError to refuse it
        (said to the sender, nothing done). Most participants take every command."""
        return None

    def attach(self) -> Self:
        if self._unsubscribe is None:
            self._unsubscribe = self.service.subscribe(self._heard, takes_part=True)
        self._sync()
        return self

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._let_go()
