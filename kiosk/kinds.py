"""Every kind of game the house hosts, by the name the store keeps with each game.

The kinds come from the games' rooms (`kiosk.rooms.REGISTRY`, the list in `kiosk/hosted.py`),
each imported when first needed: `dartship referee` must not pay for the dice game's odds.
"""

from __future__ import annotations

from typing import Any

from kiosk.game import GameKind
from kiosk.rooms import REGISTRY


def kind_named(name: str) -> GameKind[Any, Any, Any, Any]:
    """The kind of game stored under `name`; ValueError for a name this kiosk does not know
    (a database from a newer Dartship with a game it does not have)."""
    kind = REGISTRY.room(name).kind()
    assert isinstance(kind, GameKind) and kind.name == name
    return kind
