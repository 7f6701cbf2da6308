"""A steel-tip board scored by cameras: the Autodarts Board Manager as a board input.

PROTOCOLS.md section 6. The Board Manager pushes `{"type": "state", "data": {...}}` frames on
`ws://HOST:3180/api/events`; a state is a snapshot of the visit so far (`throws`, oldest
first), not an event: it repeats, a dart in it may change (the cameras look again), and after
the takeout `numThrows` falls to 0. `VisitFollower` (pure) turns the snapshots into the
kiosk's inputs: each dart once and in order, a change of the last dart a `CorrectInput`, a
change of an earlier one undo + replay, the takeout a `TakeoutInput` (the end of the visit its
darts went into: the kiosk knows which, kiosk/darts/double_next.py, the cameras do not), a
dart beyond the visit refused with a notice. `AutodartsBoard` is the device: an aiohttp
WebSocket client in the kiosk's loop (or in a loop of its own for `dartship board-test`),
resynced with `GET /api/state` on every connect, offline shown and retried with backoff.
`GET /api/config` holds the board's cloud key: it is never read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from hardware.noise import BoardNoise
from hardware.sink import deliver
from kiosk.board import BULL, MISS, Board, BullZone, Cell, CellError, Profile, board_for
from kiosk.i18n import _
from kiosk.inputs import (
    BadLine,
    Button,
    ButtonInput,
    Connected,
    CorrectInput,
    DartInput,
    Disconnected,
    HeldDarts,
    Info,
    InputEvent,
    MissInput,
    TakeoutInput,
)
from kiosk.lines import WireError, untrusted_json
from kiosk.ports import Sink
from kiosk.printable import printable

log = logging.getLogger("dartship.autodarts")

DEFAULT_PORT = 3180
# Statuses in which the cameras are not scoring (PROTOCOLS §6); `running: false` too.
OFFLINE_STATUSES = frozenset({"stopped", "offline", "error", "calibrating", "starting"})
MAX_FRAME = 256 * 1024  # bytes: a state of three darts is well under 2 kB


# --- one dart: a segment -> a cell -------------------------------------------------------

_BEDS = {"singleinner": "S", "singleouter": "L", "double": "D", "triple": "T"}
_BULL_NAMES = frozenset({"25", "50", "BULL", "SB", "DB", "S25", "D25", "BULLSEYE", "OUTERBULL", "INNERBULL"})
_INNER_BULL_NAMES = frozenset({"50", "DB", "D25", "BULLSEYE", "INNERBULL"})
_BULL_BEDS = frozenset({"outerbull", "innerbull", "bull", "bullseye"})


@dataclass(frozen=True)
class Landed:
    """A dart as the scorer sees it: its cell, which part of the bull, and how it was named."""

    cell: Cell
    zone: BullZone
    raw: str
    merged_single: bool = False  # a bare `Single`: the scorer does not tell inner from outer


def _number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def landed(segment: Any, board: Board) -> Landed | str:
    """One `segment` of a throw -> where it landed, or what is wrong with it."""
    if not isinstance(segment, Mapping):
        return _("a throw without a segment")
    name = str(segment.get("name", "")).strip()[:16]
    bed = str(segment.get("bed", "")).strip().lower()[:16]
    number = _number(segment.get("number"))
    multiplier = _number(segment.get("multiplier"))
    raw = printable(name or f"{bed} {number}")
    if bed == "outside" or name.lower() in ("miss", "outside") or (number == 0 and bed in ("", "outside")):
        return Landed(MISS, BullZone.MISS, raw)
    upper = name.upper()
    if number in (25, 50) or upper in _BULL_NAMES or bed in _BULL_BEDS:
        inner = (
            bed in ("double", "innerbull", "bullseye")
            or upper in _INNER_BULL_NAMES
            or number == 50
            or multiplier == 2
        )
        return Landed(BULL, BullZone.INNER if inner else BullZone.OUTER, raw)
    if number is None or not 1 <= number <= 20:
        return _("segment {name!r}: number {number!r} is not 1 to 20 or the bull").format(
            name=name, number=segment.get("number")
        )
    if bed == "single":
        letter, merged = "S", board.profile is Profile.FOUR_RING
    elif bed in _BEDS:
        letter, merged = _BEDS[bed], False
    else:
        return _("segment {name!r}: unknown bed {bed!r}").format(name=name, bed=bed)
    try:
        cell = board.parse(f"{letter}{number}", allow_miss=False)
    except CellError as err:
        return str(err)
    return Landed(cell, BullZone.OTHER, raw, merged)


# --- one state: a snapshot ---------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    running: bool
    status: str
    event: str
    throws: tuple[Any, ...]  # the segments, as sent

    @property
    def offline(self) -> bool:
        return not self.running or self.status.strip().lower() in OFFLINE_STATUSES

    @property
    def takeout(self) -> bool:
        """The cameras see the hand pulling the darts. Status "Takeout" alone is not it: the
        Board Manager says it at a visit's third dart (event still "Throw detected"), while the
        darts are in the board and waiting to be pulled; "Takeout in progress" (event "Takeout
        started") is the hand."""
        return (
            self.status.strip().lower() == "takeout in progress"
            or self.event.strip().lower() == "takeout started"
        )


def snapshot(data: Any) -> Snapshot | str:
    """The `data` of a state frame (or of GET /api/state) -> a Snapshot, or what is wrong."""
    if not isinstance(data, Mapping):
        return _("a state that is not an object")
    throws = data.get("throws")
    if throws is None:
        throws = []
    if not isinstance(throws, list):
        return _("a state whose throws are not a list")
    running = data.get("running")
    return Snapshot(
        running=bool(running) if isinstance(running, bool) else True,
        status=str(data.get("status", ""))[:40],
        event=str(data.get("event", ""))[:40],
        throws=tuple(t.get("segment") if isinstance(t, Mapping) else None for t in throws[:12]),
    )


def frame(text: str | bytes) -> Snapshot | str | None:
    """One WebSocket text frame -> a Snapshot (type state), None (any other type: ignored
    quietly), or what is wrong with it."""
    if len(text) > MAX_FRAME:
        return _("a frame longer than {limit} bytes").format(limit=MAX_FRAME)
    try:
        message = untrusted_json(text)  # nesting past any parser's stack is refused, not raised
    except WireError:
        return _("a frame that is not JSON")
    if not isinstance(message, Mapping):
        return _("a frame that is not an object")
    if message.get("type") != "state":
        return None
    return snapshot(message.get("data"))


# --- snapshots -> the kiosk's inputs -----------------------------------------------------


class VisitFollower:
    """The visit as the kiosk has counted it, brought in line with each snapshot. Pure."""

    def __init__(self, board: Board, darts_per_visit: int = 3) -> None:
        self.board = board
        self.darts_per_visit = darts_per_visit
        self.counted: list[Landed] = []
        self.taken_out = False  # the takeout of this visit is sent
        self._last: tuple[Any, ...] | None = None
        self._refused: set[int] = set()
        self._unreadable: set[tuple[int, str]] = set()
        self._told_merged = False
        self.started = False

    def follow(self, shot: Snapshot, *, resync: bool = False) -> list[InputEvent]:
        """The inputs this snapshot means. `resync`: the first after a (re)connect, when a
        visit may have ended and another begun unseen."""
        first = not self.started
        self.started = True
        throws = shot.throws
        if throws == self._last and not resync:
            return self._takeout() if shot.takeout else []
        self._last = throws
        if not throws:
            return self._visit_over()
        seen, events = self._read(throws)
        if first and seen:
            # darts of a visit begun before this kiosk listened: perhaps counted before a
            # restart, perhaps never; the service says so only when the game's visit lacks them
            self.counted = seen
            events.append(
                HeldDarts(
                    _(
                        "the camera scorer holds {count} darts of a visit begun before the kiosk "
                        "listened: not counted; enter any that are missing by hand"
                    ).format(count=len(seen)),
                    tuple(dart.cell for dart in seen),
                )
            )
            return events
        if resync and self.counted and not _alike(seen[0], self.counted[0]):
            # not the visit we counted: it ended while we were away, and this is the next one
            events += self._visit_over()
        events += self._bring_in_line(seen)
        if shot.takeout:
            events += self._takeout()
        return events

    def _read(self, throws: tuple[Any, ...]) -> tuple[list[Landed], list[InputEvent]]:
        """The visit's darts, oldest first, up to the visit's limit. One the kiosk cannot read
        stands as a MISS in its place (said once: correct it on the kiosk), so the darts after
        it keep their places and a later, readable snapshot of it is a correction."""
        seen: list[Landed] = []
        events: list[InputEvent] = []
        for index, segment in enumerate(throws):
            dart = landed(segment, self.board)
            if isinstance(dart, str):
                shown = printable(json.dumps(segment)[:60])
                if (index, shown) not in self._unreadable:
                    self._unreadable.add((index, shown))
                    events.append(
                        BadLine(
                            shown,
                            _(
                                "dart {n} of the camera scorer cannot be read ({error}): counted as a "
                                "miss, correct it on the kiosk"
                            ).format(n=index + 1, error=dart),
                        )
                    )
                dart = Landed(MISS, BullZone.MISS, shown)
            if index >= self.darts_per_visit:
                if index not in self._refused:
                    self._refused.add(index)
                    events.append(
                        Info(
                            _(
                                "the camera scorer saw dart {n} ({cell}) in a visit of {limit}: not counted"
                            ).format(n=index + 1, cell=dart.cell.code, limit=self.darts_per_visit)
                        )
                    )
                continue
            if dart.merged_single and not self._told_merged:
                self._told_merged = True
                events.append(
                    Info(
                        _(
                            "the camera scorer does not tell the inner from the outer single: its "
                            'singles count as inner singles; set board.profile = "three-ring"'
                        )
                    )
                )
            seen.append(dart)
        return seen, events

    def _bring_in_line(self, seen: list[Landed]) -> list[InputEvent]:
        counted = self.counted
        same = 0
        while same < min(len(seen), len(counted)) and _alike(seen[same], counted[same]):
            same += 1
        events: list[InputEvent] = []
        to_undo = len(counted) - same
        replay = seen[same:]
        if to_undo == 1 and replay and not self.taken_out:
            # the visit's last dart looked at again: the kiosk's own Correct
            events.append(CorrectInput(replay[0].cell, replay[0].raw, replay[0].zone))
            replay = replay[1:]
        elif to_undo and not self.taken_out:
            events += [ButtonInput(Button.UNDO)] * to_undo
        elif to_undo:
            events.append(
                Info(
                    _(
                        "the camera scorer changed dart {n} after the takeout: correct it on the kiosk "
                        "if it matters"
                    ).format(n=same + 1)
                )
            )
            self.counted = seen
            return events
        events += [_dart_input(d) for d in replay]
        self.counted = seen
        return events

    def _takeout(self) -> list[InputEvent]:
        if self.taken_out or not self.counted:
            return []
        self.taken_out = True
        return [TakeoutInput()]

    def _visit_over(self) -> list[InputEvent]:
        events = self._takeout()
        self.counted = []
        self.taken_out = False
        self._refused.clear()
        self._unreadable.clear()
        return events


def _alike(a: Landed, b: Landed) -> bool:
    return a.cell == b.cell and a.zone == b.zone


def _dart_input(dart: Landed) -> DartInput | MissInput:
    if not dart.cell.on_board:
        return MissInput(dart.raw)
    return DartInput(dart.cell, dart.raw, dart.zone)


# --- the device --------------------------------------------------------------------------


def base_url(url: str) -> str:
    """`HOST`, `HOST:3180`, `http://HOST:3180/` -> `http://HOST:3180`."""
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    host = parts.hostname or "localhost"
    port = parts.port or DEFAULT_PORT
    netloc = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return urlunsplit((parts.scheme or "http", netloc, "", "", ""))


def events_url(url: str) -> str:
    base = base_url(url)
    return ("wss" if base.startswith("https") else "ws") + base[base.index(":") :] + "/api/events"


@dataclass(frozen=True)
class Probe:
    """What `probe` found: the Board Manager's version and its scoring status."""

    version: str
    status: str
    running: bool
    darts: int

    @property
    def text(self) -> str:
        state = self.status if self.running else _("not running ({status})").format(status=self.status or "?")
        return _("Autodarts Board Manager {version}: {state}, {darts} darts in the visit").format(
            version=self.version or "?", state=state, darts=self.darts
        )


async def probe(url: str, timeout: float = 3.0) -> Probe:
    """Ask the Board Manager its version and state (Settings' test button, doctor).
    Raises OSError (unreachable) or ValueError (an answer that is not the Board Manager's)."""
    import aiohttp

    base = base_url(url)
    client_timeout = aiohttp.ClientTimeout(total=timeout)
    try:
        async with aiohttp.ClientSession(timeout=client_timeout) as session:
            async with session.get(base + "/api/version") as answer:
                version = (await answer.text())[:40].strip().strip('"') if answer.ok else ""
            async with session.get(base + "/api/state") as answer:
                if not answer.ok:
                    raise ValueError(
                        _("{url}/api/state answered {status}").format(url=base, status=answer.status)
                    )
                data = await answer.json(content_type=None)
    except (aiohttp.ClientError, TimeoutError) as err:
        raise OSError(
            _("cannot reach {url}: {error}").format(url=base, error=unreachable(err, timeout))
        ) from None
    shot = snapshot(data)
    if isinstance(shot, str):
        raise ValueError(_("{url} is not an Autodarts Board Manager: {error}").format(url=base, error=shot))
    return Probe(printable(version), printable(shot.status), shot.running, len(shot.throws))


def unreachable(err: BaseException, timeout: float) -> str:
    """Why the Board Manager gave no answer, in the owner's words and language: aiohttp's own
    text is a programmer's ("Cannot connect to host localhost:3180 ssl:default [Connect call
    failed ('127.0.0.1', 3180)]"), in English on a German or Finnish screen."""
    import socket

    import aiohttp

    if isinstance(err, TimeoutError):  # aiohttp's ServerTimeoutError too
        return _("no answer within {seconds:g} s").format(seconds=timeout)
    if isinstance(err, aiohttp.ClientConnectorError):
        cause = err.os_error
        if isinstance(cause, ConnectionRefusedError):
            return _("nothing answers on port {port} there: is the Board Manager running?").format(
                port=err.port
            )
        if isinstance(cause, socket.gaierror):
            return _("no computer named {host} on the network").format(host=err.host)
        return _("the connection failed ({reason})").format(reason=cause.strerror or type(cause).__name__)
    return str(err) or type(err).__name__


async def probe_text(url: str) -> str:
    """`probe` as one line for the owner (a `ScorerProbe`): ValueError when it is not
    scoring, OSError when it cannot be reached."""
    found = await probe(url)
    if not found.running:
        raise ValueError(found.text)
    return found.text


class AutodartsBoard:
    """The Board Manager as a `BoardInput`. `start()` joins the running asyncio loop when it
    is called from one (the kiosk), else runs a loop in a thread of its own (board-test)."""

    def __init__(
        self,
        url: str,
        sink: Sink,
        *,
        profile: Profile = Profile.FOUR_RING,
        darts_per_visit: int = 3,
        backoff: tuple[float, float] = (0.5, 10.0),
        heartbeat: float = 10.0,
    ) -> None:
        self.url = base_url(url)
        self.sink = sink
        self.board = board_for(profile)
        self.follower = VisitFollower(self.board, darts_per_visit)
        self.backoff = backoff
        self.heartbeat = heartbeat
        self._noise = BoardNoise()
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._online: bool | None = None  # None: not yet said either way
        self.frames = 0  # state frames handled (for the bench and doctor)
        self.last_snapshot: Snapshot | None = None

    @property
    def name(self) -> str:
        return _("Autodarts {url}").format(url=self.url)

    @property
    def profile(self) -> Profile:
        return self.board.profile

    rings_told = True  # what it reports is known from the start
    takes_out = True  # the Board Manager sees the darts pulled out and reports the takeout

    def start(self) -> None:
        if self._task is not None or self._thread is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._thread = threading.Thread(target=self._own_loop, name="dartship-autodarts", daemon=True)
            self._thread.start()
            return
        self._loop = loop
        self._task = loop.create_task(self.run(), name="dartship-autodarts")

    def _own_loop(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        self._task = loop.create_task(self.run())
        with contextlib.suppress(asyncio.CancelledError):
            loop.run_until_complete(self._task)
        loop.close()

    def stop(self) -> None:
        task, loop = self._task, self._loop
        if task is not None and loop is not None and not task.done():
            if self._thread is not None:
                loop.call_soon_threadsafe(task.cancel)
            else:
                task.cancel()
        if self._thread is not None:
            self._thread.join(3.0)
            self._thread = None
        self._task = None

    # --- the connection ------------------------------------------------------------------

    async def run(self) -> None:
        """Connect, resync, follow; on any failure say so once and retry with backoff."""
        import aiohttp

        low, high = self.backoff
        delay = low
        async with aiohttp.ClientSession() as session:
            while True:
                try:
                    await self._session(session)
                    reason = _("the Board Manager closed the connection")
                except asyncio.CancelledError:
                    raise
                except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as err:
                    reason = str(err) or type(err).__name__
                else:
                    delay = low
                self._offline(_("camera scorer offline: {reason}").format(reason=reason))
                await asyncio.sleep(delay)
                delay = min(delay * 2, high)

    async def _session(self, session: Any) -> None:
        import aiohttp

        async with session.ws_connect(
            events_url(self.url), heartbeat=self.heartbeat, max_msg_size=MAX_FRAME
        ) as ws:
            async with session.get(self.url + "/api/state", timeout=aiohttp.ClientTimeout(total=5)) as answer:
                data = await answer.json(content_type=None)
            self._snapshot(snapshot(data), resync=True)
            async for message in ws:
                if message.type is aiohttp.WSMsgType.TEXT:
                    self.handle_frame(message.data)
                elif message.type is aiohttp.WSMsgType.BINARY:
                    self._pass(BadLine("", _("a binary frame from the Board Manager")))
                elif message.type in (aiohttp.WSMsgType.ERROR, aiohttp.WSMsgType.CLOSED):
                    break

    def handle_frame(self, text: str | bytes) -> None:
        """One frame from /api/events (public: the bench and tests feed frames directly)."""
        shot = frame(text)
        if shot is None:
            return  # motion_state, cam_state, stats ...: not ours
        self._snapshot(shot, text=text)

    def _snapshot(self, shot: Snapshot | str, resync: bool = False, text: str | bytes = "") -> None:
        if isinstance(shot, str):
            shown = text if isinstance(text, str) else text.decode("utf-8", "backslashreplace")
            self._pass(BadLine(printable(shown[:60]), shot))
            return
        self.frames += 1
        self.last_snapshot = shot
        if shot.offline:
            self._offline(_("camera scorer offline: {status}").format(status=shot.status or _("not running")))
            return
        if self._online is not True:
            self._online = True
            deliver(self.sink, Connected(self.name))
        for event in self.follower.follow(shot, resync=resync):
            self._pass(event)

    def _offline(self, reason: str) -> None:
        if self._online is False:
            return
        self._online = False
        deliver(self.sink, Disconnected(reason, camera=True))

    def _pass(self, event: InputEvent) -> None:
        now = time.monotonic()
        for summary in self._noise.summaries(now):
            deliver(self.sink, summary)
        if self._noise.admit(event, now):
            deliver(self.sink, event)
