"""Settings -> League in a real window (Xvfb where there is no display), as `dartship run` runs
the app in kiosk mode: Settings, the PIN, League, the pairing code and the hub's address typed
key by key on Kivy's docked on-screen keyboard, Join; against a real hub process on a real
PostgreSQL. The probe (`tests/ui/real_window_league_probe.py`) reports; this test judges."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.test_touch_league import _hub, _league

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("size", ["800x480", "1280x720", "1920x1080"])
def test_joining_a_league_by_taps_on_the_real_window(database, tmp_path, artefacts: Path, size: str) -> None:
    """Also: with the keyboard up, Back, Join and both fields stand above it, and Back
    tapped there goes back to Settings (the typed text kept for the way back)."""
    from hub.cluster import free_port

    code, _other = asyncio.run(_league(database))
    port = free_port()
    hub = _hub(database, port)
    url = f"http://127.0.0.1:{port}"
    shot = artefacts / f"settings_league_window_{size}.png"
    probe = [
        sys.executable,
        "-m",
        "tests.ui.real_window_league_probe",
        str(tmp_path),
        url,
        code,
        str(shot),
        size,
    ]
    if not os.environ.get("DISPLAY"):
        if shutil.which("xvfb-run") is None:
            pytest.skip("no display and no xvfb-run (Debian package xvfb)")
        probe = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", *probe]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIVY_HOME": str(tmp_path / "kivy")}
    env.pop("SDL_VIDEODRIVER", None)  # a real window, not the offscreen one
    env.pop("KIVY_WINDOW", None)
    try:
        done = subprocess.run(probe, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    finally:
        hub.kill()
        hub.wait()
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    report = json.loads([line for line in done.stdout.splitlines() if line.startswith("{")][-1])
    assert report["after_settings"] == "pin"  # Settings asks for the PIN first
    assert report["screen"] == "league"
    assert report["keyboard"] and report["missing"] == []
    assert report["above_keyboard"] == {k: True for k in ("code", "hub", "join", "back")}, report
    assert report["leave_shown"] is False  # in no league: Join stands where Leave will
    assert report["after_back"] == "settings"
    assert report["typed"] == [code.lower(), url]
    assert report["asking"]
    assert "joined Harbour League as kiosk" in report["message"], report
    assert "Harbour League: The Anchor, kiosk" in report["status"]
    assert report["hub_saved"] == url
