"""What a game brings to the phone server (its `PhoneRoom`, named by its `kiosk.rooms.Room`):
the parts it serves beside the phone seats (its routes and pages, a host's desk), built from a
`PhoneContext` when the server starts. The server loops over the rooms and names no game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from aiohttp import web

from kiosk.config import Settings
from kiosk.ports import Thrower
from kiosk.service import GameService
from kiosk.speech import TableCalls
from ui.handheld.seats import Seats


class PhonePart(Protocol):
    """A part of the phone server beside the seats: a game's phone routes, the host's desk."""

    def routes(self) -> list[web.AbstractRouteDef]: ...

    async def close(self) -> None: ...


def _no_team_url(_team: int) -> str | None:
    return None


def _no_url() -> str | None:
    return None


# Hears one table's game with what to say of it (`Caller.hear_table`).
TableHearer = Callable[[GameService, TableCalls], object]


@dataclass
class PhoneContext:
    """What a game's phone parts are built from; the addresses are filled in once the server
    listens, the thrower once the devices are up (parts read them when they need them)."""

    service: GameService
    settings: Settings
    headless: bool = False  # no screen: the host's desk serves, the links are printed
    instant: bool = False  # no pauses (tests, screenshots)
    base_url: str = ""
    team_url: Callable[[int], str | None] = _no_team_url
    spectator_url: Callable[[], str | None] = _no_url
    on_served: list[Callable[[], None]] = field(default_factory=list)  # the server listens
    on_thrower: list[Callable[[Thrower | None], None]] = field(default_factory=list)
    # A part that seats games of its own (a room's duel) lets the caller hear each table there
    # is and each one opened later, with what to say of it.
    on_caller: list[Callable[[TableHearer], None]] = field(default_factory=list)


@runtime_checkable
class PhoneRoom(Protocol):
    """A game's phone pages: `parts` builds what it serves for one kiosk."""

    def parts(self, seats: Seats, context: PhoneContext) -> Sequence[PhonePart]: ...
