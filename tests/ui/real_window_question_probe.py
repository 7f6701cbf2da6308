"""The new-game question in a real window (`dartship run`'s app on a real X display), run by
tests/ui/test_touch_real_window.py:

    python -m tests.ui.real_window_question_probe FOLDER WIDTH HEIGHT

A resumed dart game in play; New game's "Place fleets" by a real touch path: the question shows
(photographed to FOLDER/question.png), "Keep playing" goes back to the game; again, and "Start
new game" abandons it and starts the new one. One JSON line on stdout; the test judges it.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.ui.real_window_probe import prepare, reporting, window_kiosk


async def main(folder: Path, width: int, height: int) -> None:
    db = folder / "kiosk.db"
    prepare(db, "throwing")
    kiosk = await window_kiosk(db, width, height)
    async with reporting(kiosk) as (app, frames, report):
        # Only now: importing Kivy's window opens it, at the size the app's setup chose.
        from kivy.core.window import Window

        from ui.touch.fingers import press

        await frames.wait()
        report["window"] = list(Window.size)
        game = kiosk.service.game
        report["resumed_on"] = app.sm.current
        app.go("new_game")
        await frames.wait()
        press(None, "Place fleets")
        await frames.wait()
        report["asked"] = app.asking is not None
        Window.screenshot(str(folder / "question.png"))
        press(None, "Keep playing")
        await frames.wait()
        report["kept"] = [kiosk.service.game == game, app.sm.current, app.asking is None]
        app.go("new_game")
        await frames.wait()
        press(None, "Place fleets")
        await frames.wait()
        press(None, "Start new game")
        await frames.wait()
        row = kiosk.store.db.execute("SELECT status FROM games WHERE id=?", [game]).fetchone()
        report["after"] = [row[0], kiosk.service.game != game, app.sm.current]


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
