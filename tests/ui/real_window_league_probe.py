"""Settings -> League in a real window, driven by taps the way the bar owner does it:

    python -m tests.ui.real_window_league_probe FOLDER HUB_URL CODE OUT.png [WIDTHxHEIGHT]

The kiosk (kiosk mode: no cursor, Kivy's docked on-screen keyboard) comes from the composition
root and runs as `dartship run` runs it (`App.async_run` on its loop). The probe taps Settings on
Home, the PIN on the keypad, League, then each text field and every letter of the pairing code
and the hub's address on the on-screen keyboard (found by asking the keyboard which key lies
under each point, then tapped through Kivy's input path); with the keyboard up it reports
where Back, Join and the field being typed into stand against the keyboard's top, taps Back
(Settings must come) and League again; then Join; it waits (frames, the loop
going on) for the answer. One JSON line on stdout for the test to judge; the window at the end
in OUT.png.
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


def keyboard() -> Any:
    from kivy.core.window import Window
    from kivy.uix.vkeyboard import VKeyboard

    found = [w for w in Window.children if isinstance(w, VKeyboard)]
    return found[0] if found else None


def key_points(vk: Any) -> dict[str, tuple[float, float]]:
    """Window point of each character of the keyboard's current layout mode."""
    points: dict[str, tuple[float, float]] = {}
    steps = 120
    for i in range(steps):
        for j in range(24):
            x, y = vk.width * (i + 0.5) / steps, vk.height * (j + 0.5) / 24
            if vk.collide_margin(x, y):
                continue
            key = vk.get_key_at_pos(x, y)
            if key is None:
                continue
            (_shown, internal, _keycode, _size), _where = key  # internal: what the key types
            if internal and len(internal) == 1 and internal not in points:
                points[internal] = vk.to_window(*vk.to_parent(x, y))
    return points


async def type_on_keyboard(text: str, frames: Any) -> list[str]:
    """Tap each character on the docked keyboard; the characters it did not have."""
    from ui.touch.fingers import tap_at

    vk = keyboard()
    points = key_points(vk)
    missing = []
    for char in text:
        if char not in points:
            missing.append(char)
            continue
        tap_at(*points[char])
        await frames.wait(1)
    return missing


def above_keyboard(widget: Any, vk: Any) -> bool:
    """Whether the whole widget is shown above the docked keyboard (and inside the window)."""
    from kivy.core.window import Window

    _x, bottom = widget.to_window(*widget.pos)
    return bool(widget.height > 0 and bottom >= vk.top and bottom + widget.height <= Window.height)


async def open_league(app: Any, kiosk: Any, frames: Any) -> str:
    """Tap Settings on Home, the PIN on the keypad and League, in the kiosk's language; the
    screen Settings brought (the PIN's)."""
    from kiosk.app.tour.driver import label
    from ui.touch.fingers import press

    await frames.wait()
    app._hide_toast()
    press(None, label("Settings"))
    await frames.wait()
    after_settings = str(app.sm.current)
    for digit in kiosk.settings.kiosk.pin:
        press(None, digit)
    press(None, label("OK"))
    await frames.wait()
    press(None, label("League"))
    await frames.wait()
    return after_settings


async def main(folder: Path, hub: str, code: str, out: Path, size: tuple[int, int]) -> None:
    kiosk = await window_kiosk(
        folder / "kiosk.db",
        *size,
        {"display.kiosk_mode": True, "league.hold_seconds": 0},
        config_path=folder / "config.toml",
    )
    from ui.touch.fingers import photograph, press, tap, tap_at

    async with reporting(kiosk) as (app, frames, report):
        report["after_settings"] = await open_league(app, kiosk, frames)
        screen = app.sm.current_screen
        report["screen"] = screen.name
        tap(screen.code_field)
        await frames.wait()
        vk = keyboard()
        report["keyboard"] = vk is not None
        if vk is not None:
            report["keyboard_top"] = vk.top
            report["missing"] = await type_on_keyboard(code.lower(), frames)
            tap(screen.hub_field)
            await frames.wait()
            report["missing"] += await type_on_keyboard(hub, frames)
            await frames.wait()
            vk = keyboard()
            report["above_keyboard"] = {
                name: vk is not None and above_keyboard(widget, vk)
                for name, widget in (
                    ("code", screen.code_field),
                    ("hub", screen.hub_field),
                    ("join", screen.join_button),
                    ("back", screen.back_button),
                )
            }
            # Join and Leave share one place: a kiosk in no league shows only Join.
            report["leave_shown"] = screen.leave_button.get_root_window() is not None
            photograph(out.with_name(out.stem + "_typing.png"))
            # Back, tapped where it stands while the keyboard is up, through Kivy's input path.
            back = screen.back_button
            tap_at(*back.to_window(back.center_x, back.center_y))
            await frames.wait()
            report["after_back"] = app.sm.current
            press(None, "League")
            await frames.wait()
        report["typed"] = [screen.code_field.text, screen.hub_field.text]
        press(None, "Join")
        report["asking"] = screen.joining is not None
        for _ in range(600):
            if screen.joining is None:
                break
            await frames.wait(1)
        await frames.wait()
        report["message"] = screen.message.text
        report["status"] = screen.status.text
        report["hub_saved"] = kiosk.settings.league.hub
        photograph(out)


if __name__ == "__main__":
    width, height = (int(n) for n in (sys.argv[5] if len(sys.argv) > 5 else "800x480").split("x"))
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], sys.argv[3], Path(sys.argv[4]), (width, height)))
