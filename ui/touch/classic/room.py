"""Classic 10x10's screens as the touchscreen hosts them (`ui.touch.games.TouchRoom`)."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.classic.match import Mode
from kiosk.classic.wire import CLASSIC
from kiosk.service import GameService
from ui.touch import theme
from ui.touch.games import StatsPage, TouchRoom


def _screens() -> Sequence[tuple[type, str]]:
    from ui.touch.classic.duel import ClassicDuelScreen
    from ui.touch.classic.new import ClassicNewScreen
    from ui.touch.classic.result import ClassicResultScreen
    from ui.touch.classic.solo import ClassicSoloScreen

    return [
        (ClassicNewScreen, "classic_new"),
        (ClassicSoloScreen, "classic_solo"),
        (ClassicDuelScreen, "classic_duel"),
        (ClassicResultScreen, "classic_result"),
    ]


def _flow(service: GameService) -> str | None:
    match = CLASSIC.in_play(service)
    if match is None:
        return None
    if match.winner is not None:
        return "classic_result"
    return "classic_duel" if match.setup.mode is Mode.DUEL else "classic_solo"


def _stats() -> StatsPage:
    from ui.touch.classic.stats import ClassicStats

    return ClassicStats()


TOUCH = TouchRoom(
    start="classic_new",
    screens=_screens,
    flow=_flow,
    results={"classic_result": ("classic_solo", "classic_duel")},
    colour=theme.rgb("1f7a5c"),
    stats=_stats,
)
