"""What each audience may see, as JSON-ready dicts.

The views themselves are the game's (`Match.public_view`, `Match.private_view`): here they are
stamped with the game, its step (the number of commands accepted: a page keeps the newer of
two views of one game) and the page protocol's version, and the board is described for drawing.
"""

from __future__ import annotations

from typing import Any

from kiosk.board import NUMBERS, Board
from kiosk.darts.match import Match
from kiosk.geometry import (
    DOUBLE_INNER_R,
    DOUBLE_OUTER_R,
    INNER_BULL_R,
    OUTER_BULL_R,
    TRIPLE_INNER_R,
    TRIPLE_OUTER_R,
    cell_sectors,
)

PROTOCOL_VERSION = 1


def board_description(board: Board) -> dict[str, Any]:
    """The board as the page draws it and mirrors its placement rules (public, per profile)."""
    return {
        "profile": board.profile.value,
        "numbers": list(NUMBERS),
        "circular_rings": [ring.value for ring in board.circular_rings],
        "spoke_rings": [ring.value for ring in board.spoke_rings],
        "spoke_edges": [[a.value, b.value] for a, b in board.spoke_edges()],
        "radii_mm": {
            "bull": OUTER_BULL_R,
            "inner_bull": INNER_BULL_R,
            "triple_inner": TRIPLE_INNER_R,
            "triple_outer": TRIPLE_OUTER_R,
            "double_inner": DOUBLE_INNER_R,
            "double_outer": DOUBLE_OUTER_R,
        },
        "cells": [
            {
                "code": cell.code,
                "ring": cell.ring.value,
                "number": cell.number,
                "sectors": [
                    [s.r_inner, s.r_outer, s.start_deg, s.end_deg] for s in cell_sectors(cell, board)
                ],
            }
            for cell in board.cells
        ],
    }


Votes = tuple[int | None, int | None]
NO_VOTES: Votes = (None, None)


def public_view(
    match: Match, game: int, votes: Votes = NO_VOTES, paused: str | None = None
) -> dict[str, Any]:
    """What the spectators' page shows (the game's public view, stamped for the page), with
    each team's answer to an open "who was closer?" (`kiosk.darts.closer`) and, while the
    kiosk cannot save (nothing is played then), why."""
    return {
        "version": PROTOCOL_VERSION,
        "game": game,
        "step": match.version,
        "paused": paused,
        **match.public_view(),
        "closer_votes": list(votes),
    }


def team_view(
    match: Match, game: int, team: int, votes: Votes = NO_VOTES, paused: str | None = None
) -> dict[str, Any]:
    """What a team's own page shows (the game's private view of that team, stamped)."""
    return {
        "version": PROTOCOL_VERSION,
        "game": game,
        "step": match.version,
        "paused": paused,
        **match.private_view(team),
        "closer_votes": list(votes),
    }
