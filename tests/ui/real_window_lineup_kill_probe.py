"""Battleship Express's line-up in a real window, killed with SIGKILL mid line-up and started
again (tests/ui/test_touch_express_window.py):

    python -m tests.ui.real_window_lineup_kill_probe FOLDER WIDTH HEIGHT lay|again OUT.png

`lay`: over a database whose last Express game is over (its result card shows, as the bar's
did), the kiosk from the composition root runs as `dartship run` runs it; the result card's
New game, the Captain's game, "Lay out the lines", and two taps on Ann's tiles (a swap) go
through Kivy's input path. Once the computer's line is laid it prints one JSON line (the
lines shown) and waits to be killed. `again`: the kiosk started anew on that database; one
JSON line of what the window shows (the screen, its players, lines, variant, points, whether
Start can be tapped), the window in OUT.png.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from tests.ui.real_window_lineup_probe import lay_out_the_lines
from tests.ui.real_window_probe import reporting, window_kiosk


def finished_game(db: Path) -> None:
    """The last game of the night: Ann, Bo and the computer, won by Ann's first attack (its
    result card is what the kiosk came back to)."""
    from kiosk.express.match import Attack, Phase, QueueDice, Setup, Target
    from kiosk.express.rules import FLEET, Ship
    from kiosk.express.wire import EXPRESS
    from kiosk.service import GameService
    from kiosk.store import Store

    store = Store(db)
    service = GameService(store, follow_ups=False)
    lines = [list(FLEET), list(reversed(FLEET)), list(FLEET)]
    first = lines[0][0]
    setup = Setup.create(
        ["Ann", "Bo", "Kiosk"], seed=23, lines=lines, computers=[None, None, "normal"], points_to_win=1
    )
    service.new_game(EXPRESS, setup)
    target = next(ship for ship in lines[1][:2] if ship is not Ship.CARRIER)
    service.submit(QueueDice((target.face,) * 15))
    service.submit(Attack(first if first is not Ship.CARRIER else lines[0][1], Target(1, target)))
    match = EXPRESS.in_play(service)
    assert match is not None and match.phase is Phase.OVER, "the last game did not end"
    store.close()


def shown(screen: Any) -> dict[str, Any]:
    draft = screen.draft
    return {
        "screen": screen.name,
        "lines": [None if line is None else [ship.value for ship in line] for line in screen.lines],
        "names": list(draft.names) if draft is not None else None,
        "computers": list(draft.computers) if draft is not None else None,
        "variant": draft.variant.value if draft is not None else None,
        "points": draft.points_to_win if draft is not None else None,
        "ready": screen.ready,
        "start_enabled": not screen.start_button.disabled,
    }


async def main(folder: Path, width: int, height: int, phase: str, picture: Path) -> None:
    db = folder / "kiosk.db"
    if phase == "lay":
        finished_game(db)
    kiosk = await window_kiosk(db, width, height)
    async with reporting(kiosk) as (app, frames, report):
        from ui.touch.fingers import photograph, press, tap, tap_at

        await frames.wait()
        if phase == "again":
            for _wait in range(100):  # a computer's line not laid before the kill comes now
                await frames.wait(2)
                if app.sm.current_screen.name != "express_lineup" or app.sm.current_screen.ready:
                    break
            app._hide_toast()
            await frames.wait(3)
            screen = app.sm.current_screen
            report["screen"] = screen.name
            if screen.name == "express_lineup":
                report.update(shown(screen))
            photograph(picture)
            return
        app._hide_toast()  # the board's "connected" notice
        report["opened_on"] = app.sm.current  # the last game's result card
        press(None, "New game")  # its players and choices, the lines to lay out anew
        await frames.wait(3)
        setup = app.sm.current_screen
        while setup.variant.value.value != "captain":  # the Captain's game: a choice kept too
            tap(setup.variant)
        screen = await lay_out_the_lines(app, frames)
        ann = screen.rows[0]
        first, last = screen.lines[0][0], screen.lines[0][4]
        for ship in (first, last):  # a finger's two taps: the first and last ship swap
            tile = ann.tiles[ship]
            tap_at(*tile.to_window(*tile.center))
            await frames.wait(3)
        report.update(shown(screen))
        report["swapped"] = [first.value, last.value]
        photograph(picture)
        print_now(report)
        await asyncio.sleep(3600)  # the test kills the kiosk here, with SIGKILL


def print_now(report: dict[str, Any]) -> None:
    import json

    print(json.dumps(report), flush=True)
    report.clear()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], Path(sys.argv[5])))
