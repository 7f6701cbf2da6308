"""What the devices tell the kiosk: immutable input events.

Reader threads (serial, GPIO) create these and hand them to the service's queue with
`loop.call_soon_threadsafe(queue.put_nowait, event)`; they never touch the match or a widget.
Each event's `to_json()` is the line `dartship board-test` prints (PROTOCOLS.md section 2).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from kiosk.board import BullZone, Cell


class Button(enum.Enum):
    NEXT = "next"
    UNDO = "undo"
    MISS = "miss"


@dataclass(frozen=True)
class Connected:
    port: str

    def to_json(self) -> dict:
        return {"event": "connected", "port": self.port}


@dataclass(frozen=True)
class Disconnected:
    """The board stopped reporting. `camera`: a camera scorer (its Board Manager stopped, or
    unreachable on the network), which has no cable to check: the screen says so in its words."""

    reason: str
    camera: bool = False

    def to_json(self) -> dict:
        return {"event": "disconnected", "reason": self.reason}


@dataclass(frozen=True)
class DartInput:
    """A dart in a cell. `zone` says which part of the bull, where the board can tell."""

    cell: Cell
    raw: str
    zone: BullZone = BullZone.OTHER

    def to_json(self) -> dict:
        return {"event": "dart", "cell": self.cell.code, "raw": self.raw}


@dataclass(frozen=True)
class MissInput:
    """The miss sensor felt a dart that closed no contact (or a MISS line/button)."""

    raw: str

    def to_json(self) -> dict:
        return {"event": "miss", "raw": self.raw}


@dataclass(frozen=True)
class CorrectInput:
    """The board changed its mind about the last dart it reported (a camera scorer that
    looks again): the game's own Correct of that dart."""

    cell: Cell
    raw: str
    zone: BullZone = BullZone.OTHER

    def to_json(self) -> dict:
        return {"event": "correct", "cell": self.cell.code, "raw": self.raw}


@dataclass(frozen=True)
class ButtonInput:
    button: Button

    def to_json(self) -> dict:
        return {"event": "button", "name": self.button.value}


@dataclass(frozen=True)
class TakeoutInput:
    """The darts the board reported are pulled out (a camera scorer sees the hand, or its visit
    falls to no darts): the end of the visit those darts went into, which the kiosk knows and
    the scorer does not (it never hears a Next tapped on a screen). Not a button: a board's Next
    button ends the visit in play, the takeout only its own darts' visit."""

    def to_json(self) -> dict:
        return {"event": "takeout"}


@dataclass(frozen=True)
class StuckInput:
    """The same contact held or repeated: counted once, reported so the owner can look."""

    cell: Cell

    def to_json(self) -> dict:
        return {"event": "stuck", "cell": self.cell.code}


@dataclass(frozen=True)
class UnmappedInput:
    raw: str

    def to_json(self) -> dict:
        return {"event": "unmapped", "raw": self.raw}


@dataclass(frozen=True)
class BadLine:
    raw: str
    reason: str = ""

    def to_json(self) -> dict:
        return {"event": "bad_line", "raw": self.raw}


@dataclass(frozen=True)
class Info:
    """Something worth telling the owner (a profile chosen because of the dialect, a HELLO)."""

    message: str

    def to_json(self) -> dict:
        return {"event": "info", "message": self.message}


@dataclass(frozen=True)
class HeldDarts(Info):
    """The board holds `cells` (oldest first) of a visit begun before the kiosk listened (a
    camera scorer the kiosk finds again after its restart): not counted, for they may have been
    counted before the restart or never. A kind of `Info`: the service tells `message` (that
    darts may be missing) unless the visit in play already counts these darts
    (`GameKind.visit_darts`)."""

    cells: tuple[Cell, ...] = ()

    def to_json(self) -> dict:
        return {"event": "held_darts", "message": self.message, "cells": [c.code for c in self.cells]}


InputEvent = (
    Connected
    | Disconnected
    | DartInput
    | MissInput
    | CorrectInput
    | ButtonInput
    | TakeoutInput
    | StuckInput
    | UnmappedInput
    | BadLine
    | Info
)
