"""A pytest run held in the middle of a test, for the tests that cut a run short (SIGKILL: a
timeout's kill; SIGTERM; SIGINT: Ctrl-C) and look at what it leaves behind: the held test
starts what it holds, prints one line `MARK word...` naming it (pids, ports, folders), and
sleeps until it is killed."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def alive(pid: int) -> bool:
    """Whether the process `pid` runs (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def answers(port: int) -> bool:
    """Whether anything accepts connections on 127.0.0.1:`port`."""
    with socket.socket() as probe:
        probe.settimeout(1.0)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def pytest_of_its_own(test_file: Path, *options: str) -> list[str]:
    """A pytest run of `test_file` alone, with the suite's fixtures and hooks (tests/conftest.py)
    but none of its settings (no ini file: the held test's file is the whole run)."""
    return [
        sys.executable,
        "-m",
        "pytest",
        "-s",
        "-q",
        "-p",
        "tests.conftest",
        "--rootdir",
        str(test_file.parent),
        "-c",
        os.devnull,
        *options,
        str(test_file),
    ]


def _ctrl_c_reaches_it() -> None:
    """In the held run's child before it starts: SIGINT neither ignored nor blocked, as in a
    terminal. Both are inherited across exec, and a suite started from a script's background
    (or by a parent that blocks it) would give a run that Ctrl-C never ends (the fresh CI runs of
    tests/hub/test_cluster_dies.py's first stop: the SIGINT case timed out there, never alone)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def held_run(tmp_path: Path, test: str, mark: str) -> tuple[subprocess.Popen[str], list[str], list[str]]:
    """`test` (a test file's text) run by a pytest of its own (`pytest_of_its_own`), until it
    prints its `mark` line: the run, that line's words after the mark, and what the run said
    (filled on as it goes on: a full pipe never holds the run, and a run that does not end
    shows what it said)."""
    path = tmp_path / "test_holding.py"
    path.write_text(test)
    run = subprocess.Popen(
        pytest_of_its_own(path),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=_ctrl_c_reaches_it,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert run.stdout is not None
    seen: list[str] = []
    for line in run.stdout:
        seen.append(line)
        if line.startswith(mark + " "):
            threading.Thread(target=lambda: seen.extend(run.stdout or ()), daemon=True).start()
            return run, line.split()[1:], seen
    run.wait()
    pytest.fail(f"the held run never printed its {mark} line: " + "".join(seen)[-2000:])


def cut_short(run: subprocess.Popen[str], how: signal.Signals, said: list[str]) -> None:
    """Send the held run `how` and wait for its end (120 s, else the test fails with what it
    said)."""
    run.send_signal(how)
    try:
        run.wait(timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the run did not end within 120 s of {how.name}; it said: " + "".join(said)[-3000:])


def clear_up(run: subprocess.Popen[str], *held: int) -> None:
    """After a test of a held run, however it went: the run ended, and every process it held
    that still runs killed (a failed test leaves nothing running behind it)."""
    if run.poll() is None:
        run.kill()
        run.wait()
    for pid in held:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
