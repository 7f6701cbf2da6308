"""bench/host_page.py runs to its end in Chromium with the tree's host.js, and every tap of its
bursts lands once with no reload (the figures it prints beside them are the bench's business,
not asserted)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.conftest import chromium_executable

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_bench_runs_two_rounds_and_every_tap_lands_once():
    executable = chromium_executable()
    if executable is None:
        pytest.skip("no Chromium found: install Debian's chromium package or set DARTSHIP_CHROMIUM")
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "host_page.py"), "--rounds", "2"],
        cwd=ROOT,
        env={**os.environ, "DARTSHIP_CHROMIUM": executable},
        capture_output=True,
        text=True,
        timeout=300,  # a hang is the failure this guards against: a bound, not a timing check
    )
    assert run.returncode == 0, run.stderr[-2000:]
    taps = re.search(
        r"taps made (\d+), landed (\d+), counted twice (\d+), darts in a cell nobody tapped (\d+)", run.stdout
    )
    assert taps is not None, run.stdout
    assert taps.groups() == ("4", "4", "0", "0")
    assert "page navigations (reloads) during the rounds: 0" in run.stdout
