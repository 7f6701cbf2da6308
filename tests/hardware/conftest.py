"""Shared fixtures: a MockFactory set explicitly (never the environment's pin factory)."""

from __future__ import annotations

import contextlib
import os
import queue
import time
import tty
from collections.abc import Callable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


class Inbox:
    """A thread-safe sink for tests, with waiting helpers (timeouts are limits, not asserts)."""

    def __init__(self) -> None:
        self.queue: queue.Queue = queue.Queue()
        self.seen: list = []

    def __call__(self, event: object) -> None:
        self.queue.put(event)

    def next(self, timeout: float = 3.0) -> object:
        event = self.queue.get(timeout=timeout)
        self.seen.append(event)
        return event

    def until(self, wanted: Callable[[object], bool], timeout: float = 3.0) -> list:
        """Every event up to and including the first that `wanted` accepts."""
        got = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no wanted event within {timeout} s; got {got!r}")
            try:
                event = self.next(left)
            except queue.Empty:
                continue
            got.append(event)
            if wanted(event):
                return got

    def drain(self) -> list:
        got = []
        while True:
            try:
                got.append(self.queue.get_nowait())
            except queue.Empty:
                return got


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, int, str]]:
    """A pseudo-terminal: the board writes to `master`, the reader opens `path`."""
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    yield master, slave, path
    for fd in (master, slave):
        with contextlib.suppress(OSError):
            os.close(fd)
