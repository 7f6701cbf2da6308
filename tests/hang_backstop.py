"""The suite's hang backstop: a test that runs longer than its limit (600 s unless
`--hang-seconds` says otherwise; its set-up, call and tear-down together) is a hang. Without
this, a hung test held CI until the job's 90-minute limit and said nothing. Now the run prints
which test hung and every thread's stack, and ends (exit status 1) at once: nothing of a hung
run can be trusted to tear down, and what it started dies with it (the tests' kiosks, hubs and
PostgreSQL are tied to the run: tests/headless_kiosk.py, hub/cluster.py).

A thread of its own watches the clock and, at the limit, writes the test's name, then every
thread's stack (`faulthandler.dump_traceback`) and every running asyncio task's, to the
terminal's stderr, then a last line that names the test again and counts the tests before it
as pytest's summary would have ("Before it: 12 passed, 1 failed, 2 skipped (of 40 tests
collected)": the run ends without that summary), and exits. Should that thread never get to
run (a hang in C code that holds the GIL), faulthandler's own watchdog (`dump_traceback_later`,
pure C) dumps the stacks and exits a minute after the limit (for a limit under a minute, the
limit again; it prints no counts: it runs no Python). Entering the debugger (`--pdb`) turns it
off for that test.

The slowest healthy tests take under 100 s on a busy 2-core machine (docs/design.md, "Tests
that stand alone", has the figures): the limit is a backstop, never a timing test."""

from __future__ import annotations

import faulthandler
import os
import threading
import time
from collections import Counter
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
        self._outcomes: Counter[str] = Counter()  # the tests so far, as pytest's summary counts them
        self._collected = 0
        threading.Thread(target=self._watch, name="hang backstop", daemon=True).start()

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        self._arm(item.nodeid)
        try:
            return (yield)
        finally:
            self._disarm()

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self._collected = len(session.items)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Count what the summary would have said, for the line a hang ends the run with."""
        if report.when == "call":
            if hasattr(report, "wasxfail"):
                outcome = "xfailed" if report.skipped else "xpassed"
            else:
                outcome = report.outcome  # passed, failed or skipped
        elif report.failed:
            outcome = "errors"  # a set-up or tear-down that failed
        elif report.skipped:
            outcome = "skipped"  # skipped at set-up (a mark, a missing tool)
        else:
            return
        with self._cond:
            self._outcomes[outcome] += 1

    def so_far(self) -> str:
        """The tests before the hang as pytest's summary counts them: "2 passed, 1 failed, 1
        skipped (of 40 tests collected)" (passed and failed always; the others when any)."""
        with self._cond:
            counts = dict(self._outcomes)
        words = [f"{counts.get('passed', 0)} passed", f"{counts.get('failed', 0)} failed"]
        words += [f"{counts[k]} {k}" for k in ("errors", "skipped", "xfailed", "xpassed") if counts.get(k)]
        return f"{', '.join(words)} (of {self._collected} tests collected)"

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
        os.write(self.fd, f"\nHANG: the test run ends: {test} hung. Before it: {self.so_far()}.\n".encode())
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
