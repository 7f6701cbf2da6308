"""The JSON of classic games (PROTOCOLS.md section 4), and `CLASSIC`, the kind the store and the
service keep classic games as.

Events carry only public information (a ship's squares appear only once it is sunk); a `place`
command's fleet is the player's secret: `CLASSIC.command_to_dict` hands it back apart, as a
`kiosk.game.Secret`, and the logged body holds only who placed.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any, get_args

from kiosk.classic.fleet import parse_fleet
from kiosk.classic.grid import parse_square
from kiosk.classic.match import (
    Command,
    ComputerLevel,
    Event,
    Fire,
    FriendReady,
    Match,
    Mode,
    Place,
    Placed,
    Ready,
    Setup,
    ShotFired,
    TurnPassed,
    Won,
)
from kiosk.game import GameKind, Secret, Shot
from kiosk.i18n import _
from kiosk.lines import WireError, name_list, require
from kiosk.speech import Phrasebook


def player_of(obj: Mapping[str, Any], key: str = "player") -> int:
    player = require(obj, key, int)
    if player not in (0, 1):
        raise WireError(_("{key!r} must be 0 or 1").format(key=key))
    return int(player)


def parse_date(value: object) -> datetime.date:
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    raise WireError(_("'date' must be a date like 2026-11-30, not {value!r}").format(value=value))


def _names(value: object, mode: Mode) -> tuple[str, ...]:
    names = tuple(name_list(value, "players"))
    if mode is Mode.DUEL and len(names) != 2:
        raise WireError(_("'players' must be two names in a duel"))
    if mode is not Mode.DUEL and len(names) not in (1, 2):
        raise WireError(_("'players' must name the player (and may name the computer)"))
    if len(set(names)) != len(names):
        raise WireError(_("the two players need different names"))
    return names


def setup_from_dict(obj: Mapping[str, Any], today: datetime.date | None = None) -> Setup:
    """A setup from the protocol's `new` command or from `setup_to_dict` (`today`: the date of
    a `daily` game that names none)."""
    try:
        mode = Mode(obj.get("mode", "duel"))
    except ValueError:
        raise WireError(_("'mode' must be duel, solo or daily")) from None
    # No names (or an empty list, as a setup of default names is stored) means the defaults.
    given = obj.get("players")
    players = () if given is None or given == [] else _names(given, mode)
    first = obj.get("first", 0)
    if type(first) is not int or first not in (0, 1):
        raise WireError(_("'first' must be 0 or 1"))
    try:
        level = ComputerLevel(obj.get("ai", obj.get("level", "normal")))
    except ValueError:
        raise WireError(_("'ai' must be easy, normal or hard")) from None
    day = None
    if mode is Mode.DAILY:
        day = parse_date(obj["date"]) if obj.get("date") is not None else today
        if day is None:
            raise WireError(_("'date' is missing"))
    seed = obj.get("seed") if mode is Mode.SOLO else None
    if seed is not None and type(seed) is not int:
        raise WireError(_("'seed' must be a whole number"))
    return Setup(mode, players, first, level, day, seed)


def setup_to_dict(setup: Setup) -> dict[str, Any]:
    """The setup as stored beside the game (public: names, mode, level, date)."""
    return {
        "mode": setup.mode.value,
        "players": list(setup.players),
        "first": setup.first,
        "ai": setup.level.value,
        "date": setup.date.isoformat() if setup.date is not None else None,
        **({"seed": setup.seed} if setup.seed is not None else {}),
    }


def command_from_dict(obj: Mapping[str, Any], turn: int | None = None, secret: str | None = None) -> Command:
    """`place` (its fleet from `obj` or from the stored `secret`) or `fire` (by `obj`'s player
    or, as the protocol writes it, by the player whose `turn` it is)."""
    name = obj.get("cmd")
    if name == "place":
        fleet = secret if secret is not None else require(obj, "fleet", str)
        return Place(player_of(obj), parse_fleet(fleet))
    if name == "fire":
        square = parse_square(require(obj, "cell", str))
        if "player" in obj or turn is None:
            return Fire(player_of(obj), square)
        return Fire(turn, square)
    if name == "ready":
        return Ready()
    raise WireError(_("unknown command {name!r}").format(name=name))


def command_to_dict(command: Command) -> tuple[dict[str, Any], Secret | None]:
    match command:
        case Place(player, fleet):
            return {"cmd": "place", "player": player}, Secret(player, fleet.code)
        case Fire(player, square):
            return {"cmd": "fire", "player": player, "cell": square.code}, None
        case Ready():
            return {"cmd": "ready"}, None
    raise TypeError(f"not a classic command: {command!r}")


def event_to_dict(event: Event) -> dict[str, Any]:
    match event:
        case Placed(player):
            return {"event": "placed", "player": player}
        case ShotFired(player, _name, _number, square, result, ship):
            out: dict[str, Any] = {
                "event": "shot",
                "player": player,
                "cell": square.code,
                "result": result.value,
            }
            if ship is not None:
                out["ship"] = ship.kind.value
                out["cells"] = [s.code for s in ship.cells]
            return out
        case TurnPassed(player):
            return {"event": "turn", "player": player}
        case Won(player):
            return {"event": "win", "player": player}
        case FriendReady():
            return {"event": "ready"}
    raise TypeError(f"not a classic event: {event!r}")


def state_to_dict(match: Match) -> dict[str, Any]:
    view = match.public_view()
    return {
        "event": "state",
        "mode": view["mode"],
        "phase": view["phase"],
        "turn": view["turn"],
        "shots": view["shots"],
        "hits": view["hits"],
        "sunk": view["sunk"],
        "winner": view["winner"],
    }


def view_to_dict(match: Match, player: int) -> dict[str, Any]:
    view = match.private_view(player)
    return {
        "event": "view",
        "player": player,
        "fleet": view["fleet"],
        "incoming": view["incoming"],
        "radar": view["radar"],
    }


class ClassicKind(GameKind[Setup, Command, Event, Match]):
    """How the service and the store keep classic games."""

    name = "classic"
    game_type = Match
    event_types = get_args(Event)

    def command_word(self, command: Command) -> str:
        match command:
            case Place():
                return _("placing a fleet")
            case Fire():
                return _("a shot")
            case Ready():
                return _("the friend's Ready")

    def new(self, setup: Setup) -> Match:
        return Match(setup)

    def setup_to_dict(self, setup: Setup) -> dict[str, Any]:
        return setup_to_dict(setup)

    def setup_from_dict(self, data: Mapping[str, Any]) -> Setup:
        return setup_from_dict(data)

    def command_to_dict(self, command: Command) -> tuple[dict[str, Any], Secret | None]:
        return command_to_dict(command)

    def command_from_dict(self, body: Mapping[str, Any], setup: Setup, secret: str | None) -> Command:
        return command_from_dict(body, secret=secret)

    def shots(self, events: Iterable[Event]) -> Iterable[Shot]:
        return [
            Shot(e.side, e.name, e.number, e.square.code, e.result.value)
            for e in events
            if isinstance(e, ShotFired)
        ]

    def computer_sides(self, setup: Setup) -> frozenset[int]:
        return frozenset() if setup.computer is None else frozenset({setup.computer})

    def side_names(self, setup: Setup) -> tuple[str, ...]:
        return (setup.name(0), setup.name(1))

    def phrasebook(self) -> Phrasebook:
        from kiosk.classic.calls import CLASSIC_CALLS

        return CLASSIC_CALLS


CLASSIC = ClassicKind()
