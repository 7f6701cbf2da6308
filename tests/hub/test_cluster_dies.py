"""A test PostgreSQL stops with the test process that started it, however that ends: a pytest
run holding the tests' cluster (tests/conftest.py, the one every hub, UI and system test gets)
and a hub process on it (tests/system/league_bars.py's) is killed midway by SIGKILL (a timeout's
kill), SIGTERM, or SIGINT (Ctrl-C); afterwards no postmaster runs on its folder, nothing answers
on its port, and the hub process is gone too (`hub.cluster.tied`). What a kill leaves on disk is
reaped by the next cluster's start (`hub.cluster.reap`)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hub.cluster import reap

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

HOLDING = """
import time

from tests.system.league_bars import HubProcess

def test_holding_the_cluster(cluster, database):
    hub = HubProcess(database)  # a hub process of the run, as the league's tests start them
    pid = (cluster.data / "postmaster.pid").read_text().split()[0]
    print("CLUSTER", cluster.folder, cluster.port, pid, hub.proc.pid, flush=True)
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended


def _answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1.0)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _ctrl_c_reaches_it() -> None:
    """In the held run's child before it starts: SIGINT neither ignored nor blocked, as in a
    terminal. Both are inherited across exec, and a suite started from a script's background
    (or by a parent that blocks it) would give a run that Ctrl-C never ends (the fresh CI runs of
    this test's first stop: the SIGINT case timed out there, never alone)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _held_run(tmp_path: Path) -> tuple[subprocess.Popen[str], Path, int, int, int, list[str]]:
    test = tmp_path / "test_holding.py"
    test.write_text(HOLDING)
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest",
            "-s",
            "-q",
            "-p",
            "tests.conftest",
            "--rootdir",
            str(tmp_path),
            "-c",
            os.devnull,
            str(test),
        ],
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
        if line.startswith("CLUSTER "):
            _word, folder, port, pid, hub = line.split()
            # The rest is read as it comes, so a run that says much as it ends never waits on a
            # full pipe; and a run that does not end shows what it said.
            threading.Thread(target=lambda: seen.extend(run.stdout or ()), daemon=True).start()
            return run, Path(folder), int(port), int(pid), int(hub), seen
    run.wait()
    pytest.fail("the held run never had its cluster: " + "".join(seen)[-2000:])


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_no_postgres_is_left_when_a_test_run_is_cut_short(tmp_path, how):
    run, folder, port, postmaster, hub, said = _held_run(tmp_path)
    try:
        assert _alive(postmaster) and _answers(port) and _alive(hub)
        run.send_signal(how)
        try:
            run.wait(timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the run did not end within 120 s of {how.name}; it said: " + "".join(said)[-3000:])
        deadline = time.monotonic() + 20
        while _alive(postmaster) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(postmaster), f"postgres {postmaster} still runs after {how.name} of its test run"
        assert not _answers(port)
        while _alive(hub) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(hub), f"the run's hub process {hub} still runs after {how.name}"
        if how is signal.SIGINT:
            assert not folder.exists()  # Ctrl-C: pytest's own teardown removed it
        else:
            assert folder.exists()  # nothing of the killed run could clean up: the next start reaps it
            assert folder in reap(folder.parent)
            assert not folder.exists()
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        for pid in (postmaster, hub):
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_living_owner_s_cluster_and_a_folder_without_owner_are_not_reaped(tmp_path):
    mine = tmp_path / "dartship-pg-mine"
    (mine / "data").mkdir(parents=True)
    from hub.cluster import OWNER, owner_stamp

    (mine / OWNER).write_text(owner_stamp(os.getpid()) or "")
    strange = tmp_path / "dartship-pg-strange"
    strange.mkdir()
    gone = tmp_path / "dartship-pg-gone"
    gone.mkdir()
    (gone / OWNER).write_text(f"{os.getpid()} 1")  # this id, but another process's start time
    assert reap(tmp_path) == [gone]
    assert mine.exists() and strange.exists() and not gone.exists()
