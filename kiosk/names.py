"""People's names as they typed them (a phone, the touchscreen, a script): what is kept of them.

A name is shown on the kiosk's screens, on every phone in the bar and in the journal, so it keeps
only what draws as text on one line: control, format, private-use, unassigned and surrogate
characters and the line and paragraph separators (U+2028, U+2029) are dropped, any other space
becomes one plain space, and runs of spaces one. Two format characters are kept where they join
an emoji sequence, which a phone and the kiosk's screen draw as one emoji: the zero-width joiner
between two symbols (man, woman, girl: a family; white flag, rainbow: the rainbow flag) and the
tags after a black flag (Scotland's flag: the black flag and the tags of "gbsct"); anywhere else
they are dropped like any other. A name that then has nothing visible (only spaces, fillers such
as U+3164 or U+2800, combining marks on nothing) is no name: `clean_name`
gives None, and each front end says "enter a name" or uses its default. Two names that differ
only in case are one name (`same_name`).
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 32  # a team's name on the scoreboard; the phones keep theirs to PHONE_MAX_NAME
PHONE_MAX_NAME = 20  # a classic player's name given on a phone

# Letters and symbols that draw nothing (Unicode's default-ignorable fillers and blanks).
BLANKS = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\u180b\u180c\u180d\u180f\u2063\u2064\u00ad\u061c\u200b"
)
_DROPPED = frozenset(("Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"))
_JOINER = "\u200d"
_BLACK_FLAG = "\U0001f3f4"
_TAGS = frozenset(map(chr, range(0xE0020, 0xE0080)))


def _emoji_part(char: str | None) -> bool:
    """A symbol (an emoji), a skin tone or the emoji selector: what a joiner may stand between."""
    return char is not None and (unicodedata.category(char) in ("So", "Sk") or char == "\ufe0f")


def _joins(char: str, before: str | None, after: str | None) -> bool:
    """Whether the format character `char` is part of an emoji sequence (see the module)."""
    if char == _JOINER:
        return _emoji_part(before) and _emoji_part(after)
    return char in _TAGS and before is not None and (before == _BLACK_FLAG or before in _TAGS)


def visible(text: str) -> bool:
    """Whether the text draws at least one mark (a letter, a digit, a symbol)."""
    return any(c not in BLANKS and unicodedata.category(c)[0] not in "ZCM" for c in text)


def clean_name(text: object, limit: int = MAX_NAME) -> str | None:
    """The name to keep of `text` (see the module's docstring), at most `limit` characters;
    None when nothing visible is left (or `text` is not a string)."""
    if not isinstance(text, str):
        return None
    kept: list[str] = []
    chars = unicodedata.normalize("NFC", text)
    for at, char in enumerate(chars):
        category = unicodedata.category(char)
        if category == "Zs":
            kept.append(" ")
        elif (category not in _DROPPED and char not in BLANKS) or (
            category == "Cf" and _joins(char, kept[-1] if kept else None, chars[at + 1 : at + 2] or None)
        ):
            kept.append(char)
    name = " ".join("".join(kept).split())[:limit].strip()
    return name if visible(name) else None


def kept_name(text: str) -> str:
    """A name as a game's setup keeps it, whoever built the setup (a screen, a phone, a line
    protocol, a script, a name made up, as a duel's "Ann 2"): `clean_name`'s, the name the
    league's replay reads; one that cleans to nothing stays as given, for the game's own rules
    to refuse ("every player needs a name") or its screens to name by their default."""
    return clean_name(text) or text


def name_key(name: str) -> str:
    """What two names are compared by: "Sharks" and "sharks" are one name to the people in the
    bar (one said aloud, one on the scoreboard), so two teams or players may not be told apart
    by case alone (`same_name`)."""
    return name.casefold()


def same_name(first: str, second: str) -> bool:
    """Whether two (cleaned) names are one name: the rule of every new game that takes two or
    more names (the dart game's new-game screen and `--teams`, classic's duel, Express)."""
    return name_key(first) == name_key(second)
