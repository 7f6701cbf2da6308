"""Settings -> League with Kivy's docked keyboard up, in a real window (Xvfb where there is no
display), at the Pi's 800x480, 1280x720 and 1920x1080, in English, German and Finnish: after a
join the hub did not answer (the longest message and status the screen gives), the owner types
again, and Back, Join, both fields, the whole message and the whole status stand above the
keyboard, every word of them shown; and a board's notice then shown lies over none of them, nor
over the keyboard. The probe (`tests/ui/real_window_league_keyboard_probe.py`)
reports; this test judges. No hub is needed: the address typed is a port nobody listens on."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("language", ["en", "de", "fi"])
@pytest.mark.parametrize("size", ["800x480", "1280x720", "1920x1080"])
def test_the_whole_league_screen_stays_above_the_keyboard(
    tmp_path, artefacts: Path, size: str, language: str
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    shot = artefacts / f"settings_league_keyboard_{size}_{language}.png"
    probe = [
        sys.executable,
        "-m",
        "tests.ui.real_window_league_keyboard_probe",
        str(tmp_path),
        url,
        str(shot),
        size,
        language,
    ]
    if not os.environ.get("DISPLAY"):
        if shutil.which("xvfb-run") is None:
            pytest.skip("no display and no xvfb-run (Debian package xvfb)")
        probe = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", *probe]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIVY_HOME": str(tmp_path / "kivy")}
    env.pop("SDL_VIDEODRIVER", None)  # a real window, not the offscreen one
    env.pop("KIVY_WINDOW", None)
    done = subprocess.run(probe, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    report = json.loads([line for line in done.stdout.splitlines() if line.startswith("{")][-1])
    assert report["screen"] == "league"
    assert report["missing"] == [] and report["typed"] == ["abcd-efgh-jkmn", url]
    assert report["join_above_keyboard"] and report["asking"]
    assert url in report["message"]  # the hub's answer: it cannot be reached at that address
    assert report["keyboard"], report
    assert report["above_keyboard"] == {
        name: True for name in ("back", "join", "code", "hub", "message", "status")
    }, report
    assert report["faults"] == {"message": [], "status": []}, report
    assert report["toast_shown"] and report["toast_covers"] == [], report  # nor the keyboard
