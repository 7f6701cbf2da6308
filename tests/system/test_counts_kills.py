"""What the kiosk answered about a wrong link survives a kill -9: the whole headless kiosk
(`dartship run --headless --simulator`), a phone sending wrong links (a classic room's, a
team's), and the kiosk killed (SIGKILL) right after each answer, while the test holds the
database's write lock as a slow disk would: the count (ui/handheld/throttle.py, stored by
kiosk/address_limits.py) is in the file after every kill, and each restart goes on counting
from it. (On the code that wrote counts unawaited the 404 came at once, before the count could
be written, and the kill lost it.)"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.system.test_classic_kills import Kiosk

pytestmark = pytest.mark.slow

CAPACITY, PER_SECOND = 10.0, 6.0 / 60  # ui.handheld.throttle.Limits' defaults


def _status(url: str, body: dict | None = None) -> int:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def _answered_then_killed(
    kiosk: Kiosk, database: Path, url: str, body: dict | None = None
) -> tuple[int, float]:
    """One wrong link sent while the database's write lock is held; the kiosk killed right after
    its answer (the lock let go only once it waited a second for one). (status, wall time sent)."""
    held = sqlite3.connect(database, timeout=30, isolation_level=None)
    held.execute("BEGIN IMMEDIATE")  # the kiosk's writer waits (its busy timeout is 5 s)
    answer: dict[str, int] = {}
    sent = time.time()
    asking = threading.Thread(target=lambda: answer.update(status=_status(url, body)))
    asking.start()
    asking.join(1.0)
    if asking.is_alive():  # the answer waits for its count: the disk comes back
        held.execute("COMMIT")
        asking.join(30)
        kiosk.kill()
    else:  # answered while its count could not be written yet
        kiosk.kill()
        held.execute("COMMIT")
    held.close()
    return answer["status"], sent


def _bucket(database: Path, name: str = "wrong_links") -> tuple[float, float] | None:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT level, at FROM address_buckets WHERE name=?", [name]).fetchone()
    return (float(row[0]), float(row[1])) if row else None


def test_every_answered_wrong_link_is_counted_after_a_kill_9(tmp_path):
    kiosk = Kiosk(tmp_path)
    port, database = kiosk.port, tmp_path / "kiosk.db"
    level, at = CAPACITY, time.time()  # what the address had before its first wrong link
    for round_, path in enumerate(["/api/classic/r/", "/api/team/", "/api/classic/r/", "/api/team/"]):
        if round_:
            kiosk = Kiosk(tmp_path, port)
        status, sent = _answered_then_killed(kiosk, database, kiosk.web + path + secrets.token_urlsafe(16))
        assert status == 404, (round_, status)
        kept = _bucket(database)
        assert kept is not None, f"round {round_}: the answered wrong link was not counted"
        assert kept[1] >= sent - 0.5, f"round {round_}: the count in the file is an older one: {kept}"
        refilled = min(CAPACITY, level + PER_SECOND * (kept[1] - at))
        assert kept[0] == pytest.approx(refilled - 1.0, abs=0.01), (round_, kept, refilled)
        level, at = kept  # the next kiosk goes on from it (refilling meanwhile, 6 a minute)


def test_an_address_s_counted_new_game_is_in_the_file_after_a_kill_9(tmp_path):
    """A new solo game from a phone counts against its address (`too_many_games`): answered,
    killed, the count is there (its write shares the game's group, which the answer waited for
    already before counts were awaited on their own)."""
    kiosk = Kiosk(tmp_path)
    database = tmp_path / "kiosk.db"
    status, sent = _answered_then_killed(
        kiosk, database, kiosk.web + "/api/classic/play/solo", {"level": "easy"}
    )
    assert status == 200
    kept = _bucket(database, "too_many_games")
    assert kept is not None and kept[1] >= sent - 0.5
