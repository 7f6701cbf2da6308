"""The headless kiosk as the tests start it: `dartship run --headless --simulator --config FILE
...` (what `./run-kiosk --headless` runs) in a process of its own, its output one text pipe
for `tests.waits.Lines`. `simulator=False` leaves the board to the config (a fake serial board).
The one place its command line is written.

**It dies with the test run that starts it**, however that ends: a kiosk reads no stdin, so
nothing else tells it that a pytest killed by -9 (a timeout's kill, the hang backstop's exit)
is gone, and it served its port and held its database for ever. It is tied the way the tests'
hub processes are (`hub.cluster.tied`: `setpriv --pdeathsig KILL`, Linux's PR_SET_PDEATHSIG),
so the kernel kills it when the thread that started it ends: start it from the test's own
thread, never from a thread that ends before the test is done with it
(tests/system/test_kiosk_dies.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hub.cluster import tied

ROOT = Path(__file__).resolve().parents[1]


def kiosk_run(config: Path, *args: str, simulator: bool = True) -> list[str]:
    """`python -m kiosk.app.cli run --headless [--simulator] --config CONFIG ARGS...`, tied
    to the test run."""
    board = ["--simulator"] if simulator else []
    return tied(
        [
            sys.executable,
            "-m",
            "kiosk.app.cli",
            "run",
            "--headless",
            *board,
            "--config",
            str(config),
            *args,
        ]
    )


def _env() -> dict[str, str]:
    """The environment a test's kiosk runs in: this checkout importable, output unbuffered (a
    test reads it line by line), and the test session's own data folder (set by then)."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def start_kiosk(config: Path, *args: str, simulator: bool = True) -> subprocess.Popen[str]:
    """That kiosk started, stdout and stderr together on one pipe."""
    return subprocess.Popen(
        kiosk_run(config, *args, simulator=simulator),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=_env(),
    )
