"""A board whose firmware cannot tell the inner single from the outer one plays three rings.

dARts, dascr-machine, maddarts, DardosLife and the GranBoard bridge (the `numeric`,
`semicolon`, `colon` and `bracket` dialects) print one single per number. With the default
`board.profile = "four-ring"` their games used to be four-ring all the same: a dart in the outer
single came as the inner single (S20), so a ship on L20 could never be hit. The real path: the
fake board on a pty in the `numeric` dialect, the headless kiosk reading it, the phones' API.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

from hub.cluster import tied
from tests.headless_kiosk import start_kiosk
from tests.waits import Lines

ROOT = Path(__file__).resolve().parents[2]


def _view(web: str) -> dict:
    with urllib.request.urlopen(f"{web}/api/game", timeout=10) as response:
        return json.loads(response.read())["view"]


def test_a_numeric_board_plays_three_rings_under_the_default_profile(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    board = subprocess.Popen(
        tied([sys.executable, "-m", "kiosk.app.cli", "fake-board", "--dialect", "numeric", "--stay"]),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    kiosk = None
    try:
        pty = Lines(board).wait_for(r"(/dev/pts/\d+)").group(1)
        config = tmp_path / "config.toml"
        config.write_text(
            f'[board]\ninput = "serial"\nport = "{pty}"\ndialect = "numeric"\n'
            '[web]\nhost = "127.0.0.1"\nport = 0\n'
        )
        kiosk = start_kiosk(
            config, "--db", str(tmp_path / "kiosk.db"), "--teams", "Sharks,Jets", simulator=False
        )
        out = Lines(kiosk)
        port = out.wait_for(r"phone page on http://[^\s/]+:(\d+)").group(1)
        out.wait_for(r"running headless")
        view = _view(f"http://127.0.0.1:{port}")
        assert view["rules"]["board"] == "three-ring"
    finally:
        for proc in (kiosk, board):
            if proc is not None:
                proc.kill()
                proc.wait(timeout=10)
