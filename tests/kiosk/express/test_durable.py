"""`dartship express --db`: every answered command is stored first; a game killed mid-roll
(the Admiral's Carrier has rolled, its target not yet declared) comes back with the same dice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
LINES = [["Carrier", "Battleship", "Destroyer", "Submarine", "Patrol Boat"],
         ["Battleship", "Destroyer", "Carrier", "Submarine", "Patrol Boat"]]


def _express(db: Path, commands: list[dict]) -> list[dict]:
    done = subprocess.run([sys.executable, "-m", "kiosk.app.cli", "express", "--db", str(db)],
                          input="".join(json.dumps(c) + "\n" for c in commands),
                          capture_output=True, text=True, timeout=120, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_game_killed_mid_roll_resumes_with_the_same_dice(tmp_path):
    db = tmp_path / "express.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "kiosk.app.cli", "express", "--db", str(db)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None

    def ask(command: dict) -> dict:
        proc.stdin.write(json.dumps(command) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    ask({"cmd": "new", "players": ["Ann", "Bo"], "lines": LINES, "seed": 11})
    first = ask({"cmd": "attack", "ship": "Carrier"})  # rolls first, declares after
    assert first["event"] == "roll" and first["hits"] is None
    state = ask({"cmd": "state"})
    assert state["phase"] == "target"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    again = _express(db, [{"cmd": "state"},
                          {"cmd": "target", "target": {"player": 1, "ship": "Battleship"}}])
    assert again[0] == state
    # The roll counted after the declaration is the one thrown before the kill.
    assert again[1]["event"] == "roll" and again[1]["faces"] == first["faces"]


def test_a_whole_seeded_game_is_stored_and_resumes_over(tmp_path):
    db = tmp_path / "express.db"
    answers = _express(db, [{"cmd": "new", "players": ["Ann", "Bo"], "lines": LINES,
                             "game": "captain", "seed": 3}])
    assert answers[0]["event"] == "new"
    for _ in range(400):
        state = _express(db, [{"cmd": "state"}])[0]
        if state["phase"] == "over":
            break
        me, other = state["turn"], 1 - state["turn"]
        ship = state["lines"][me][0]
        target = state["lines"][other][0]
        _express(db, [{"cmd": "attack", "ship": ship, "target": {"player": other, "ship": target}}])
    assert state["phase"] == "over" and state["winner"] in (0, 1)
    assert _express(db, [{"cmd": "state"}])[0] == state
