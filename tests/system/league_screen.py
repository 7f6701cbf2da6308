"""Render the touchscreen's Stats -> League page of a (stopped) kiosk's own database to a PNG:
`python -m tests.system.league_screen KIOSK_DB HUB_URL OUT.png`. It runs in a process of its own
(Kivy makes one window per process) on a copy of the database, with no network (the page shows
what the kiosk's sync task kept), and prints the texts on the screen, one a line."""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
from pathlib import Path


def main(database: str, hub: str, out: str) -> int:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kiosk.app.root import build_offline
    from kiosk.app.tour.driver import Tour

    with tempfile.TemporaryDirectory(prefix="dartship-league-screen-") as tmp:
        with sqlite3.connect(database) as source, sqlite3.connect(Path(tmp) / "dartship.db") as copy:
            source.backup(copy)
        kiosk, loop = build_offline(Path(tmp))
        kiosk.config.save({"league.hub": hub})  # after the start: the copy starts no sync task
        tour = Tour.start(kiosk, loop)
        try:
            tour.app.go("stats")
            stats = tour.screen()
            stats.choose("league")
            tour.drain()
            tour.app._hide_toast()  # the simulator board's "connected" notice
            tour.save(Path(out))
            from kivy.uix.label import Label

            texts = [w.text for w in tour.root.walk() if isinstance(w, Label) and w.text]
            print("\n".join(t.replace("\n", " ") for t in texts), flush=True)
        finally:
            tour.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
