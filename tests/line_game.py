"""A game's line protocol (`dartship referee`, `classic`, `express`; PROTOCOLS.md §3-5) driven
from the tests as a front end or a script would: a real subprocess, one JSON object a line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.waits import Lines

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _command(game: str, db: Path | str | None) -> list[str]:
    return [sys.executable, "-m", "kiosk.app.cli", game, *(["--db", str(db)] if db else [])]


def run_script(game: str, db: Path | str | None, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every command on standard input at once, every answer back (the process must exit 0)."""
    done = subprocess.run(
        _command(game, db),
        input="".join(json.dumps(c) + "\n" for c in commands),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=ENV,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


class LineGame:
    """One running `dartship <game>`, asked line by line."""

    def __init__(self, game: str, db: Path | str | None = None) -> None:
        self.game = game
        self.proc = subprocess.Popen(
            _command(game, db),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=ENV,
        )
        self.out: Lines[str] = Lines(self.proc)
        self.err: Lines[str] = Lines(self.proc, self.proc.stderr)

    def send(self, command: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()

    def read(self, answers: int = 1) -> list[dict[str, Any]]:
        """The next `answers` lines; a process that died or hangs fails the test, saying so
        (and what it wrote to standard error)."""
        try:
            return [json.loads(self.out.next(f"answer from `{self.game}`")) for _ in range(answers)]
        except AssertionError as failed:
            raise AssertionError(f"{failed}\nits standard error:\n" + self.err.text()[-3000:]) from None

    def ask(self, command: dict[str, Any], answers: int = 1) -> list[dict[str, Any]]:
        self.send(command)
        return self.read(answers)

    def kill(self) -> None:
        """SIGKILL: no chance to flush or close anything."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def end(self) -> tuple[int, str]:
        """Close standard input; the exit status and what went to standard error."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        status = self.proc.wait(timeout=60)
        self.out.close()
        self.err.close()
        return status, self.err.text()
