"""Shared set-up of the classic phone page tests (imported explicitly, like conftest_handheld)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import random
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from kiosk.classic.computer import ShotPace
from kiosk.classic.grid import SQUARES
from kiosk.classic.match import Match
from kiosk.classic.room import computer as classic_computer
from kiosk.classic.rooms import PhoneRooms
from kiosk.classic.wire import CLASSIC
from kiosk.service import GameService
from kiosk.store import Store
from tests.ui.conftest_handheld import OPEN_LIMITS
from ui.handheld.classic.api import ClassicApi, StartLimits
from ui.handheld.darts.api import DartsApi
from ui.handheld.phones import COOKIE
from ui.handheld.seats import Seats
from ui.handheld.server import build_app, runner_options
from ui.handheld.throttle import GuessThrottle

DAY = datetime.date(2026, 11, 30)
OPEN_STARTS = StartLimits(capacity=10_000, per_minute=10_000)


@contextlib.asynccontextmanager
async def classic_phones(
    tmp_path: Path,
    count: int = 3,
    *,
    limits: StartLimits = OPEN_STARTS,
    service: GameService | None = None,
    today: datetime.date = DAY,
    wall: Callable[[], float] = time.time,
    throttle: GuessThrottle | None = None,
) -> AsyncIterator[tuple[list[TestClient], ClassicApi]]:
    """`count` phones (a cookie jar each) on a test server of the phone API with the classic
    routes; the computer shoots at once (no pace); today is DAY unless said; wrong links are
    throttled only past OPEN_LIMITS unless a `throttle` is given."""
    service = service or GameService(Store(tmp_path / "dartship.db"))
    api = Seats(service, throttle or GuessThrottle(OPEN_LIMITS))
    rooms = PhoneRooms(
        service.store,
        asyncio.get_running_loop(),
        classic_computer,
        pace=ShotPace(shot=0),
        rng=random.Random(5),
    )
    classic = ClassicApi(api, rooms, limits=limits, today=lambda: today, wall=wall)
    server = TestServer(build_app(api, DartsApi(api), classic))
    await server.start_server(**runner_options())
    phones = [TestClient(server) for _ in range(count)]
    for phone in phones:
        await phone.start_server()
    try:
        yield phones, classic
    finally:
        for phone in phones:
            await phone.close()


def device(phone: TestClient) -> str:
    """The phone's device as the kiosk knows it (the digest of its cookie's key)."""
    key = next(c.value for c in phone.session.cookie_jar if c.key == COOKIE)
    return hashlib.sha256(key.encode()).hexdigest()


def play_match(classic: ClassicApi, phone: TestClient) -> Match:
    match = CLASSIC.in_play(classic.rooms.table(device(phone)).service)
    assert match is not None
    return match


def daily_match(classic: ClassicApi, phone: TestClient) -> Match:
    match = CLASSIC.in_play(classic.rooms.daily_table(device(phone)).service)
    assert match is not None
    return match


def enemy_squares(match: Match, side: int) -> list[str]:
    """The test's own cheat sheet: where `side`'s target ships are (no page ever gets this)."""
    fleet = match.fleet(1 - side)
    assert fleet is not None
    return [s.code for ship in fleet.ships for s in ship.cells]


def water(match: Match, side: int) -> list[str]:
    """Squares `side` may fire at that hold no enemy ship."""
    ships = set(enemy_squares(match, side))
    shot = {s.code for s in match.radar(side).shots}
    return [s.code for s in SQUARES if s.code not in ships and s.code not in shot]


async def ok(response: Any) -> dict[str, Any]:
    assert response.status == 200, (response.status, await response.text())
    return await response.json()


async def settle(classic: ClassicApi, rounds: int = 2000) -> None:
    """Until every table's computer has fired what it wants to (its decisions come from an
    executor thread)."""
    for _ in range(rounds):
        if all(t.seat.idle for t in classic.rooms._tables.values()):
            return
        await asyncio.sleep(0.002)
    raise AssertionError("a computer is still busy")
