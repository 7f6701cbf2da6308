"""Reading tests/hardware/firmwares/*.txt: what a public firmware prints and what must register."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from hardware.boardmap import BoardMap, from_pairs
from kiosk.inputs import ButtonInput, DartInput, MissInput, StuckInput

FOLDER = Path(__file__).parent / "firmwares"
_LINE = re.compile(r'^(\S+)\s+(b"(?:[^"\\]|\\.)*")\s*(.*)$')


@dataclass(frozen=True)
class Sent:
    at: float
    data: bytes
    expect: str | None  # "dart T20", "miss", "button next", "stuck T20"; None: nothing


@dataclass
class Firmware:
    name: str
    dialect: str
    baud: int | None = None
    handshake: bytes | None = None
    board_map: BoardMap | None = None
    sent: list[Sent] = field(default_factory=list)

    @property
    def expected(self) -> list[str]:
        return [s.expect for s in self.sent if s.expect is not None]


def load(path: Path) -> Firmware:
    firmware = Firmware(path.stem, "")
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            key, sep, value = line[1:].strip().partition(": ")
            if sep and key == "dialect":
                firmware.dialect = value.strip()
            elif sep and key == "baud":
                firmware.baud = int(value)
            elif sep and key == "handshake":
                firmware.handshake = value.strip().encode()
            elif sep and key == "map":
                firmware.board_map = from_pairs(tuple(p.split("=")) for p in value.split())
            continue
        if not line.strip():
            continue
        match = _LINE.match(line)
        assert match, f"{path.name}: {line!r}"
        at, literal, expect = match.groups()
        firmware.sent.append(
            Sent(
                float(at), ast.literal_eval(literal), None if expect.strip() in ("", "-") else expect.strip()
            )
        )
    assert firmware.dialect, path
    return firmware


def every() -> list[Firmware]:
    return [load(p) for p in sorted(FOLDER.glob("*.txt"))]


def registered(events: list[object]) -> list[str]:
    """The events of a run as the fixtures write them (news and notes left out)."""
    out = []
    for event in events:
        if isinstance(event, DartInput):
            out.append(f"dart {event.cell.code}")
        elif isinstance(event, MissInput):
            out.append("miss")
        elif isinstance(event, ButtonInput):
            out.append(f"button {event.button.value}")
        elif isinstance(event, StuckInput):
            out.append(f"stuck {event.cell.code}")
    return out
