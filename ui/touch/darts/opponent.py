"""What the screens show of the kiosk as an opponent (solo mode) and of the coach's skills.

The computer player itself lives in `kiosk.darts.solo` (no Kivy); the screens only read its public
state: its seat, whether it holds after an Undo, where its virtual darts landed.
"""

from __future__ import annotations

from typing import Any

from kiosk.darts.match import Match
from kiosk.darts.solo import SKILL_ORDER, ComputerPlayer, KioskSeat, seat_of
from kiosk.i18n import _
from kiosk.scatter import Skill

__all__ = ["SKILL_ORDER", "pins", "player", "seat", "skill_name"]


def skill_name(skill: Skill) -> str:
    return {Skill.NOVICE: _("novice"), Skill.CASUAL: _("casual"), Skill.PUB: _("pub player"),
            Skill.PRO: _("pro")}[skill]


def seat(match: Match | None) -> KioskSeat | None:
    return seat_of(match.setup) if match is not None else None


def player(app: Any, match: Match | None) -> ComputerPlayer | None:
    """The computer player of this match, if the kiosk plays in it."""
    current = app.kiosk.solo.player
    if current is None or match is None or current.match is not match:
        return None
    return current


def pins(app: Any, match: Match) -> list[tuple[float, float]]:
    """Where the kiosk's darts of the current visit landed (mm), oldest first."""
    current = player(app, match)
    if current is None:
        return []
    return [(d.landing.x, d.landing.y) for d in current.darts if d.visit == match.visits]
