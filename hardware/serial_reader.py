"""The serial board reader: any pyserial URL, any dialect, never dies of bad input.

A thread reads lines (at most 64 bytes), turns them into events with the pure dialect functions
and hands them to the sink. A missing port or an unplug is announced once as `Disconnected` and
retried with a growing backoff until the board is back (`Connected`). A contact repeated within
half a second is one dart plus one `StuckInput`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import serial

from hardware.boardmap import BoardMap
from hardware.dialects import MAX_LINE, Dialect, decode, dialect, effective_profile, read_line
from hardware.noise import BoardNoise
from hardware.sink import deliver
from hardware.stuck import STUCK_SECONDS, StuckWatch
from kiosk.board import Board, Profile, board_for
from kiosk.i18n import _
from kiosk.inputs import BadLine, Connected, DartInput, Disconnected, StuckInput
from kiosk.ports import Sink

log = logging.getLogger("dartship.serial")

Opener = Callable[[str], Any]


def open_port(url: str, baud: int = 115200, timeout: float = 0.1) -> serial.SerialBase:
    """Open a device path or any pyserial URL (socket://, loop://, rfc2217://)."""
    return serial.serial_for_url(url, baudrate=baud, timeout=timeout)


class SerialReader:
    """A board on a serial line. `start()` returns at once; `stop()` ends the thread cleanly."""

    def __init__(
        self,
        url: str,
        sink: Sink,
        *,
        dialect_name: str = "dartship",
        profile: Profile = Profile.FOUR_RING,
        board_map: BoardMap | None = None,
        baud: int = 115200,
        stuck_seconds: float = STUCK_SECONDS,
        backoff: tuple[float, float] = (0.25, 5.0),
        read_timeout: float = 0.1,
        opener: Opener | None = None,
    ) -> None:
        self.url = url
        self.sink = sink
        self.dialect: Dialect = dialect(dialect_name)
        self.board_map = board_map
        chosen, self.profile_note = effective_profile(self.dialect, profile, board_map)
        self.board: Board = board_for(chosen)
        self.backoff = backoff
        self._open: Opener = opener or (lambda u: open_port(u, baud, read_timeout))
        self._stuck = StuckWatch(stuck_seconds)
        self._noise = BoardNoise()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: Any = None
        self._lock = threading.Lock()

    @property
    def profile(self) -> Profile:
        return self.board.profile

    @property
    def name(self) -> str:
        return _("serial {port} ({dialect})").format(port=self.url, dialect=self.dialect.name)

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
                    deliver(self.sink, Disconnected(_("cannot open {url}: {error}").format(
                        url=self.url, error=err)))
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
            self._stuck.forget()
            self._stopping.wait(delay)

    def _read(self, port: Any) -> str:
        """Read until the port fails (returns why) or stop() is called."""
        buffer = bytearray()
        skipping = False  # inside the tail of an overlong line
        while not self._stopping.is_set():
            try:
                waiting = port.in_waiting
                chunk = port.read(max(1, min(waiting, 4096)))
            except Exception as err:
                return _("the board went away: {error}").format(error=err)
            self.tick()
            if not chunk:
                continue
            buffer += chunk
            while True:
                end = buffer.find(b"\n")
                if end < 0:
                    if len(buffer) > MAX_LINE:
                        if not skipping:
                            self.line(bytes(buffer[: MAX_LINE + 1]))
                        skipping = True
                        buffer.clear()
                    break
                raw = bytes(buffer[: end + 1])
                del buffer[: end + 1]
                if skipping:
                    skipping = False
                    continue
                self.line(raw)
        return _("stopped")

    def line(self, raw: bytes, now: float | None = None) -> None:
        """Handle one line's bytes (public so tests and the bench can feed lines directly)."""
        now = time.monotonic() if now is None else now
        text = decode(raw)
        event = text if isinstance(text, BadLine) else read_line(self.dialect, text, self.board,
                                                                 self.board_map)
        if event is None:
            return
        if isinstance(event, DartInput):
            repeat, report = self._stuck.repeat(event.raw.upper(), now)
            if repeat:
                if report:
                    deliver(self.sink, StuckInput(event.cell))
                return
        if self._noise.admit(event, now):  # a flood of noise is counted, not queued
            deliver(self.sink, event)

    def tick(self, now: float | None = None) -> None:
        """Pass on the count of noise held back in a window that has closed (the reading
        thread calls it at least every read timeout; tests and the bench may too)."""
        for summary in self._noise.summaries(time.monotonic() if now is None else now):
            deliver(self.sink, summary)
