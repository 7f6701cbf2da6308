"""Next tapped twice in a real window (`dartship run`'s app on a real X display), run by
tests/ui/test_touch_real_window.py:

    python -m tests.ui.real_window_next_probe FOLDER WIDTH HEIGHT

A resumed dart game; the Sharks' three darts tapped on the drawn board through Kivy's input
path; Next tapped twice in a row by real touches, on the kiosk's real clock (the window is the
config's `rules.double_next_seconds`). The toast is photographed (FOLDER/next_twice.png). One
JSON line on stdout; the test judges it.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from kiosk.board import Cell, Ring
from kiosk.darts.kind import DARTS
from tests.ui.real_window_probe import board_widget, prepare, reporting, window_kiosk


async def main(folder: Path, width: int, height: int) -> None:
    db = folder / "kiosk.db"
    prepare(db, "throwing")
    # A window wide enough for a loaded machine between two taps (the default is 1.5 s).
    kiosk = await window_kiosk(db, width, height, {"rules.double_next_seconds": 10})
    async with reporting(kiosk) as (app, frames, report):
        # Only now: importing Kivy's window opens it, at the size the app's setup chose.
        from kivy.core.window import Window

        from ui.touch.fingers import photograph, press, tap_at

        await frames.wait()
        report["window"] = list(Window.size)
        app._hide_toast()  # "board connected" and the like
        view = board_widget(app.sm.current_screen)
        for number in (20, 1, 18):  # the Sharks' visit, tapped on the drawn board
            tap_at(*view.to_window(*view.point_of(Cell(Ring.SMALL, number))))
            await frames.wait(2)
        match = DARTS.in_play(kiosk.service)
        assert match is not None
        report["before"] = [match.phase.value, match.state().visit, match.darts_thrown]
        press(None, "Next")
        press(None, "Next")  # the second tap of a double tap
        await frames.wait()
        state = match.state()
        report["after"] = [state.phase.value, state.visit, state.dart, list(state.darts)]
        report["toast"] = app.toast_label.text if app.toast_panel.opacity == 1 else None
        photograph(folder / "next_twice.png")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
