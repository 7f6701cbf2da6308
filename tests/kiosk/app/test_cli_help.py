"""`dartship --help` names each command once, and README's command table has every one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from kiosk.app import cli

ROOT = Path(__file__).resolve().parents[3]
COMMANDS = ("referee", "classic", "express", "host-link", "config", *cli.DELEGATED)


def test_help_lists_every_command_once():
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.app.cli", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0
    for command in COMMANDS:
        assert len(re.findall(rf"^\s+{re.escape(command)}\b", done.stdout, re.M)) == 1, command


def test_the_readme_command_table_has_every_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = set(re.findall(r"^\| `dartship ([a-z-]+)", readme, re.M))
    assert set(COMMANDS) <= table, set(COMMANDS) - table
