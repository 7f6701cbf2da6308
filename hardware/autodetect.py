"""`dialect = "auto"`: tell a serial board's dialect and speed from its first lines.

Pure (the serial reader owns the port and the clock). Speeds are tried in order, 115200 then
9600: bytes that are no text at all (what a line sent at another speed turns into) move on to
the next speed. A line that is text is read by every dialect: those that know it stay in the
running, and the first line only one dialect knows decides (`20x3` is `x`, `320` `numeric`,
`_40` `x` too: an unused spot is a sign as good as a dart). A line that several dialects read
alike (`miss`) is passed on as it reads while the choice stays open; one they read differently
is held back, never guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hardware.boardmap import BoardMap
from hardware.dialects import DIALECTS, Dialect, effective_profile, read_line
from kiosk.board import Board, Profile, board_for
from kiosk.i18n import _
from kiosk.inputs import BadLine, InputEvent

BAUDS = (115200, 9600)


@dataclass(frozen=True)
class Reading:
    """What one line told: the dialect when it decided, the event to pass on, a baud to try."""

    found: Dialect | None = None
    event: InputEvent | None = None
    next_baud: int | None = None


class Detector:
    def __init__(
        self,
        profile: Profile,
        board_map: BoardMap | None = None,
        bauds: Sequence[int] = BAUDS,
        dialects: Sequence[Dialect] | None = None,
    ) -> None:
        self.profile = profile
        self.board_map = board_map
        self.bauds = tuple(bauds)
        self._index = 0
        self.baud_known = len(self.bauds) == 1
        self.dialects = tuple(dialects if dialects is not None else DIALECTS.values())
        self._boards = {d.name: board_for(effective_profile(d, profile, board_map)[0]) for d in self.dialects}
        self._candidates: tuple[Dialect, ...] = self.dialects

    def use_map(self, board_map: BoardMap | None) -> None:
        """A new board map (Learn board saved one): the dialects' boards follow its profile."""
        self.board_map = board_map
        self._boards = {
            d.name: board_for(effective_profile(d, self.profile, board_map)[0]) for d in self.dialects
        }

    @property
    def baud(self) -> int:
        return self.bauds[self._index]

    def board(self, chosen: Dialect) -> Board:
        return self._boards[chosen.name]

    def unreadable(self, bad: BadLine) -> Reading:
        """Bytes that are no text: at an unknown speed, the next speed is tried."""
        if self.baud_known:
            return Reading(event=bad)
        self._index = (self._index + 1) % len(self.bauds)
        return Reading(next_baud=self.baud)

    def line(self, text: str) -> Reading:
        """One decoded line (text) while the dialect is still open."""
        knowing = tuple(d for d in self.dialects if d.recognises(text, self.board(d), self.board_map))
        if not knowing:
            if not text or text.startswith("#"):
                return Reading()
            return Reading(event=BadLine(text, _("no dialect reads this line")))
        self.baud_known = True  # text that a firmware prints: the speed is right
        narrowed = tuple(d for d in self._candidates if d in knowing) or knowing
        self._candidates = narrowed
        readings = [read_line(d, text, self.board(d), self.board_map) for d in narrowed]
        if len(narrowed) == 1:
            return Reading(found=narrowed[0], event=readings[0])
        if all(r == readings[0] for r in readings):
            return Reading(event=readings[0])
        return Reading()

    @property
    def candidates(self) -> tuple[str, ...]:
        return tuple(d.name for d in self._candidates)
