"""The caller in the live app: `dartship run`'s window on its asyncio loop, Kivy's clock
running, the caller's thread playing through Kivy's SDL2 audio (SDL's `disk` driver, set by the
test, writes what would be heard to a file).

    python -m tests.ui.real_window_caller_probe FOLDER PHASE WIDTH HEIGHT

A resumed game at PHASE (`throwing`, as `real_window_probe` prepares it); one dart is tapped
on the drawn board. One JSON line: the calls the caller started (its journal lines), whether the
speaker was silent, and the last dart.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

from kiosk.board import Cell, Ring
from kiosk.darts.kind import DARTS
from tests.ui.real_window_probe import board_widget, prepare, reporting, window_kiosk


class Calls(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("caller: "):
            self.said.append(message)


async def main(folder: Path, phase: str, width: int, height: int) -> None:
    db = folder / "kiosk.db"
    prepare(db, phase)
    calls = Calls()
    logging.getLogger("dartship.caller").addHandler(calls)
    logging.getLogger("dartship.caller").setLevel(logging.INFO)
    kiosk = await window_kiosk(
        db, width, height, {"caller.say_cell": True}, voice_cache=folder / "voice-cache"
    )
    from ui.touch.fingers import tap_at

    async with reporting(kiosk) as (app, frames, report):
        type(kiosk).ready(kiosk)  # what the app's first frame tells (run_app listens in its place)
        await frames.wait()
        caller = kiosk.caller
        assert caller is not None
        view = board_widget(app.sm.current_screen)
        tap_at(*view.to_window(*view.point_of(Cell(Ring.TRIPLE, 20))))
        for _ in range(600):  # the caller's thread plays while Kivy's frames go on
            await frames.wait(1)
            if calls.said and caller.idle():
                break
        match = DARTS.in_play(kiosk.service)
        report["said"] = calls.said
        report["silent"] = caller.silent
        report["dart"] = match.last_dart().code if match and match.last_dart() else None


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
