"""Settings -> League while the owner types, in a real window, in the kiosk's language:

    python -m tests.ui.real_window_league_keyboard_probe FOLDER HUB_URL OUT.png WIDTHxHEIGHT LANG

The kiosk (kiosk mode: Kivy's docked on-screen keyboard) comes from the composition root and runs
as `dartship run` runs it. The probe taps Settings, the PIN, League; types a well formed pairing
code and the address of a hub that is not there on the on-screen keyboard; taps Join where it
stands while the keyboard is up; waits for the answer (the hub cannot be reached: the longest
message the screen gives, and the status then names the error too); then taps the code field
again, so the keyboard is up over that answer, and reports where each control and text stands
against the keyboard's top and whether each text shows every word (`ui.touch.fitting`); then a
board's long notice comes (a garbled line) and it reports what the toast lies over. One
JSON line on stdout for the test to judge; the window with the keyboard up in OUT.png.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kiosk.app.tour.driver import GARBLED_LINE
from tests.ui.real_window_league_probe import above_keyboard, keyboard, open_league, type_on_keyboard
from tests.ui.real_window_probe import reporting, window_kiosk

CODE = "abcd-efgh-jkmn"  # well formed (12 letters and digits), never issued


async def main(folder: Path, hub: str, out: Path, size: tuple[int, int], language: str) -> None:
    from kiosk.i18n import set_language

    set_language(language)  # as `dartship run` does before it builds the kiosk
    kiosk = await window_kiosk(
        folder / "kiosk.db",
        *size,
        {"display.kiosk_mode": True, "league.hold_seconds": 0, "kiosk.language": language},
        config_path=folder / "config.toml",
    )
    async with reporting(kiosk) as (app, frames, report):
        from ui.touch import theme
        from ui.touch.fingers import photograph, tap, tap_at
        from ui.touch.fitting import label_faults
        from ui.touch.screens.league import TEXT_UNITS

        await open_league(app, kiosk, frames)
        screen = app.sm.current_screen
        report["screen"] = screen.name
        tap(screen.code_field)
        await frames.wait()
        report["missing"] = await type_on_keyboard(CODE, frames)
        tap(screen.hub_field)
        await frames.wait()
        report["missing"] += await type_on_keyboard(hub, frames)
        report["typed"] = [screen.code_field.text, screen.hub_field.text]
        vk = keyboard()
        join = screen.join_button
        report["join_above_keyboard"] = vk is not None and above_keyboard(join, vk)
        tap_at(*join.to_window(join.center_x, join.center_y))  # where it stands, keyboard up
        report["asking"] = screen.joining is not None
        for _ in range(600):
            if screen.joining is None:
                break
            await frames.wait(1)
        await frames.wait()
        tap(screen.code_field)  # back to typing: the keyboard over the answer
        await frames.wait()
        vk = keyboard()
        report["keyboard"] = vk is not None
        window = (float(app.root.get_root_window().width), float(app.root.get_root_window().height))
        report["window"] = list(window)
        if vk is not None:
            report["keyboard_top"] = vk.top
            widgets = {
                "back": screen.back_button,
                "join": screen.join_button,
                "code": screen.code_field,
                "hub": screen.hub_field,
                "message": screen.message,
                "status": screen.status,
            }
            report["above_keyboard"] = {name: above_keyboard(w, vk) for name, w in widgets.items()}
            report["bottoms"] = {name: w.to_window(*w.pos)[1] for name, w in widgets.items()}
            report["faults"] = {name: label_faults(widgets[name], window) for name in ("message", "status")}
            report["font_share"] = screen.status.font_size / theme.sizes()(TEXT_UNITS)
            # A board's notice while the owner types: clear of the keyboard and of every control.
            from kiosk.i18n import _
            from kiosk.inputs import BadLine
            from ui.touch.toast import covered

            kiosk.service.queue.put_nowait(BadLine(GARBLED_LINE, _("no dialect reads this line")))
            for _frame in range(300):
                if app.toast_panel.opacity:
                    break
                await frames.wait(1)
            await frames.wait()
            report["toast_shown"] = bool(app.toast_panel.opacity)
            report["toast_covers"] = covered(app.toast_panel)
            photograph(out.with_name(out.stem + "_toast.png"))
            app._hide_toast()
            await frames.wait()
        report["message"] = screen.message.text
        report["status"] = screen.status.text
        photograph(out)


if __name__ == "__main__":
    width, height = (int(n) for n in sys.argv[4].split("x"))
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), (width, height), sys.argv[5]))
