"""What the screens show of the kiosk as an opponent (solo mode) and of the coach's skills.

The computer player itself lives in `kiosk.darts.solo` (no Kivy); the screens only read its public
state: its seat, whether it holds after an Undo, where its virtual darts landed.
"""

from __future__ import annotations

from kiosk.darts.kind import DARTS
from kiosk.darts.match import Match
from kiosk.darts.solo import SKILL_ORDER, ComputerPlayer, KioskSeat, SoloMode, seat_of
from ui.touch.phones import Names
from ui.touch.screens.base import KioskApp
from ui.touch.skills import skill_name

__all__ = ["SKILL_ORDER", "pins", "player", "seat", "skill_name"]


def seat(match: Match | None) -> KioskSeat | None:
    return seat_of(match.setup) if match is not None else None


def player(app: KioskApp, match: Match | None) -> ComputerPlayer | None:
    """The computer player of this match, if the kiosk plays in it."""
    current = app.kiosk.participant(SoloMode).player
    if current is None or match is None or current.match is not match:
        return None
    return current


def pins(app: KioskApp, match: Match) -> list[tuple[float, float]]:
    """Where the kiosk's darts of the current visit landed (mm), oldest first."""
    current = player(app, match)
    if current is None:
        return []
    return [(d.landing.x, d.landing.y) for d in current.darts if d.visit == match.visits]


def dart_teams(app: KioskApp) -> Names | None:
    """The dart game's teams (the kiosk's own team in solo has no link); None without a game."""
    match = DARTS.in_play(app.service)
    if match is None:
        return None
    kiosk = seat(match)
    return [
        None if kiosk is not None and kiosk.side == index else team.name
        for index, team in enumerate(match.teams)
    ]
