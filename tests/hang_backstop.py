"""The suite's hang backstop: a test that runs longer than its limit (600 s unless
`--hang-seconds` says otherwise; its set-up, call and tear-down together) is a hang. Without
this, a hung test held CI until the job's 90-minute limit and said nothing. Now the run prints
which test hung and every thread's stack, and ends (exit status 1) at once: nothing of a hung
run can be trusted to tear down, and what it started dies with it (the tests' kiosks, hubs and
PostgreSQL are tied to the run: tests/headless_kiosk.py, hub/cluster.py).

A thread of its own watches the clock and, at the limit, writes the test's name, then every
thread's stack (`faulthandler.dump_traceback`) and every running asyncio task's, to the
terminal's stderr, and exits. Should that thread never get to run (a hang in C code that holds
the GIL), faulthandler's own watchdog (`dump_traceback_later`, pure C) dumps the stacks and
exits a minute after the limit (for a limit under a minute, the limit again). Entering the
debugger (`--pdb`) turns it off for that test.

The slowest healthy tests take under 100 s on a busy 2-core machine (docs/design.md, "Tests
that stand alone", has the figures): the limit is a backstop, never a timing test."""

from __future__ import annotations

import faulthandler
import os
import threading
import time
from collections.abc import Generator

import pytest

HANG_SECONDS = 600.0


class HangBackstop:
    """The pytest plugin: armed around each test, `seconds` long (the terminal's stderr: `fd`)."""

    def __init__(self, fd: int, seconds: float) -> None:
        self.fd = fd
        self.seconds = seconds
        self._cond = threading.Condition()
        self._running: tuple[str, float] | None = None  # the test and its deadline
        threading.Thread(target=self._watch, name="hang backstop", daemon=True).start()

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        self._arm(item.nodeid)
        try:
            return (yield)
        finally:
            self._disarm()

    def pytest_enter_pdb(self) -> None:
        self._disarm()  # a person at the debugger is no hang

    def _arm(self, test: str) -> None:
        with self._cond:
            self._running = (test, time.monotonic() + self.seconds)
            self._cond.notify()
        faulthandler.dump_traceback_later(self.seconds + min(self.seconds, 60.0), exit=True, file=self.fd)

    def _disarm(self) -> None:
        faulthandler.cancel_dump_traceback_later()
        with self._cond:
            self._running = None
            self._cond.notify()

    def _watch(self) -> None:
        with self._cond:
            while True:
                if self._running is None:
                    self._cond.wait()
                    continue
                test, deadline = self._running
                left = deadline - time.monotonic()
                if left > 0:
                    self._cond.wait(left)
                    continue
                self._fire(test)

    def _fire(self, test: str) -> None:
        said = (
            f"\n\nHANG: {test} has run for more than {self.seconds:g} s (set-up, call and "
            "tear-down), far longer than any healthy test. Every thread's stack follows; then "
            "the test run ends with exit status 1 (the hang backstop, tests/hang_backstop.py; "
            "--hang-seconds=N sets the limit, 0 turns it off).\n\n"
        )
        os.write(self.fd, said.encode())
        faulthandler.dump_traceback(self.fd, all_threads=True)
        os.write(self.fd, _tasks().encode())
        os.write(self.fd, f"\nHANG: the test run ends: {test} hung.\n".encode())
        os._exit(1)


def _tasks() -> str:
    """The stack of every task of every running asyncio loop: a coroutine that waits is on no
    thread's stack (an async test hung in an await shows only its loop's `select` there)."""
    import asyncio
    import gc
    import io

    out = io.StringIO()
    try:
        loops = [o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop) and o.is_running()]
        for loop in loops:
            for task in asyncio.all_tasks(loop):
                out.write("\n")
                task.print_stack(file=out)
    except Exception as err:  # a listing that fails must not keep the run from ending
        out.write(f"\n(the asyncio tasks could not be listed: {err!r})\n")
    return out.getvalue()
