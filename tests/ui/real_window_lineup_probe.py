"""Battleship Express's line-up with three or four people, in a real window, and the longest
notice the kiosk gets shown over it (a serial board's garbled line):

    python -m tests.ui.real_window_lineup_probe FOLDER WIDTH HEIGHT PLAYERS OUT.png [long]

(`long`: the longest message the kiosk says instead, a toast of three lines at 80 %.)

The kiosk comes from the composition root and runs as `dartship run` runs it (`App.async_run`
on its loop); Home's Express button, the number of players, each seat made a person and named,
"Lay out the lines" are tapped through Kivy's input path; the notice arrives as a board's line
does, on the service's queue. One JSON line: the toast's box and font, the controls it lies
over, and the boxes of the prompt, the players' names and colour stripes; the window in OUT.png.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from tests.ui.real_window_probe import reporting, window_kiosk

NAMES = ("Ann", "Bo", "Cy", "Di")


async def lay_out_the_lines(app: Any, frames: Any, label: str = "Lay out the lines") -> Any:
    """The setup's "Lay out the lines" (`label`, in the screen's language), tapped; the screen
    once the computers' lines are laid."""
    from ui.touch.fingers import press

    await frames.wait(2)
    press(None, label)
    for _wait in range(200):
        await frames.wait(2)
        if app.sm.current == "express_lineup" and app.sm.current_screen.ready:
            break
    return app.sm.current_screen


async def main(
    folder: Path, width: int, height: int, players: int, picture: Path, long: bool = False
) -> None:
    kiosk = await window_kiosk(folder / "kiosk.db", width, height)
    async with reporting(kiosk) as (app, frames, report):
        from kiosk.app.tour.driver import GARBLED_LINE
        from kiosk.i18n import _
        from kiosk.inputs import BadLine
        from ui.touch import theme
        from ui.touch.fingers import photograph, tap
        from ui.touch.fitting import laid_out
        from ui.touch.toast import covered, widget_box

        def box(widget: object) -> list[float]:
            found = widget_box(widget)  # type: ignore[arg-type]
            return [found.x, found.y, found.right, found.top]

        await frames.wait()
        app._hide_toast()  # the board's "connected" notice
        tap(app.screen("home").game_buttons["express"])
        await frames.wait(3)
        setup = app.sm.current_screen
        while setup.count.value != players:
            tap(setup.count)
        for seat in range(players):
            while setup.seats[seat].value is not None:  # a person, not the computer
                tap(setup.seats[seat])
            setup.names[seat].text = NAMES[seat]
        screen = await lay_out_the_lines(app, frames)
        report["screen"] = screen.name
        if long:
            from tests.ui.test_touch_toast import VERY_LONG

            app.toast(VERY_LONG)
        else:
            kiosk.service.queue.put_nowait(BadLine(GARBLED_LINE, _("no dialect reads this line")))
        await frames.wait(6)
        panel, text = app.toast_panel, app.toast_label
        report["window"] = [width, height]
        report["shown"] = panel.opacity == 1
        report["toast"] = box(panel)
        report["font"] = text.font_size
        report["full_font"] = theme.sizes()(20)  # a toast's font where nothing is in its way
        report["covered"] = covered(panel)
        report["lines"] = len(laid_out(text))
        report["prompt"] = box(screen.prompt)
        report["names"] = [box(row.name) for row in screen.rows]
        report["stripes"] = []
        for row in screen.rows:
            (x, y), (w, h) = row._stripe.pos, row._stripe.size  # the player's colour
            report["stripes"].append([*row.to_window(x, y), *row.to_window(x + w, y + h)])
        photograph(picture)


if __name__ == "__main__":
    asyncio.run(
        main(
            Path(sys.argv[1]),
            int(sys.argv[2]),
            int(sys.argv[3]),
            int(sys.argv[4]),
            Path(sys.argv[5]),
            sys.argv[6:] == ["long"],
        )
    )
