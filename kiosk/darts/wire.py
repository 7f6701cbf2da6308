"""The JSON shapes of commands, events, setups and states (PROTOCOLS.md section 3).

One place turns the match's values into plain dicts and back, for the referee, the store and
the phones. Events carry only public information: a ship's cells appear only once it is sunk.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.board import BullZone, Profile, board_for, bull_zone
from kiosk.darts.fleet import Ship, fleet_problem, parse_fleet, parse_lengths
from kiosk.darts.match import (
    BullOffAgain,
    BullOffCloser,
    BullOffDart,
    BullOffMode,
    BullOffThrown,
    BullOffUndecided,
    Command,
    Correct,
    Corrected,
    DartThrown,
    Event,
    HouseRules,
    Ignored,
    KioskSeat,
    Match,
    Next,
    Place,
    Placed,
    RuleError,
    Setup,
    Start,
    TakeoutNeeded,
    Team,
    Throw,
    Undo,
    Undone,
    Unplace,
    Unplaced,
    VisitStarted,
    Won,
)
from kiosk.i18n import _, said_of
from kiosk.lines import WireError, name_list, require
from kiosk.scatter import Skill


def _sunk(event_dict: dict[str, Any], ship: Ship | None) -> dict[str, Any]:
    if ship is not None:
        event_dict["ship"] = ship.length
        event_dict["cells"] = [c.code for c in ship.cells]
    return event_dict


def event_to_dict(event: Event, *, detail: bool = False) -> dict[str, Any]:
    """The protocol's JSON of an event; `detail` adds what the protocol leaves out (padded misses)."""
    if detail and isinstance(event, DartThrown) and event.padded:
        return {**event_to_dict(event), "padded": True}
    match event:
        case Placed(team):
            return {"event": "placed", "team": team}
        case Unplaced(team):
            return {"event": "unplaced", "team": team}
        case VisitStarted(team, player, _visit):
            return {"event": "visit", "team": team, "player": player}
        case DartThrown(team, player, dart, cell, result, ship, _padded):
            return _sunk(
                {
                    "event": "dart",
                    "team": team,
                    "player": player,
                    "dart": dart,
                    "cell": cell.code,
                    "result": result.value,
                },
                ship,
            )
        case Won(team):
            return {"event": "win", "team": team}
        case TakeoutNeeded(team):
            return {"event": "takeout", "team": team}
        case Ignored(reason):
            return {"event": "ignored", "reason": reason}
        case Undone(cell):
            return {"event": "undone", "cell": cell.code}
        case Corrected(old, new, result, ship):
            return _sunk(
                {"event": "corrected", "from": old.code, "to": new.code, "result": result.value}, ship
            )
        case BullOffThrown(team, zone, cell):
            return {
                "event": "bull_off",
                "team": team,
                "zone": zone.value,
                **({"cell": cell.code} if cell is not None else {}),
            }
        case BullOffUndecided():
            return {"event": "bull_off_undecided"}
        case BullOffAgain():
            return {"event": "bull_off_again"}
    raise TypeError(f"not an event: {event!r}")


def state_to_dict(match: Match) -> dict[str, Any]:
    state = match.state()
    return {
        "event": "state",
        "phase": state.phase.value,
        "team": state.side,
        "player": state.player,
        "dart": state.dart,
        "sunk": [list(s) for s in state.sunk],
        "darts": list(state.darts),
        "hits": list(state.hits),
        "winner": state.winner,
    }


def _team(obj: Mapping[str, Any], key: str = "team") -> int:
    team = require(obj, key, int)
    if isinstance(team, bool) or team not in (0, 1):
        raise WireError(_("{key!r} must be 0 or 1").format(key=key))
    return team


def setup_from_dict(obj: Mapping[str, Any], defaults: HouseRules | None = None) -> Setup:
    """A new game from the referee's `new` command (every key but `teams` optional)."""
    defaults = defaults or HouseRules()
    names = name_list(require(obj, "teams", list), "teams")
    if len(names) != 2:
        raise WireError(_("'teams' must be two team names"))
    if len(set(names)) != 2:
        raise WireError(_("the two teams need different names"))
    given = obj.get("players")
    if given is not None and (
        not isinstance(given, list) or len(given) != 2 or not all(isinstance(p, list) and p for p in given)
    ):
        raise WireError(_("'players' must be two non-empty lists of names"))
    players = [[n] for n in names] if given is None else [name_list(p, "players") for p in given]
    for team_players in players:
        if len(set(team_players)) != len(team_players):
            raise WireError(_("a team names the same player twice"))
    try:
        fleet = parse_lengths(obj["fleet"]) if "fleet" in obj else defaults.fleet
        darts = obj.get("darts_per_visit", defaults.darts_per_visit)
        if type(darts) is not int or not 1 <= darts <= 9:
            raise WireError(_("'darts_per_visit' must be a whole number 1 to 9"))
        profile = Profile.parse(obj["board"]) if "board" in obj else defaults.profile
        bull_off = defaults.bull_off
        if "bull_off" in obj:
            try:
                bull_off = BullOffMode(obj["bull_off"])
            except ValueError:
                raise WireError(_("'bull_off' must be normal, official or off")) from None
    except ValueError as err:
        raise WireError(said_of(err)) from None
    unplayable = fleet_problem(board_for(profile), tuple(sorted(fleet)))
    if unplayable is not None:
        raise WireError(unplayable)
    teams = tuple(Team(name, tuple(ps)) for name, ps in zip(names, players, strict=True))
    return Setup(
        teams,  # type: ignore[arg-type]
        HouseRules(fleet, darts, bull_off, profile),
        _computer(obj.get("computer")),
    )


def _computer(value: object) -> KioskSeat | None:
    """Solo mode: {"team": 1, "skill": "pub"} names the team the kiosk plays."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise WireError(_('\'computer\' must be like {"team": 1, "skill": "pub"}'))
    team = _team(value)
    skill = value.get("skill")
    if skill not in {s.value for s in Skill}:
        raise WireError(_("'skill' must be one of {skills}").format(skills=", ".join(s.value for s in Skill)))
    return KioskSeat(team, Skill(skill))


def setup_to_dict(setup: Setup) -> dict[str, Any]:
    rules = setup.rules
    return {
        "teams": [t.name for t in setup.teams],
        "players": [list(t.players) for t in setup.teams],
        "fleet": list(rules.fleet),
        "darts_per_visit": rules.darts_per_visit,
        "bull_off": rules.bull_off.value,
        "board": rules.profile.value,
        **(
            {"computer": {"team": setup.computer.side, "skill": setup.computer.skill.value}}
            if setup.computer
            else {}
        ),
    }


def command_from_dict(obj: Mapping[str, Any], rules: HouseRules) -> Command:
    """A match command from JSON (not `new`, `random_fleet` or `state`: the caller handles those)."""
    name = obj.get("cmd")
    board = rules.board
    try:
        match name:
            case "place":
                fleet_text = require(obj, "fleet", str)
                return Place(_team(obj), parse_fleet(fleet_text, board, rules.fleet))
            case "unplace":
                return Unplace(_team(obj))
            case "start":
                first = obj.get("first")
                if first is not None:
                    first = _team(obj, "first")
                return Start(first)
            case "bull":
                team = _team(obj)
                cell = None
                if "cell" in obj:
                    text = require(obj, "cell", str)
                    cell = board.parse(text)
                if "zone" in obj:
                    try:
                        zone = BullZone(obj["zone"])
                    except ValueError:
                        raise WireError(_("'zone' must be inner, outer, bull, other or miss")) from None
                elif cell is not None:
                    zone = bull_zone(text, cell)
                else:
                    raise WireError(_("{key!r} is missing").format(key="cell"))
                return BullOffDart(team, zone, cell)
            case "closer":
                return BullOffCloser(_team(obj))
            case "throw":
                return Throw(board.parse(require(obj, "cell", str)))
            case "next":
                return Next()
            case "undo":
                return Undo()
            case "correct":
                return Correct(board.parse(require(obj, "cell", str)))
    except RuleError:
        raise
    except ValueError as err:
        raise WireError(said_of(err)) from None
    raise WireError(_("unknown command {name!r}").format(name=name))


def command_to_dict(command: Command) -> dict[str, Any]:
    """The stored form of a command. A `place` holds the fleet: it is PRIVATE to its team."""
    match command:
        case Place(team, fleet):
            return {"cmd": "place", "team": team, "fleet": fleet.code}
        case Unplace(team):
            return {"cmd": "unplace", "team": team}
        case Start(first):
            return {"cmd": "start", "first": first}
        case BullOffDart(team, zone, cell):
            return {
                "cmd": "bull",
                "team": team,
                "zone": zone.value,
                **({"cell": cell.code} if cell is not None else {}),
            }
        case BullOffCloser(team):
            return {"cmd": "closer", "team": team}
        case Throw(cell):
            return {"cmd": "throw", "cell": cell.code}
        case Next():
            return {"cmd": "next"}  # never its `visit`: what the guard checked, not what happened
        case Undo():
            return {"cmd": "undo"}
        case Correct(cell):
            return {"cmd": "correct", "cell": cell.code}
    raise TypeError(f"not a command: {command!r}")
