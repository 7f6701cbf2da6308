"""A headless kiosk a test started (tests/headless_kiosk.py, the one way the tests start one)
ends with the test run, however that run ends: a pytest holding a running kiosk is killed
midway by SIGKILL (a timeout's kill, or the hang backstop's exit), SIGTERM, or SIGINT (Ctrl-C);
afterwards the kiosk's process is gone and nothing answers on its phone page's port. Before the
tie a kill -9 of the run left the kiosk serving its port and holding its database."""

from __future__ import annotations

import signal

import pytest

from tests.held_run import alive, answers, clear_up, cut_short, held_run
from tests.waits import until

pytestmark = pytest.mark.slow

HOLDING = """
import time

from tests.headless_kiosk import start_kiosk
from tests.waits import Lines

def test_holding_a_kiosk(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[web]\\nhost = "127.0.0.1"\\nport = 0\\n')
    kiosk = start_kiosk(config, "--db", str(tmp_path / "kiosk.db"))
    out = Lines(kiosk)
    port = out.wait_for(r"phone page on http://[^\\s/]+:(\\d+)").group(1)
    out.wait_for(r"running headless")
    print("KIOSK", kiosk.pid, port, flush=True)
    time.sleep(600)
"""


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_no_kiosk_is_left_when_a_test_run_is_cut_short(tmp_path, how):
    run, (pid_word, port_word), said = held_run(tmp_path, HOLDING, "KIOSK")
    kiosk, port = int(pid_word), int(port_word)
    try:
        assert alive(kiosk) and answers(port)
        cut_short(run, how, said)
        until(lambda: not alive(kiosk), f"the kiosk {kiosk} gone after {how.name} of its test run", 20)
        # Its main thread can be a zombie while another of its threads still holds the files
        # (the listening socket) for a moment: the port is waited for too, not looked at once.
        until(lambda: not answers(port), f"nothing on the kiosk's port {port} after {how.name}", 20)
    finally:
        clear_up(run, kiosk)
