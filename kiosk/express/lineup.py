"""A game of Battleship Express as set up and laid out, before Start: the players' names, who is
the computer, the variant, the points to win, and every line as it stands (a computer's line is
None until it is laid).

The touchscreen keeps it in the store's drafts (`kiosk.store.Drafts`) at every change, so a
kiosk killed in the middle of the line-up comes back to it as it was. What is read back is
checked as a phone's `new` is: a draft that is not ours, or broken, is a `LineupError` in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.express.match import COMPUTER_LEVELS, Setup
from kiosk.express.rules import FLEET, Ship, Variant
from kiosk.express.wire import ship_from_name
from kiosk.game import RuleError
from kiosk.i18n import _

DRAFT = "express.lineup"  # its name among the store's drafts
FORMAT = 1


class LineupError(RuleError):
    """A kept line-up that cannot be laid out again; the message says why."""


@dataclass(frozen=True)
class Draft:
    """A game as set up, before its lines are laid out."""

    names: tuple[str, ...]
    computers: tuple[str | None, ...]
    variant: Variant
    points_to_win: int


@dataclass(frozen=True)
class Lineup:
    """A draft and its lines as they stand (None: a computer's line, not laid yet)."""

    draft: Draft
    lines: tuple[tuple[Ship, ...] | None, ...]

    def to_dict(self) -> dict[str, Any]:
        draft = self.draft
        return {
            "format": FORMAT,
            "players": list(draft.names),
            "computers": list(draft.computers),
            "game": draft.variant.value,
            "points_to_win": draft.points_to_win,
            "lines": [None if line is None else [ship.value for ship in line] for line in self.lines],
        }


def lineup_from_dict(data: Mapping[str, Any]) -> Lineup:
    """The line-up `to_dict` wrote; LineupError for anything else (another program's, an older
    format, a line that is no fleet, names the rules refuse)."""
    if data.get("format") != FORMAT:
        raise LineupError(_("it is not a line-up this kiosk wrote"))
    names, computers, lines = data.get("players"), data.get("computers"), data.get("lines")
    if not (isinstance(names, list) and isinstance(computers, list) and isinstance(lines, list)):
        raise LineupError(_("its players, seats or lines are missing"))
    if not all(isinstance(name, str) for name in names):
        raise LineupError(_("its players, seats or lines are missing"))
    if len(computers) != len(names) or len(lines) != len(names):
        raise LineupError(_("it has not one seat and one line for each player"))
    if any(level is not None and level not in COMPUTER_LEVELS for level in computers):
        raise LineupError(_("a computer seat has no level of the computer"))
    try:
        variant = Variant(data.get("game"))
    except ValueError:
        raise LineupError(_("its game is neither the Admiral's nor the Captain's")) from None
    points = data.get("points_to_win")
    if not isinstance(points, int) or isinstance(points, bool):
        raise LineupError(_("its points to win are no number"))
    laid = tuple(_line(line, level) for line, level in zip(lines, computers, strict=True))
    draft = Draft(tuple(names), tuple(computers), variant, points)
    # The rules' own check of the setup (names, players, points, lines), in their words.
    Setup.create(
        draft.names,
        variant=variant,
        points_to_win=points,
        lines=[line or FLEET for line in laid],
        computers=draft.computers,
        seed=0,
    )
    return Lineup(draft, laid)


def _line(value: object, level: object) -> tuple[Ship, ...] | None:
    if value is None and level is not None:
        return None  # the computer had not laid its line yet
    if not isinstance(value, list):
        raise LineupError(_("a person's line is missing"))
    line = tuple(ship_from_name(name) for name in value)
    if sorted(s.value for s in line) != sorted(s.value for s in FLEET):
        raise LineupError(_("a line is not the five ships, each once"))
    return line


def lines_of(lines: Sequence[Sequence[Ship] | None]) -> tuple[tuple[Ship, ...] | None, ...]:
    return tuple(None if line is None else tuple(line) for line in lines)
