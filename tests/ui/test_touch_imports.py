"""Importing the touchscreen's modules opens no window. Kivy opens its window when
`kivy.core.window` is first imported (`kivy.uix.textinput`, `kivy.uix.dropdown` and others import
it), at the size Kivy is configured for by then: a screen's module imported before the app has
configured Kivy (by a test, a tool, a probe) used to open Kivy's default 800x600 window, and every
screen of that process was laid out in it. In a fresh process: every module of ui.touch imported
one by one, none opens the window; then Kivy configured as the kiosk configures it opens it at the
configured size."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import importlib, json, pkgutil, sys
import ui.touch

opened_by = None
names = sorted(m.name for m in pkgutil.walk_packages(ui.touch.__path__, "ui.touch."))
for name in names:
    importlib.import_module(name)
    if "kivy.core.window" in sys.modules:
        opened_by = name
        break
report = {"imported": len(names), "opened_by": opened_by}
if opened_by is None:
    from kiosk.config import ConfigFile, check_values
    from ui.touch import kivy_setup

    typed, problems = check_values({"display.width": 640, "display.height": 400})
    assert not problems, problems
    kivy_setup.configure(ConfigFile(None, typed).settings, headless=True)
    from kivy.core.window import Window

    report["window"] = list(Window.size)
print(json.dumps(report))
"""


def test_no_module_of_the_touchscreen_opens_the_window_when_imported(tmp_path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "KIVY_HOME": str(tmp_path / "kivy"),
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
    }
    env.pop("KIVY_WINDOW", None)
    env.pop("SDL_VIDEODRIVER", None)  # kivy_setup.configure(headless=True) chooses SDL's offscreen
    done = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["imported"] > 60  # every screen, widget and game room of ui.touch
    assert report["opened_by"] is None, f"importing {report['opened_by']} opened Kivy's window"
    assert report["window"] == [640, 400]  # opened later, at the size the kiosk configured
