"""Real dice typed in survive a restart.

With real dice the screen collects the faces of an attack roll by roll and sends them, with the
attack, once the rules say the attack is decided (`QueueDice` + `Attack`): until then they are
the players' answers, not yet the game's. A power cut halfway through an attack must not lose
them (the dice of the first rolls are picked up and thrown again): every face tapped is kept in
the store's meta with the attack it belongs to and the game's version it was typed at, and the
screen of a restarted kiosk asks for the next face where it stopped.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass

from kiosk.express.match import Attack, Declare
from kiosk.express.rules import Face
from kiosk.express.wire import command_from_dict, command_to_dict, face_from_name
from kiosk.game import RuleError
from kiosk.store import Store, StoreError

log = logging.getLogger(__name__)
KEY = "express.typed_dice"
REAL_ON = "express.real_dice"  # "on" while the table plays with its own dice


@dataclass(frozen=True)
class Typed:
    """The faces typed in for `command` of `game`, while the game stood at `version`."""

    game: int
    version: int
    command: Attack | Declare
    faces: tuple[Face, ...]


def keep(store: Store | None, typed: Typed | None) -> None:
    """Keep what is typed in (None: nothing is, any more). A store that cannot write is said
    in the journal; the taps still count until the kiosk stops."""
    if store is None:
        return
    value = ""
    if typed is not None:
        value = json.dumps(
            {
                "game": typed.game,
                "version": typed.version,
                "command": command_to_dict(typed.command),
                "faces": [face.value for face in typed.faces],
            }
        )
    try:
        store.meta.remember(KEY, value)
    except (sqlite3.Error, OSError, StoreError) as err:
        log.warning("the real dice typed in could not be kept (%s)", err)


def recall(store: Store | None, game: int | None, version: int) -> Typed | None:
    """What was typed in for this game at this version before the kiosk started again; None
    when nothing was, or it was for another game or an earlier point of this one."""
    if store is None or game is None:
        return None
    try:
        kept = store.meta.recall(KEY)
    except (sqlite3.Error, StoreError) as err:
        log.warning("the real dice typed in could not be read back (%s)", err)
        return None
    if not kept:
        return None
    try:
        data = json.loads(kept)
        if data["game"] != game or data["version"] != version:
            return None
        command = command_from_dict(data["command"])
        faces = tuple(face_from_name(name) for name in data["faces"])
    except (ValueError, TypeError, KeyError, RuleError):
        return None  # not what we write: nothing typed in
    if not isinstance(command, Attack | Declare):
        return None
    return Typed(game, version, command, faces)


def keep_real_on(store: Store | None, on: bool) -> None:
    """Keep whether the table rolls its own dice: a kiosk killed after an attack typed in and
    sent came back with real dice off, and the next Roll threw the kiosk's dice at a table that
    had its own in hand."""
    if store is None:
        return
    try:
        store.meta.remember(REAL_ON, "on" if on else "")
    except (sqlite3.Error, OSError, StoreError) as err:
        log.warning("real dice on or off could not be kept (%s)", err)


def real_on(store: Store | None) -> bool:
    """Whether the table rolled its own dice when the kiosk stopped."""
    if store is None:
        return False
    try:
        return store.meta.recall(REAL_ON) == "on"
    except (sqlite3.Error, StoreError) as err:
        log.warning("real dice on or off could not be read back (%s)", err)
        return False
