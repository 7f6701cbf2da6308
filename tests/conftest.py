"""Fixtures every part's tests may use: a real PostgreSQL for the league (one throwaway
cluster per session, initdb + pg_ctl in a temp folder, and a fresh database per test); and,
for every test, a data folder of the session's own (never the user's ~/.local/share/dartship).
And the suite's hang backstop (tests/hang_backstop.py): a test that runs past `--hang-seconds`
(600) ends the run, saying which test and showing every thread's stack."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterator

import pytest

_numbers = itertools.count(1)


def pytest_addoption(parser: pytest.Parser) -> None:
    from tests.hang_backstop import HANG_SECONDS

    parser.addoption(
        "--hang-seconds",
        type=float,
        default=HANG_SECONDS,
        help="a test that runs longer (set-up, call and tear-down) hangs: the run prints every "
        f"thread's stack and ends (default {HANG_SECONDS:g}; 0: no backstop)",
    )


def pytest_configure(config: pytest.Config) -> None:
    from tests.hang_backstop import HangBackstop

    seconds = float(config.getoption("--hang-seconds"))
    if seconds > 0:
        # The terminal's stderr: global capture is suspended while plugins configure, and a
        # test's capture later puts its own file on fd 2.
        terminal = os.dup(sys.__stderr__.fileno() if sys.__stderr__ is not None else 2)
        config.pluginmanager.register(HangBackstop(terminal, seconds), "hang-backstop")


@pytest.fixture(scope="session", autouse=True)
def own_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The kiosk's data folder (`kiosk.config.data_dir`: the Express solutions solved on first
    use, a default database) is the session's own, for the tests and every process they start;
    a background solve a test started is ended with the session (it would go on using a core
    after the tests, writing where nobody looks)."""
    saved = {key: os.environ.get(key) for key in ("XDG_DATA_HOME", "STATE_DIRECTORY")}
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data-home"))
    os.environ.pop("STATE_DIRECTORY", None)
    yield
    solved = sys.modules.get("kiosk.express.solved")
    for process in getattr(solved, "_started", {}).values():
        if process.poll() is None:
            process.kill()
            process.wait()
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="session")
def cluster() -> Iterator[object]:
    try:
        from hub.cluster import Cluster, ClusterError
    except ImportError as err:  # the 'hub' extra is not installed
        pytest.skip(f"no PostgreSQL driver for the hub's tests: {err} (pip install -e '.[hub]')")
    try:
        found = Cluster(fsync=False)
        found.start()
    except (ClusterError, OSError) as err:
        pytest.skip(
            f"no PostgreSQL for the hub's tests: {err} (./run-tests installs Debian's "
            "postgresql package as root)"
        )
    yield found
    found.remove()


@pytest.fixture
def database(cluster) -> str:
    """A new, empty database on the cluster; its URL."""
    import psycopg

    name = f"test_{next(_numbers)}"
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return cluster.url.rsplit("/", 1)[0] + f"/{name}"
