"""What each audience may see, as JSON-ready dicts.

`public_view` is built only from public facts: the setup, the scoreboard, every shot (each dart
is announced to the whole bar) and the ships already sunk. `team_view` adds exactly one private
thing, the team's OWN fleet, and is only ever sent to the holder of that team's token.
"""

from __future__ import annotations

from typing import Any

from kiosk.darts.board import NUMBERS, Board
from kiosk.darts.fleet import Fleet
from kiosk.darts.geometry import (
    DOUBLE_INNER_R,
    DOUBLE_OUTER_R,
    OUTER_BULL_R,
    TRIPLE_INNER_R,
    TRIPLE_OUTER_R,
    cell_sectors,
)
from kiosk.darts.match import Match

PROTOCOL_VERSION = 1


def board_description(board: Board) -> dict[str, Any]:
    """The board as the page draws it and mirrors its placement rules (public, per profile)."""
    return {
        "profile": board.profile.value,
        "numbers": list(NUMBERS),
        "circular_rings": [ring.value for ring in board.circular_rings],
        "spoke_rings": [ring.value for ring in board.spoke_rings],
        "spoke_edges": [[a.value, b.value] for a, b in board.spoke_edges()],
        "radii_mm": {"bull": OUTER_BULL_R, "triple_inner": TRIPLE_INNER_R,
                     "triple_outer": TRIPLE_OUTER_R, "double_inner": DOUBLE_INNER_R,
                     "double_outer": DOUBLE_OUTER_R},
        "cells": [
            {"code": cell.code, "ring": cell.ring.value, "number": cell.number,
             "sectors": [[s.r_inner, s.r_outer, s.start_deg, s.end_deg]
                         for s in cell_sectors(cell, board)]}
            for cell in board.cells
        ],
    }


def _fleet_cells(fleet: Fleet | None) -> list[list[str]]:
    if fleet is None:
        return []
    return [[cell.code for cell in ship.cells] for ship in fleet.ships]


def public_view(match: Match, game: int) -> dict[str, Any]:
    state = match.state()
    rules = match.setup.rules
    return {
        "version": PROTOCOL_VERSION,
        "game": game,
        "teams": [{"name": t.name, "players": list(t.players)} for t in match.teams],
        "rules": {"fleet": list(rules.fleet), "darts_per_visit": rules.darts_per_visit,
                  "board": rules.profile.value},
        "state": {
            "phase": state.phase.value,
            "team": state.team,
            "player": state.player,
            "dart": state.dart,
            "visit": state.visit,
            "winner": state.winner,
            "placed": list(state.placed),
            "darts": list(state.darts),
            "hits": list(state.hits),
            "sunk": [list(lengths) for lengths in state.sunk],
        },
        # shots[i]: team i's shots at the other team's board.
        "shots": [{cell.code: result.value for cell, result in match.shots(team).items()}
                  for team in (0, 1)],
        # sunk_ships[i]: team i's OWN ships the enemy has sunk (public once sunk).
        "sunk_ships": [[[c.code for c in ship.cells] for ship in match.sunk_ships(team)]
                       for team in (0, 1)],
    }


def team_view(match: Match, game: int, team: int) -> dict[str, Any]:
    view = public_view(match, game)
    view["you"] = team
    view["fleet"] = _fleet_cells(match.fleet(team))
    view["damage"] = sorted(cell.code for cell in match.damage(team))
    return view
