"""`dartship fake-board`: a serial board that is not there, for demos, tests and the bench.

It opens a pty (and prints the path to give the kiosk as `board.port`) or listens on TCP (the
kiosk uses `socket://host:port`), speaks any dialect, and sends darts from a script with timings,
from typed lines, or thrown with the scatter model.

Script and typed lines (one per line, `#` starts a comment; a script line starts with the
seconds to wait before it):

    T20            a dart in T20 (any cell spelling; DB/SB for the bull)
    throw T20      aim at T20 and land with the thrower's scatter
    miss           the miss sensor
    btn next       a button (next, undo, miss)
    raw 3,7        any text, sent as it is
    hello          the HELLO line again
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import random
import socket
import termios
import threading
import tty
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from hardware.boardmap import BoardMap, demo_map
from hardware.dialects import PROTOCOL_VERSION, Dialect, dialect, encode
from hardware.simulator import VirtualThrower
from kiosk.board import Board, BullZone, CellError, Profile, board_for, bull_zone
from kiosk.i18n import _

log = logging.getLogger("dartship.fake_board")

HANDSHAKE = b"<s,9>"
_SPEEDS = {
    rate: getattr(termios, f"B{rate}")
    for rate in (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400)
}


def garbled(data: bytes) -> bytes:
    """What a UART at another speed makes of these bytes: a framing error (0x00) and a high
    byte for each, never a line end (a line sent at 9600 baud and read at 115200)."""
    out = bytearray()
    for byte in data:
        out += bytes((0x00, 0x80 | (byte >> 1)))
    return bytes(out)


HELLO_DELAY = 0.3  # seconds after a TCP client connects


@dataclass(frozen=True)
class Step:
    """One line of a script: wait `delay` seconds, then do `command`."""

    delay: float
    command: str


def read_script(lines: Iterable[str], where: str = "script") -> tuple[list[Step], list[str]]:
    """Steps and problems (a bad line is reported and skipped, never fatal)."""
    steps: list[Step] = []
    problems: list[str] = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        head, _sep, rest = text.partition(" ")
        if not rest.lstrip().lower().startswith("raw "):
            rest = rest.split("#", 1)[0]  # a comment, except inside the text of a raw line
        try:
            delay = float(head)
        except ValueError:
            problems.append(
                _("{where}:{line}: starts with {head!r}, not the seconds to wait").format(
                    where=where, line=number, head=head
                )
            )
            continue
        if delay < 0 or not rest.strip():
            problems.append(
                _("{where}:{line}: needs seconds >= 0 and a command").format(where=where, line=number)
            )
            continue
        steps.append(Step(delay, rest.strip()))
    return steps, problems


class FakeBoard:
    """Writes board lines to a pty or to the TCP client of the moment."""

    def __init__(
        self,
        dialect_name: str = "dartship",
        *,
        profile: Profile = Profile.FOUR_RING,
        board_map: BoardMap | None = None,
        board_id: str = "fake-1",
        skill: str | float = "pub",
        rng: random.Random | None = None,
        baud: int | None = None,
        handshake: bool = False,
    ) -> None:
        self.dialect: Dialect = dialect(dialect_name)
        # On a pty, `baud` makes the board as deaf and garbled as a real one at another speed:
        # a line is sent as the bytes a UART set to the kiosk's speed makes of it.
        self.baud = baud
        # dascr-machine: silent until the host writes `<s,9>` (HANDSHAKE).
        self.handshake = handshake
        self._heard = b""
        self.board: Board = board_for(self.dialect.profile or profile)
        self.board_map: BoardMap | None
        if self.dialect.needs_map or (dialect_name == "dartship" and board_map is not None):
            self.board_map = board_map or demo_map(
                self.board.profile, "granboard" if self.dialect.name == "granboard" else "rc"
            )
        else:
            self.board_map = None
        self.board_id = board_id
        self.thrower = VirtualThrower(self.board, skill, rng)
        self._master: int | None = None
        self._slave: int | None = None
        self._server: socket.socket | None = None
        self._client: socket.socket | None = None
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self.sent: list[str] = []

    # --- where the lines go --------------------------------------------------------------

    def open_pty(self) -> str:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no newline translation
        flags = fcntl.fcntl(master, fcntl.F_GETFL)
        fcntl.fcntl(master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self._master, self._slave = master, slave
        return os.ttyname(slave)

    def listen_tcp(self, host: str = "127.0.0.1", port: int = 0) -> str:
        server = socket.create_server((host, port))
        server.settimeout(0.2)
        self._server = server
        threading.Thread(target=self._accept, name="fake-board-accept", daemon=True).start()
        bound_host, bound_port = server.getsockname()[:2]
        return f"socket://{bound_host}:{bound_port}"

    def _accept(self) -> None:
        assert self._server is not None
        while not self._closing.is_set():
            try:
                client, _addr = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                if self._client is not None:
                    self._client.close()
                self._client = client
            # pyserial's socket:// discards whatever arrives while it opens (reset_input_buffer
            # in open()), so a HELLO sent the instant we accept is lost: say it a moment later.
            hello = threading.Timer(HELLO_DELAY, self.send_hello)
            hello.daemon = True
            hello.start()

    def unplug(self) -> None:
        """Drop the TCP client (the kiosk sees an unplug); new ones are still accepted."""
        with self._lock:
            if self._client is not None:
                with contextlib.suppress(OSError):
                    self._client.shutdown(socket.SHUT_RDWR)
                self._client.close()
                self._client = None

    def close(self) -> None:
        self._closing.set()
        self.unplug()
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        if self._server is not None:
            self._server.close()

    # --- what is sent --------------------------------------------------------------------

    def kiosk_baud(self) -> int | None:
        """The speed the kiosk has set its end of the pty to (None: no pty)."""
        if self._slave is None:
            return None
        speed = termios.tcgetattr(self._slave)[5]
        return next((rate for rate, const in _SPEEDS.items() if const == speed), None)

    def awake(self) -> bool:
        """A dascr board wakes when the host has written its handshake (at its speed: what
        came at another speed is judged by the speed set when it is read, so call this often)."""
        if not self.handshake:
            return True
        if self._master is not None:
            with contextlib.suppress(BlockingIOError, OSError):
                heard = os.read(self._master, 4096)
                if self.baud is None or self.kiosk_baud() == self.baud:
                    self._heard = (self._heard + heard)[-64:]  # else: noise at another speed
        return HANDSHAKE in self._heard

    def send_line(self, text: str) -> bool:
        """Send one line; False when nobody is listening or the line could not be written."""
        return self.send_bytes(text.encode("ascii", errors="replace") + b"\n", text)

    def send_bytes(self, data: bytes, text: str | None = None) -> bool:
        """Send bytes as they are (a firmware's own line ends, codes without one)."""
        text = text if text is not None else data.decode("ascii", errors="backslashreplace")
        if not self.awake():
            log.info("not woken by %r yet: %r not sent", HANDSHAKE, text)
            return False
        if self.baud is not None and self._master is not None and self.kiosk_baud() != self.baud:
            data = garbled(data)
        with self._lock:
            self.sent.append(text)
            try:
                if self._master is not None:
                    os.write(self._master, data)
                    return True
                if self._client is not None:
                    self._client.sendall(data)
                    return True
            except BlockingIOError:
                log.warning(_("nobody reads the pty: line %r dropped"), text)
            except OSError as err:
                log.warning(_("could not send %r: %s"), text, err)
        return False

    def send_hello(self) -> None:
        if self.dialect.name == "dartship":
            self.send_line(f"HELLO dartship/{PROTOCOL_VERSION} {self.board_id} {self.board.profile.value}")

    def line_for(self, command: str) -> str | None:
        """The line a command sends (None: nothing to send; a bad cell raises CellError)."""
        head, _sep, rest = command.strip().partition(" ")
        word = head.lower()
        if word == "raw":
            return rest
        if word == "hello":
            self.send_hello()
            return None
        if word == "btn":
            name = rest.strip().lower()
            if self.dialect.name == "dartship":
                return f"BTN {name.upper()}"
            if self.dialect.name == "numeric":
                return "KNOPF"
            if self.dialect.name == "granboard":
                return "BTN@"
            if self.dialect.name == "bracket":
                return "<BTN>"
            return name
        if word == "throw":
            target = self.board.parse(rest) if rest.strip() else self.thrower.pick_target()
            landing = self.thrower.throw_at(target)
            return encode(self.dialect, landing.cell, landing.zone, self.board_map)
        cell = self.board.parse(command)
        return encode(
            self.dialect, cell, bull_zone(command, cell) if cell.on_board else BullZone.MISS, self.board_map
        )

    def do(self, command: str) -> str | None:
        """Carry out one command; returns the line sent, or a message about a bad command."""
        try:
            line = self.line_for(command)
        except CellError as err:
            return _("not sent: {error}").format(error=err)
        if line is not None:
            self.send_line(line)
        return line

    def play(self, steps: Iterable[Step]) -> Iterator[str | None]:
        for step in steps:
            if self._closing.wait(step.delay):
                return
            yield self.do(step.command)
