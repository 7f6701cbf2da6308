"""Shared set-up of the phone page tests (imported explicitly: tests/ui/conftest.py is not ours)."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from kiosk import config
from kiosk.board import board_for
from kiosk.darts.fleet import Fleet, parse_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import HouseRules, Place, Setup, Team, house_rules
from kiosk.i18n import set_language
from kiosk.service import GameService, Source
from kiosk.store import Store
from ui.handheld.darts.api import DartsApi
from ui.handheld.seats import Seats
from ui.handheld.server import build_app, runner_options
from ui.handheld.throttle import GuessThrottle, Limits

LENGTHS = (2, 3, 4, 5)
# Two fleets with no cell in common, so that any of B's cells showing up is a leak.
FLEET_A = "D20-D1 T18-T4-T13 L6-L10-L15-L2 D17-L17-T17-S17-BULL"
FLEET_B = "S3-S19 T7-T16-T8 D11-D14-D9-D12 L5-L20-L1-L18-L4"
OPEN_LIMITS = Limits(per_client=1_000_000)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTEFACTS = Path(__file__).resolve().parents[2] / "build" / "artefacts" / "handheld"


@pytest.fixture
def finnish_kiosk() -> Iterator[None]:
    """The kiosk's screen speaks Finnish (as its Settings can make it), English again after."""
    set_language("fi")
    try:
        yield
    finally:
        set_language("en")


@contextlib.contextmanager
def disk_full(store: Store) -> Iterator[None]:
    """Every write of the game and the store's probe fail as a full disk does, until the end."""

    def full(*_args: object, **_kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    store.games.append = full  # type: ignore[method-assign]
    store.meta.probe = full  # type: ignore[method-assign]
    try:
        yield
    finally:
        del store.games.append, store.meta.probe


def fleet(text: str) -> Fleet:
    return parse_fleet(text, board_for("four-ring"), LENGTHS)


def fleet_json(text: str) -> dict[str, list[list[str]]]:
    return {"ships": [ship.split("-") for ship in text.split()]}


def fleet_cells(text: str) -> set[str]:
    return {cell for ship in text.split() for cell in ship.split("-")}


def cells_in(text: str, cells: Iterable[str]) -> set[str]:
    """Which of `cells` appear in `text` as whole cell codes (S1 is not found inside S11)."""
    return {c for c in cells if re.search(rf"(?<![A-Za-z0-9]){re.escape(c)}(?![0-9A-Za-z])", text)}


def settings(**changes: object) -> config.Settings:
    """Settings with some keys changed (`rules__bull_off="off"` for `rules.bull_off`)."""
    typed, problems = config.check_values({k.replace("__", "."): v for k, v in changes.items()})
    assert not problems, problems
    return config.build(typed)


RULES: dict[GameService, HouseRules] = {}


def make_service(tmp_path: Path, chosen: config.Settings | None = None) -> GameService:
    service = GameService(Store(tmp_path / "dartship.db"))
    RULES[service] = house_rules(chosen or config.Settings())
    return service


def new_game(
    service: GameService, names: tuple[str, str] = ("Sharks", "Jets"), rules: HouseRules | None = None
) -> int:
    """A dart game of two teams, by the service's settings' rules unless `rules` says."""
    return service.new_game(
        DARTS,
        Setup(
            (Team(names[0], (names[0] + " 1", names[0] + " 2")), Team(names[1], (names[1] + " 1",))),
            rules or RULES.get(service, HouseRules()),
        ),
    )


def place(service: GameService, team: int, chosen: Fleet) -> None:
    """A team locks in its fleet on the touchscreen."""
    service.submit(Place(team, chosen), Source.TOUCH)


@contextlib.asynccontextmanager
async def api_client(
    service: GameService, limits: Limits | None = None
) -> AsyncIterator[tuple[TestClient, Seats]]:
    """One phone (one cookie jar) on a test server of the phone API."""
    async with api_phones(service, limits) as (phones, api):
        yield phones[0], api


@contextlib.asynccontextmanager
async def api_phones(
    service: GameService, limits: Limits | None = None, count: int = 2
) -> AsyncIterator[tuple[list[TestClient], Seats]]:
    """`count` phones, each with a cookie jar of its own (a team link is held by one phone:
    a test playing both teams needs two)."""
    api = Seats(service, GuessThrottle(limits))
    server = TestServer(build_app(api, DartsApi(api)))
    await server.start_server(**runner_options())  # the redacting access log, as in production
    phones = [TestClient(server) for _ in range(count)]
    for phone in phones:
        await phone.start_server()
    try:
        yield phones, api
    finally:
        for phone in phones:
            await phone.close()
