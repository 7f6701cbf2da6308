"""systemd's notify protocol in a few lines: READY=1, WATCHDOG=1, STATUS=..., no dependency.

`NOTIFY_SOCKET` names a datagram socket; a leading `@` means Linux's abstract namespace.
Without the variable (not under systemd) every call does nothing and says so by returning False.
"""

from __future__ import annotations

import os
import socket


class Notifier:
    def __init__(self, address: str | None = None) -> None:
        self.address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")

    @property
    def active(self) -> bool:
        return bool(self.address)

    def _target(self) -> str | bytes:
        if self.address.startswith("@"):
            return b"\0" + self.address[1:].encode()
        return self.address

    def send(self, *fields: str) -> bool:
        if not self.active:
            return False
        message = "\n".join(fields).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(self._target())
                sock.sendall(message)
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

    @staticmethod
    def watchdog_seconds() -> float | None:
        """Half of systemd's WatchdogSec for this process, or None when no watchdog is set."""
        usec = os.environ.get("WATCHDOG_USEC")
        pid = os.environ.get("WATCHDOG_PID")
        if not usec or (pid and pid != str(os.getpid())):
            return None
        try:
            return int(usec) / 2_000_000
        except ValueError:
            return None
