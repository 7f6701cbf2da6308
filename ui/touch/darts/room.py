"""The dart game's screens as the touchscreen hosts them (`ui.touch.games.TouchRoom`)."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.darts.kind import DARTS
from kiosk.darts.match import Phase
from kiosk.service import GameService
from ui.touch import theme
from ui.touch.games import StatsPage, TouchRoom


def _screens() -> Sequence[tuple[type, str]]:
    from ui.touch.darts.bull_off import BullOffScreen
    from ui.touch.darts.game import GameScreen
    from ui.touch.darts.new_game import NewGameScreen
    from ui.touch.darts.placement import PlacementScreen
    from ui.touch.darts.result import ResultScreen

    return [
        (NewGameScreen, "new_game"),
        (PlacementScreen, "placement"),
        (BullOffScreen, "bull_off"),
        (GameScreen, "game"),
        (ResultScreen, "result"),
    ]


def _flow(service: GameService) -> str | None:
    match = DARTS.in_play(service)
    if match is None:
        return None
    return {
        Phase.PLACING: "placement",
        Phase.BULL_OFF: "bull_off",
        Phase.THROWING: "game",
        Phase.TAKEOUT: "game",
        Phase.OVER: "result",
    }[match.phase]


def _stats() -> StatsPage:
    from ui.touch.darts.stats import DartStats

    return DartStats()


TOUCH = TouchRoom(
    start="new_game",
    screens=_screens,
    flow=_flow,
    results={"result": ("game",)},
    throwing=("placement", "bull_off", "game"),
    colour=theme.ACCENT,
    stats=_stats,
)
