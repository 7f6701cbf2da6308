"""The JSON of Battleship Express (PROTOCOLS.md section 5) and `EXPRESS`, its `GameKind`.

One place turns commands, events, setups and the state into plain dicts and back, for the
referee, the store and the phones. Commands from outside are checked key by key: an unknown key
or a value of the wrong kind is a `WireError` that names it, before the rules see anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar, get_args

from kiosk.express.match import (
    Attack,
    Command,
    Declare,
    DiceQueued,
    Event,
    Match,
    QueueDice,
    Rolled,
    Setup,
    Sunk,
    Target,
    TurnPassed,
    Won,
)
from kiosk.express.rules import FACES, FLEET, Face, Rules, Ship, Variant
from kiosk.game import GameKind, Secret, Shot
from kiosk.i18n import _
from kiosk.lines import WireError, name_list
from kiosk.sound import Sound
from kiosk.speech import Phrasebook

E = TypeVar("E", Ship, Face)


# ---- values -----------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _keys(obj: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    unknown = sorted(set(obj) - set(allowed))
    if unknown:
        raise WireError(_("{where} has an unknown key {key!r}").format(where=where, key=unknown[0]))


def _int(obj: Mapping[str, Any], key: str) -> int:
    if key not in obj:
        raise WireError(_("{key!r} is missing").format(key=key))
    if not _is_int(obj[key]):
        raise WireError(_("{key!r} must be a whole number").format(key=key))
    return int(obj[key])


def _named(value: object, members: Sequence[E], refusal: str) -> E:
    """The member whose English name is `value` (any case), as the protocol writes them;
    otherwise `refusal` (with {value} and {names}) as a `WireError`."""
    if isinstance(value, str):
        for member in members:
            if member.value.casefold() == value.strip().casefold():
                return member
    raise WireError(refusal.format(value=value, names=", ".join(m.value for m in members)))


def ship_from_name(value: object) -> Ship:
    return _named(value, FLEET, _("{value!r} is not a ship: one of {names}"))


def face_from_name(value: object) -> Face:
    return _named(value, FACES, _("{value!r} is not a face of the dice: one of {names}"))


def _target(value: object) -> Target:
    if not isinstance(value, dict):
        raise WireError(_('\'target\' must be like {"player": 1, "ship": "Carrier"}'))
    _keys(value, ("player", "ship"), "'target'")
    if "ship" not in value:
        raise WireError(_("{key!r} is missing").format(key="ship"))
    return Target(_int(value, "player"), ship_from_name(value["ship"]))


def _player(obj: Mapping[str, Any]) -> int | None:
    return _int(obj, "player") if "player" in obj else None


def _lines(value: object) -> list[tuple[Ship, ...]]:
    if not isinstance(value, list) or not all(isinstance(line, list) for line in value):
        raise WireError(_("'lines' must be a list of lines, each a list of ship names"))
    return [tuple(ship_from_name(name) for name in line) for line in value]


def _names(value: object) -> list[str]:
    return name_list(value, "players")


def _variant(value: object) -> Variant:
    try:
        return Variant(value)
    except ValueError:
        raise WireError(_("'game' must be admiral or captain")) from None


# ---- setups -----------------------------------------------------------------------------

NEW_KEYS = ("cmd", "players", "game", "points_to_win", "lines", "seed")


def setup_from_new(obj: Mapping[str, Any], rules: Rules | None = None) -> Setup:
    """A setup from the protocol's `new` (every key but `players` optional; a missing seed is
    drawn with `secrets` and stored, so the dice are reproducible only from the stored game)."""
    _keys(obj, NEW_KEYS, "'new'")
    if "players" not in obj:
        raise WireError(_("{key!r} is missing").format(key="players"))
    return Setup.create(
        _names(obj["players"]),
        variant=_variant(obj.get("game", Variant.ADMIRAL.value)),
        points_to_win=_int(obj, "points_to_win") if "points_to_win" in obj else None,
        lines=_lines(obj["lines"]) if "lines" in obj else None,
        seed=_int(obj, "seed") if "seed" in obj else None,
        rules=rules,
    )


def setup_to_dict(setup: Setup) -> dict[str, Any]:
    data: dict[str, Any] = {
        "players": list(setup.players),
        "game": setup.variant.value,
        "points_to_win": setup.points_to_win,
        "lines": [[ship.value for ship in line] for line in setup.lines],
        "seed": setup.seed,
        "rules": setup.rules.to_dict(),
    }
    if setup.computers:
        data["computers"] = list(setup.computers)
    return data


def setup_from_dict(data: Mapping[str, Any]) -> Setup:
    """A stored setup back (its rules included: a game replays with the rules it was played by;
    its computer seats too: a resumed game gets its computer players back)."""
    for key in ("players", "lines", "game"):
        if key not in data:
            raise WireError(_("{key!r} is missing").format(key=key))
    rules = data.get("rules", {})
    if not isinstance(rules, Mapping):
        raise WireError(_("{where} must be an object").format(where="'rules'"))
    computers = data.get("computers") or []
    if not isinstance(computers, list):
        raise WireError(_("{key!r} has the wrong type").format(key="computers"))
    return Setup(
        tuple(_names(data["players"])),
        tuple(_lines(data["lines"])),
        _int(data, "seed"),
        _variant(data["game"]),
        _int(data, "points_to_win"),
        Rules.from_dict(rules),
        tuple(computers),
    )


def new_to_dict(setup: Setup) -> dict[str, Any]:
    return {
        "event": "new",
        "players": list(setup.players),
        "lines": [[ship.value for ship in line] for line in setup.lines],
    }


# ---- commands ---------------------------------------------------------------------------


def command_from_dict(obj: Mapping[str, Any]) -> Command:
    """A game command from JSON: `dice`, `attack` or `target` (the referee handles the rest)."""
    name = obj.get("cmd")
    match name:
        case "dice":
            _keys(obj, ("cmd", "faces"), "'dice'")
            faces = obj.get("faces")
            if not isinstance(faces, list):
                raise WireError(_('\'faces\' must be a list of faces, e.g. ["Carrier", "Burst"]'))
            return QueueDice(tuple(face_from_name(face) for face in faces))
        case "attack":
            _keys(obj, ("cmd", "ship", "target", "move", "player"), "'attack'")
            if "ship" not in obj:
                raise WireError(_("{key!r} is missing").format(key="ship"))
            move = obj.get("move", False)
            if not isinstance(move, bool):
                raise WireError(_("'move' must be true or false"))
            target = _target(obj["target"]) if obj.get("target") is not None else None
            return Attack(ship_from_name(obj["ship"]), target, move, _player(obj))
        case "target":
            _keys(obj, ("cmd", "target", "player"), "'target'")
            if "target" not in obj:
                raise WireError(_("{key!r} is missing").format(key="target"))
            return Declare(_target(obj["target"]), _player(obj))
    raise WireError(_("unknown command {name!r}").format(name=name))


def _target_dict(target: Target) -> dict[str, Any]:
    return {"player": target.side, "ship": target.ship.value}


def command_to_dict(command: Command) -> dict[str, Any]:
    """The stored (and protocol) form of a command; Express has no secret part."""
    match command:
        case QueueDice(faces):
            return {"cmd": "dice", "faces": [face.value for face in faces]}
        case Attack(ship, target, move, player):
            body: dict[str, Any] = {"cmd": "attack", "ship": ship.value}
            if target is not None:
                body["target"] = _target_dict(target)
            if move:
                body["move"] = True
            if player is not None:
                body["player"] = player
            return body
        case Declare(target, player):
            body = {"cmd": "target", "target": _target_dict(target)}
            if player is not None:
                body["player"] = player
            return body
    raise TypeError(f"not a command: {command!r}")


# ---- events and the state ---------------------------------------------------------------


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event exactly as PROTOCOLS.md section 5 shows it."""
    match event:
        case DiceQueued(queued):
            return {"event": "dice", "queued": queued}
        case Rolled(player, ship, roll, faces, hits, total):
            return {
                "event": "roll",
                "player": player,
                "ship": ship.value,
                "roll": roll,
                "faces": [face.value for face in faces],
                "hits": hits,
                "total": total,
            }
        case Sunk(player, ship, by, points):
            return {"event": "sunk", "player": player, "ship": ship.value, "by": by, "points": list(points)}
        case Won(player):
            return {"event": "win", "player": player}
        case TurnPassed(player):
            return {"event": "turn", "player": player}
    raise TypeError(f"not an event: {event!r}")


def state_to_dict(match: Match) -> dict[str, Any]:
    return {
        "event": "state",
        "game": match.setup.variant.value,
        "turn": match.turn,
        "phase": match.phase.value,
        "lines": [[ship.value for ship in line] for line in match.lines()],
        "points": list(match.points()),
        "winner": match.winner,
    }


# ---- the kind, for the service and the store --------------------------------------------


class ExpressKind(GameKind[Setup, Command, Event, Match]):
    name = "express"
    game_type = Match
    event_types = get_args(Event)

    def command_word(self, command: Command) -> str:
        match command:
            case QueueDice():
                return _("dice typed in")
            case Attack():
                return _("an attack")
            case Declare():
                return _("a target named")

    def new(self, setup: Setup) -> Match:
        return Match(setup)

    def setup_to_dict(self, setup: Setup) -> dict[str, Any]:
        return setup_to_dict(setup)

    def setup_from_dict(self, data: Mapping[str, Any]) -> Setup:
        return setup_from_dict(data)

    def command_to_dict(self, command: Command) -> tuple[dict[str, Any], Secret | None]:
        return command_to_dict(command), None

    def command_from_dict(self, body: Mapping[str, Any], setup: Setup, secret: str | None) -> Command:
        return command_from_dict(body)

    def shots(self, events: Iterable[Event]) -> Iterable[Shot]:
        """Every roll, once, as it was thrown, with its faces (the audit of the dice). The
        Carrier's first roll is logged when thrown (no target yet: ""); its recount is not a
        new roll."""
        return [
            Shot(
                side=e.side,
                player=e.name,
                number=e.roll,
                target="" if e.target is None else f"{e.target.side}:{e.target.ship.value}",
                result=",".join(face.value for face in e.faces),
            )
            for e in events
            if isinstance(e, Rolled) and not e.recount
        ]

    def sound_for(self, events: Iterable[Event]) -> Sound | None:
        """SUNK for a sink, WIN for the last one, MISS for an attack that sank nothing; the
        Carrier's first roll, still waiting for its target, is silent."""
        batch = list(events)
        if any(isinstance(e, Won) for e in batch):
            return Sound.WIN
        if any(isinstance(e, Sunk) for e in batch):
            return Sound.SUNK
        if any(isinstance(e, Rolled) and e.hits is not None for e in batch):
            return Sound.MISS
        return None

    def computer_sides(self, setup: Setup) -> frozenset[int]:
        return frozenset(side for side, level in enumerate(setup.computers) if level is not None)

    def side_names(self, setup: Setup) -> tuple[str, ...]:
        return tuple(setup.players)

    def phrasebook(self) -> Phrasebook:
        from kiosk.express.calls import EXPRESS_CALLS

        return EXPRESS_CALLS


EXPRESS = ExpressKind()
