"""Waits with a deadline. A test that waits for something says what, and fails saying so
instead of hanging the run: a bare `readline()` blocks for ever on a process that hangs and
returns "" for ever on one that died, and a poll without a deadline never ends. CI is one
90-minute job on a slow 2-core machine, so the deadlines are generous: these are not timing
tests (timing belongs in bench/), they only turn a hang into a failure that names its cause."""

from __future__ import annotations

import asyncio
import contextlib
import re
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable
from typing import IO, Generic, TypeVar

PATIENCE = 90.0
"""Seconds a test waits for something that should take a moment."""

T = TypeVar("T")
Line = TypeVar("Line", str, bytes)


Said = str | Callable[[], str]
"""What a wait waits for, in words; a function is asked only when the wait fails (to show
the last state seen)."""


def _never(what: Said, seconds: float, found: object) -> AssertionError:
    said = what if isinstance(what, str) else what()
    return AssertionError(f"never {said} (waited {seconds:g} s; last: {found!r})")


def until(check: Callable[[], T], what: Said, seconds: float = PATIENCE, every: float = 0.05) -> T:
    """`check()`'s first true value, tried every `every` s; after `seconds` the test fails
    with "never <what>" (and `check()`'s last value)."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() >= deadline:
            raise _never(what, seconds, found)
        time.sleep(every)


def until_seen(
    get: Callable[[], T],
    check: Callable[[T], object],
    what: Said,
    seconds: float = PATIENCE,
    every: float = 0.05,
) -> T:
    """`get()`'s first value that `check` accepts, asked every `every` s; a failure names
    `what` and shows the last value seen."""
    deadline = time.monotonic() + seconds
    while True:
        value = get()
        if check(value):
            return value
        if time.monotonic() >= deadline:
            raise _never(what, seconds, value)
        time.sleep(every)


async def eventually(
    check: Callable[[], T | Awaitable[T]], what: Said, seconds: float = PATIENCE, every: float = 0.01
) -> T:
    """`until` on the running loop: `check()` (a plain or an async function) is tried every
    `every` s while the loop runs everything else."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        found = check()
        if asyncio.iscoroutine(found) or isinstance(found, asyncio.Future):
            found = await found
        if found:
            return found  # type: ignore[return-value]
        if loop.time() >= deadline:
            raise _never(what, seconds, found)
        await asyncio.sleep(every)


class Lines(Generic[Line]):
    """A process's output (its stdout unless told), read line by line by a thread of its own,
    so that every wait on it has a deadline and a message: what was awaited, whether the
    process ended (and how), and its last lines."""

    def __init__(self, proc: subprocess.Popen, stream: IO[Line] | None = None) -> None:
        self.proc = proc
        self.lines: list[Line] = []
        self.ended = False
        self._taken = 0
        self._cond = threading.Condition()
        source = proc.stdout if stream is None else stream
        assert source is not None, "the process's output is not a pipe"
        self._thread = threading.Thread(target=self._read, args=(source,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[Line]) -> None:
        try:
            for line in stream:
                end = "\n" if isinstance(line, str) else b"\n"
                with self._cond:
                    self.lines.append(line.removesuffix(end))
                    self._cond.notify_all()
        except ValueError:  # the stream was closed under the thread: the test is done with it
            pass
        finally:
            with self._cond:
                self.ended = True
                self._cond.notify_all()

    def next(self, what: str = "a line", seconds: float = PATIENCE) -> Line:
        """The next line not taken yet (lines come in order, each once)."""
        deadline = time.monotonic() + seconds
        with self._cond:
            while self._taken >= len(self.lines):
                left = deadline - time.monotonic()
                if self.ended or left <= 0:
                    raise AssertionError(self._failure(what, seconds))
                self._cond.wait(left)
            self._taken += 1
            return self.lines[self._taken - 1]

    def wait_for(self, pattern: str, seconds: float = PATIENCE, what: str | None = None) -> re.Match[str]:
        """The first match of `pattern` in any line so far (or to come)."""
        deadline = time.monotonic() + seconds
        with self._cond:
            while True:
                for line in self.lines:
                    found = re.search(
                        pattern, line if isinstance(line, str) else line.decode("utf-8", "replace")
                    )
                    if found:
                        return found
                left = deadline - time.monotonic()
                if self.ended or left <= 0:
                    raise AssertionError(self._failure(what or f"line like {pattern!r}", seconds))
                self._cond.wait(left)

    def close(self, seconds: float = PATIENCE) -> None:
        """Wait for the end of the output (the process closed it, e.g. by exiting)."""
        self._thread.join(seconds)
        assert not self._thread.is_alive(), self._failure("end of the output", seconds)

    def text(self) -> str:
        return "\n".join(x if isinstance(x, str) else x.decode("utf-8", "replace") for x in self.lines)

    def _failure(self, what: str, seconds: float) -> str:
        if self.ended:  # the process is ending: its status says how
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(5)
        status = self.proc.poll()
        if self.ended:
            how = f"the output ended first (exit status {status})"
        else:
            how = f"not within {seconds:g} s" + ("" if status is None else f" (exit status {status})")
        tail = self.text().splitlines()[-40:]
        return f"no {what} from {self._name()}: {how}; its last lines:\n" + "\n".join(tail)

    def _name(self) -> str:
        args = self.proc.args
        words = [str(a) for a in args] if isinstance(args, list | tuple) else [str(args)]
        if words[0].endswith("setpriv") and "--" in words:  # tied to the run (hub.cluster.tied)
            words = words[words.index("--") + 1 :]
        shown = " ".join(w if len(w) < 60 else w[:57] + "..." for w in words[:6])
        return f"pid {self.proc.pid} ({shown})"
