"""`dartship classic --db`: every answered command is stored first; a restart resumes exactly;
the daily leaderboard comes from the store's finished daily games."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ALL_CELLS = [f"{c}{r}" for r in range(1, 11) for c in "ABCDEFGHIJ"]


def _classic(db: Path, commands: list[dict]) -> list[dict]:
    done = subprocess.run([sys.executable, "-m", "kiosk.app.cli", "classic", "--db", str(db)],
                          input="".join(json.dumps(c) + "\n" for c in commands),
                          capture_output=True, text=True, timeout=120, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return [json.loads(line) for line in done.stdout.splitlines()]


def _daily_to_the_end(db: Path, name: str, cells: list[str]) -> int:
    answers = _classic(db, [{"cmd": "new", "mode": "daily", "players": [name],
                             "date": "2026-11-30"}]
                       + [{"cmd": "fire", "cell": c} for c in cells])
    assert any(a["event"] == "win" for a in answers), answers[-3:]
    return sum(1 for a in answers if a["event"] == "shot")


def test_daily_games_in_the_file_make_the_leaderboard(tmp_path):
    db = tmp_path / "classic.db"
    slow = _daily_to_the_end(db, "Bo", ALL_CELLS)
    fast = _daily_to_the_end(db, "Ann", list(reversed(ALL_CELLS)))
    board = _classic(db, [{"cmd": "leaderboard", "date": "2026-11-30"}])[0]
    expected = sorted([{"player": "Bo", "shots": slow}, {"player": "Ann", "shots": fast}],
                      key=lambda e: e["shots"])
    assert board == {"event": "leaderboard", "date": "2026-11-30", "entries": expected}
    other_day = _classic(db, [{"cmd": "leaderboard", "date": "2026-12-01"}])[0]
    assert other_day["entries"] == []


def test_a_killed_solo_game_resumes_exactly(tmp_path):
    db = tmp_path / "classic.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "kiosk.app.cli", "classic", "--db", str(db)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None

    def ask(command: dict) -> dict:
        proc.stdin.write(json.dumps(command) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    ask({"cmd": "new", "mode": "solo", "players": ["Ann"], "seed": 4})
    ask({"cmd": "random_fleet", "player": 0, "seed": 9})
    proc.stdin.write(json.dumps({"cmd": "fire", "cell": "E5"}) + "\n")
    proc.stdin.flush()
    state = None
    while state is None:  # the computer's shots follow the answer: read up to the state
        proc.stdin.write(json.dumps({"cmd": "state"}) + "\n")
        proc.stdin.flush()
        while True:
            answer = json.loads(proc.stdout.readline())
            if answer["event"] == "state":
                state = answer
                break
    view = ask({"cmd": "view", "player": 0})
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    again = _classic(db, [{"cmd": "state"}, {"cmd": "view", "player": 0}])
    assert again == [state, view]
