"""One database belongs to one running kiosk (issue 20, point 1), with real processes.

A second `dartship run` on a database a kiosk holds is refused whatever its port, naming the
holder's pid and port; so are `dartship referee/classic/express --db`; a kill -9 of the holder
leaves nothing stuck: the next start succeeds.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from tests.headless_kiosk import kiosk_run, start_kiosk
from tests.system.test_kiosk_headless import ROOT
from tests.waits import Lines

ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def _config(tmp: Path) -> Path:
    config = tmp / "config.toml"
    config.write_text('[web]\nhost = "127.0.0.1"\nport = 0\n')  # the system picks the port
    return config


def _kiosk_argv(tmp: Path, db: Path) -> list[str]:
    return kiosk_run(_config(tmp), "--db", str(db))


class Running:
    """A headless kiosk started for real, once it serves its phone page."""

    def __init__(self, tmp: Path, db: Path) -> None:
        self.proc = start_kiosk(_config(tmp), "--db", str(db))
        self.out = Lines(self.proc)
        self.port = int(self.out.wait_for(r"Host page .*http://[^:/]+:(\d+)/").group(1))
        self.out.wait_for(r"running headless")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)


def _refused(argv: list[str], stdin: str = "") -> str:
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    return done.stderr


def test_a_second_kiosk_and_the_line_protocols_are_refused_until_the_holder_is_killed(tmp_path):
    db = tmp_path / "bar.db"
    first = Running(tmp_path, db)
    try:
        # Another port (the system picks a fresh one) changes nothing: the database is taken.
        message = _refused(_kiosk_argv(tmp_path, db))
        assert f"pid {first.proc.pid}" in message and f"port {first.port}" in message
        assert str(db) in message
        for command in ("referee", "classic", "express"):
            message = _refused(
                [sys.executable, "-m", "kiosk.app.cli", command, "--db", str(db)], '{"cmd": "state"}\n'
            )
            assert f"pid {first.proc.pid}" in message, (command, message)
        assert first.proc.poll() is None  # the holder plays on, undisturbed
        first.proc.send_signal(signal.SIGKILL)  # a power cut, as far as the lock can tell
        first.kill()
        second = Running(tmp_path, db)  # the lock went with the process: nothing stuck
        second.kill()
    finally:
        first.kill()


def test_a_kiosk_is_refused_while_a_referee_holds_the_database(tmp_path):
    db = tmp_path / "bar.db"
    referee = subprocess.Popen(
        [sys.executable, "-m", "kiosk.app.cli", "referee", "--db", str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    try:
        assert referee.stdin is not None
        referee.stdin.write('{"cmd": "state"}\n')
        referee.stdin.flush()
        Lines(referee).next("answer to state (the referee has the database open)")
        message = _refused(_kiosk_argv(tmp_path, db))
        assert re.search(rf"dartship referee \(pid {referee.pid}\)", message), message
    finally:
        referee.kill()
        referee.wait(timeout=10)
    after = Running(tmp_path, db)
    after.kill()
