"""Group commit: one writer thread that commits the commands of many games in one transaction.

A commit with `synchronous=FULL` waits for the disk (an fsync of the WAL: 4 ms at best here,
tens of ms on a busy SD card), and the loop that serves every phone used to wait with it: with
100 games at once the loop spent 41 % of its time in COMMIT (py-spy, docs/classic.md). Here a
thread of its own, with a connection of its own, takes every write that is waiting, runs them
in one transaction (each in a savepoint of its own, so that one write's failure undoes only
that write) and commits them with one fsync; only then is each write's future done. The disk's
wait is the thread's, never the loop's, and many games share one fsync.

Nothing is weaker than before: a write's future is done only after COMMIT has returned with
`synchronous=FULL`, so whatever its caller announces afterwards survives a power cut. The
store's own transactions (a new game, a room) and this thread take turns through one lock, so
neither waits on SQLite's busy handler.
"""

from __future__ import annotations

import concurrent.futures
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from kiosk.errors import DartshipError

if TYPE_CHECKING:
    import sqlite_utils

log = logging.getLogger("dartship.store")

T = TypeVar("T")
Write = Callable[["sqlite_utils.Database"], T]  # runs inside the group's transaction


@dataclass
class _Job(Generic[T]):
    write: Write[T]
    future: concurrent.futures.Future[T] = field(default_factory=concurrent.futures.Future)
    result: T | None = None


class StoreClosed(DartshipError, sqlite3.ProgrammingError):
    """The store was closed before this write could be committed (as sqlite3 says of a closed
    connection, so that whoever handles store errors handles this one)."""


class GroupCommit:
    """The writer thread of one database file (see the module's docstring).

    `open_db(connection)` wraps the thread's connection as the store's parts expect it;
    `lock` is the store's write lock, held for each group's transaction."""

    def __init__(
        self,
        path: Path,
        lock: threading.Lock,
        open_db: Callable[[sqlite3.Connection], sqlite_utils.Database],
        *,
        timeout: float = 5.0,
    ) -> None:
        self.path = path
        self._lock = lock
        self._open_db = open_db
        self._timeout = timeout
        self._queue: queue.SimpleQueue[_Job[object] | None] = queue.SimpleQueue()
        self._closed = False
        self.groups = 0  # transactions committed (the benches print writes per group)
        self.writes = 0
        self._thread = threading.Thread(target=self._run, name="dartship-commits", daemon=True)
        self._thread.start()

    def submit(self, write: Write[T]) -> concurrent.futures.Future[T]:
        """Queue `write`; its future is done once it is committed (or failed: the error)."""
        job: _Job[T] = _Job(write)
        if self._closed:
            job.future.set_exception(StoreClosed("the store is closed"))
            return job.future
        self._queue.put(job)  # type: ignore[arg-type]
        return job.future

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        self._closed = True
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()

    # -- the thread --

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=self._timeout)
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            db = self._open_db(conn)
        except sqlite3.Error as err:
            self._fail_all(err)
            return
        try:
            while True:
                first = self._queue.get()
                group = [first]
                while not self._queue.empty():
                    group.append(self._queue.get_nowait())
                jobs = [job for job in group if job is not None]
                if jobs:
                    self._commit(db, conn, jobs)
                if None in group:
                    return
        finally:
            conn.close()

    def _commit(self, db: sqlite_utils.Database, conn: sqlite3.Connection, jobs: list[_Job[object]]) -> None:
        done: list[_Job[object]] = []
        with self._lock:
            try:
                conn.execute("BEGIN IMMEDIATE")
                for job in jobs:
                    if not self._run_one(db, conn, job):
                        if not conn.in_transaction:
                            # SQLite rolled the whole transaction back (a full disk, an I/O
                            # error): the writes done so far in it are gone too.
                            raise job.future.exception() or sqlite3.OperationalError("rolled back")
                        continue
                    done.append(job)
                conn.execute("COMMIT")
            except Exception as err:  # sqlite3.Error, OSError: a full disk, an I/O error
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                for job in jobs:
                    if not job.future.done():
                        job.future.set_exception(err)
                return
        self.groups += 1
        self.writes += len(done)
        for job in done:  # only now, after COMMIT returned: durable
            job.future.set_result(job.result)

    @staticmethod
    def _run_one(db: sqlite_utils.Database, conn: sqlite3.Connection, job: _Job[object]) -> bool:
        conn.execute("SAVEPOINT one_write")
        try:
            job.result = job.write(db)
        except Exception as err:
            if conn.in_transaction:
                conn.execute("ROLLBACK TO one_write")
                conn.execute("RELEASE one_write")
            job.future.set_exception(err)
            return False
        conn.execute("RELEASE one_write")
        return True

    def _fail_all(self, err: BaseException) -> None:
        log.error("the writer cannot open the database: %s", err)
        self._closed = True
        while True:
            job = self._queue.get()
            if job is None:
                return
            job.future.set_exception(err)
