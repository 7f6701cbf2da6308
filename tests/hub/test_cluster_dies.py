"""A test PostgreSQL stops with the test process that started it, however that ends: a pytest
run holding the tests' cluster (tests/conftest.py, the one every hub, UI and system test gets)
and a hub process on it (tests/system/league_bars.py's) is killed midway by SIGKILL (a timeout's
kill), SIGTERM, or SIGINT (Ctrl-C); afterwards no postmaster runs on its folder, nothing answers
on its port, and the hub process is gone too (`hub.cluster.tied`). What a kill leaves on disk is
reaped by the next cluster's start (`hub.cluster.reap`)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from hub.cluster import reap
from tests.held_run import alive, answers, clear_up, cut_short, held_run

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


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_no_postgres_is_left_when_a_test_run_is_cut_short(tmp_path, how):
    run, (folder_word, port_word, *pids), said = held_run(tmp_path, HOLDING, "CLUSTER")
    folder, port = Path(folder_word), int(port_word)
    postmaster, hub = (int(pid) for pid in pids)
    try:
        assert alive(postmaster) and answers(port) and alive(hub)
        cut_short(run, how, said)
        deadline = time.monotonic() + 20
        while alive(postmaster) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(postmaster), f"postgres {postmaster} still runs after {how.name} of its test run"
        assert not answers(port)
        while alive(hub) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(hub), f"the run's hub process {hub} still runs after {how.name}"
        if how is signal.SIGINT:
            assert not folder.exists()  # Ctrl-C: pytest's own teardown removed it
        else:
            assert folder.exists()  # nothing of the killed run could clean up: the next start reaps it
            assert folder in reap(folder.parent)
            assert not folder.exists()
    finally:
        clear_up(run, postmaster, hub)


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
