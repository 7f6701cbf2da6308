"""People's names as they typed them (a phone, the touchscreen, a script): what is kept of them.

A name is shown on the kiosk's screens, on every phone in the bar and in the journal, so it keeps
only what draws as text on one line: control, format, private-use, unassigned and surrogate
characters and the line and paragraph separators (U+2028, U+2029) are dropped, any other space
becomes one plain space, and runs of spaces one. A name that then has nothing visible (only
spaces, fillers such as U+3164 or U+2800, combining marks on nothing) is no name: `clean_name`
gives None, and each front end says "enter a name" or uses its default. Two names that differ
only in case are one name (`same_name`).
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 32  # a team's name on the scoreboard; the phones keep theirs to 20

# Letters and symbols that draw nothing (Unicode's default-ignorable fillers and blanks).
BLANKS = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\u180b\u180c\u180d\u180f\u2063\u2064\u00ad\u061c\u200b"
)
_DROPPED = frozenset(("Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"))


def visible(text: str) -> bool:
    """Whether the text draws at least one mark (a letter, a digit, a symbol)."""
    return any(c not in BLANKS and unicodedata.category(c)[0] not in "ZCM" for c in text)


def clean_name(text: object, limit: int = MAX_NAME) -> str | None:
    """The name to keep of `text` (see the module's docstring), at most `limit` characters;
    None when nothing visible is left (or `text` is not a string)."""
    if not isinstance(text, str):
        return None
    kept: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if category == "Zs":
            kept.append(" ")
        elif category not in _DROPPED and char not in BLANKS:
            kept.append(char)
    name = " ".join("".join(kept).split())[:limit].strip()
    return name if visible(name) else None


def name_key(name: str) -> str:
    """What two names are compared by: "Sharks" and "sharks" are one name to the people in the
    bar (one said aloud, one on the scoreboard), so two teams or players may not be told apart
    by case alone (`same_name`)."""
    return name.casefold()


def same_name(first: str, second: str) -> bool:
    """Whether two (cleaned) names are one name: the rule of every new game that takes two or
    more names (the dart game's new-game screen and `--teams`, classic's duel, Express)."""
    return name_key(first) == name_key(second)
