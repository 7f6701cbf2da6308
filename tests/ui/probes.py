"""Running a probe: a test's app in a process of its own, in a real window (Xvfb where there is
no display) or SDL's offscreen one, reporting JSON lines that the test then judges.

**A probe dies with its test run.** The probe and the Xvfb it draws in are children of the
test run, tied to it the way the tests' kiosks and hub processes are (`hub.cluster.tied`:
`setpriv --pdeathsig KILL`, Linux's PR_SET_PDEATHSIG): a run killed midway, by SIGKILL too (a
timeout's kill, the hang backstop's exit), takes both along. Before, `xvfb-run` ran them (a
shell script that starts Xvfb in the background and stops it from a trap): a killed run left
the script, its Xvfb and the probe running (tests/ui/test_probe_dies.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.cluster import tied
from tests.xvfb import XvfbError, xvfb_display

ROOT = Path(__file__).resolve().parents[2]
SCREEN = "1920x1080x24"  # the largest size a probe asks for


def run_probe(module: str, *args: str, folder: Path, real: bool = True, timeout: float = 240) -> list[dict]:
    """`python -m module args...` with its own Kivy home in `folder`; every JSON line it printed.
    A real window is the display's, or an Xvfb's of its own (skipped where there is neither);
    `real=False` leaves SDL's offscreen driver as the tests set it. A probe that fails (or
    outlives `timeout`) fails the test with the ends of its output."""
    with _display(folder) if real else contextlib.nullcontext({}) as display:
        probe = _start(module, args, folder, real, display)
        try:
            out, err = probe.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            probe.kill()
            out, err = probe.communicate()
            pytest.fail(f"the probe {module} ran past {timeout:.0f} s\n{out[-2000:]}{err[-3000:]}")
        finally:
            if probe.poll() is None:  # Ctrl-C in the middle: the probe goes with the test
                probe.kill()
                probe.wait()
    assert probe.returncode == 0, out[-2000:] + err[-3000:]
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def _start(
    module: str, args: tuple[str, ...], folder: Path, real: bool, display: dict[str, str]
) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIVY_HOME": str(folder / "kivy")}
    if real:
        env.pop("SDL_VIDEODRIVER", None)  # a real window, not the offscreen one
        env.pop("KIVY_WINDOW", None)
    env.update(display)
    return subprocess.Popen(
        tied([sys.executable, "-m", module, *args]),
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@contextlib.contextmanager
def started_probe(module: str, *args: str, folder: Path) -> Iterator[subprocess.Popen[str]]:
    """`run_probe`'s process in a real window, left running for the test to read and to end
    itself (a kill -9 midway); killed when the block ends if it still runs, Xvfb with it."""
    with _display(folder) as display:
        probe = _start(module, args, folder, True, display)
        try:
            yield probe
        finally:
            if probe.poll() is None:
                probe.kill()
            probe.communicate()


def first_report(probe: subprocess.Popen[str], timeout: float) -> dict:
    """The first JSON line the running `probe` prints (the test fails past `timeout`, or when
    the probe ends first, with the end of its errors)."""
    assert probe.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _w, _x = select.select([probe.stdout], [], [], 1.0)
        if ready:
            line = probe.stdout.readline()
            if not line:
                break  # it ended
            if line.startswith("{"):
                return dict(json.loads(line))
    probe.kill()
    _out, err = probe.communicate()
    pytest.fail(f"no report from the probe within {timeout:.0f} s\n{err[-3000:]}")


@contextlib.contextmanager
def _display(folder: Path) -> Iterator[dict[str, str]]:
    """The environment of a real X display: the one there is, else an Xvfb of the probe's own
    (`tests.xvfb`: tied to the test run, on a display number the server picks itself), stopped
    when the probe is done."""
    if os.environ.get("DISPLAY"):
        yield {}
        return
    if shutil.which("Xvfb") is None:
        pytest.skip("no display and no Xvfb (Debian package xvfb)")
    with contextlib.ExitStack() as stack:
        try:
            display = stack.enter_context(xvfb_display(folder, SCREEN))
        except XvfbError as err:
            pytest.fail(str(err))
        yield display
