"""A throwaway PostgreSQL cluster in a folder of its own: `initdb` + `postgres`, on 127.0.0.1.

Used by `dartship hub --demo`, the tests and `bench/hub.py`: a real PostgreSQL, started by the
project itself, gone when stopped. PostgreSQL refuses to run as root, so as root the cluster is
made and run by an unprivileged user (`postgres`, which Debian's package creates) that owns
the folder.

**It dies with whoever started it.** `pg_ctl start` runs the server as a daemon of its own, so a
test run cut short (Ctrl-C at the wrong moment, a timeout, a kill -9) left it running, with its
folder. Here the server is a child of the process that starts the cluster, asked by the kernel
to quit at once when that parent goes (Linux's `PR_SET_PDEATHSIG`, SIGQUIT: PostgreSQL's
immediate shutdown), whatever ends it. (The kernel ties it to the *thread* that started it:
start a cluster from a thread that lives as long as it must, as the main thread does.) Each
folder names its owner (`owner`: its process id and start time), and every start reaps the
folders of owners that are gone (`reap`): a server still running there (started elsewhere, or
by an older version with `pg_ctl`) is stopped, the folder deleted.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.errors import DartshipError

SUPERUSER = "dartship"
DATABASE = "dartship"
PREFIX = "dartship-pg-"  # every cluster's folder in the temp folder: what `reap` looks at
OWNER = "owner"  # in a cluster's folder: "<pid> <start time>" of the process it belongs to
START_SECONDS = 60.0


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

    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix=PREFIX)))
    port: int = field(default_factory=free_port)
    fsync: bool = True  # tests turn it off: a throwaway cluster need not survive a power cut
    user: str | None = None  # who runs it; as root, "postgres"

    def __post_init__(self) -> None:
        self.bin = binaries()
        if self.user is None and os.geteuid() == 0:
            self.user = "postgres"
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.server: subprocess.Popen[bytes] | None = None  # the postmaster, our child

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
        """Make the cluster (the first time) and start it; its URL. Folders of clusters whose
        owner is gone are reaped first."""
        reap(Path(tempfile.gettempdir()), keep=self.folder)
        (self.folder / OWNER).write_text(owner_stamp(os.getpid()) or "", encoding="utf-8")
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
        """Start the server as our child, tied to us (see the module's docstring); where the
        kernel cannot tie it (not Linux), as pg_ctl's daemon (then `reap` is what is left)."""
        if _prctl() is None:
            self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start")
            return
        with open(self.log, "ab") as log:
            self.server = subprocess.Popen(
                [str(self.bin / "postgres"), "-D", str(self.data)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=_tied_child(self.user, os.getpid()),
                start_new_session=True,  # a Ctrl-C to the terminal's group is ours to handle
            )
        deadline = time.monotonic() + START_SECONDS
        while not _ready(self.data / "postmaster.pid", self.server.pid):
            if self.server.poll() is not None:
                raise ClusterError(f"postgres ended at start ({self.server.returncode}): {self._log_tail()}")
            if time.monotonic() > deadline:
                self._end_server(signal.SIGQUIT)
                raise ClusterError(f"postgres did not start in {START_SECONDS:.0f} s: {self._log_tail()}")
            time.sleep(0.05)

    def _log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text(encoding="utf-8", errors="replace")[-600:].strip()
        return ""

    def _end_server(self, how: signal.Signals) -> None:
        """Our child's shutdown: SIGINT is PostgreSQL's fast one, SIGQUIT its immediate one."""
        server, self.server = self.server, None
        if server is None or server.poll() is not None:
            return
        server.send_signal(how)
        try:
            server.wait(timeout=START_SECONDS)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

    def stop(self, mode: str = "fast") -> None:
        if self.server is not None:
            self._end_server(signal.SIGQUIT if mode == "immediate" else signal.SIGINT)
        elif (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self._pg_ctl_start()

    def remove(self) -> None:
        with contextlib.suppress(ClusterError):
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


# ---- tied to its parent, and the reaper ------------------------------------------------------

PR_SET_PDEATHSIG = 1


def _prctl() -> Callable[..., int] | None:
    """Linux's prctl(2), or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
    found: Callable[..., int] = libc.prctl
    return found


def _tied_child(user: str | None, parent: int) -> Callable[[], None]:
    """What the child does between fork and exec: become `user`, then ask for SIGQUIT when
    its parent goes (after the change of user: the kernel clears the request at a change of
    credentials), then make sure the parent did not go already (before the request counted)."""
    prctl = _prctl()
    account = pwd.getpwnam(user) if user is not None else None

    def tie() -> None:
        if account is not None:
            os.setgroups([])
            os.setgid(account.pw_gid)
            os.setuid(account.pw_uid)
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, int(signal.SIGQUIT), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return tie


def tied(command: list[str]) -> list[str]:
    """`command` run so that it is killed when the thread that starts it ends (a test's hub
    process, when its test run is killed): util-linux's `setpriv --pdeathsig KILL` in front,
    where there is one (without it, the command as it is)."""
    setpriv = shutil.which("setpriv") if sys.platform.startswith("linux") else None
    return [setpriv, "--pdeathsig", "KILL", "--", *command] if setpriv else command


def _ready(pid_file: Path, pid: int) -> bool:
    """Whether the postmaster `pid` says it accepts connections (postmaster.pid's last line,
    PostgreSQL 10 and later: what `pg_ctl -w` waits for)."""
    try:
        lines = pid_file.read_text(encoding="utf-8").splitlines()
    except OSError:
        return False
    return len(lines) >= 8 and lines[0].strip() == str(pid) and lines[7].strip() == "ready"


def owner_stamp(pid: int) -> str | None:
    """A process named so that a later process with the same id is not taken for it: its id
    and its start time (clock ticks since boot, /proc/PID/stat's 22nd field); None: no such
    process (or no /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return None
    return f"{pid} {stat.rsplit(')', 1)[1].split()[19]}"


def _alive(stamp: str) -> bool:
    try:
        pid = int(stamp.split()[0])
    except (ValueError, IndexError):
        return False
    return owner_stamp(pid) == stamp.strip()


def reap(folder: Path, keep: Path | None = None) -> list[Path]:
    """Stop and delete the clusters in `folder` whose owner is gone (a test run killed before
    it could stop its own); the folders reaped. A cluster without an owner file (not made by a
    `Cluster`, or being made right now) is left alone, and so is one whose owner lives."""
    reaped = []
    for found in sorted(folder.glob(PREFIX + "*")):
        if found == keep or not found.is_dir():
            continue
        try:
            stamp = (found / OWNER).read_text(encoding="utf-8")
        except OSError:
            continue
        if not stamp.strip() or _alive(stamp):
            continue  # no /proc to tell (or being written): not ours to judge
        _stop_postmaster(found / "data")
        shutil.rmtree(found, ignore_errors=True)
        reaped.append(found)
    return reaped


def _stop_postmaster(data: Path) -> None:
    """Stop the postmaster running on `data`, if one does (immediate: the cluster is thrown away)."""
    try:
        pid = int((data / "postmaster.pid").read_text(encoding="utf-8").split()[0])
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (OSError, ValueError, IndexError):
        return
    if str(data).encode() not in command:
        return  # that number is another process now
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGQUIT)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
