"""The ships, the dice faces and every house-rule number of Battleship Express (EXPRESS.md).

The seed gives the powers; the numbers it leaves open are fields of `Rules`, whose defaults are
EXPRESS.md's. A `ShipRules` is what one ship does as an attacker *in one variant*: the Captain's
game is the same table with the powers switched off and its own rolls and Burst value.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.i18n import _


class Ship(enum.Enum):
    BATTLESHIP = "Battleship"
    DESTROYER = "Destroyer"
    CARRIER = "Carrier"
    SUBMARINE = "Submarine"
    PATROL_BOAT = "Patrol Boat"

    @property
    def label(self) -> str:
        """The ship's name in the kiosk's language (the JSON keeps the English `value`)."""
        match self:
            case Ship.BATTLESHIP:
                return _("Battleship")
            case Ship.DESTROYER:
                return _("Destroyer")
            case Ship.CARRIER:
                return _("Carrier")
            case Ship.SUBMARINE:
                return _("Submarine")
            case Ship.PATROL_BOAT:
                return _("Patrol Boat")

    @property
    def face(self) -> Face:
        return Face(self.value)


class Face(enum.Enum):
    """A die's face: one per ship, and the wild Burst."""

    BATTLESHIP = "Battleship"
    DESTROYER = "Destroyer"
    CARRIER = "Carrier"
    SUBMARINE = "Submarine"
    PATROL_BOAT = "Patrol Boat"
    BURST = "Burst"


FACES: tuple[Face, ...] = tuple(Face)  # the order a generated die indexes into
FLEET: tuple[Ship, ...] = tuple(Ship)  # every player's five ships


MIN_PLAYERS, MAX_PLAYERS = 2, 4


def max_points(players: int) -> int:
    """`points_to_win` is 1 to 5 x (players - 1): more than every enemy ship cannot be scored."""
    return len(FLEET) * (players - 1)


class Variant(enum.Enum):
    ADMIRAL = "admiral"  # the powers on the tiles count
    CAPTAIN = "captain"  # the powers are ignored


@dataclass(frozen=True)
class ShipRules:
    """One ship as an attacker (and as a target: its defense)."""

    defense: int  # hits that sink it
    dice: int
    rolls: int
    burst: int  # hits one Burst is worth; 0: a Burst is no hit and is rolled again
    roll_first: bool = False  # the Carrier: roll, then declare the target
    stays: bool = False  # the Carrier: may attack from where it stands
    burst_sinks: bool = False  # the Submarine: one Burst sinks whatever the defense
    anywhere: bool = False  # the Submarine: any ship of a line is a target

    def __post_init__(self) -> None:
        # Bounds keep the odds' Markov chain small and every attack finite.
        if not (
            1 <= self.defense <= 20
            and 1 <= self.dice <= 12
            and 1 <= self.rolls <= 12
            and 0 <= self.burst <= 5
        ):
            raise ValueError(_("a ship needs defense 1-20, dice 1-12, rolls 1-12 and a Burst worth 0-5 hits"))

    def can_sink(self, defense: int) -> bool:
        """Whether any roll at all sinks a target of `defense` (all dice counting at once)."""
        return self.burst_sinks or self.dice * max(self.burst, 1) >= defense

    def count(self, faces: Iterable[Face], target: Ship) -> Count:
        """What a roll of `faces` does against `target`: the dice set aside and their hits."""
        on_target = bursts = 0
        for face in faces:
            if face is Face.BURST:
                bursts += 1
            elif face is target.face:
                on_target += 1
        return Count(
            hits=on_target + self.burst * bursts,
            kept=on_target + (bursts if self.burst else 0),
            sinks=self.burst_sinks and bursts > 0,
        )


@dataclass(frozen=True)
class Count:
    hits: int  # counted in this roll
    kept: int  # dice set aside (a die that counts is set aside once, whatever its worth)
    sinks: bool  # a Submarine's Burst: sunk whatever the total


@dataclass(frozen=True)
class Rules:
    """Every house-rule number, with EXPRESS.md's defaults (the Admiral's game table)."""

    battleship: ShipRules = ShipRules(defense=5, dice=8, rolls=4, burst=0)
    destroyer: ShipRules = ShipRules(defense=4, dice=6, rolls=2, burst=2)
    carrier: ShipRules = ShipRules(defense=3, dice=6, rolls=2, burst=1, roll_first=True, stays=True)
    submarine: ShipRules = ShipRules(defense=4, dice=3, rolls=1, burst=1, burst_sinks=True, anywhere=True)
    patrol_boat: ShipRules = ShipRules(defense=3, dice=5, rolls=3, burst=1)
    captain_rolls: int = 2  # the Captain's game: every ship rolls its dice this many times
    captain_burst: int = 1  # ... and a Burst is worth this many hits
    points_to_win: tuple[int, int, int] = (5, 4, 3)  # the default for 2, 3, 4 players
    sinker_goes_again: bool = True
    # A player whose fleet is gone is out and skipped; False: the game ends at once and the most
    # points win (see docs/express.md for the tie).
    fleetless_skipped: bool = True

    def __post_init__(self) -> None:
        if not (1 <= self.captain_rolls <= 12 and 0 <= self.captain_burst <= 5):
            raise ValueError(_("the Captain's game needs 1-12 rolls and a Burst worth 0-5 hits"))
        if len(self.points_to_win) != 3 or not all(
            1 <= points <= max_points(players)
            for players, points in enumerate(self.points_to_win, start=MIN_PLAYERS)
        ):
            raise ValueError(
                _(
                    "the default points to win are three numbers, for 2, 3 and 4 "
                    "players, each 1 to 5 x (players - 1)"
                )
            )

    def table(self, ship: Ship) -> ShipRules:
        """The Admiral's game line of the table (powers included)."""
        match ship:
            case Ship.BATTLESHIP:
                return self.battleship
            case Ship.DESTROYER:
                return self.destroyer
            case Ship.CARRIER:
                return self.carrier
            case Ship.SUBMARINE:
                return self.submarine
            case Ship.PATROL_BOAT:
                return self.patrol_boat

    def ship(self, variant: Variant, ship: Ship) -> ShipRules:
        """How `ship` attacks (and defends) in `variant`."""
        line = self.table(ship)
        if variant is Variant.ADMIRAL:
            return line
        return ShipRules(
            defense=line.defense, dice=line.dice, rolls=self.captain_rolls, burst=self.captain_burst
        )

    def default_points(self, players: int) -> int:
        return self.points_to_win[players - MIN_PLAYERS]

    def to_dict(self) -> dict[str, Any]:
        """JSON of every number (stored with each game, so it replays with its own rules)."""
        return {
            **{ship.value: dataclasses.asdict(self.table(ship)) for ship in FLEET},
            "captain_rolls": self.captain_rolls,
            "captain_burst": self.captain_burst,
            "points_to_win": list(self.points_to_win),
            "sinker_goes_again": self.sinker_goes_again,
            "fleetless_skipped": self.fleetless_skipped,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """The rules back from `to_dict` (keys left out, a ship's too, keep their defaults);
        ValueError naming the key for one that is unknown or of the wrong type (a stored or
        uploaded game's rules are read here: the reason is words a person reads, translated)."""
        changes: dict[str, Any] = {}
        for key, value in data.items():
            ship = next((s for s in FLEET if s.value == key), None)
            if ship is not None:
                given = _checked(value, _SHIP_FIELDS, key)  # what it leaves out: the default's
                changes[_attr(ship)] = dataclasses.replace(getattr(cls(), _attr(ship)), **given)
            elif key == "points_to_win":
                if not isinstance(value, list) or not all(_whole(v) for v in value):
                    raise ValueError(_("{key!r} has the wrong type").format(key=f"rules.{key}"))
                changes[key] = tuple(value)
            else:
                changes.update(_checked({key: value}, _RULE_FIELDS, None))
        return cls(**changes)


# The JSON type of each field `to_dict` writes (a bool is no whole number, nor one a bool).
_SHIP_FIELDS = {f.name: f.type for f in dataclasses.fields(ShipRules)}
_RULE_FIELDS = {f.name: f.type for f in dataclasses.fields(Rules) if f.type in ("int", "bool")}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _checked(value: object, fields: Mapping[str, object], within: str | None) -> dict[str, Any]:
    """`value`'s keys and types checked against `fields` (names: the field's type's name)."""
    if not isinstance(value, Mapping):
        raise ValueError(_("{where} must be an object").format(where=f"'rules.{within}'"))
    for key, field_value in value.items():
        where = f"{within}.{key}" if within else key
        if key not in fields:
            raise ValueError(_("{where} has an unknown key {key!r}").format(where="'rules'", key=where))
        fits = _whole(field_value) if fields[key] == "int" else isinstance(field_value, bool)
        if not fits:
            raise ValueError(_("{key!r} has the wrong type").format(key=f"rules.{where}"))
    return dict(value)


def _attr(ship: Ship) -> str:
    return ship.name.lower()
