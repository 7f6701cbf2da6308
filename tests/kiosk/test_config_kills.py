"""A save from the Settings screen killed (SIGKILL) at random moments: the config file is always
whole, the old one or the new one (`write_changes`: a temporary file, fsync, rename), with the
owner's comments and every other key, and a save after the restart works (a leftover
temporary file is written over)."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

from kiosk import config
from tests.waits import Lines

ROOT = Path(__file__).resolve().parents[2]
SAVER = """
import sys
from kiosk import config
owner = config.read(sys.argv[1])
port = 1024
while True:
    port = 1024 + (port - 1023) % 60000
    owner.save({"web.port": port})
    print(port, flush=True)
"""
FILE = '# the owner\'s own comment\nweb = {host = "127.0.0.1", port = 1024}\n\n[caller]\nvolume = 40\n'
KILLS = 10


def test_a_save_killed_at_random_leaves_the_old_file_or_the_new_one(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(FILE, encoding="utf-8")
    rng = random.Random(7)
    for _kill in range(KILLS):
        saver = subprocess.Popen(
            [sys.executable, "-c", SAVER, str(path)], stdout=subprocess.PIPE, text=True, cwd=ROOT
        )
        lines = Lines(saver)
        saved = int(lines.next("a first save"))
        time.sleep(rng.uniform(0, 0.05))
        saver.kill()
        saver.wait(timeout=10)
        lines.close()  # every line it wrote is read
        last = max([saved, *(int(line) for line in lines.lines)])
        owner = config.read(path)  # strict: whole, valid, every key good
        assert owner.settings.web.port in (last, 1024 + (last - 1023) % 60000)
        assert owner.settings.web.host == "127.0.0.1" and owner.settings.caller.volume == 40
        assert "# the owner's own comment" in path.read_text(encoding="utf-8")
    config.read(path).save({"web.port": 9999})
    assert config.read(path).settings.web.port == 9999
