"""A game is a room that registers itself (Mopidy's `Extension.setup(registry)` in spirit).

Each game has one `Room` (`kiosk/<game>/room.py`): its kind (rules, wire, replay: the
`GameKind`), its participants (computer seats, timers: built once by the composition root and
attached by the service only while a game of this kind is in play), its line protocol
(`dartship <command>`), and where its touch screens and phone routes are registered (the ui
floors load those; the core never imports them). The registry finds a room by its name from
`kiosk/hosted.py`, the one list of games. The shared floors loop over `REGISTRY` and name no game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kiosk.i18n import _, joined

if TYPE_CHECKING:  # asyncio too: a line protocol's first answer never waits for its import
    import argparse
    import asyncio

    from kiosk.config import ConfigFile, Settings
    from kiosk.game import GameKind
    from kiosk.service import GameService, ServiceListener


@dataclass(frozen=True)
class Seating:
    """What a room's participants are built from, once, by the composition root."""

    service: GameService
    loop: asyncio.AbstractEventLoop
    config: ConfigFile
    rng: random.Random  # the participant's own (drawn from the service's)
    headless: bool = False  # no screen: phones only (nobody presses Next on a touchscreen)
    instant: bool = False  # no pauses (the screenshots and touchscreen tests)


@dataclass(frozen=True)
class LineProtocol:
    """A game's JSON line protocol as a `dartship` subcommand."""

    command: str  # `dartship <command>`
    help: Callable[[], str]
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def _no_participants(_seating: Seating) -> Sequence[ServiceListener]:
    return ()


def _no_checks() -> Mapping[str, Callable[[object], str | None]]:
    return {}


def _no_problems(_settings: Settings, _keys: frozenset[str]) -> Sequence[tuple[str, str]]:
    return ()


def _nothing_to_mend(_service: GameService, _rng: random.Random) -> None:
    return None


@dataclass(frozen=True)
class Room:
    """One game as the house hosts it."""

    name: str  # the store's name of its kind of game
    title: Callable[[], str]  # its name on Home and Stats, in the kiosk's language
    subtitle: Callable[[], str]
    kind: Callable[[], GameKind[Any, Any, Any, Any]]  # imported when first needed
    participants: Callable[[Seating], Sequence[ServiceListener]] = _no_participants
    # After a power cut: what a resumed game of this kind needs before play goes on.
    resumed: Callable[[GameService, random.Random], None] = _nothing_to_mend
    line: LineProtocol | None = None
    # Its settings: a message for a bad value of a key it judges (`rules.fleet`), and what no
    # key shows alone (key, message), for the config's checks.
    setting_checks: Callable[[], Mapping[str, Callable[[object], str | None]]] = _no_checks
    settings_problems: Callable[[Settings, frozenset[str]], Sequence[tuple[str, str]]] = _no_problems
    # "module:attribute" of its touch screens (a ui.touch TouchRoom) and its phone routes (a
    # ui.handheld PhoneRoom): the ui floors load them, the core only names where they are.
    touch: str | None = None
    phones: str | None = None


class Registry:
    """The hosted games' rooms by name, each imported when first asked for."""

    def __init__(self, hosted: dict[str, str]) -> None:
        self._hosted = dict(hosted)
        self._rooms: dict[str, Room] = {}

    def names(self) -> tuple[str, ...]:
        return tuple(self._hosted)

    def room(self, name: str) -> Room:
        """The room of the game stored under `name`; ValueError for a name this kiosk does not
        host (a database from a newer Dartship with a game it does not have)."""
        room = self._rooms.get(name)
        if room is not None:
            return room
        if name not in self._hosted:
            raise ValueError(_("unknown kind of game {name!r}").format(name=name))
        found = importlib.import_module(self._hosted[name]).ROOM
        if not isinstance(found, Room) or found.name != name:
            raise ValueError(f"{self._hosted[name]}.ROOM is not the room of {name!r}")
        self._rooms[name] = found
        return found

    def rooms(self) -> tuple[Room, ...]:
        """Every hosted room, in the order Home offers them."""
        return tuple(self.room(name) for name in self._hosted)


def load(target: str) -> object:
    """The object a room names by "module:attribute" (its touch screens, its phone routes)."""
    module, attribute = target.split(":")
    return getattr(importlib.import_module(module), attribute)


def _registry() -> Registry:
    from kiosk.hosted import HOSTED

    return Registry(HOSTED)


REGISTRY = _registry()


def in_play(service: GameService) -> str | None:
    """What a new game would end, as every front end asks it ("Dart game in play: Sharks v
    Jets"), or None when the service has no unfinished game (a new one then asks nothing)."""
    match, kind = service.match, service.kind
    if match is None or kind is None or match.outcome().over:
        return None
    try:
        title = REGISTRY.room(kind.name).title()
    except ValueError:
        title = kind.name
    sides = kind.side_names(match.setup)
    if not sides:
        return _("{game} in play").format(game=title)
    return _("{game} in play: {sides}").format(game=title, sides=joined(sides, _(" v ")))


def start_over_question() -> str:
    """The question before a new game over one in play (the touchscreen's and the host's)."""
    return _("Start a new game? The one in play ends with no winner.")
