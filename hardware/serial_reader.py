"""The serial board reader: any pyserial URL, any dialect, never dies of bad input.

A thread reads lines (at most 64 bytes), turns them into events with the pure dialect functions
and hands them to the sink. A missing port or an unplug is announced once as `Disconnected` and
retried with a growing backoff until the board is back (`Connected`).

What the public firmwares do that the reader smooths over (PROTOCOLS.md 1):
* a held contact or button is printed again every 300-505 ms: one dart (plus one `StuckInput`)
  or one press until the repeats stop (`RepeatWatch`);
* a dart touching two segments gives two lines 0.1 ms apart: a second segment within the
  lockout after a dart is that same dart (logged, not counted);
* dascr-machine is silent until the host writes `<s,9>`: written on every open (numeric, and
  to a board that stays silent while its dialect is being told), and once more a few seconds
  later, because the Arduino that resets when the port opens misses the first;
* raw GranBoard codes come without a newline (`3.4@3.5@`): `@` ends a code too;
* `dialect = "auto"`: the dialect and the speed are told from the first lines
  (`hardware.autodetect`), said once, and remembered for the port (`hardware.known_boards`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import serial

from hardware.autodetect import BAUDS, Detector
from hardware.boardmap import BoardMap, load_for_board
from hardware.dialects import (
    DASCR_HANDSHAKE,
    DIALECTS,
    MAX_LINE,
    Dialect,
    decode,
    dialect,
    effective_profile,
    read_line,
)
from hardware.known_boards import KnownBoard, KnownBoards
from hardware.noise import BoardNoise
from hardware.serial_words import not_opened, went_away
from hardware.sink import deliver
from hardware.stuck import REPEAT_SECONDS, RepeatWatch
from kiosk.board import Board, Profile, board_for
from kiosk.i18n import _
from kiosk.inputs import (
    BadLine,
    ButtonInput,
    Connected,
    DartInput,
    Disconnected,
    Info,
    InputEvent,
    MissInput,
    StuckInput,
)
from kiosk.ports import Sink

log = logging.getLogger("dartship.serial")

Opener = Callable[[str], Any]


AUTO = "auto"
LOCKOUT_SECONDS = 0.020  # as the GPIO matrix's matrix.lockout_ms
# When to write the dascr handshake after the port opens, while the board has said nothing: at
# once, and again after the Mega's reset (bootloader ~1 s, then its setup blinks 2.5 s before
# Serial.begin) has passed.
HANDSHAKE_AT = (0.0, 4.5)
BAUD_SWITCH_SECONDS = 0.5  # at most one change of speed in this long: not one per bad line
_SILENT_FLUSH = 0.3  # s without bytes after which a partial line of unreadable bytes is judged
_BUTTON = "button "  # the repeat watch's keys of buttons


def open_port(url: str, baud: int = 115200, timeout: float = 0.1) -> serial.SerialBase:
    """Open a device path or any pyserial URL (socket://, loop://, rfc2217://)."""
    return serial.serial_for_url(url, baudrate=baud, timeout=timeout)


class SerialReader:
    """A board on a serial line. `start()` returns at once; `stop()` ends the thread cleanly.

    `dialect_name` "auto" and `baud` 0 mean: tell them from the board (the default); a named
    dialect or a speed forces it. `known` remembers what auto found, per port.
    """

    def __init__(
        self,
        url: str,
        sink: Sink,
        *,
        dialect_name: str = AUTO,
        profile: Profile = Profile.FOUR_RING,
        board_map: BoardMap | None = None,
        baud: int = 0,
        repeat_seconds: float = REPEAT_SECONDS,
        lockout_seconds: float = LOCKOUT_SECONDS,
        backoff: tuple[float, float] = (0.25, 5.0),
        read_timeout: float = 0.1,
        opener: Opener | None = None,
        known: KnownBoards | None = None,
        handshake_at: tuple[float, ...] = HANDSHAKE_AT,
    ) -> None:
        self.url = url
        self.sink = sink
        self.board_map = board_map
        self.configured_profile = profile
        self.known = known
        self.lockout_seconds = lockout_seconds
        self.handshake_at = handshake_at
        self.auto = str(dialect_name).strip().lower() == AUTO
        remembered = self._remembered() if self.auto else None
        bauds: tuple[int, ...] = (baud,) if baud else BAUDS
        if remembered is not None and not baud:
            bauds = (remembered.baud, *(b for b in BAUDS if b != remembered.baud))
        self.detector: Detector | None = None
        chosen = dialect(remembered.dialect) if remembered else (None if self.auto else dialect(dialect_name))
        if chosen is None:
            self.detector = Detector(profile, board_map, bauds)
        self.baud = bauds[0]
        self._bauds = bauds
        # a TCP bridge or a loop has no speed of its own to get wrong
        self._socket = url.lower().startswith("socket://")
        self._baud_known = bool(baud) or self._socket or url.lower().startswith("loop://")
        # A speed remembered for the port is waited at while the board is silent (a GranBoard or
        # a DIY board says nothing until a dart): trying another one then cost the first dart
        # after every start of the kiosk (qa9). Bytes it cannot read still move it on.
        self._speed_remembered = remembered is not None and not baud
        self.dialect: Dialect | None = None
        self.board: Board = board_for(profile)
        self.profile_note: Info | None = None
        self._read_well = False
        self._retell: Detector | None = None
        if chosen is not None:
            self._choose(chosen)
        self.backoff = backoff
        self._open: Opener = opener or (lambda u: open_port(u, self.baud, read_timeout))
        self._repeats = RepeatWatch(repeat_seconds)
        self._noise = BoardNoise()
        self._last_dart: tuple[str, float] | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: Any = None
        self._lock = threading.Lock()
        self._buffer = bytearray()
        self._skipping = False  # inside the tail of an overlong line
        self._switched = float("-inf")  # when the speed last changed

    def _remembered(self) -> KnownBoard | None:
        found = self.known.get(self.url) if self.known is not None else None
        return found if found is not None and found.dialect in DIALECTS else None

    def _choose(self, chosen: Dialect) -> None:
        self.dialect = chosen
        self._read_well = False  # no line read well in this dialect yet
        self._retell = None
        profile, self.profile_note = effective_profile(chosen, self.configured_profile, self.board_map)
        self.board = board_for(profile)

    def use_map(self, path: Path) -> None:
        """The board map Learn board saved, from the next line on (`kiosk.ports.MappedBoard`):
        the dialect's board (a map may make it three-ring) and, while auto still tells the
        dialect, the detector's boards follow it."""
        board_map = load_for_board(path)
        self.board_map = board_map
        if self.detector is not None:
            self.detector.use_map(board_map)
        if self._retell is not None:
            self._retell.use_map(board_map)
        if self.dialect is not None:
            profile, note = effective_profile(self.dialect, self.configured_profile, board_map)
            self.board = board_for(profile)
            if note is not None:
                deliver(self.sink, note)

    @property
    def profile(self) -> Profile:
        return self.board.profile

    @property
    def rings_told(self) -> bool:
        """False until auto has told the dialect: one that cannot tell the inner single from
        the outer one changes `profile` to three rings then."""
        return self.dialect is not None

    takes_out = False  # a serial board has no takeout: Next (its button, a tap) ends a visit

    @property
    def dialect_label(self) -> str:
        """What the reader speaks: `x`, `auto` while it is being told."""
        return self.dialect.name if self.dialect is not None else AUTO

    @property
    def name(self) -> str:
        return _("serial {port} ({dialect})").format(port=self.url, dialect=self.dialect_label)

    def start(self) -> None:
        if self._thread is not None:
            return
        if self.profile_note is not None:
            deliver(self.sink, self.profile_note)
        if self.board_map is not None:
            for problem in self.board_map.problems:
                deliver(self.sink, BadLine("", problem))
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="dartship-serial", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stopping.set()
        with self._lock:
            port = self._port
        if port is not None:
            cancel = getattr(port, "cancel_read", None)
            if cancel is not None:
                try:
                    cancel()
                except Exception:
                    log.debug("cancel_read failed", exc_info=True)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    # --- the thread ----------------------------------------------------------------------

    def _run(self) -> None:
        low, high = self.backoff
        delay = low
        down_announced = False
        while not self._stopping.is_set():
            try:
                port = self._open(self.url)
            except Exception as err:  # a missing port, a refused socket, a bad URL
                if not down_announced:
                    log.info("opening %s failed: %s", self.url, err)  # pyserial's words, for the journal
                    deliver(
                        self.sink,
                        Disconnected(
                            _("cannot open {url}: {error}").format(url=self.url, error=not_opened(err))
                        ),
                    )
                    down_announced = True
                self._stopping.wait(delay)
                delay = min(delay * 2, high)
                continue
            delay = low
            down_announced = False
            with self._lock:
                self._port = port
            deliver(self.sink, Connected(self.url))
            reason = self._read(port)
            with self._lock:
                self._port = None
            try:
                port.close()
            except Exception:
                log.debug("closing the port failed", exc_info=True)
            if self._stopping.is_set():
                break
            deliver(self.sink, Disconnected(reason))
            down_announced = True
            if self.auto:  # what is plugged in next may be another board: told again
                self._read_well = False
            self._repeats.forget()
            self._stopping.wait(delay)

    def _wants_handshake(self) -> bool:
        """dascr-machine's `<s,9>`: for numeric, and for a board whose dialect is being told
        (the other firmwares read nothing, or only whole lines, so it is harmless to them)."""
        return self.dialect is None or self.dialect.name == "numeric"

    def _splits_on_at(self) -> bool:
        return self.dialect is None or self.dialect.name == "granboard"

    def _read(self, port: Any) -> str:
        """Read until the port fails (returns why) or stop() is called."""
        self._buffer.clear()
        self._skipping = False
        quiet = _Silence(self, port)
        last_bytes = time.monotonic()
        while not self._stopping.is_set():
            quiet.step(time.monotonic())
            try:
                waiting = port.in_waiting
                chunk = port.read(max(1, min(waiting, 4096)))
                if len(chunk) == 1 and self._socket:
                    chunk += self._rest(port)
            except Exception as err:
                log.info("reading %s failed: %s", self.url, err)  # pyserial's words, for the journal
                return went_away(err)
            self.tick()
            now = time.monotonic()
            if not chunk:
                if self._buffer and not self._baud_known and now - last_bytes > _SILENT_FLUSH:
                    # no text, no line end: bytes sent at another speed
                    raw = bytes(self._buffer)
                    self._buffer.clear()
                    self._set_baud(port, self.line(raw, now), quiet, now)
                continue
            last_bytes = now
            quiet.heard = True
            self._set_baud(port, self.feed(chunk, now), quiet, now)
        return _("stopped")

    def _rest(self, port: Any) -> bytes:
        """What else a socket:// port holds: its `in_waiting` says only 0 or 1, so without this
        a flood over TCP is read one byte per call."""
        timeout = port.timeout
        port.timeout = 0
        try:
            return bytes(port.read(4096))
        finally:
            port.timeout = timeout

    def feed(self, chunk: bytes, now: float | None = None) -> int | None:
        """Bytes as they come from the port: split into lines (at `\n`, and after `@` for
        raw GranBoard codes), each handled by `line`. Returns a speed to set when a line said
        the speed is wrong (what was left is dropped: it was read at the old one)."""
        now = time.monotonic() if now is None else now
        buffer = self._buffer
        buffer += chunk
        while True:
            end = self._line_end(buffer)
            if end < 0:
                if len(buffer) > MAX_LINE:
                    new_baud = None if self._skipping else self.line(bytes(buffer[: MAX_LINE + 1]), now)
                    self._skipping = True
                    buffer.clear()
                    return new_baud
                return None
            raw = bytes(buffer[: end + 1])
            del buffer[: end + 1]
            if self._skipping:
                self._skipping = False
                continue
            new_baud = self.line(raw, now)
            if new_baud is not None:
                buffer.clear()
                return new_baud

    def _set_baud(self, port: Any, baud: int | None, quiet: _Silence, now: float) -> None:
        if baud is None:
            return
        try:
            port.baudrate = baud
        except Exception as err:
            log.debug("setting %s baud failed: %s", baud, err)
        quiet.restart(now)

    def _line_end(self, buffer: bytearray) -> int:
        end = buffer.find(b"\n")
        if self._splits_on_at():
            at = buffer.find(b"@")
            if at >= 0 and (end < 0 or at < end):
                return at
        return end

    def _write(self, port: Any, data: bytes) -> None:
        try:
            port.write(data)
        except Exception as err:  # a port that cannot be written (loop://, a closed socket)
            log.debug("writing %r failed: %s", data, err)

    def line(self, raw: bytes, now: float | None = None) -> int | None:
        """Handle one line's bytes (public so tests and the bench can feed lines directly).
        Returns a speed to set the port to when the line says the speed is wrong."""
        now = time.monotonic() if now is None else now
        text = decode(raw)
        if isinstance(text, BadLine):
            new_baud = None if self._baud_known else self._next_baud(now=now)
            if new_baud is None:
                self._pass(text, now)
            return new_baud
        if self.dialect is None and self.detector is not None:
            reading = self.detector.line(text)
            if reading.found is not None:
                self._found(reading.found)
            elif reading.event is not None and not isinstance(reading.event, BadLine):
                self._baud_known = True
            if reading.event is not None:
                self._pass(reading.event, now)
            return None
        assert self.dialect is not None
        if text and not self._baud_known:
            self._baud_known = True
        event = read_line(self.dialect, text, self.board, self.board_map)
        if isinstance(event, BadLine):
            if self.auto and not self._read_well:
                event = self._retold(text) or event
        elif event is not None:
            self._read_well = True
        if event is not None:
            self._pass(event, now)
        return None

    def _next_baud(self, said: bool = True, now: float | None = None) -> int | None:
        now = time.monotonic() if now is None else now
        if len(self._bauds) < 2 or now - self._switched < BAUD_SWITCH_SECONDS:
            return None  # bytes still under way from the speed just left
        self._switched = now
        old = self.baud
        index = (self._bauds.index(old) + 1) % len(self._bauds)
        self.baud = self._bauds[index]
        if said:  # through the flood gate: a noisy line must not become a flood of these
            self._pass(
                Info(
                    _(
                        "nothing readable from {port} at {old} baud: listening at {new} baud now (throw "
                        "that dart again)"
                    ).format(port=self.url, old=old, new=self.baud)
                ),
                time.monotonic(),
            )
        return self.baud

    @property
    def baud_known(self) -> bool:
        return self._baud_known

    @property
    def speed_remembered(self) -> bool:
        """The speed was remembered for the port: waited at while the board is silent."""
        return self._speed_remembered

    def _found(self, chosen: Dialect) -> None:
        self._choose(chosen)
        self._baud_known = True
        self.detector = None
        deliver(
            self.sink,
            Info(
                _("board speaks {dialect} at {baud} baud ({port}): remembered for this port").format(
                    dialect=chosen.name, baud=self.baud, port=self.url
                )
            ),
        )
        if self.profile_note is not None:
            deliver(self.sink, self.profile_note)
        if self.known is not None:
            self.known.remember(self.url, KnownBoard(chosen.name, self.baud))

    def _retold(self, text: str) -> InputEvent | None:
        """A remembered dialect that does not read the board's first lines: another board on
        the port? (Only until the dialect has read a line well: a flood of bad lines later is
        noise, not a new board, and must stay cheap.)"""
        if self._retell is None:
            self._retell = Detector(self.configured_profile, self.board_map, (self.baud,))
        reading = self._retell.line(text)
        if reading.found is None or reading.found is self.dialect:
            return None
        self._found(reading.found)
        return reading.event

    def _pass(self, event: InputEvent, now: float) -> None:
        if isinstance(event, DartInput | ButtonInput) and self._held(event, now):
            return
        if isinstance(event, DartInput | MissInput):
            # another contact closed: a button pressed before it is a new press next time
            self._repeats.end(_BUTTON)
        if self._noise.admit(event, now):  # a flood of noise is counted, not queued
            deliver(self.sink, event)

    def _held(self, event: DartInput | ButtonInput, now: float) -> bool:
        """True for a line that is not a new dart or press: a held contact's or button's repeat,
        or a second segment within the lockout after a dart."""
        if isinstance(event, ButtonInput):
            repeat, _tell = self._repeats.repeat(_BUTTON + event.button.value, now)
            if repeat:
                log.debug("button %s held: one press", event.button.value)
            return repeat
        key = event.raw.upper()
        repeat, tell = self._repeats.repeat(key, now)
        if repeat:
            if tell:
                deliver(self.sink, StuckInput(event.cell))
            return True
        last = self._last_dart
        if last is not None and last[0] != key and now - last[1] < self.lockout_seconds:
            log.info(
                _("%s %.1f ms after %s: the same dart touching two segments, counted once"),
                event.raw,
                (now - last[1]) * 1000,
                last[0],
            )
            return True
        self._last_dart = (key, now)
        return False

    def tick(self, now: float | None = None) -> None:
        """Pass on the count of noise held back in a window that has closed (the reading
        thread calls it at least every read timeout; tests and the bench may too)."""
        for summary in self._noise.summaries(time.monotonic() if now is None else now):
            deliver(self.sink, summary)


class _Silence:
    """A board that says nothing after the port opens: write dascr's handshake (at
    `handshake_at` s, while nothing was heard), and, at an unknown speed, try each speed once
    with the handshake before settling on the last (9600, the speed of most of these
    firmwares), where the first dart tells the rest."""

    SETTLE = 2.0  # s after the last handshake before the next speed is tried

    def __init__(self, reader: SerialReader, port: Any) -> None:
        self.reader = reader
        self.port = port
        self.heard = False
        self.settled = False
        self.restart(time.monotonic())

    def restart(self, now: float) -> None:
        self.opened = now
        self.heard = False
        self.pending = list(self.reader.handshake_at)

    def step(self, now: float) -> None:
        reader = self.reader
        if self.heard:
            return
        if self.pending and now - self.opened >= self.pending[0]:
            self.pending.pop(0)
            if reader._wants_handshake():
                reader._write(self.port, DASCR_HANDSHAKE)
            return
        last = reader.handshake_at[-1] if reader.handshake_at else 0.0
        if self.pending or self.settled or reader.baud_known or reader.speed_remembered:
            return
        if now - self.opened < last + self.SETTLE:
            return
        if reader._bauds.index(reader.baud) == len(reader._bauds) - 1:
            self.settled = True  # every speed tried: wait here for the first dart
            return
        new_baud = reader._next_baud(said=False)
        if new_baud is not None:
            log.info("%s silent at %s baud: trying %s baud", reader.url, reader._bauds[0], new_baud)
            reader._set_baud(self.port, new_baud, self, now)
