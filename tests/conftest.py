"""Fixtures every part's tests may use: a real PostgreSQL for the league (one throwaway
cluster per session, initdb + pg_ctl in a temp folder, and a fresh database per test)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

_numbers = itertools.count(1)


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
