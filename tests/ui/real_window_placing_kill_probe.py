"""A dart team placing its fleet on the touchscreen, in a real window, killed with SIGKILL mid
placing and started again (tests/ui/test_touch_placing_kill.py):

    python -m tests.ui.real_window_placing_kill_probe FOLDER WIDTH HEIGHT place|again OUT

`place`: over a database whose dart game is at the placing (Sharks v Jets, nothing locked in),
the kiosk from the composition root runs as `dartship run` runs it; "Sharks: place on this
screen", taps on D20 and T3 of the drawn board and Turn go through Kivy's input path (a ship of
5, a ship of 4 turned once, still turnable from T3). It prints one JSON line (the draft shown)
and waits to be killed. `again`: the kiosk started anew on that database; what the window shows
first (the screen, whether the board is drawn, by its pixels, and any ship), in OUT-handover.png,
then after a tap on "Sharks: place on this screen" (the draft), in OUT-draft.png: one JSON line.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from tests.ui.real_window_lineup_kill_probe import print_now
from tests.ui.real_window_probe import BOARD_COLOURS, prepare, reporting, window_kiosk


def board_share() -> float:
    """The share of the window's pixels in the drawn board's own colours (no text, mark or
    panel uses them): a board drawn covers a good part of the window, a hand-over none of it
    (only a few anti-aliased edges of its text may come close)."""
    import numpy as np
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    width, height = Window.size
    pixels = np.frombuffer(glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE), np.uint8)
    pixels = pixels[: width * height * 3].reshape(-1, 3).astype(np.int16)
    hit = np.zeros(len(pixels), bool)
    for colour in BOARD_COLOURS:
        wanted = np.array([int(colour[i : i + 2], 16) for i in (0, 2, 4)], np.int16)
        hit |= (np.abs(pixels - wanted) <= 2).all(axis=1)
    return float(hit.mean())


def shown(app: Any) -> dict[str, Any]:
    """What the window shows of the placement: its labels, whether the board is drawn (its
    own colours anywhere in the window), and the draft's ships when a team's is open."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    screen = app.sm.current_screen
    draft = getattr(screen, "draft", None)
    width, height = Window.size
    return {
        "screen": screen.name,
        "window": [width, height],
        "team": getattr(screen, "team", None),
        "labels": [w.text for w in app.root.walk() if isinstance(w, Label) and w.opacity > 0 and w.text],
        "board_share": board_share(),
        "marks": sorted(c.code for c in screen.board_view.marks) if screen.name == "placement" else None,
        "ships": [s.code for s in draft.ships] if draft is not None else None,
        "next": draft.next_length if draft is not None else None,
    }


async def main(folder: Path, width: int, height: int, phase: str, out: Path) -> None:
    db = folder / "kiosk.db"
    if phase == "place":
        prepare(db, "placing")
    kiosk = await window_kiosk(db, width, height)
    async with reporting(kiosk) as (app, frames, report):
        from kiosk.board import Cell, Ring
        from ui.touch.fingers import photograph, press, tap_at

        await frames.wait()
        app._hide_toast()  # the board's "connected" notice
        await frames.wait(3)
        if phase == "again":
            report["handover"] = shown(app)
            photograph(f"{out}-handover.png")
            press(None, "Sharks: place on this screen")
            await frames.wait(6)
            report["draft"] = shown(app)
            photograph(f"{out}-draft.png")
            return
        press(None, "Sharks: place on this screen")
        await frames.wait(6)
        view = app.sm.current_screen.board_view
        for cell in (Cell(Ring.DOUBLE, 20), Cell(Ring.TRIPLE, 3)):
            tap_at(*view.to_window(*view.point_of(cell)))
            await frames.wait(3)
        press(None, "Turn")
        await frames.wait(6)
        report.update(shown(app))
        photograph(f"{out}-placed.png")
        print_now(report)
        await asyncio.sleep(3600)  # the test kills the kiosk here, with SIGKILL


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], Path(sys.argv[5])))
