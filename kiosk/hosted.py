"""The games this kiosk hosts, in the order Home offers them: THE one list a new game extends.

Each entry is a game's name (the one the store keeps with each of its games) and the module of
its room (`kiosk/<game>/room.py`, whose `ROOM` says everything else: its kind, participants,
line protocol, screens, phone routes and Stats page; see docs/design.md, "Adding a game").
Only names: nothing is imported until a game is first needed, so `dartship referee` never pays
for the dice game's odds. This module imports nothing of the house, so that the core's lowest
floors (the store's kinds, the config's checks) can find a room without an import circle.
"""

from __future__ import annotations

import importlib

from kiosk.i18n import _

HOSTED: dict[str, str] = {
    "darts": "kiosk.darts.room",
    "classic": "kiosk.classic.room",
    "express": "kiosk.express.room",
}


def room(name: str) -> object:
    """The `ROOM` of the game hosted under `name`, imported now (`kiosk.rooms.REGISTRY` checks
    and types it); ValueError for a name this kiosk does not host (a database from a newer
    Dartship with a game it does not have)."""
    module = HOSTED.get(name)
    if module is None:
        raise ValueError(_("unknown kind of game {name!r}").format(name=name))
    return importlib.import_module(module).ROOM
