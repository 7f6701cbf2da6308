"""One database, one running program: an OS lock on a file beside the database.

Two kiosks on one database would each resume the same game and hand out the same phone links,
and each would think the other's phones are strangers. So whatever opens a database to play on
it (`dartship run`, `referee`, `classic`, `express` with `--db`) first takes `DatabaseLock`:
`fcntl.flock` on `<database>.lock`, held for the program's life. The kernel drops the lock when
the process ends, however it ends (kill -9, a power cut), so a stale lock cannot keep the next
start out; the file's text (who holds it: command, pid, port) is only there to name the holder
in the refusal. The file stays when the lock is released (removing it would let a third program
lock a file the second has just opened); an empty or stale text is never trusted on its own.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from dataclasses import dataclass
from pathlib import Path

from kiosk.i18n import _
from kiosk.store import StoreError


@dataclass(frozen=True)
class Holder:
    """Who holds a database: a command (`dartship run`), its pid, its phone page's port."""

    command: str
    pid: int
    port: int | None = None

    def describe(self) -> str:
        if self.port is None:
            return _("{command} (pid {pid})").format(command=self.command, pid=self.pid)
        return _("{command} (pid {pid}, phone page on port {port})").format(
            command=self.command, pid=self.pid, port=self.port
        )

    def to_text(self) -> str:
        return json.dumps({"command": self.command, "pid": self.pid, "port": self.port}) + "\n"

    @staticmethod
    def from_text(text: str) -> Holder | None:
        try:
            data = json.loads(text)
            port = data.get("port")
            return Holder(str(data["command"]), int(data["pid"]), None if port is None else int(port))
        except (ValueError, TypeError, KeyError, AttributeError):
            return None


class DatabaseInUse(StoreError):
    """Another running program holds the database; the message names it and what to do."""

    def __init__(self, database: Path, holder: Holder | None) -> None:
        self.holder = holder
        who = holder.describe() if holder else _("another program")
        super().__init__(
            _(
                "{database} is in use by {who}: one database belongs to one running kiosk. Stop "
                "that one first, or give this one a database of its own (--db, or kiosk.database "
                "in the config)."
            ).format(database=database, who=who)
        )


def lock_path(database: Path) -> Path:
    return Path(f"{database}.lock")


class DatabaseLock:
    """The lock on one database, held until `release()` (or the end of the process)."""

    def __init__(self, database: Path | str, command: str, port: int | None = None) -> None:
        """Take the lock or raise `DatabaseInUse` (naming the holder) or `StoreError` (the
        folder cannot hold a lock file). Nothing of the database is touched."""
        self.database = Path(database)
        self.path = lock_path(self.database)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # os.open's descriptors are not inherited by programs the kiosk starts (PEP 446):
            # a child outliving a killed kiosk cannot keep its lock.
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise StoreError(
                _("cannot make the lock file {path}: {error}").format(
                    path=self.path, error=err.strerror or err
                )
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = Holder.from_text(_read(fd))
            os.close(fd)
            raise DatabaseInUse(self.database, holder) from None
        except OSError as err:
            os.close(fd)
            raise StoreError(
                _("cannot lock {path}: {error}").format(path=self.path, error=err.strerror or err)
            ) from None
        self._fd: int | None = fd
        self.holder = Holder(command, os.getpid(), port)
        self._write(self.holder)

    def set_port(self, port: int | None) -> None:
        """The phone page's port once it listens (a port the system picked)."""
        self.holder = Holder(self.holder.command, self.holder.pid, port)
        self._write(self.holder)

    def _write(self, holder: Holder | None) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):  # the text only names the holder; the lock holds
            os.ftruncate(self._fd, 0)
            if holder is not None:
                os.pwrite(self._fd, holder.to_text().encode(), 0)

    def release(self) -> None:
        """Let the next program have the database; may be called more than once."""
        if self._fd is None:
            return
        self._write(None)
        with contextlib.suppress(OSError):
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None


def _read(fd: int) -> str:
    try:
        return os.pread(fd, 4096, 0).decode("utf-8", "replace")
    except OSError:
        return ""
