"""The virtual thrower: a board input without a board.

It aims at a cell's centre and lands with the 2-D Gaussian scatter of `kiosk.darts.scatter` on the real
board geometry (off the board is a MISS), or takes typed cells. With an `interval` it throws by
itself (board-test, demos); otherwise the screen or a test calls `throw_at` / `enter`.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

from hardware.dialects import DIALECTS, encode
from hardware.ports import Sink, deliver
from kiosk.darts.board import Board, BullZone, Cell, CellError, Profile, board_for
from kiosk.darts.geometry import cell_centre
from kiosk.darts.scatter import SKILLS, Landing, throw
from kiosk.i18n import _
from kiosk.inputs import BadLine, Button, ButtonInput, Connected, DartInput, MissInput

log = logging.getLogger("dartship.simulator")


def sigma_for(skill: str | float) -> float:
    """Scatter in mm of a named skill (pro, pub, casual, novice) or a number of mm."""
    if isinstance(skill, int | float):
        return float(skill)
    try:
        return SKILLS[str(skill).lower()]
    except KeyError:
        raise ValueError(_("unknown skill {skill!r}: use one of {names}").format(
            skill=skill, names=", ".join(SKILLS))) from None


class VirtualThrower:
    """Throws like a person of a given skill: aim at a cell, land somewhere near it."""

    def __init__(self, board: Board, skill: str | float = "pub",
                 rng: random.Random | None = None) -> None:
        self.board = board
        self.sigma = sigma_for(skill)
        self.rng = rng or random.Random()

    def throw_at(self, cell: Cell) -> Landing:
        aim = cell_centre(cell, self.board) if cell.on_board else (0.0, 200.0)
        return throw(self.board, aim, self.sigma, self.rng)

    def pick_target(self) -> Cell:
        return self.rng.choice(self.board.cells)


def spelling(landing_cell: Cell, zone: BullZone) -> str:
    """The raw text a dartship board would send for this landing (DB/SB for the bull)."""
    return encode(DIALECTS["dartship"], landing_cell, zone)


class SimulatedBoard:
    """The simulator as a board input: same events as a real board, from the virtual thrower."""

    def __init__(self, sink: Sink, *, profile: Profile = Profile.FOUR_RING,
                 skill: str | float = "pub", rng: random.Random | None = None,
                 interval: float | None = None, count: int | None = None) -> None:
        self.sink = sink
        self.board = board_for(profile)
        self.thrower = VirtualThrower(self.board, skill, rng)
        self.interval = interval
        self.count = count
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def name(self) -> str:
        return _("simulator ({skill:.0f} mm scatter)").format(skill=self.thrower.sigma)

    def start(self) -> None:
        deliver(self.sink, Connected(self.name))
        if self.interval is not None and self._thread is None:
            self._stopping.clear()
            self._thread = threading.Thread(target=self._run, name="dartship-simulator",
                                            daemon=True)
            self._thread.start()

    def _run(self) -> None:
        thrown = 0
        while not self._stopping.wait(self.interval or 0):
            self.throw_at(self.thrower.pick_target())
            thrown += 1
            if self.count is not None and thrown >= self.count:
                return

    def throw_at(self, target: Cell | str) -> Landing | None:
        """Throw at a cell with the thrower's scatter; the board registers where it lands."""
        if isinstance(target, str):
            try:
                target = self.board.parse(target)
            except CellError as err:
                deliver(self.sink, BadLine(str(target), str(err)))
                return None
        landing = self.thrower.throw_at(target)
        raw = spelling(landing.cell, landing.zone)
        log.debug("aimed at %s, landed at (%.0f, %.0f) mm: %s", target, landing.x, landing.y, raw)
        if landing.cell.on_board:
            deliver(self.sink, DartInput(landing.cell, raw, landing.zone))
        else:
            deliver(self.sink, MissInput(raw))
        return landing

    def enter(self, text: str) -> Any:
        """A typed cell, as if the dart had landed exactly there (`T20`, `DB`, `MISS`)."""
        try:
            cell = self.board.parse(text)
        except CellError as err:
            event: Any = BadLine(text, str(err))
        else:
            from kiosk.darts.board import bull_zone
            event = (DartInput(cell, text.strip().upper(), bull_zone(text, cell))
                     if cell.on_board else MissInput(text.strip().upper()))
        deliver(self.sink, event)
        return event

    def press(self, button: Button | str) -> None:
        deliver(self.sink, ButtonInput(Button(button) if isinstance(button, str) else button))

    def stop(self, timeout: float = 2.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
