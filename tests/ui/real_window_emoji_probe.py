"""Team names with emoji in a real window (`dartship run`'s app on a real X display), run by
tests/ui/test_touch_emoji_names.py:

    python -m tests.ui.real_window_emoji_probe FOLDER WIDTH HEIGHT

A stored dart game of "🎯 Jets" and "Die 🍺 Brüder", resumed with its first visit to throw, as
the kiosk comes back to it after a restart. The scoreboard's labels that name the teams are
read from the window's own pixels (glReadPixels: what the display shows, not a texture)
twice: as drawn, and with each emoji replaced by a character no font has (the box). One JSON
line on stdout (the label, whether its pixels differed); FOLDER/emoji_real_window.png.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from kiosk.config import Settings
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Place, Setup, Start, Team, house_rules
from kiosk.service import GameService
from kiosk.store import Store
from tests.ui.real_window_probe import reporting, window_kiosk

TEAMS = (Team("🎯 Jets", ("Ann",)), Team("Die 🍺 Brüder", ("Cy",)))
BOX = "\U000f0000"


def prepare(db: Path) -> None:
    service = GameService(Store(db), follow_ups=False)
    rules = house_rules(Settings())
    service.new_game(DARTS, Setup(TEAMS, rules))
    rng = random.Random(3)
    for team in (0, 1):
        service.submit(Place(team, random_fleet(rules.board, rules.fleet, rng)))
    service.submit(Start(0))
    assert service.store is not None
    service.store.close()


async def main(folder: Path, width: int, height: int) -> None:
    db = folder / "kiosk.db"
    prepare(db)
    kiosk = await window_kiosk(db, width, height)
    async with reporting(kiosk) as (app, frames, report):
        from kivy.core.window import Window
        from kivy.uix.label import Label

        from ui.touch.fingers import photograph

        await frames.wait()
        report["window"] = list(Window.size)
        report["screen"] = app.sm.current
        app._hide_toast()
        await frames.wait()
        photograph(folder / "emoji_real_window.png")
        labels = [
            w
            for w in app.sm.current_screen.walk()
            if isinstance(w, Label) and w.opacity > 0 and ("🎯" in w.text or "🍺" in w.text)
        ]

        from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

        def read(label: Label) -> bytes:
            """The window's pixels over the label, as the display shows them."""
            x, y = (int(v) for v in label.to_window(label.x, label.y))
            return glReadPixels(x, y, int(label.width), int(label.height), GL_RGBA, GL_UNSIGNED_BYTE)

        found = []
        for label in labels:
            text = label.text
            drawn = read(label)
            label.text = text.replace("🎯", BOX).replace("🍺", BOX)
            await frames.wait(2)
            as_box = read(label)
            label.text = text
            await frames.wait(2)
            found.append([text, drawn != as_box])
        report["labels"] = found


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
