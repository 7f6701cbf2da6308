"""`dartship run --headless` against the faults of issue 13: a web.host that does not resolve
(it used to die with a getaddrinfo traceback, a restart loop under systemd), and a game that
ended just before the kiosk stopped (it comes back on its result)."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

from tests.headless_kiosk import start_kiosk
from tests.kiosk.app.test_resume_result import finished_game
from tests.system.test_kiosk_headless import _http
from tests.waits import Lines


def _headless(tmp: Path, config: str, db: Path) -> tuple[subprocess.Popen, Lines]:
    path = tmp / "config.toml"
    path.write_text(config)
    proc = start_kiosk(path, "--db", str(db), simulator=False)
    return proc, Lines(proc)


def _stop(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGTERM)
    return proc.wait(timeout=20)


def test_a_host_that_does_not_resolve_falls_back_instead_of_dying(tmp_path):
    proc, out = _headless(tmp_path, '[web]\nhost = "kiosk.invalid"\nport = 0\n', tmp_path / "k.db")
    try:
        out.wait_for(r"running headless")
        port = out.wait_for(
            r"cannot listen on kiosk\.invalid:0.*listens on 0\.0\.0\.0:(\d+) "
            r"instead"
        ).group(1)
        status, body = _http(f"http://127.0.0.1:{port}/api/game")
        assert status == 200 and body["view"]["state"]["phase"] == "placing"
    finally:
        assert _stop(proc) == 0
    assert not any("Traceback" in line for line in out.lines), "\n".join(out.lines)


def test_a_just_finished_game_comes_back_on_the_host_page(tmp_path):
    db = tmp_path / "k.db"
    finished_game(db)
    proc, out = _headless(tmp_path, '[web]\nhost = "127.0.0.1"\nport = 0\n', db)
    try:
        port = out.wait_for(r"Host page .*http://[^/]+:(\d+)/").group(1)
        out.wait_for(r"running headless")
        status, body = _http(f"http://127.0.0.1:{port}/api/game")
        assert status == 200 and body["view"]["state"]["phase"] == "over"
        assert body["view"]["state"]["winner"] == 0
    finally:
        assert _stop(proc) == 0
