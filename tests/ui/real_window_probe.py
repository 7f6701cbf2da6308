"""The kiosk as `dartship run` starts it, in a real window, checked the way a player sees it.

Run by `tests/ui/test_touch_real_window.py`, one process per case (Kivy opens one window per
process), on a real display (Xvfb where the machine has none):

    python -m tests.ui.real_window_probe FOLDER PHASE WIDTH HEIGHT

The database is prepared with a game at PHASE (`placing`, `bull_off` or `throwing`); the kiosk
is built by the composition root and the app runs on its asyncio loop exactly as in `dartship
run` (a window of display.width x display.height, `App.async_run`), so the board screen shown is
a resumed game's first appearance. For every board screen met on the way (placement, bull-off,
game), each the first time it appears, the probe reads the window's pixels, finds the drawn board
by its colours and taps the middle of what is drawn, through Kivy's input path. One JSON line per
screen on stdout; the test judges them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sys
import traceback
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from kiosk.darts.match import house_rules

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kiosk.app.root import build_kiosk
from kiosk.board import BULL, Cell, Ring
from kiosk.config import ConfigFile, Settings, check_values
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Place, Setup, Start, Team
from kiosk.house import Kiosk
from kiosk.service import GameService
from kiosk.store import Store

# The drawn board's own colours (ui/touch/theme.py): no mark, text or panel uses them.
BOARD_COLOURS = ("20262c", "4a4f55", "5a2528", "1f4a30")


def prepare(db: Path, phase: str) -> None:
    """A stored game left at `phase`, as a power cut would leave it."""
    service = GameService(Store(db), follow_ups=False)
    rules = house_rules(Settings())
    service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
    rng = random.Random(3)
    if phase in ("bull_off", "throwing"):
        for team in (0, 1):
            service.submit(Place(team, random_fleet(rules.board, rules.fleet, rng)))
        service.submit(Start(None if phase == "bull_off" else 0))
    assert service.store is not None
    service.store.close()


class Frames:
    """Await Kivy's frames (its clock ticks once per frame) instead of guessing times."""

    def __init__(self) -> None:
        from kivy.clock import Clock

        self.count = 0
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        Clock.schedule_interval(self._ticked, 0)

    def _ticked(self, *_args: Any) -> None:
        self.count += 1
        for target, future in list(self._waiters):
            if self.count >= target and not future.done():
                future.set_result(None)
                self._waiters.remove((target, future))

    async def wait(self, frames: int = 6) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((self.count + frames, future))
        await asyncio.wait_for(future, timeout=30)


def drawn_board(near: tuple[float, float, float, float]) -> dict[str, Any] | None:
    """The bounding box (window pixels, origin bottom left) of what is drawn in board colours
    within `near` (left, bottom, right, top; the board widget's square and a margin round it,
    so that text elsewhere whose anti-aliased edges happen to match a board colour is not met).
    Only runs of a few such pixels count, for the same reason."""
    return drawn_in([tuple(int(c[i : i + 2], 16) for i in (0, 2, 4)) for c in BOARD_COLOURS], near)


def drawn_in(
    colours: list[tuple[int, ...]], near: tuple[float, float, float, float]
) -> dict[str, Any] | None:
    """The bounding box of runs of at least 3 pixels of any of `colours` within `near`."""
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    width, height = Window.size
    data = glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE)
    left, bottom = max(0, int(near[0])), max(0, int(near[1]))
    right, top = min(width, int(near[2]) + 1), min(height, int(near[3]) + 1)
    xs: list[int] = []
    ys: list[int] = []
    row = 3 * width
    for y in range(bottom, top):
        line = data[y * row : (y + 1) * row]
        run = 0
        for x in range(left, right):
            r, g, b = line[3 * x], line[3 * x + 1], line[3 * x + 2]
            if any(abs(r - w[0]) <= 2 and abs(g - w[1]) <= 2 and abs(b - w[2]) <= 2 for w in colours):
                run += 1
                if run >= 3:
                    xs += (x - 2, x)
                    ys.append(y)
            else:
                run = 0
    if not xs:
        return None
    return {"left": min(xs), "right": max(xs), "bottom": min(ys), "top": max(ys)}


def board_widget(screen: Any) -> Any:
    return getattr(screen, "board_view", None) or getattr(screen, "radar", None)


async def look(app: Any, frames: Frames, kiosk: Any) -> dict[str, Any]:
    """Photograph the current board screen, then tap the middle of the drawn board."""
    from kivy.core.window import Window

    from ui.touch.darts.dartboard import DOUBLE_OUTER_R
    from ui.touch.fingers import tap_at

    await frames.wait()
    app._hide_toast()  # a notice of the board's start ("board connected") may lie over it
    await frames.wait(2)
    screen = app.sm.current_screen
    view = board_widget(screen)
    # Where the board should be: its widget's middle, in window pixels.
    middle = view.to_window(view.x + view.width / 2, view.y + view.height / 2)
    half = max(view.width, view.height) * 0.6
    box = drawn_board((middle[0] - half, middle[1] - half, middle[0] + half, middle[1] + half))
    report: dict[str, Any] = {
        "screen": screen.name,
        "window": list(Window.size),
        "drawn": box,
        "widget_middle": list(middle),
        "radius_px": DOUBLE_OUTER_R * view.scale,
    }
    if box is None:
        return report
    x = (box["left"] + box["right"]) / 2
    y = (box["bottom"] + box["top"]) / 2
    before = DARTS.in_play(kiosk.service)
    version = before.version if before is not None else None
    draft_before = set(screen.draft.cells()) if screen.name == "placement" else None
    tap_at(x, y)
    await frames.wait()
    match = DARTS.in_play(kiosk.service)
    assert match is not None
    if screen.name == "placement":
        report["tapped"] = (
            "BULL"
            if BULL in set(screen.draft.cells()) - (draft_before or set())
            else sorted(c.code for c in screen.draft.cells())
        )
    elif screen.name == "bull_off":
        zones = [z.value for z in match.bull_off_zones() if z is not None]
        report["tapped"] = "BULL" if zones and zones[-1] in ("inner", "outer", "bull") else zones
    else:
        report["tapped"] = (
            match.last_dart().code if match.version != version and match.last_dart() is not None else None
        )
    return report


async def run_app(kiosk: Any, *, headless: bool = False) -> tuple[Any, asyncio.Task[None], Frames]:
    """The app on the kiosk's loop as `dartship run` runs it, once its first frame is drawn
    (`headless`: in SDL's offscreen window, as `dartship run --headless` draws nothing)."""
    from ui.touch.app import make_app

    app = make_app(kiosk, headless=headless)  # the window opens here, sized by the settings
    drawn = asyncio.Event()
    kiosk.ready = drawn.set
    running = asyncio.get_running_loop().create_task(app.async_run(async_lib="asyncio"))
    await asyncio.wait_for(drawn.wait(), timeout=60)
    return app, running, Frames()


@contextlib.asynccontextmanager
async def running(kiosk: Kiosk, *, headless: bool = False) -> AsyncIterator[tuple[Any, Frames]]:
    """The app on the kiosk's loop (`run_app`) for the block; after it, however it ends: an
    error's traceback on the real stderr (Kivy's logger holds sys.stderr), then the app and the
    kiosk stopped. For a probe that prints its own lines (one per screen); `reporting` for one
    that fills one report."""
    app, task, frames = await run_app(kiosk, headless=headless)
    try:
        yield app, frames
    except Exception:
        traceback.print_exc(file=sys.__stderr__)
        raise
    finally:
        app.stop()
        await task
        await kiosk.stop()


@contextlib.asynccontextmanager
async def reporting(
    kiosk: Kiosk, *, headless: bool = False
) -> AsyncIterator[tuple[Any, Frames, dict[str, Any]]]:
    """`running`, and an empty report for the block to fill, printed (so far as it got) as one
    JSON line on stdout for the test to judge, however the block ends."""
    report: dict[str, Any] = {}
    async with running(kiosk, headless=headless) as (app, frames):
        try:
            yield app, frames, report
        finally:
            print(json.dumps(report), flush=True)


async def window_kiosk(
    db: Path,
    width: int,
    height: int,
    settings: dict[str, object] | None = None,
    *,
    config_path: Path | None = None,
    voice_cache: Path | None = None,
) -> Kiosk:
    """The kiosk a probe's real window shows: its database `db`, a window of that size, the
    simulator board, no phone page unless `settings` (checked like a config file's) say so."""
    typed, problems = check_values(
        {
            "web.enabled": False,
            "display.width": width,
            "display.height": height,
            "kiosk.database": str(db),
            "board.input": "simulator",
            **(settings or {}),
        }
    )
    assert not problems, problems
    return await build_kiosk(ConfigFile(config_path, typed), rng=random.Random(1), voice_cache=voice_cache)


async def main(folder: Path, phase: str, width: int, height: int) -> None:
    db = folder / "kiosk.db"
    prepare(db, phase)
    kiosk = await window_kiosk(db, width, height)
    from ui.touch.fingers import press, tap_at

    async with running(kiosk) as (app, frames):
        if phase == "placing":
            # The hand-over first; the board appears when a team opens it.
            await frames.wait()
            press(None, "Sharks: place on this screen")
            print(json.dumps(await look(app, frames, kiosk)), flush=True)
            for team in ("Sharks", "Jets"):
                if app.sm.current_screen.team is None:
                    press(None, f"{team}: place on this screen")
                    await frames.wait()
                press(None, "Random fleet")
                press(None, "Lock in")
                await frames.wait()
        print(json.dumps(await look(app, frames, kiosk)), flush=True)
        if app.sm.current_screen.name == "bull_off":
            # The Jets' dart far from the bull: the Sharks (who hit it) start, the game appears.
            view = board_widget(app.sm.current_screen)
            tap_at(*view.to_window(*view.point_of(Cell(Ring.DOUBLE, 3))))
            await frames.wait()
            print(json.dumps(await look(app, frames, kiosk)), flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
