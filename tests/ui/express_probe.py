"""A kiosk started on a stored Battleship Express game, as `dartship run` starts it, looked at
the way a player sees it. Run by `tests/ui/test_touch_express_window.py`, one process per case
(Kivy opens one window per process):

    python -m tests.ui.express_probe FOLDER STAGE WIDTH HEIGHT [--offscreen]

STAGE is where a power cut stopped the game: `carrier` (the Admiral's Carrier has rolled and
waits for its target) or `rolled` (an attack was stored while its dice were still rolling on
screen). The kiosk is built by the composition root over that store and the app runs on its
asyncio loop (`App.async_run`), in a real window (Xvfb where there is none) or SDL's offscreen
one. The probe prints one JSON line: the screen shown, the faces on the table and the faces the
store holds for that roll, where every ship tile and die is drawn, and what a tap on the tiles
did; and photographs the window. The test judges it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kiosk.app.screenshots import express_in_play
from kiosk.express.rules import Ship
from tests.ui.real_window_probe import reporting, window_kiosk


def buttons(screen: Any) -> list[list[float]]:
    """Where every button and ship tile of a screen is drawn (window pixels)."""
    from kivy.uix.behaviors import ButtonBehavior

    return [
        box(w)
        for w in screen.walk(restrict=True)
        if isinstance(w, ButtonBehavior) and w.opacity > 0 and w.get_root_window()
    ]


def box(widget: Any) -> list[float]:
    left, bottom = widget.to_window(widget.x, widget.y)
    return [left, bottom, left + widget.width, bottom + widget.height]


async def main(folder: Path, stage: str, width: int, height: int, offscreen: bool) -> None:
    db = folder / "kiosk.db"
    stored = express_in_play(db, stage)
    kiosk = await window_kiosk(db, width, height)
    async with reporting(kiosk, headless=offscreen) as (app, frames, report):
        from kivy.core.window import Window

        from ui.touch.fingers import photograph, tap_at

        await frames.wait()
        app._hide_toast()
        await frames.wait(2)
        screen = app.sm.current_screen
        report["screen"] = screen.name
        report["window"] = list(Window.size)
        report["stored"] = stored
        tray = screen.tray
        shown = [d.face.value for d in tray.kept[: tray.aside] if d.face is not None]
        shown += [d.face.value for d in tray.rolling[: tray.in_play] if d.face is not None and d.opacity > 0]
        report["shown"] = shown
        report["tiles"] = [box(tile) for row in screen.rows for tile in row.tiles.values()]
        report["dice"] = [box(d) for d in tray.rolling[: tray.in_play]]
        report["prompt"] = screen.prompt.text
        photograph(folder / f"express_resumed_{stage}.png")
        match = screen.match
        # A tap on the drawn tiles, through Kivy's input path, as a finger would.
        if stage == "carrier":
            target = screen.rows[1].tiles[Ship.PATROL_BOAT]
            tap_at(*target.to_window(*target.center))
            await frames.wait(3)
            report["target"] = None if screen.target is None else screen.target.ship.value
        else:
            ship = screen.rows[1].tiles[match.line(1)[0]]
            tap_at(*ship.to_window(*ship.center))
            await frames.wait(3)
            report["attacker"] = None if screen.attacker is None else screen.attacker.value
        # From Home, a new game by touch: the setup and the lines screens, each as drawn.
        from ui.touch.fingers import press, tap

        press(None, "Home")
        await frames.wait(3)
        tap(app.screen("home").game_buttons["express"])  # Home's game choice (ui/touch/games.py)
        await frames.wait(3)
        report["setup"] = {"screen": app.sm.current, "buttons": buttons(app.sm.current_screen)}
        press(None, "Lay out the lines")
        for _wait in range(200):
            await frames.wait(2)
            if app.sm.current_screen.ready:
                break
        report["lineup"] = {"screen": app.sm.current, "buttons": buttons(app.sm.current_screen)}
        photograph(folder / "express_lineup.png")
        press(None, "Start")
        await frames.wait(3)
        # The stored game is still in play: the kiosk asks before it ends it.
        report["asked"] = app.asking is not None
        if app.asking is not None:
            press(None, "Start new game")
            await frames.wait(3)
        report["started"] = app.sm.current


if __name__ == "__main__":
    asyncio.run(
        main(
            Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), "--offscreen" in sys.argv[5:]
        )
    )
