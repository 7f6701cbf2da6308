"""The board map: which raw contact is which cell (PROTOCOLS.md 1, board map).

A TOML file, made by `dartship learn` and editable by hand:

    profile = "four-ring"
    [contacts]
    "3,7" = "T20"
    "0,0" = "SB"     # outer bull: the spelling is kept so a bull-off can tell SB from DB

Raw contacts are the strings the board sends (`3,7`, `3.4@`) or the GPIO matrix's `row,col`.
A contact that is not in the map is `unmapped`, never guessed.
"""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.board import Board, BullZone, Cell, CellError, Profile, board_for, bull_zone
from kiosk.errors import DartshipError
from kiosk.i18n import _

log = logging.getLogger("dartship.boardmap")
_NUMBER = re.compile(r"\d+")
LISTED = 12  # missing cells named in `BoardMap.check`; the rest are counted


class BoardMapError(DartshipError, ValueError):
    """A map file that cannot be used at all (unreadable, not TOML). `problems` says why."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def contact_key(raw: str) -> str:
    """One spelling per contact: no blanks, no leading zeros (`" 03, 7"` is `"3,7"`)."""
    text = "".join(str(raw).split())
    return _NUMBER.sub(lambda m: str(int(m.group())), text)


@dataclass(frozen=True)
class Target:
    """What a contact means: a cell, and the spelling it was learned as (SB/DB for the bull)."""

    cell: Cell
    spelling: str

    @property
    def zone(self) -> BullZone:
        return bull_zone(self.spelling, self.cell)


@dataclass(frozen=True)
class BoardMap:
    profile: Profile = Profile.FOUR_RING
    contacts: Mapping[str, Target] = field(default_factory=dict)
    problems: tuple[str, ...] = ()  # what was wrong in the file; the good entries are kept

    def lookup(self, raw: str) -> Target | None:
        return self.contacts.get(contact_key(raw))

    @property
    def board(self) -> Board:
        return board_for(self.profile)

    def missing(self) -> tuple[Cell, ...]:
        """Cells of the profile that no contact reports."""
        mapped = {t.cell for t in self.contacts.values()}
        return tuple(c for c in self.board.cells if c not in mapped)

    def check(self) -> list[str]:
        """Everything a person should fix: problems in the file, then missing cells."""
        messages = list(self.problems)
        missing = self.missing()
        if len(missing) > LISTED:
            # Named a few at a time: the Learn screen's message and a terminal's line stay
            # readable (the wizard asks for each missing cell in turn anyway).
            messages.append(
                _("{count} cells have no contact: {cells} and {more} more").format(
                    count=len(missing),
                    cells=" ".join(c.code for c in missing[:LISTED]),
                    more=len(missing) - LISTED,
                )
            )
        elif missing:
            messages.append(
                _("{count} cells have no contact: {cells}").format(
                    count=len(missing), cells=" ".join(c.code for c in missing)
                )
            )
        return messages

    def with_contact(self, raw: str, target: Target) -> BoardMap:
        contacts = dict(self.contacts)
        contacts[contact_key(raw)] = target
        return BoardMap(self.profile, contacts, self.problems)

    def to_toml(self) -> str:
        lines = [
            _("# Dartship board map: raw contact = cell. Made by `dartship learn`; edit freely."),
            f'profile = "{self.profile.value}"',
            "",
            "[contacts]",
        ]
        for raw, target in sorted(self.contacts.items(), key=lambda kv: _sort_key(kv[0])):
            lines.append(f'"{_escape(raw)}" = "{target.spelling}"')
        return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _sort_key(raw: str) -> tuple:
    return (*(int(n) for n in _NUMBER.findall(raw)), raw)


def from_pairs(
    pairs: Iterable[tuple[str, str]], profile: Profile = Profile.FOUR_RING, where: str = "map"
) -> BoardMap:
    """Build a map from (raw, spelling) pairs, collecting every problem instead of failing."""
    board = board_for(profile)
    contacts: dict[str, Target] = {}
    first_raw: dict[str, str] = {}
    problems: list[str] = []
    for raw, spelling in pairs:
        key = contact_key(raw)
        if not key:
            problems.append(_("{where}: an empty contact name").format(where=where))
            continue
        try:
            cell = board.parse(str(spelling))
        except CellError as err:
            problems.append(_("{where}: contact {raw!r}: {error}").format(where=where, raw=raw, error=err))
            continue
        if key in contacts:
            problems.append(
                _(
                    "{where}: contact {key!r} is mapped twice ({first!r} = {a}, "
                    "{raw!r} = {b}); the first is kept"
                ).format(
                    where=where,
                    key=key,
                    first=first_raw[key],
                    a=contacts[key].spelling,
                    raw=raw,
                    b=str(spelling).strip().upper(),
                )
            )
            continue
        contacts[key] = Target(cell, str(spelling).strip().upper())
        first_raw[key] = raw
    return BoardMap(profile, contacts, tuple(problems))


def parse(text: str, where: str = "map") -> BoardMap:
    """Read a map from TOML text. Unusable entries become `problems`; only broken TOML raises."""
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise BoardMapError([_("{where}: not valid TOML: {error}").format(where=where, error=err)]) from None
    except RecursionError:  # a map nested thousands deep: the reader gives up, so do we
        raise BoardMapError([_("{where}: not valid TOML: nested too deeply").format(where=where)]) from None
    problems: list[str] = []
    profile = Profile.FOUR_RING
    if "profile" in table:
        try:
            profile = Profile.parse(str(table["profile"]))
        except CellError as err:
            problems.append(f"{where}: {err}")
    contacts = table.get("contacts", {})
    if not isinstance(contacts, dict):
        problems.append(_('{where}: [contacts] must be a table of "contact" = "cell"').format(where=where))
        contacts = {}
    pairs = []
    for raw, value in contacts.items():
        if not isinstance(value, str):
            problems.append(
                _('{where}: contact {raw!r}: the cell must be text like "T20"').format(where=where, raw=raw)
            )
            continue
        pairs.append((raw, value))
    built = from_pairs(pairs, profile, where)
    return BoardMap(profile, built.contacts, tuple(problems) + built.problems)


def load(path: Path | str) -> BoardMap:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise BoardMapError(
            [_("{path}: cannot read the board map: {error}").format(path=path, error=err)]
        ) from None
    return parse(text, str(path))


def load_for_board(path: Path | str) -> BoardMap:
    """A map a running board takes at once (`kiosk.ports.MappedBoard.use_map`): loaded, what it
    lacks told in the journal one line at a time (`check`: the file's problems, then the missing
    cells, each once), not to the game: Learn board, which saved the map, says it on its screen
    (a toast of the same words stood over it). BoardMapError (a ValueError) when it cannot be
    read at all."""
    board_map = load(path)
    for problem in board_map.check():
        log.warning("board map %s: %s", path, problem)
    return board_map


def save(board_map: BoardMap, path: Path | str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(board_map.to_toml(), encoding="utf-8")
    tmp.replace(path)


def demo_map(profile: Profile = Profile.FOUR_RING, style: str = "rc") -> BoardMap:
    """A made-up but complete map (fake board, simulated matrix): every cell one contact.

    `rc` style numbers contacts `row,col` ten to a row; `granboard` style `row.col@`.
    """
    board = board_for(profile)
    pairs: list[tuple[str, str]] = []
    spellings = [c.code for c in board.cells if c.code != "BULL"] + ["SB", "DB"]
    for i, spelling in enumerate(spellings):
        row, col = divmod(i, 10)
        raw = f"{row}.{col}@" if style == "granboard" else f"{row},{col}"
        pairs.append((raw, spelling))
    return from_pairs(pairs, profile, "demo")
