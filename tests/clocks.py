"""A clock for the tests that moves only when the test says: what happens "at once" happens at
the same instant, "a while later" is one `advance` away, and no test sleeps for it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kiosk.service import GameService

if TYPE_CHECKING:
    import pytest


@dataclass
class HandClock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def guard_next(service: GameService, window: float = 1.5) -> HandClock:
    """The dart game's guard in front of Next (as the kiosk's root hosts it), on a hand clock."""
    from kiosk.darts.double_next import NextGuard
    from kiosk.darts.kind import DARTS

    clock = HandClock()
    service.host(DARTS.name, [NextGuard(service, lambda: window, clock)])
    return clock


def hand_clock_for_next(service: GameService, monkeypatch: pytest.MonkeyPatch | None = None) -> HandClock:
    """The guard a service hosts already (the root's, the test kiosk's) on a hand clock; with
    `monkeypatch` its own clock comes back after the test (a kiosk the tests share). A test that
    taps Next twice "a while" apart says so with `advance`."""
    from kiosk.darts.double_next import NextGuard

    guard = next(p for p in service.participants() if isinstance(p, NextGuard))
    clock = HandClock()
    if monkeypatch is None:
        guard.clock = clock
    else:
        monkeypatch.setattr(guard, "clock", clock)
    return clock
