"""What `dialect = "auto"` found on each serial port, remembered between starts.

A small JSON file in the kiosk's data folder (`boards.json` beside the database):
`{"/dev/serial/by-id/usb-...": {"dialect": "x", "baud": 9600}}`. The next start reads the
board at once in that dialect and speed; a board that then speaks otherwise is told again.
A file that cannot be read or written costs only the memory, never the board.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("dartship.serial")


@dataclass(frozen=True)
class KnownBoard:
    dialect: str
    baud: int


class KnownBoards:
    def __init__(self, path: Path | str | None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()

    def _read(self) -> dict[str, dict]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as err:
            log.warning("%s cannot be read (%s): the boards are told again", self.path, err)
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, port: str) -> KnownBoard | None:
        entry = self._read().get(port)
        if not isinstance(entry, dict):
            return None
        dialect, baud = entry.get("dialect"), entry.get("baud")
        if isinstance(dialect, str) and isinstance(baud, int) and not isinstance(baud, bool):
            return KnownBoard(dialect, baud)
        return None

    def remember(self, port: str, board: KnownBoard) -> None:
        if self.path is None:
            return
        with self._lock:
            data = self._read()
            data[port] = {"dialect": board.dialect, "baud": board.baud}
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                tmp = self.path.with_suffix(".tmp")
                tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
                os.replace(tmp, self.path)
            except OSError as err:
                log.warning("%s cannot be written (%s): the board is told again next time", self.path, err)

    def all(self) -> dict[str, KnownBoard]:
        found = {}
        for port in self._read():
            board = self.get(port)
            if board is not None:
                found[port] = board
        return found
