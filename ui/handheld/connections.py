"""Who may hold a connection to the phone page: a cap per address and for everyone together.

A phone opens a handful of connections (a browser keeps up to six per site, plus one
WebSocket); an attacker on the bar's Wi-Fi opens a thousand and sends nothing (slowloris) until
the kiosk runs out of file descriptors and the phones get nothing. So:

* one address holds at most `per_address` connections: more are closed as soon as they are
  accepted (the accept costs a descriptor for a moment, never for long);
* all addresses together hold at most `overall` (below the process's file limit, with room for
  the database, the serial port, the screen): at that cap a newcomer is let in by closing the
  oldest connection of the address that holds the most, so a fresh phone still gets in while
  one greedy address is cut back;
* a connection that has not sent a whole request's headers within the header timeout
  (aiohttp's keep-alive timeout, which runs from the connection's start and from each answer,
  see `server.runner_options`) is closed by aiohttp.

Accept errors (the file table full after all) are logged once per window with a count
(`AcceptErrorLog`), never once per failed accept: asyncio logs each with a traceback and, on
Python 3.11, can retry them in a busy loop.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from kiosk.floodgate import FloodGate

log = logging.getLogger("dartship.handheld")

PER_ADDRESS = 64
RESERVED_FILES = 256  # descriptors kept for everything but phones (SQLite, serial, Kivy, logs)
MAX_OVERALL = 2048  # enough for a full bar many times over; each costs memory on a Pi
REPORT_SECONDS = 10.0
RETRY_SECONDS = 2.0  # longer than asyncio's retry of a failed accept (1 s)


def overall_limit() -> int:
    """Connections all phones together may hold: the file limit less a reserve (half of a
    small limit), so that accepting never runs out of descriptors."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_OVERALL
    return min(MAX_OVERALL, soft - min(RESERVED_FILES, soft // 2))


@dataclass
class ConnectionGate:
    per_address: int = PER_ADDRESS
    overall: int = field(default_factory=overall_limit)
    # Open connections by address, oldest first (insertion order).
    _open: dict[str, OrderedDict[GuardedProtocol, None]] = field(default_factory=dict)
    _total: int = 0
    _refused: FloodLog = field(
        default_factory=lambda: FloodLog(
            "%d more phone connections refused in the last %.0f s (too many open)"
        )
    )

    @property
    def total(self) -> int:
        return self._total

    def count(self, address: str) -> int:
        held = self._open.get(address)
        return len(held) if held else 0

    def admit(self, conn: GuardedProtocol) -> bool:
        """Let this new connection in (True), or refuse it (False: the caller closes it)."""
        address = conn.address
        if self.count(address) >= self.per_address:
            self._report_refusal(address, "per_address")
            return False
        if self._total >= self.overall and not self._make_room():
            self._report_refusal(address, "overall")
            return False
        self._open.setdefault(address, OrderedDict())[conn] = None
        self._total += 1
        return True

    def release(self, conn: GuardedProtocol) -> None:
        held = self._open.get(conn.address)
        if held is not None and conn in held:
            del held[conn]
            self._total -= 1
            if not held:
                del self._open[conn.address]

    def _make_room(self) -> bool:
        """At the overall cap: close the oldest connection of the address holding the most, if
        it holds more than one (a crowd of single phones is not thinned out)."""
        greedy = max(self._open, key=lambda a: len(self._open[a]), default=None)
        if greedy is None or len(self._open[greedy]) < 2:
            return False
        oldest = next(iter(self._open[greedy]))
        self.release(oldest)
        oldest.close()
        return True

    def _report_refusal(self, address: str, why: str) -> None:
        if why == "per_address":
            self._refused.note("%s holds %d connections already: more are refused", address, self.per_address)
        else:
            self._refused.note(
                "%d phone connections are open: a new one from %s is refused", self._total, address
            )


class FloodLog:
    """A warning that may come thousands of times a second: the first of each window is
    logged, the rest counted, and the count logged when the window closes (by a timer on the
    running loop, so the last count of a flood is never lost)."""

    def __init__(
        self, summary: str, window: float = REPORT_SECONDS, first: int = 1, level: int = logging.WARNING
    ) -> None:
        self.summary = summary  # "%d more ... in the last %.0f s"
        self.gate = FloodGate(first=first, window=window)
        self.level = level
        self._flush: asyncio.TimerHandle | None = None

    def note(self, message: str, *args: object) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self.report(now)
        if self.gate.admit(now):
            log.log(self.level, message, *args)
        elif self._flush is None:
            self._flush = loop.call_at(now + self.gate.open_for(now) + 0.01, self._flushed, loop)

    def _flushed(self, loop: asyncio.AbstractEventLoop) -> None:
        self._flush = None
        self.report(loop.time())

    def report(self, now: float) -> None:
        held = self.gate.due(now)
        if held:
            log.log(self.level, self.summary, held, self.gate.window)

    def close(self) -> None:
        """The end: log what is still counted, and stop the timer."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        held = self.gate.drain()
        if held:
            log.log(self.level, self.summary, held, self.gate.window)


class GuardedProtocol(asyncio.Protocol):
    """aiohttp's request handler behind the gate: admitted connections are handed through,
    refused ones closed at once."""

    def __init__(self, inner: asyncio.Protocol, gate: ConnectionGate) -> None:
        self.inner = inner
        self.gate = gate
        self.address = ""
        self.transport: asyncio.Transport | None = None
        self.admitted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"
        self.admitted = self.gate.admit(self)
        if not self.admitted:
            transport.abort()
            return
        self.inner.connection_made(transport)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        if self.admitted:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.release(self)
        if self.admitted:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class GuardedSite(web.BaseSite):
    """aiohttp's TCPSite, every connection through a `ConnectionGate`."""

    def __init__(
        self, runner: web.BaseRunner, host: str, port: int, gate: ConnectionGate, *, backlog: int = 128
    ) -> None:
        super().__init__(runner, backlog=backlog)
        self._host, self._port, self.gate = host, port, gate
        self._bound: int | None = None

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def port(self) -> int:
        return self._bound if self._bound is not None else self._port

    @property
    def host(self) -> str:
        return self._host

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()

        def guarded() -> asyncio.Protocol:
            return GuardedProtocol(server(), self.gate)

        self._server = await loop.create_server(
            guarded, self._host, self._port, backlog=self._backlog, reuse_address=True
        )
        sockets = self._server.sockets
        self._bound = int(sockets[0].getsockname()[1]) if sockets else self._port


class AcceptErrorLog:
    """The loop's exception handler while the phone page runs: asyncio's "socket.accept() out
    of system resource" is logged once per window with a count; everything else goes to the
    handler that was there before."""

    MESSAGE = "socket.accept() out of system resource"

    def __init__(self, loop: asyncio.AbstractEventLoop, window: float = REPORT_SECONDS) -> None:
        self.loop = loop
        self.errors = FloodLog(
            "%d more failed accepts of phone connections in the last %.0f s", window, level=logging.ERROR
        )
        self._previous = loop.get_exception_handler()
        self._stopped = False

    def install(self) -> None:
        self.loop.set_exception_handler(self)

    def remove(self) -> None:
        """The server stopped: log the last count, and give the loop its handler back, at once
        or (right after accept errors) once the retries asyncio scheduled for the closed socket
        have fired and failed, quietly."""
        recent = self.errors.gate.open_for(self.loop.time()) > 0
        self.errors.close()
        self._stopped = True
        if recent:
            self.loop.call_later(RETRY_SECONDS, self._restore)
        else:
            self._restore()

    def _restore(self) -> None:
        if self.loop.get_exception_handler() is self:
            self.loop.set_exception_handler(self._previous)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        noise = context.get("message") == self.MESSAGE or "_start_serving" in repr(context.get("handle"))
        if noise and self._stopped:
            return  # the server is gone: its last accept retries have nothing to tell
        if context.get("message") == self.MESSAGE:
            self.errors.note(
                "cannot accept phone connections: %s (the process's file limit is "
                "reached; more of these are counted, not logged)",
                context.get("exception"),
            )
        elif "_start_serving" in repr(context.get("handle")):
            # asyncio's retry of accepting, on a server that was closed meanwhile: more of the
            # same trouble (each failed accept scheduled one), counted with it.
            self.errors.note("cannot accept phone connections: %s", context.get("exception"))
        elif self._previous is not None:
            self._previous(loop, context)
        else:
            loop.default_exception_handler(context)
