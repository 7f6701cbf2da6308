"""Every kind of game the house hosts, by the name the store keeps with each game.

The kinds come from the games' rooms (the list in `kiosk/hosted.py`), each imported when first
needed: `dartship referee` must not pay for the dice game's odds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from kiosk import hosted
from kiosk.game import GameKind


@runtime_checkable
class _Hosts(Protocol):
    """What the store needs of a room: its kind (`kiosk.rooms.Room`)."""

    @property
    def kind(self) -> Callable[[], GameKind[Any, Any, Any, Any]]: ...


def kind_named(name: str) -> GameKind[Any, Any, Any, Any]:
    """The kind of game stored under `name`; ValueError for a name this kiosk does not know
    (a database from a newer Dartship with a game it does not have)."""
    room = hosted.room(name)
    assert isinstance(room, _Hosts)
    kind = room.kind()
    assert isinstance(kind, GameKind) and kind.name == name
    return kind
