"""The games on the touchscreen, found through the registry: each hosted game's `TouchRoom`
(`ui/touch/<game>/room.py`, named by its `kiosk.rooms.Room`) says its start screen, its screens,
the screen a running game of its kind belongs on, its result cards and its Stats page. Home shows
a game once its start screen is among the app's screens, so a game whose screens are not built
simply does not appear (no placeholder). This module names no game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from kiosk.rooms import Room, load
from kiosk.service import GameService
from ui.touch import theme

if TYPE_CHECKING:
    from kivy.uix.widget import Widget

    from kiosk.store import Store

ScreenList = Callable[[], Sequence[tuple[type, str]]]


def _no_screens() -> Sequence[tuple[type, str]]:
    return ()


def _no_flow(_service: GameService) -> str | None:
    return None


class StatsPage(Protocol):
    """A game's page on the Stats screen: its columns (built once), filled from the store."""

    def columns(self) -> Sequence[Widget]: ...

    def fill(self, store: Store) -> None: ...


@dataclass(frozen=True)
class TouchRoom:
    """A game's screens, as the shell's app and Home and Stats find them."""

    start: str  # the screen that starts a game of it
    screens: ScreenList = _no_screens
    flow: Callable[[GameService], str | None] = _no_flow  # None: no game of this kind runs
    # The screens that follow a running game by themselves (None: all but the start screen);
    # a game set up over several screens before it starts leaves those out.
    follows: tuple[str, ...] | None = None
    # A result card -> the screens whose last shot stays a moment before the card comes.
    results: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # A result card -> the screen that opens it itself, once it has shown the last roll.
    opened_by: Mapping[str, str] = field(default_factory=dict)
    throwing: tuple[str, ...] = ()  # where darts are thrown: the SIMULATOR badge shows there
    # The screens that lay out a game set up but not started, kept in the store's drafts, when
    # the kiosk starts again (each screen's `resume_draft() -> bool`: True when it did).
    drafts: tuple[str, ...] = ()
    colour: tuple[float, float, float, float] = theme.ACCENT  # its button on Home
    stats: Callable[[], StatsPage] | None = None  # its Stats page


@dataclass(frozen=True)
class Game:
    """A hosted game with its screens: the room (name, title) and its touch room."""

    room: Room
    touch: TouchRoom

    @property
    def kind(self) -> str:
        return self.room.name

    @property
    def start(self) -> str:
        return self.touch.start

    def title(self) -> str:
        return self.room.title()

    def subtitle(self) -> str:
        return self.room.subtitle()


def games(rooms: Sequence[Room]) -> tuple[Game, ...]:
    """The games of these rooms that have touch screens, in the registry's order."""
    found = []
    for room in rooms:
        if room.touch is not None:
            touch = load(room.touch)
            assert isinstance(touch, TouchRoom), f"{room.touch} is no TouchRoom"
            found.append(Game(room, touch))
    return tuple(found)


def flow_screen(hosted: Sequence[Game], service: GameService) -> str | None:
    """The screen the service's running game belongs on, whatever its kind."""
    kind = service.kind.name if service.kind is not None else None
    for game in hosted:
        if game.kind == kind:
            return game.touch.flow(service)
    return None


def flow_screens(hosted: Sequence[Game]) -> tuple[str, ...]:
    """Every screen that follows a running game by itself (all but a game's start screen)."""
    return tuple(
        name
        for game in hosted
        for name in (
            game.touch.follows
            if game.touch.follows is not None
            else [n for _cls, n in game.touch.screens() if n != game.start]
        )
    )


def offered(hosted: Sequence[Game], has_screen: Callable[[str], bool]) -> list[Game]:
    """The games Home offers: those whose start screen the app has."""
    return [game for game in hosted if has_screen(game.start)]


def screens(hosted: Sequence[Game]) -> list[tuple[type, str]]:
    return [entry for game in hosted for entry in game.touch.screens()]


def results(hosted: Sequence[Game]) -> dict[str, tuple[str, ...]]:
    return {card: before for game in hosted for card, before in game.touch.results.items()}


def opened_by(hosted: Sequence[Game]) -> dict[str, str]:
    return {card: screen for game in hosted for card, screen in game.touch.opened_by.items()}


def draft_screens(hosted: Sequence[Game]) -> tuple[str, ...]:
    return tuple(name for game in hosted for name in game.touch.drafts)


def throwing(hosted: Sequence[Game]) -> frozenset[str]:
    return frozenset(name for game in hosted for name in game.touch.throwing)
