"""Simulated fingers: touches that travel Kivy's real input path (window, grabs, widgets).

Used by `dartship screenshots` and the tests to drive the screens exactly like a person.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from collections.abc import Iterator, Sequence

from kivy.base import EventLoop
from kivy.input.motionevent import MotionEvent
from kivy.uix.widget import Widget

_ids = itertools.count(1000)


class Finger(MotionEvent):
    def __init__(self, x: float, y: float) -> None:
        win = EventLoop.window
        super().__init__(
            "dartship-finger",
            next(_ids),
            {"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)},
            is_touch=True,
            type_id="touch",
        )
        self.profile = ["pos"]

    def depack(self, args: dict[str, float]) -> None:
        self.sx, self.sy = args["x"], args["y"]
        super().depack(args)

    def down(self) -> None:
        EventLoop.post_dispatch_input("begin", self)

    def move_to(self, x: float, y: float) -> None:
        win = EventLoop.window
        self.move({"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)})
        EventLoop.post_dispatch_input("update", self)

    def up(self) -> None:
        EventLoop.post_dispatch_input("end", self)


def frames(count: int = 2) -> None:
    """Let Kivy run `count` frames (layout, clock callbacks, drawing): for callers that drive
    Kivy's frames themselves (the tour)."""
    for _ in range(count):
        EventLoop.idle()


async def drawn_frames(count: int = 6) -> None:
    """Wait until Kivy's own running loop (`App.async_run`) has run `count` more frames: its
    clock ticks once a frame, so no time is guessed."""
    import asyncio

    from kivy.clock import Clock

    loop = asyncio.get_running_loop()
    done = loop.create_future()
    left = [count]

    def tick(_dt: float) -> bool:
        left[0] -= 1
        if left[0] > 0:
            return True
        if not done.done():
            done.set_result(None)
        return False

    Clock.schedule_interval(tick, 0)
    await done


def photograph(path: str | os.PathLike[str]) -> str | os.PathLike[str]:
    """The window as it is drawn now, as a PNG file."""
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    width, height = Window.size
    data = glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE)
    Window._win.save_bytes_in_png(str(path), data, width, height)
    return path


def tap_at(x: float, y: float) -> None:
    finger = Finger(x, y)
    finger.down()
    finger.up()
    frames(1)


def tap(widget: Widget) -> None:
    """Tap the middle of a widget, wherever it is in the window."""
    frames(1)
    x, y = widget.to_window(*widget.center)
    tap_at(x, y)


def drag(points: Sequence[tuple[float, float]]) -> None:
    finger = Finger(*points[0])
    finger.down()
    for x, y in points[1:]:
        finger.move_to(x, y)
    finger.up()
    frames(1)


def button(root: Widget | None, text: str) -> Widget:
    """The visible, enabled button on screen with this text (tests fail loudly if missing)."""
    from kivy.uix.button import Button

    # Popups (ModalView) sit on the window beside the app's root: search every top widget,
    # the topmost first, as a finger would meet them.
    tops = list(EventLoop.window.children) if root is None else [root]
    found = [
        w
        for top in tops
        for w in top.walk(restrict=True)
        if isinstance(w, Button)
        and w.text == text
        and not w.disabled
        and w.opacity > 0
        and w.get_root_window() is not None
    ]
    if not found:
        raise LookupError(f"no button {text!r} on screen")
    return found[0]


def press(root: Widget | None, text: str) -> None:
    tap(button(root, text))


POPUP_LEAVES_SECONDS = 5.0  # far past Kivy's 0.1 s fade-out, on a loaded machine too


@contextlib.contextmanager
def popups_leave() -> Iterator[None]:
    """Whatever a popup on the window closes in the block (its Close pressed, a tap that ends
    it), the block ends only when that popup is off the window. Kivy's popup (ModalView)
    leaves the window when its closing animation ends, 0.1 s of the clock later, and until
    then it takes every touch: the next press, a moment after a Close, fell on it
    (`dartship screenshots` and the tests press one button after another). Frames run until
    it is gone (bounded: a popup that refused to close is left as it is)."""
    from kivy.uix.modalview import ModalView

    closing: list[ModalView] = []

    def dismissed(view: ModalView, *_args: object) -> None:
        closing.append(view)

    views = [top for top in EventLoop.window.children if isinstance(top, ModalView)]
    for view in views:
        view.bind(on_pre_dismiss=dismissed)
    try:
        yield
    finally:
        for view in views:
            view.unbind(on_pre_dismiss=dismissed)
    deadline = time.monotonic() + POPUP_LEAVES_SECONDS
    while any(view.parent is not None for view in closing) and time.monotonic() < deadline:
        frames(1)
