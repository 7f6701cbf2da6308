"""The board's serial dialects (PROTOCOLS.md section 1): pure functions, one line -> one event.

`read_line(dialect, text, board, board_map)` turns one decoded line into an input event, or
None for a comment or an empty line. `decode(raw_bytes)` turns the bytes of one line into text
or a `BadLine`. `encode(dialect, ...)` is the other way round, for the fake board. Nothing here
keeps state or does I/O; the serial reader adds time (stuck contacts) and the port.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from hardware.boardmap import BoardMap, contact_key
from hardware.granboard import granboard_table
from kiosk.board import BULL, Board, BullZone, Cell, CellError, Profile, Ring, bull_zone
from kiosk.i18n import _
from kiosk.inputs import (
    BadLine,
    Button,
    ButtonInput,
    DartInput,
    Info,
    InputEvent,
    MissInput,
    UnmappedInput,
)
from kiosk.printable import printable

MAX_LINE = 64  # bytes, the line ending included
PROTOCOL_VERSION = 1

_Reader = Callable[[str, Board, BoardMap | None], InputEvent | None]


@dataclass(frozen=True)
class Dialect:
    """One way boards write a dart. `profile` is forced where the dialect cannot tell the
    inner from the outer single (three-ring); None means the configured profile applies."""

    name: str
    read: _Reader
    profile: Profile | None = None
    needs_map: bool = False
    # What the firmware prints for a matrix spot wired to nothing (`_40`, `NULL`, `0:X`, `0`):
    # quiet, neither a dart nor a bad line, yet a sign of the dialect for `auto`.
    quiet: re.Pattern[str] | None = None
    # Lines the board sends about itself (a banner): said once, never a bad line.
    banner: re.Pattern[str] | None = None

    def recognises(self, text: str, board: Board, board_map: BoardMap | None = None) -> bool:
        """Whether this line is one this dialect's firmware prints (for `auto`)."""
        if _is_comment(text):
            return False
        # Not a bad line: a reading, or a word of the firmware's that means nothing (`u`).
        return not isinstance(read_line(self, text, board, board_map), BadLine)


# --- decoding -------------------------------------------------------------------------------


def decode(raw: bytes) -> str | BadLine:
    """The text of one line without its ending; non-ASCII, control bytes or overlong: BadLine."""
    # As shown in a log or on the screen: a board must not send terminal escapes there.
    shown = printable(raw.rstrip(b"\r\n").decode("ascii", errors="backslashreplace"))[: MAX_LINE * 2]
    if len(raw) > MAX_LINE:
        return BadLine(shown, _("longer than {limit} bytes").format(limit=MAX_LINE))
    body = raw.rstrip(b"\r\n")
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        return BadLine(shown, _("not ASCII"))
    if any(ord(ch) < 32 and ch != "\t" for ch in text) or "\x7f" in text:
        return BadLine(shown, _("control characters in the line"))
    return text.strip()


# --- shared pieces ---------------------------------------------------------------------------


def _dart(cell: Cell, raw: str, zone: BullZone | None = None) -> DartInput | MissInput:
    if not cell.on_board:
        return MissInput(raw)
    return DartInput(cell, raw, zone if zone is not None else bull_zone(raw, cell))


def _bad(raw: str, reason: str) -> BadLine:
    return BadLine(raw, reason)


def mapped_contact(raw: str, key: str, board_map: BoardMap | None) -> InputEvent:
    """A raw contact through the board map: a dart, a miss (a catch-ring contact) or unmapped."""
    target = board_map.lookup(key) if board_map is not None else None
    if target is None:
        return UnmappedInput(contact_key(key))
    return _dart(target.cell, raw, target.zone)


def _numbered(number: int, ring: Ring, raw: str, board: Board) -> DartInput | BadLine:
    try:
        cell = board.parse(f"{ring.value}{number}", allow_miss=False)
    except CellError as err:
        return _bad(raw, str(err))
    return DartInput(cell, raw, BullZone.OTHER)


def _single(number: int, raw: str, board: Board) -> DartInput | BadLine:
    """A plain 'single' from a three-ring dialect: the merged single; never guessed on four-ring."""
    if board.profile is not Profile.THREE_RING:
        return _bad(raw, _("a single without inner/outer cannot be a cell of a four-ring board"))
    return _numbered(number, Ring.SMALL, raw, board)


def _bull(inner: bool, raw: str) -> DartInput:
    return DartInput(BULL, raw, BullZone.INNER if inner else BullZone.OUTER)


def _is_comment(text: str) -> bool:
    return not text or text.startswith("#")


# --- dartship --------------------------------------------------------------------------------

_HELLO = re.compile(r"^HELLO\s+dartship/(\S+)\s+(\S+)\s+(\S+)\s*$", re.IGNORECASE)
_RC = re.compile(r"^RC\s+(\d{1,3})\s+(\d{1,3})$", re.IGNORECASE)
_BUTTONS = {"NEXT": Button.NEXT, "UNDO": Button.UNDO, "MISS": Button.MISS}


def hello(text: str, board: Board) -> Info | BadLine:
    """Check a `HELLO dartship/<v> <board-id> <profile>` line against this kiosk."""
    match = _HELLO.match(text)
    if not match:
        return _bad(text, _("a HELLO must read: HELLO dartship/1 <board-id> <four-ring|three-ring>"))
    version, board_id, profile_text = match.groups()
    if version != str(PROTOCOL_VERSION):
        return Info(
            _(
                "board {board} speaks dartship/{version}, this kiosk dartship/{ours}: "
                "update one of them; lines are read as dartship/{ours}"
            ).format(board=board_id, version=version, ours=PROTOCOL_VERSION)
        )
    try:
        profile = Profile.parse(profile_text)
    except CellError as err:
        return Info(_("board {board}: {error}").format(board=board_id, error=err))
    if profile is not board.profile:
        return Info(
            _(
                'board {board} reports {theirs} but the kiosk runs {ours}: set board.profile = "{theirs}"'
            ).format(board=board_id, theirs=profile.value, ours=board.profile.value)
        )
    return Info(
        _("board {board} connected: dartship/{version}, {profile}").format(
            board=board_id, version=version, profile=profile.value
        )
    )


def read_dartship(text: str, board: Board, board_map: BoardMap | None) -> InputEvent | None:
    if _is_comment(text):
        return None
    upper = text.upper()
    if upper.startswith("HELLO"):
        return hello(text, board)
    if upper.startswith("BTN"):
        name = upper[3:].strip()
        if name in _BUTTONS:
            return ButtonInput(_BUTTONS[name])
        return _bad(text, _("unknown button {name!r}: use NEXT, UNDO or MISS").format(name=name))
    match = _RC.match(text)
    if match:
        return mapped_contact(text, f"{match[1]},{match[2]}", board_map)
    if upper == "MISS":
        return MissInput(text)
    try:
        cell = board.parse(text)
    except CellError as err:
        return _bad(text, str(err))
    return _dart(cell, text)


# --- numeric: 320 = T20, 125/225 outer/inner bull --------------------------------------------

_RINGS_BY_FACTOR = {2: Ring.DOUBLE, 3: Ring.TRIPLE}


# dARts (patrickhener) and its successor dascr-machine print the same numbers; their words:
# dARts `FEHLWURF` (the piezo's miss), `KNOPF` (the button), `PFEILE` (the ultrasonic sensor saw
# someone at the board); dascr `m`, `b`, `u` for the same three.
_NUMERIC_WORDS: dict[str, InputEvent | None] = {
    "FEHLWURF": MissInput("FEHLWURF"),
    "M": MissInput("m"),
    "KNOPF": ButtonInput(Button.NEXT),
    "B": ButtonInput(Button.NEXT),
    "PFEILE": None,
    "U": None,
}
# dascr-machine stays silent until the host writes this (state 9: "service connected").
DASCR_HANDSHAKE = b"<s,9>"


def read_numeric(text: str, board: Board, board_map: BoardMap | None) -> InputEvent | None:
    if _is_comment(text):
        return None
    upper = text.upper()
    if upper in _NUMERIC_WORDS:
        word = _NUMERIC_WORDS[upper]
        return MissInput(text) if isinstance(word, MissInput) else word
    if not (text.isascii() and text.isdigit() and len(text) == 3):
        return _bad(text, _("not a numeric dart (like 320 for T20)"))
    factor, number = divmod(int(text), 100)
    return _factor_dart(number, factor, text, board)


# --- x: 20x3, 20o, 20i, Bullseye, Bullseyex2 -------------------------------------------------

_X = re.compile(r"^(\d{1,2})(?:x([123])|([oi]))$", re.IGNORECASE)


def read_x(text: str, board: Board, board_map: BoardMap | None) -> InputEvent | None:
    if _is_comment(text):
        return None
    lower = text.lower()
    if lower in ("bullseye", "bullseyex1"):
        return _bull(False, text)
    if lower == "bullseyex2":
        return _bull(True, text)
    if lower == "miss":
        return MissInput(text)
    match = _X.match(text)
    if not match:
        return _bad(text, _("not an x-dialect dart (like 20x3, 20o, 20i, Bullseye)"))
    number = int(match[1])
    if match[3]:
        return _numbered(number, Ring.LARGE if match[3].lower() == "o" else Ring.SMALL, text, board)
    factor = int(match[2])
    if factor == 1:
        return _single(number, text, board)
    return _numbered(number, _RINGS_BY_FACTOR[factor], text, board)


# --- semicolon: 20;3 -------------------------------------------------------------------------

_PAIR = re.compile(r"^(\d{1,2})\s*[;:]\s*([0-9A-Za-z])$")
_LETTER_FACTOR = {"S": 1, "D": 2, "T": 3}


def _factor_dart(number: int, factor: int, text: str, board: Board) -> InputEvent:
    if number == 25 and factor in (1, 2):
        return _bull(factor == 2, text)
    if factor == 1:
        return _single(number, text, board)
    if factor in _RINGS_BY_FACTOR:
        return _numbered(number, _RINGS_BY_FACTOR[factor], text, board)
    return _bad(text, _("multiplier {factor} is not 1, 2 or 3").format(factor=factor))


def read_semicolon(text: str, board: Board, board_map: BoardMap | None) -> InputEvent | None:
    if _is_comment(text):
        return None
    # maddarts prints `0;1` for its tap sensor: a dart that closed no contact.
    if text.lower() == "miss" or "".join(text.split()) == "0;1":
        return MissInput(text)
    match = _PAIR.match(text)
    if not match or ";" not in text or not match[2].isdigit():
        return _bad(text, _("not a semicolon dart (like 20;3)"))
    return _factor_dart(int(match[1]), int(match[2]), text, board)


def read_colon(text: str, board: Board, board_map: BoardMap | None) -> InputEvent | None:
    if _is_comment(text):
        return None
    if text.lower() == "miss":
        return MissInput(text)
    match = _PAIR.match(text)
    if not match or ":" not in text or match[2].upper() not in _LETTER_FACTOR:
        return _bad(text, _("not a colon dart (like 20:T, 7:S, 25:D)"))
    return _factor_dart(int(match[1]), _LETTER_FACTOR[match[2].upper()], text, board)


# --- raw contacts: rc (3,7) and granboard (3.4@) ---------------------------------------------

_RC_PAIR = re.compile(r"^(\d{1,3})\s*,\s*(\d{1,3})$")
# philharlow/dartboard (OpenDarts): `miss` is its tilt sensor, `missb` its miss button.
_WORDS = {
    "next": ButtonInput(Button.NEXT),
    "undo": ButtonInput(Button.UNDO),
    "missb": ButtonInput(Button.MISS),
}


def read_rc(text: str, board: Board, board_map: BoardMap | None) -> InputEvent | None:
    if _is_comment(text):
        return None
    lower = text.lower()
    if lower == "miss":
        return MissInput(text)
    if lower in _WORDS:
        return _WORDS[lower]
    match = _RC_PAIR.match(text)
    if not match:
        return _bad(text, _("not a raw contact (like 3,7)"))
    return mapped_contact(text, f"{match[1]},{match[2]}", board_map)


_GRAN = re.compile(r"^(\d{1,3})\.(\d{1,3})@$")


def read_granboard(text: str, board: Board, board_map: BoardMap | None) -> InputEvent | None:
    if _is_comment(text):
        return None
    upper = text.upper()
    if upper == "BTN@":
        return ButtonInput(Button.NEXT)
    if upper == "OUT@":  # the board's own "outside" sensor
        return MissInput(text)
    match = _GRAN.match(text)
    if not match:
        return _bad(text, _("not a granboard code (like 3.4@)"))
    return mapped_contact(text, text, board_map if board_map is not None else granboard_table(board.profile))


# --- bracket: the SoftCyD ESP32 GranBoard bridge, <T20> <S20> <SB> <DB> <BTN> <OUT> --------

_BRACKET = re.compile(r"^<([A-Za-z0-9]{1,4})>$")


def read_bracket(text: str, board: Board, board_map: BoardMap | None) -> InputEvent | None:
    if _is_comment(text):
        return None
    match = _BRACKET.match(text)
    if not match:
        return _bad(text, _("not a bridge code (like <T20>, <SB>, <BTN>)"))
    code = match[1].upper()
    if code == "BTN":
        return ButtonInput(Button.NEXT)
    if code == "OUT":
        return MissInput(text)
    if code == "KO":  # the bridge lost the board over Bluetooth; it restarts and scans again
        return Info(_("the GranBoard bridge lost its board: it is searching for it again"))
    if code in ("SB", "DB"):
        return _bull(code == "DB", text)
    factor = _LETTER_FACTOR.get(code[0])
    if factor is None or not code[1:].isdigit():
        return _bad(text, _("not a bridge code (like <T20>, <SB>, <BTN>)"))
    return _factor_dart(int(code[1:]), factor, text, board)


DIALECTS: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect("dartship", read_dartship),
        # dARts prints 0 for its two unused matrix spots (`000` in its table is the int 0).
        Dialect("numeric", read_numeric, Profile.THREE_RING, quiet=re.compile(r"0+")),
        # FynnMcKracken/Darts names its unwired spots `_18`, `_40` ... `_96`.
        Dialect("x", read_x, Profile.FOUR_RING, quiet=re.compile(r"_\d{1,3}")),
        # maddarts: `NULL`; DardosLife: `0:S`, `0:D`, `0:T`.
        Dialect("semicolon", read_semicolon, Profile.THREE_RING, quiet=re.compile(r"NULL")),
        Dialect("colon", read_colon, Profile.THREE_RING, quiet=re.compile(r"0+\s*:\s*[A-Za-z]")),
        Dialect("rc", read_rc, needs_map=True, banner=re.compile(r"OpenDarts", re.IGNORECASE)),
        # Raw GranBoard codes: the published table (granboard_table) unless a map is given.
        Dialect("granboard", read_granboard),
        Dialect("bracket", read_bracket, Profile.THREE_RING),
    )
}


def dialect(name: str) -> Dialect:
    try:
        return DIALECTS[str(name).strip().lower()]
    except KeyError:
        raise ValueError(
            _("unknown dialect {name!r}: use one of {names}").format(name=name, names=", ".join(DIALECTS))
        ) from None


def effective_profile(
    chosen: Dialect, configured: Profile, board_map: BoardMap | None = None
) -> tuple[Profile, Info | None]:
    """The profile the kiosk must run with this dialect (and map), and a note when it differs
    from the configured one."""
    if chosen.profile is Profile.THREE_RING and configured is not Profile.THREE_RING:
        return Profile.THREE_RING, Info(
            _(
                "dialect {name} cannot tell the inner from the outer single: running the three-ring "
                "profile (61 cells)"
            ).format(name=chosen.name)
        )
    if chosen.needs_map and board_map is not None and board_map.profile is not configured:
        return board_map.profile, Info(
            _("the board map is {profile}: running that profile").format(profile=board_map.profile.value)
        )
    return configured, None


def read_line(
    chosen: Dialect, text: str, board: Board, board_map: BoardMap | None = None
) -> InputEvent | None:
    """One decoded line -> its event (None for comments, blank lines and a firmware's unused
    matrix spots). Never raises."""
    if chosen.quiet is not None and chosen.quiet.fullmatch(text):
        return None
    if chosen.banner is not None and chosen.banner.fullmatch(text):
        return Info(
            _("the board says hello: {banner} ({dialect} dialect)").format(banner=text, dialect=chosen.name)
        )
    try:
        return chosen.read(text, board, board_map)
    except Exception as err:  # a dialect bug must not kill the reader; say what happened
        return BadLine(text, _("could not read the line: {error}").format(error=err))


# --- encoding (the fake board) ---------------------------------------------------------------


def encode(
    chosen: Dialect, cell: Cell, zone: BullZone = BullZone.OTHER, board_map: BoardMap | None = None
) -> str:
    """The line a board of this dialect sends for a dart in `cell` (MISS for a miss)."""
    inner = zone is BullZone.INNER
    if not cell.on_board:
        misses = {
            "dartship": "MISS",
            "numeric": "FEHLWURF",
            "granboard": "OUT@",
            "bracket": "<OUT>",
            "semicolon": "0;1",
        }
        return misses.get(chosen.name, "miss")
    if chosen.name == "granboard":
        return _encode_raw(chosen, cell, zone, board_map or granboard_table(Profile.FOUR_RING))
    if chosen.needs_map:
        return _encode_raw(chosen, cell, zone, board_map)
    ring, n = cell.ring, cell.number
    if chosen.profile is Profile.THREE_RING and ring is Ring.LARGE:
        ring = Ring.SMALL
    factor = {Ring.DOUBLE: 2, Ring.TRIPLE: 3, Ring.SMALL: 1, Ring.LARGE: 1}.get(ring, 0)
    name = chosen.name
    if name == "dartship":
        if ring is Ring.BULL:
            return "DB" if inner else ("SB" if zone is BullZone.OUTER else "BULL")
        return cell.code
    if name == "numeric":
        return ("225" if inner else "125") if ring is Ring.BULL else f"{factor}{n:02d}"
    if name == "x":
        if ring is Ring.BULL:
            return "Bullseyex2" if inner else "Bullseye"
        if ring is Ring.LARGE:
            return f"{n}o"
        if ring is Ring.SMALL:
            return f"{n}i"
        return f"{n}x{factor}"
    if name == "semicolon":
        return ("25;2" if inner else "25;1") if ring is Ring.BULL else f"{n};{factor}"
    letter = {1: "S", 2: "D", 3: "T"}
    if name == "colon":
        return ("25:D" if inner else "25:S") if ring is Ring.BULL else f"{n}:{letter[factor]}"
    if name == "bracket":
        return ("<DB>" if inner else "<SB>") if ring is Ring.BULL else f"<{letter[factor]}{n}>"
    raise ValueError(name)


def _encode_raw(chosen: Dialect, cell: Cell, zone: BullZone, board_map: BoardMap | None) -> str:
    if board_map is None:
        raise ValueError(_("dialect {name} needs a board map").format(name=chosen.name))
    best = None
    for raw, target in board_map.contacts.items():
        if target.cell == cell and (best is None or target.zone is zone):
            best = raw
    if best is None:
        return "# " + _("no contact for {cell}").format(cell=cell.code)
    if chosen.name == "rc":
        return best
    if chosen.name == "dartship":
        return "RC " + best.replace(",", " ")
    return best
