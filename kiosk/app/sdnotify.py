"""systemd's notify protocol in a few lines: READY=1, WATCHDOG=1, STATUS=..., no dependency.

`NOTIFY_SOCKET` names a datagram socket; a leading `@` means Linux's abstract namespace.
Without the variable (not under systemd) every call does nothing and says so by returning False.
A failed send is never fatal: the kiosk keeps playing, and a missing WATCHDOG=1 is exactly what
systemd is there to notice.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    def __init__(self, address: str | None = None) -> None:
        self.address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")

    @property
    def active(self) -> bool:
        return bool(self.address)

    def _target(self) -> str | bytes:
        if self.address.startswith("@"):
            # Abstract namespace: the name is the bytes after a leading NUL, not a file.
            return b"\0" + self.address[1:].encode()
        return self.address

    def send(self, *fields: str) -> bool:
        """Send `KEY=value` lines as one datagram; True when systemd's socket took it."""
        if not self.active:
            return False
        message = "\n".join(fields).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message, self._target())
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def extend_timeout(self, seconds: float) -> bool:
        """Ask for more time to start or stop (a slow first start on an SD card, a long replay)."""
        return self.send(f"EXTEND_TIMEOUT_USEC={max(0, int(seconds * 1_000_000))}")

    @staticmethod
    def watchdog_seconds(environ: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
        """Half of systemd's WatchdogSec for this process, or None when no watchdog is set.

        Half, as sd_watchdog_enabled(3) advises, so one late ping is not yet a restart.
        `WATCHDOG_PID`, when set, must name this process: a child that inherited the variables
        must not ping for its parent.
        """
        environ = os.environ if environ is None else environ
        usec = environ.get("WATCHDOG_USEC")
        expected = environ.get("WATCHDOG_PID")
        if not usec or (expected and expected != str(os.getpid() if pid is None else pid)):
            return None
        try:
            value = int(usec)
        except ValueError:
            return None
        return value / 2_000_000 if value > 0 else None
