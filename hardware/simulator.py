"""The virtual thrower: a board input without a board.

The one simulator (the touchscreen, `board-test`, `fake-board` and the tests all use it): it
aims at a cell's centre and lands with the 2-D Gaussian scatter of `kiosk.scatter` on the
real board geometry (off the board is a MISS), takes taps and typed cells. With an `interval` it
throws by itself (board-test, demos); otherwise the screen or a test calls it.
"""

from __future__ import annotations

import logging
import random
import threading

from hardware.dialects import DIALECTS, encode
from hardware.sink import deliver
from kiosk.board import BULL, Board, BullZone, Cell, CellError, Profile, board_for, bull_zone
from kiosk.geometry import cell_centre
from kiosk.i18n import _
from kiosk.inputs import Button, ButtonInput, Connected, DartInput, MissInput
from kiosk.ports import Sink
from kiosk.scatter import Landing, Skill, sigma_for, throw

log = logging.getLogger("dartship.simulator")

MISS_AIM = (0.0, 260.0)  # mm from the centre: beyond the double ring (170 mm), off the board


class VirtualThrower:
    """Throws like a person of a given skill: aim at a cell, land somewhere near it."""

    def __init__(
        self, board: Board, skill: Skill | str | float = Skill.PUB, rng: random.Random | None = None
    ) -> None:
        self.board = board
        self.sigma = sigma_for(skill)
        self.rng = rng or random.Random()

    def throw_at(self, cell: Cell) -> Landing:
        # MISS: aim well off the board (a throw "at nothing" must not land at the bull).
        aim = cell_centre(cell, self.board) if cell.on_board else MISS_AIM
        return throw(self.board, aim, self.sigma, self.rng)

    def pick_target(self) -> Cell:
        return self.rng.choice(self.board.cells)


def spelling(landing_cell: Cell, zone: BullZone) -> str:
    """The raw text a dartship board would send for this landing (DB/SB for the bull)."""
    return encode(DIALECTS["dartship"], landing_cell, zone)


class SimulatedBoard:
    """The simulator as a board input (`kiosk.ports.Thrower`): the same events as a real board,
    from taps, typed cells and the virtual thrower."""

    def __init__(
        self,
        sink: Sink,
        *,
        profile: Profile = Profile.FOUR_RING,
        skill: Skill | str | float = Skill.PUB,
        rng: random.Random | None = None,
        interval: float | None = None,
        count: int | None = None,
    ) -> None:
        self.sink = sink
        self.board = board_for(profile)
        self._skill = (
            skill if isinstance(skill, Skill) else Skill.parse(skill) if isinstance(skill, str) else Skill.PUB
        )
        self.thrower = VirtualThrower(self.board, skill, rng)
        self.interval = interval
        self.count = count
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def profile(self) -> Profile:
        return self.board.profile

    rings_told = True  # what it reports is known from the start
    takes_out = False  # Next (a tap, the board's button) ends a visit

    @property
    def skill(self) -> Skill:
        return self._skill

    @skill.setter
    def skill(self, skill: Skill) -> None:
        """A new skill from Settings: the next throw already scatters like it."""
        self._skill = skill
        self.thrower.sigma = skill.sigma

    @property
    def name(self) -> str:
        return _("simulator ({skill:.0f} mm scatter)").format(skill=self.thrower.sigma)

    def start(self) -> None:
        deliver(self.sink, Connected(self.name))
        if self.interval is not None and self._thread is None:
            self._stopping.clear()
            self._thread = threading.Thread(target=self._run, name="dartship-simulator", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        thrown = 0
        while not self._stopping.wait(self.interval or 0):
            self.throw_at(self.thrower.pick_target())
            thrown += 1
            if self.count is not None and thrown >= self.count:
                return

    def throw_at(self, target: Cell) -> Landing:
        """Throw at a cell with the thrower's scatter; the board registers where it lands."""
        landing = self.thrower.throw_at(target)
        raw = spelling(landing.cell, landing.zone)
        log.debug("aimed at %s, landed at (%.0f, %.0f) mm: %s", target, landing.x, landing.y, raw)
        if landing.cell.on_board:
            deliver(self.sink, DartInput(landing.cell, raw, landing.zone))
        else:
            deliver(self.sink, MissInput(raw))
        return landing

    def land(self, cell: Cell, raw: str = "tap", zone: BullZone | None = None) -> None:
        """A dart exactly in `cell` (a tap on the drawn board); `zone` says which part of the
        bull was tapped, where the screen can tell."""
        if not cell.on_board:
            deliver(self.sink, MissInput(raw))
            return
        deliver(self.sink, DartInput(cell, raw, zone or (BullZone.BULL if cell == BULL else BullZone.OTHER)))

    def enter(self, text: str) -> str | None:
        """A typed cell, as if the dart had landed exactly there (`T20`, `DB`, `MISS`); returns
        the message for a token that is not a cell (and delivers nothing then)."""
        try:
            cell = self.board.parse(text)
        except CellError as err:
            return str(err)
        raw = text.strip().upper()
        if cell.on_board:
            deliver(self.sink, DartInput(cell, raw, bull_zone(text, cell)))
        else:
            deliver(self.sink, MissInput(raw))
        return None

    def press(self, button: Button) -> None:
        deliver(self.sink, ButtonInput(button))

    def stop(self, timeout: float = 2.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
