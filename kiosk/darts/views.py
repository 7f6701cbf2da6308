"""What each side may see of a dart game, as JSON-ready dicts (the game's only door to hidden
information).

`public_view` is built only from public facts: the setup, the scoreboard, every shot (each dart
is announced to the whole bar) and the ships already sunk. `team_view` adds exactly one private
thing, the team's OWN fleet (and where it was hit), and is only ever shown to that team.
"""

from __future__ import annotations

from typing import Any

from kiosk.darts.fleet import Fleet
from kiosk.darts.match import Match


def _fleet_cells(fleet: Fleet | None) -> list[list[str]]:
    if fleet is None:
        return []
    return [[cell.code for cell in ship.cells] for ship in fleet.ships]


def public_view(match: Match) -> dict[str, Any]:
    state = match.state()
    rules = match.setup.rules
    return {
        "teams": [{"name": t.name, "players": list(t.players)} for t in match.teams],
        "rules": {"fleet": list(rules.fleet), "darts_per_visit": rules.darts_per_visit,
                  "board": rules.profile.value},
        "state": {
            "phase": state.phase.value,
            "team": state.team,
            # Whose visit it is, or was until the darts are out (takeout): `team` is then the
            # next one. The phones' Next is for this team.
            "turn": match.turn,
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
        # The bull-off darts of this round, where the board said they landed (the whole bar
        # watched them land), and whether the players must now say who was closer.
        "bull_off": {
            "darts": [None if zone is None else {"zone": zone.value,
                                                 "cell": cell.code if cell else None}
                      for zone, cell in zip(match.bull_off_zones(), match.bull_off_cells(),
                                            strict=True)],
            "undecided": match.bull_off_undecided,
        },
        # sunk_ships[i]: team i's OWN ships the enemy has sunk (public once sunk).
        "sunk_ships": [[[c.code for c in ship.cells] for ship in match.sunk_ships(team)]
                       for team in (0, 1)],
    }


def team_view(match: Match, team: int) -> dict[str, Any]:
    view = public_view(match)
    view["you"] = team
    view["fleet"] = _fleet_cells(match.fleet(team))
    view["damage"] = sorted(cell.code for cell in match.damage(team))
    return view
