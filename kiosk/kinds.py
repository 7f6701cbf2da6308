"""Every kind of game the house hosts, by the name the store keeps with each game.

Imported lazily, kind by kind: `dartship referee` must not pay for the dice game's odds.
"""

from __future__ import annotations

import importlib
from typing import Any

from kiosk.game import GameKind
from kiosk.i18n import _

# name -> "module:attribute" of its GameKind
KINDS: dict[str, str] = {
    "darts": "kiosk.darts.kind:DARTS",
    "classic": "kiosk.classic.wire:CLASSIC",
    "express": "kiosk.express.wire:EXPRESS",
}


def kind_named(name: str) -> GameKind[Any, Any, Any, Any]:
    """The kind of game stored under `name`; ValueError for a name this kiosk does not know
    (a database from a newer Dartship with a game it does not have)."""
    target = KINDS.get(name)
    if target is None:
        raise ValueError(_("unknown kind of game {name!r}").format(name=name))
    module, attribute = target.split(":")
    kind = getattr(importlib.import_module(module), attribute)
    assert isinstance(kind, GameKind)
    return kind
