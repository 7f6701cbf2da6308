"""An Xvfb of one's own, tied to the process that starts it: the real-window probes' display
(tests/ui/probes.py) and the start-up bench's (bench/startup.py).

The server is started through `hub.cluster.tied` (`setpriv --pdeathsig KILL`): a run killed
midway, by SIGKILL too, takes its Xvfb along. It picks its own display number (`-displayfd`:
no lock races between servers started at once) and says it once it accepts clients.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from hub.cluster import tied

READY_SECONDS = 60.0


class XvfbError(RuntimeError):
    """No Xvfb here, or it did not start (the message ends with its log)."""


@contextlib.contextmanager
def xvfb_display(folder: Path, screen: str) -> Iterator[dict[str, str]]:
    """The environment of a new Xvfb (`{"DISPLAY": ":N"}`) with one screen of `screen` (like
    "1280x800x24"), its log in `folder`; stopped when the block ends."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise XvfbError("no Xvfb (Debian package xvfb)")
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "xvfb.log"
    ready, told = os.pipe()
    with log.open("wb") as written:
        server = subprocess.Popen(
            tied([xvfb, "-displayfd", str(told), "-screen", "0", screen, "-nolisten", "tcp"]),
            pass_fds=(told,),
            stdin=subprocess.DEVNULL,
            stdout=written,
            stderr=written,
        )
    os.close(told)
    try:
        number = _display_number(ready, server, log)
        yield {"DISPLAY": f":{number}"}
    finally:
        os.close(ready)
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _display_number(ready: int, server: subprocess.Popen[bytes], log: Path) -> int:
    """The number Xvfb writes on its `-displayfd` once it accepts clients."""
    deadline = time.monotonic() + READY_SECONDS
    said = b""
    while not said.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            raise XvfbError(f"Xvfb did not start in {READY_SECONDS:.0f} s: {log.read_text()[-2000:]}")
        readable, _, _ = select.select([ready], [], [], left)
        if readable:
            chunk = os.read(ready, 16)
            if not chunk:  # it ended before it was ready
                server.wait()
                raise XvfbError(f"Xvfb ended ({server.returncode}): {log.read_text()[-2000:]}")
            said += chunk
    return int(said)
