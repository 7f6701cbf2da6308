"""The classic screens as `dartship run` shows them, in a real window, checked as a player sees
them. Run by `tests/ui/test_touch_real_window.py`, one process per case:

    python -m tests.ui.real_window_classic_probe FOLDER CASE WIDTH HEIGHT [PICTURE]

CASE `solo`: a classic solo game stored in the computer's turn (a power cut just after the
team's miss); the kiosk starts on it, the computer goes on by itself, and the probe finds the
drawn radar by its water colour and taps the middle of one of its squares twice, through
Kivy's input path, which must fire at that square. CASE `duel`: a duel whose two team phones
(real HTTP clients of the kiosk's phone page) open their links; both radars must be drawn.
One JSON line on stdout (`reporting`; a duel's: both grids); the test judges it. PICTURE: the
window as a PNG.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kiosk.classic.computer import ComputerSeat
from kiosk.classic.grid import GRID, parse_square
from kiosk.classic.match import ComputerLevel, Fire, Mode, Setup
from kiosk.classic.table import start
from kiosk.classic.wire import CLASSIC
from kiosk.service import GameService
from kiosk.store import Store
from tests.ui.real_window_probe import drawn_in, reporting, window_kiosk

WATER = (0x1B, 0x3A, 0x57)  # ui/touch/theme.py WATER: drawn only as the grids' squares
BACKGROUND = (0x10, 0x18, 0x20)
DIMMED = 0.55  # the grid of the team not on turn (GridView.dimmed)
# The water as drawn: full, or faded over the background.
WATERS = (WATER, tuple(round(w * DIMMED + b * (1 - DIMMED)) for w, b in zip(WATER, BACKGROUND, strict=True)))


def prepare(db: Path, case: str) -> None:
    service = GameService(Store(db))
    if case == "solo":
        start(service, Setup(Mode.SOLO, ("Sharks",), level=ComputerLevel.EASY), random.Random(3))
        match = CLASSIC.in_play(service)
        assert match is not None and match.fleet(1) is not None
        ships = {s for ship in match.fleet(1).ships for s in ship.cells}
        service.submit(Fire(0, next(s for s in GRID.squares if s not in ships)))
        assert match.computer_to_move
    else:
        start(service, Setup(Mode.DUEL, ("Sharks", "Jets")), random.Random(3))
    assert service.store is not None
    service.store.close()


def water_box(near: tuple[float, float, float, float]) -> dict[str, Any] | None:
    """Where the water is drawn within `near`: full, or faded (the grid not on turn)."""
    return drawn_in(list(WATERS), near)


def grid_report(grid: Any) -> dict[str, Any]:
    from kivy.core.window import Window

    x0, y0 = grid.to_window(grid.x, grid.y)
    box = water_box((x0 - 20, y0 - 20, x0 + grid.width + 20, y0 + grid.height + 20))
    a1 = grid.to_window(*grid.point_of(parse_square("A1")))
    j10 = grid.to_window(*grid.point_of(parse_square("J10")))
    return {"window": list(Window.size), "drawn": box, "a1": list(a1), "j10": list(j10), "step": grid.step}


async def main(folder: Path, case: str, width: int, height: int, picture: str | None) -> None:
    db = folder / "kiosk.db"
    prepare(db, case)
    kiosk = await window_kiosk(
        db,
        width,
        height,
        {"web.enabled": True, "web.host": "127.0.0.1", "web.port": 0, "solo.shot_seconds": 0},
    )
    from ui.touch.fingers import photograph, tap_at

    async with reporting(kiosk) as (app, frames, report), contextlib.AsyncExitStack() as phones:
        await frames.wait()
        app._hide_toast()
        match = CLASSIC.in_play(kiosk.service)
        assert match is not None
        if case == "duel":
            import aiohttp

            web = kiosk.web
            assert web is not None
            for team in (0, 1):
                phone = await phones.enter_async_context(
                    aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
                )
                token = web.team_url(team).rsplit("/", 1)[1]
                async with phone.get(f"{web.base_url}/api/classic/team/{token}") as answer:
                    assert answer.status == 200
                await frames.wait()
            await frames.wait()
            screen = app.sm.current_screen
            report["screen"] = screen.name
            report["grids"] = [grid_report(grid) for grid in screen.grids]
        else:
            for _ in range(300):  # the computer's turn goes on by itself after the restart
                if not match.computer_to_move and kiosk.participant(ComputerSeat).idle:
                    break
                await frames.wait(1)
            await frames.wait()
            app._hide_toast()
            screen = app.sm.current_screen
            report.update(screen=screen.name, computer_fired=match.shots(1), **grid_report(screen.big))
            box = report["drawn"]
            if box is not None:
                # The drawn square E5, found from what is drawn: 5th of 10 columns and rows.
                step = (box["right"] - box["left"]) / 10
                x = box["left"] + 4.5 * step
                y = box["top"] - 4.5 * step
                before = set(match.radar(0).shots)
                for _tap in (1, 2):
                    tap_at(x, y)
                    await frames.wait(2)
                report["tapped"] = [s.code for s in set(match.radar(0).shots) - before]
        if picture:
            await frames.wait(2)
            photograph(picture)


if __name__ == "__main__":
    asyncio.run(
        main(
            Path(sys.argv[1]),
            sys.argv[2],
            int(sys.argv[3]),
            int(sys.argv[4]),
            sys.argv[5] if len(sys.argv) > 5 else None,
        )
    )
