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

ROOT = Path(__file__).resolve().parents[2]
SCREEN = "1920x1080x24"  # the largest size a probe asks for
XVFB_READY_SECONDS = 60.0


def run_probe(module: str, *args: str, folder: Path, real: bool = True, timeout: float = 240) -> list[dict]:
    """`python -m module args...` with its own Kivy home in `folder`; every JSON line it printed.
    A real window is the display's, or an Xvfb's of its own (skipped where there is neither);
    `real=False` leaves SDL's offscreen driver as the tests set it. A probe that fails (or
    outlives `timeout`) fails the test with the ends of its output."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIVY_HOME": str(folder / "kivy")}
    with _display(folder) if real else contextlib.nullcontext({}) as display:
        if real:
            env.pop("SDL_VIDEODRIVER", None)  # a real window, not the offscreen one
            env.pop("KIVY_WINDOW", None)
        env.update(display)
        probe = subprocess.Popen(
            tied([sys.executable, "-m", module, *args]),
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
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


@contextlib.contextmanager
def _display(folder: Path) -> Iterator[dict[str, str]]:
    """The environment of a real X display: the one there is, else an Xvfb of the probe's own,
    tied to the test run, on a display number the server picks itself (`-displayfd`: no lock
    races between probes run at once), stopped when the probe is done."""
    if os.environ.get("DISPLAY"):
        yield {}
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("no display and no Xvfb (Debian package xvfb)")
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "xvfb.log"
    ready, told = os.pipe()
    with log.open("wb") as written:
        server = subprocess.Popen(
            tied([xvfb, "-displayfd", str(told), "-screen", "0", SCREEN, "-nolisten", "tcp"]),
            pass_fds=(told,),
            stdin=subprocess.DEVNULL,
            stdout=written,
            stderr=written,
        )
    os.close(told)
    try:
        number = _display_number(ready, server, log)
        yield {"DISPLAY": f":{number}"}
    finally:
        os.close(ready)
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _display_number(ready: int, server: subprocess.Popen[bytes], log: Path) -> int:
    """The number Xvfb writes on its `-displayfd` once it accepts clients."""
    deadline = time.monotonic() + XVFB_READY_SECONDS
    said = b""
    while not said.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            pytest.fail(f"Xvfb did not start in {XVFB_READY_SECONDS:.0f} s: {log.read_text()[-2000:]}")
        readable, _, _ = select.select([ready], [], [], left)
        if readable:
            chunk = os.read(ready, 16)
            if not chunk:  # it ended before it was ready
                server.wait()
                pytest.fail(f"Xvfb ended ({server.returncode}): {log.read_text()[-2000:]}")
            said += chunk
    return int(said)
