"""A real-window probe a test started (`tests.ui.probes.run_probe`, the one way the tests start
one) ends with the test run, and so does the Xvfb it draws in, however the run ends: a pytest
waiting for a probe is killed midway by SIGKILL (a timeout's kill, or the hang backstop's
exit), SIGTERM, or SIGINT (Ctrl-C); afterwards neither process runs and nothing answers on the
display's socket. Before the tie, `xvfb-run` under `subprocess.run` outlived a kill -9 of the
run with its Xvfb and the probe (tests/system/test_kiosk_dies.py: the same for a kiosk)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.held_run import alive, clear_up, cut_short, held_run
from tests.waits import until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="no Xvfb (Debian package xvfb)"),
]

HOLDING = """
import os
import threading
import time
from pathlib import Path

from tests.ui.probes import run_probe


def _descendants():
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    found, todo = set(), [os.getpid()]
    while todo:
        parent = todo.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def _what(pid):
    try:
        folder = Path(f"/proc/{pid}")
        return (folder / "cmdline").read_bytes().split(b"\\0"), (folder / "environ").read_bytes()
    except OSError:
        return [b""], b""


def _tell():
    while True:
        xvfb = probe = display = None
        for pid in _descendants():
            command, env = _what(pid)
            if command[0].endswith(b"Xvfb"):
                xvfb = pid
            if command[1:3] == [b"-m", b"tests.ui.holding_probe"]:  # the probe itself, exec'd
                probe = pid
                display = next((v for v in env.split(b"\\0") if v.startswith(b"DISPLAY=")), b"=")
        if xvfb and probe:
            print("PROBE", probe, xvfb, display.split(b"=", 1)[1].decode().lstrip(":") or "-", flush=True)
            return
        time.sleep(0.2)


def test_holding_a_probe(tmp_path):
    os.environ.pop("DISPLAY", None)  # an Xvfb of the probe's own
    threading.Thread(target=_tell, daemon=True).start()
    run_probe("tests.ui.holding_probe", folder=tmp_path, timeout=600)
"""


def _x_answers(display: str) -> bool:
    with socket.socket(socket.AF_UNIX) as client:
        return client.connect_ex(f"/tmp/.X11-unix/X{display}") == 0


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_no_probe_nor_its_xvfb_is_left_when_a_test_run_is_cut_short(tmp_path, how):
    run, (probe_word, xvfb_word, display), said = held_run(tmp_path, HOLDING, "PROBE")
    probe, xvfb = int(probe_word), int(xvfb_word)
    try:
        assert alive(probe) and alive(xvfb)
        assert display.isdigit(), display
        until(lambda: _x_answers(display), f"Xvfb answering on :{display}", 30)
        cut_short(run, how, said)
        until(lambda: not alive(probe), f"the probe {probe} gone after {how.name} of its test run", 20)
        until(lambda: not alive(xvfb), f"its Xvfb {xvfb} gone after {how.name} of its test run", 20)
        until(lambda: not _x_answers(display), f"nothing on the display :{display} after {how.name}", 20)
    finally:
        clear_up(run, probe, xvfb)


# The start-up bench holding its Xvfb (bench/startup.py's `a_display`), as its runs do.
BENCH_HOLDING = """
import runpy
import time

bench = runpy.run_path("bench/startup.py", run_name="startup_bench")
with bench["a_display"]() as display:
    print("DISPLAY", display.get("DISPLAY", "-"), flush=True)
    time.sleep(600)
"""


def _children(parent: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def test_the_start_up_bench_s_xvfb_goes_with_the_bench(tmp_path):
    """`python bench/startup.py` killed midway (SIGKILL: nothing of it runs on) takes its Xvfb
    along: the bench starts it as the probes do (tests.xvfb, tied). It was started untied and
    kept running on its display after the bench was gone."""
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    root = Path(__file__).resolve().parents[2]
    bench = subprocess.Popen(
        [sys.executable, "-c", BENCH_HOLDING], cwd=root, env=env, stdout=subprocess.PIPE, text=True
    )
    xvfb = None
    try:
        assert bench.stdout is not None
        word, display = bench.stdout.readline().split()
        assert word == "DISPLAY" and display.startswith(":"), display
        display = display[1:]
        until(lambda: _x_answers(display), f"Xvfb answering on :{display}", 30)
        (xvfb,) = _children(bench.pid)
        bench.kill()
        bench.wait(timeout=30)
        until(lambda: not alive(xvfb), f"the bench's Xvfb {xvfb} gone after a SIGKILL of the bench", 20)
        until(lambda: not _x_answers(display), f"nothing on the display :{display} after the bench", 20)
    finally:
        clear_up(bench, *([xvfb] if xvfb else []))
