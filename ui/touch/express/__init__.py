"""Battleship Express on the touchscreen: setup, the lines, the table, the result card.

`SCREENS` is what the app registers (the screen classes by name); `flow_screen` says which of
them a running Express game belongs on (the app follows a game's phase with it, as it does the
dart game's, and a kiosk restarted on an Express game opens there).
"""

from __future__ import annotations

from typing import Any

from kiosk.express.match import Match, Phase

SETUP, LINEUP, TABLE, RESULT = "express_setup", "express_lineup", "express", "express_result"
FLOW = (TABLE, RESULT)  # the screens that follow a running game by themselves


def screens() -> tuple[tuple[Any, str], ...]:
    """(screen class, name) of every Express screen (imported when the app builds them)."""
    from ui.touch.express.lineup import ExpressLineupScreen
    from ui.touch.express.result import ExpressResultScreen
    from ui.touch.express.setup import ExpressSetupScreen
    from ui.touch.express.table import ExpressScreen

    return (
        (ExpressSetupScreen, SETUP),
        (ExpressLineupScreen, LINEUP),
        (ExpressScreen, TABLE),
        (ExpressResultScreen, RESULT),
    )


def flow_screen(match: Match) -> str:
    return RESULT if match.phase is Phase.OVER else TABLE
