"""Battleship Express's screens as the touchscreen hosts them (`ui.touch.games.TouchRoom`)."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.express.wire import EXPRESS
from kiosk.service import GameService
from ui.touch import express, theme
from ui.touch.games import StatsPage, TouchRoom


def _screens() -> Sequence[tuple[type, str]]:
    return express.screens()


def _flow(service: GameService) -> str | None:
    match = EXPRESS.in_play(service)
    return express.flow_screen(match) if match is not None else None


def _stats() -> StatsPage:
    from ui.touch.express.stats import ExpressStats

    return ExpressStats()


TOUCH = TouchRoom(
    start=express.SETUP,
    screens=_screens,
    flow=_flow,
    follows=express.FLOW,
    # the table shows the last roll, then opens the result card itself
    opened_by={express.RESULT: express.TABLE},
    colour=theme.rgb("8a5cc2"),
    drafts=(express.LINEUP,),  # a line-up killed before Start comes back as it was
    stats=_stats,
)
