"""What the caller says: words, calls and the phrasebook each game keeps (pure values).

A `Call` is what one announcement says, as a few `Words` played one after the other ("T20",
"hit"). Each `Words` has a `phrase`, its name (the file name a bar's own recording of it has:
`hit.wav`, `cell-t20.wav`, `name-sharks.wav`), and its `text` in the kiosk's language, which the
synthetic voice says where there is no recording.

Each game keeps one phrasebook (`kiosk/<game>/calls.py`): what its events are called, the
fixed phrases to render ahead, the names to render when a game starts. A phrasebook sees only
the events (public by construction) and the game's public view: nothing it says can give away
a ship that is not sunk.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kiosk.i18n import _

# A voice as espeak-ng names it ("en-gb", "de", "fi", "en-us+f3"): letters, digits, - _ +.
VOICE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+-]{0,39}$")
# The voice of each language when the config names none, and others worth trying (Settings).
DEFAULT_VOICES = {"en": "en-gb", "de": "de", "fi": "fi"}
VOICE_CHOICES = {
    "en": ("en-gb", "en-us", "en-gb-scotland", "en-gb+f3", "en-us+f4", "en-gb+m3"),
    "de": ("de", "de+f3", "de+m3", "de+f4"),
    "fi": ("fi", "fi+f3", "fi+m3", "fi+f4"),
}


@dataclass(frozen=True)
class Words:
    """A piece of a call: its phrase name (the recording's file name) and what it says."""

    phrase: str
    text: str


@dataclass(frozen=True)
class Call:
    """One announcement, as the caller plays it.

    `about`: the step of the game it tells of (the dart game: the dart's number in the game; a
    call on the next visit is about the last dart before it); an undo or a correction of that
    step cancels it (None: nothing can take it back). `keep`: a call that a later one never
    drops or cuts (SUNK, the win, who starts): the later one waits for it. `aside`: a call
    from outside the kiosk's own game (a duel of two phones in a room): it never keeps, never
    replaces a call of the kiosk's own game, and any later call replaces it while it waits.
    """

    words: tuple[Words, ...]
    about: int | None = None
    keep: bool = False
    aside: bool = False

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


@dataclass(frozen=True)
class Calls:
    """What a batch of events makes the caller do: calls to make (in order), and the step the
    batch took back (`cancel_from`: every call about it or a later step is cancelled)."""

    say: tuple[Call, ...] = ()
    cancel_from: int | None = None


@dataclass(frozen=True)
class CallOptions:
    """The owner's choices a phrasebook follows: say the thrown cell (public) or not."""

    say_cell: bool = False


class Phrasebook(Protocol):
    """What one game's caller says (kiosk/<game>/calls.py).

    MUST: `calls` answers for a batch of the game's events (as the service announces them) from
    the events and the game's public view alone, in the kiosk's language (gettext), never a
    cell of an unsunk ship nor which ship a hit struck; `phrases(options)` is every fixed phrase
    it may say with these options (rendered ahead; the cells too when they are said);
    `names(view)` the words a game's names make (rendered when the game starts);
    `opening(view, handed_over)` who is first to play, once a new game's play begins and before
    anyone has played (nothing before that, after it, or where an event of the game already says
    who starts: the dart game's bull-off); `handed_over` is whether every side given a phone link
    holds it (a game whose play waits for its phones says nothing until then); the caller asks
    again whenever the phones change and says it once per new game. MAY: say nothing for an
    event.
    """

    def calls(self, events: Sequence[Any], view: Mapping[str, Any], options: CallOptions) -> Calls: ...

    def opening(self, view: Mapping[str, Any], handed_over: bool) -> tuple[Words, ...]: ...

    def phrases(self, options: CallOptions) -> Iterable[Words]: ...

    def names(self, view: Mapping[str, Any]) -> Iterable[Words]: ...


# What the kiosk says of another table's game (a phone room's duel, `Caller.hear_table`): a
# call made from the game's events and its public view alone, or None.
TableCalls = Callable[[Sequence[Any], Mapping[str, Any]], Call | None]


def sunk_ship(ship: str) -> Words:
    """ "Sunk! The Cruiser" for a ship with a name (classic's and Express's; `ship` is its
    English name, as their wires spell it), recorded as `sunk-<name>.wav`."""
    texts = {
        "Carrier": _("Sunk! The Carrier"),
        "Battleship": _("Sunk! The Battleship"),
        "Cruiser": _("Sunk! The Cruiser"),
        "Submarine": _("Sunk! The Submarine"),
        "Destroyer": _("Sunk! The Destroyer"),
        "Patrol Boat": _("Sunk! The Patrol Boat"),
    }
    return Words(f"sunk-{slug(ship)}", texts.get(ship) or _("Sunk!"))


def slug(text: str) -> str:
    """A name as a file name: lower case ASCII letters and digits joined by '-' ("Jäger 2" ->
    "jager-2"); what a recording of that name is called."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "x"


_SELECTORS = "\ufe0e\ufe0f\u20e3"  # text and emoji presentation, the keycap


def as_said(text: str) -> str:
    """A name as the caller says it: without its emoji (and what joins them: selectors, skin
    tones, joiners, keycaps). espeak-ng reads an emoji's name aloud: "🎯 Jets to throw" was
    "direct hit Jets to throw", a result said before a dart was thrown; "Die 🍺 Brüder" was
    "Die Bierkrug Brüder". The screen and the phones show the emoji."""
    kept = (c for c in text if unicodedata.category(c) not in ("So", "Sk", "Cf") and c not in _SELECTORS)
    return " ".join("".join(kept).split())


def name(text: str) -> Words:
    """A team's or player's name: its recording is `name-<slug>.wav`; what is said of it is
    `as_said(text)`."""
    return Words(f"name-{slug(text)}", as_said(text))


def cell(code: str, spoken: str | None = None) -> Words:
    """A thrown cell or a fired-at square: its recording is `cell-<code>.wav`."""
    return Words(f"cell-{slug(code)}", spoken or code)


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def template(phrase: str, text: str, **names: str) -> tuple[Words, ...]:
    """A translated phrase with names in it ("{team} to throw", "Jetzt wirft {team}") as the
    pieces a caller plays: the fixed parts (recorded as `<phrase>.wav`, `<phrase>-2.wav`, ...
    in their order) and each name (`name-<slug>.wav`). Without `names`: the fixed parts only
    (what can be rendered ahead)."""
    pieces: list[Words] = []
    fixed = 0
    for index, part in enumerate(_PLACEHOLDER.split(text)):
        if index % 2:  # a placeholder's name
            if part in names and as_said(names[part]):  # a name of emoji only is not said
                pieces.append(name(names[part].strip()))
            continue
        spoken = part.strip(" ,:;")
        if any(ch.isalnum() for ch in spoken):  # not a bare "!" or ":" between names
            fixed += 1
            pieces.append(Words(phrase if fixed == 1 else f"{phrase}-{fixed}", spoken))
    return tuple(pieces)
