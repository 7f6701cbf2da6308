"""How Battleship Express looks: a colour per ship (its tiles and its die face), the Burst, a
colour per player, and the words a face or a seat is shown with.

Each ship has its own colour (EXPRESS.md: "each ship has a colour"), on its tiles and on the
dice faces that hit it, so a player at 3 m sees which dice count against which ship without
reading a word. The player colours are not ship colours.
"""

from __future__ import annotations

from kiosk.express.rules import Face, Ship
from kiosk.i18n import _, ngettext
from ui.touch import theme
from ui.touch.fitting import NO_BREAK

SHIP_COLOURS: dict[Ship, theme.RGBA] = {
    Ship.BATTLESHIP: theme.rgb("5b8fd6"),
    Ship.DESTROYER: theme.rgb("3fae63"),
    Ship.CARRIER: theme.rgb("a77be0"),
    Ship.SUBMARINE: theme.rgb("d9b23a"),
    Ship.PATROL_BOAT: theme.rgb("e0783c"),
}
BURST_COLOUR = theme.rgb("f2f2f2")
BURST_INK = theme.rgb("d1422c")  # the Burst's star on its white face
PLAYER_COLOURS = (theme.rgb("4fc3ff"), theme.rgb("ff9f4a"), theme.rgb("7ee8b5"), theme.rgb("ff7eb6"))
TARGET = theme.rgb("ff4d3d")  # the frame of the declared target
CHOSEN = theme.rgb("ffffff")  # the frame of the chosen attacker
BURST_SIGN = "✸"  # DejaVu Sans (theme.SYMBOL_FONT): Roboto has no star


def shade(colour: theme.RGBA, factor: float) -> theme.RGBA:
    r, g, b, a = colour
    return (r * factor, g * factor, b * factor, a)


def face_colour(face: Face) -> theme.RGBA:
    return BURST_COLOUR if face is Face.BURST else SHIP_COLOURS[Ship(face.value)]


def face_letter(face: Face) -> str:
    """The sign on a die: the first letter of the ship's name in the kiosk's language (distinct
    in English, German and Finnish), the star for a Burst."""
    return BURST_SIGN if face is Face.BURST else Ship(face.value).label[:1].upper()


def face_name(face: Face) -> str:
    return _("Burst") if face is Face.BURST else Ship(face.value).label


def player_colour(player: int) -> theme.RGBA:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def level_name(level: str) -> str:
    return {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")}.get(level, level)


def seat_name(level: str | None) -> str:
    """Who plays a seat, in a few words: a person, or the computer and its level."""
    if level is None:
        return _("Player")
    return _("Computer: {level}").format(level=level_name(level))


def dice_and_rolls(dice: int, rolls: int) -> str:
    """What a ship attacks with: "3 dice · 1 roll". Where a tile gives it two lines it breaks
    after the dot only: "8 noppaa ·" / "4 heittoa", never "8 noppaa · 4" / "heittoa" (each
    number is held to its word, the dot to the dice, by no-break spaces)."""
    dice_part = ngettext("{dice} die", "{dice} dice", dice).format(dice=dice)
    rolls_part = ngettext("{rolls} roll", "{rolls} rolls", rolls).format(rolls=rolls)
    return f"{_held(dice_part)}{NO_BREAK}· {_held(rolls_part)}"


def _held(words: str) -> str:
    return words.replace(" ", NO_BREAK)


def percent(chance: float) -> str:
    """A chance to sink as the coach shows it: one decimal, so 87.8 % is not 88 %."""
    return f"{chance * 100:.1f}%"
