"""Two screens the screenshots of 2026-12-02 changed, in German, in a real window as `dartship
run` shows them: the Stats page after a dart game, and Battleship Express's table of four
people with a ship chosen:

    python -m tests.ui.real_window_shots_probe FOLDER WIDTH HEIGHT

The kiosk comes from the composition root over a store with a finished dart game and runs as
`dartship run` runs it (`App.async_run` on its loop); Home's Stats and Express buttons, the
players, "Reihen legen", "Los geht's" and a ship are tapped through Kivy's input path. One JSON
line: each heading cell of the Stats tables (its font and the font it was made for), and each
tile's note with its ink and the room it keeps from its tile's edges; FOLDER/stats.png and
FOLDER/express.png are the window's own pixels.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from tests.ui.real_window_lineup_probe import lay_out_the_lines
from tests.ui.real_window_probe import reporting, window_kiosk

NAMES = ("Ann", "Bo", "Cy", "Di")


def finished_game(db: Path) -> None:
    """A dart game played to its end (Sharks sink every Jets ship), stored."""
    from kiosk.app.screenshots import started_dart_game
    from kiosk.darts.kind import DARTS
    from kiosk.darts.match import Next, Phase, Throw
    from kiosk.store import Store

    store = Store(db)
    service, fleets = started_dart_game(store, 5)
    for _dart in range(400):
        match = DARTS.in_play(service)
        if match is None or match.phase is Phase.OVER:
            break
        if match.phase is Phase.TAKEOUT:
            service.submit(Next())
            continue
        team = match.up_next()[0]
        assert team is not None
        targets = [c for ship in fleets[1 - team].ships for c in ship.cells if c not in match.shots(team)]
        service.submit(Throw(targets[0]))
    store.close()


async def main(folder: Path, width: int, height: int) -> None:
    db = folder / "kiosk.db"
    finished_game(db)
    from kiosk.i18n import set_language

    set_language("de")  # as `dartship run` sets the config's kiosk.language before the kiosk
    kiosk = await window_kiosk(db, width, height, {"kiosk.language": "de"})
    async with reporting(kiosk) as (app, frames, report):
        from kiosk.express.rules import Ship
        from ui.touch.express.lines import frame_room
        from ui.touch.fingers import photograph, press, tap
        from ui.touch.fitting import ink
        from ui.touch.table import Table

        await frames.wait()
        app._hide_toast()  # the board's "connected" notice
        report["first_screen"] = app.sm.current  # the result card of the game just over
        if app.sm.current != "home":
            app.go("home")  # its buttons wait a moment against a tap meant for the last dart
            await frames.wait(3)
        press(None, "Statistik")
        await frames.wait(6)
        report["stats_screen"] = app.sm.current
        report["headings"] = [
            {"text": cell.text, "font": cell.font_size, "made_for": cell.fit[0], "width": cell.width}
            for table in app.sm.current_screen.walk()
            if isinstance(table, Table)
            for cell in table.children
            if getattr(cell, "fit", None) and cell.fit[2] == 2  # a heading: up to two lines
        ]
        photograph(folder / "stats.png")
        press(None, "Zurück")
        await frames.wait(3)
        tap(app.screen("home").game_buttons["express"])
        await frames.wait(3)
        setup = app.sm.current_screen
        while setup.count.value != len(NAMES):
            tap(setup.count)
        for seat, name in enumerate(NAMES):
            while setup.seats[seat].value is not None:  # a person, not the computer
                tap(setup.seats[seat])
            setup.names[seat].text = name
        await frames.wait(2)
        await lay_out_the_lines(app, frames, "Reihen legen")
        press(None, "Los geht's")
        await frames.wait(6)
        table = app.sm.current_screen
        report["table_screen"] = table.name
        me = table.match.turn
        tap(table.rows[me].tiles[Ship.BATTLESHIP])
        for _wait in range(200):  # the chosen ship slides to the front
            await frames.wait(2)
            if all(row.settled for row in table.rows):
                break
        await frames.wait(3)
        room = frame_room()
        report["notes"] = []
        for row in table.rows:
            for tile in row.tiles.values():
                box = ink(tile.note)
                if box is None:
                    continue
                report["notes"].append(
                    {
                        "text": tile.note.text,
                        "font": tile.note.font_size,
                        "ink": list(box),
                        "tile": [tile.x, tile.y, tile.right, tile.top],
                        "room": room,
                    }
                )
        photograph(folder / "express.png")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
