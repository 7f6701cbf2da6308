"""Running a probe: a test's app in a process of its own, in a real window (Xvfb where there is
no display) or SDL's offscreen one, reporting JSON lines that the test then judges."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_probe(module: str, *args: str, folder: Path, real: bool = True, timeout: float = 240) -> list[dict]:
    """`python -m module args...` with its own Kivy home in `folder`; every JSON line it printed.
    A real window is the display's, or Xvfb's (skipped where there is neither); `real=False`
    leaves SDL's offscreen driver as the tests set it. A probe that fails fails the test with
    the ends of its output."""
    command = [sys.executable, "-m", module, *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIVY_HOME": str(folder / "kivy")}
    if real:
        env.pop("SDL_VIDEODRIVER", None)  # a real window, not the offscreen one
        env.pop("KIVY_WINDOW", None)
        if not os.environ.get("DISPLAY"):
            if shutil.which("xvfb-run") is None:
                pytest.skip("no display and no xvfb-run (Debian package xvfb)")
            command = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", *command]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
