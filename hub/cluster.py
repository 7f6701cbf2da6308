"""A throwaway PostgreSQL cluster in a folder of its own: `initdb` + `pg_ctl`, on 127.0.0.1.

Used by `dartship hub --demo`, the tests and `bench/hub.py`: a real PostgreSQL, started by the
project itself, gone when stopped. PostgreSQL refuses to run as root, so as root the cluster is
made and run by an unprivileged user (`postgres`, which Debian's package creates) that owns
the folder.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.errors import DartshipError

SUPERUSER = "dartship"
DATABASE = "dartship"


class ClusterError(DartshipError, RuntimeError):
    """No PostgreSQL can be started here; the message says why (and what to install)."""


def binaries() -> Path:
    """The folder of `initdb` and `pg_ctl`: Debian keeps them per version, off the PATH."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).parent
    raise ClusterError("PostgreSQL is not installed (Debian: apt-get install postgresql)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Cluster:
    """One cluster: `start()` returns its URL; `stop()` ends it; `remove()` deletes the folder."""

    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="dartship-pg-")))
    port: int = field(default_factory=free_port)
    fsync: bool = True  # tests turn it off: a throwaway cluster need not survive a power cut
    user: str | None = None  # who runs it; as root, "postgres"

    def __post_init__(self) -> None:
        self.bin = binaries()
        if self.user is None and os.geteuid() == 0:
            self.user = "postgres"
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if result.returncode != 0:
            raise ClusterError(f"{args[0]} failed: {result.stderr.strip() or result.stdout.strip()}")
        return result

    def start(self) -> str:
        """Make the cluster (the first time) and start it; its URL."""
        if self.user is not None:
            shutil.chown(self.folder, self.user)
        if not (self.data / "PG_VERSION").exists():
            self._run(
                "initdb",
                "-D",
                str(self.data),
                "-U",
                SUPERUSER,
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-instructions",
            )
            with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
                conf.write(
                    f"\nlisten_addresses = '127.0.0.1'\nport = {self.port}\n"
                    f"unix_socket_directories = '{self.folder}'\nmax_connections = 200\n"
                    f"fsync = {'on' if self.fsync else 'off'}\n"
                )
            self._pg_ctl_start()
            self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, DATABASE)
        else:
            self._pg_ctl_start()
        return self.url

    def _pg_ctl_start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self._pg_ctl_start()

    def remove(self) -> None:
        with contextlib.suppress(ClusterError):
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)
