"""`dartship express --db`: every answered command is stored first; a game killed mid-roll
(the Admiral's Carrier has rolled, its target not yet declared) comes back with the same dice."""

from __future__ import annotations

from pathlib import Path

from tests.line_game import LineGame, run_script

LINES = [
    ["Carrier", "Battleship", "Destroyer", "Submarine", "Patrol Boat"],
    ["Battleship", "Destroyer", "Carrier", "Submarine", "Patrol Boat"],
]


def _express(db: Path, commands: list[dict]) -> list[dict]:
    return run_script("express", db, commands)


def test_a_game_killed_mid_roll_resumes_with_the_same_dice(tmp_path):
    db = tmp_path / "express.db"
    game = LineGame("express", db)

    def ask(command: dict) -> dict:
        return game.ask(command)[0]

    ask({"cmd": "new", "players": ["Ann", "Bo"], "lines": LINES, "seed": 11})
    first = ask({"cmd": "attack", "ship": "Carrier"})  # rolls first, declares after
    assert first["event"] == "roll" and first["hits"] is None
    state = ask({"cmd": "state"})
    assert state["phase"] == "target"
    game.kill()
    again = _express(db, [{"cmd": "state"}, {"cmd": "target", "target": {"player": 1, "ship": "Battleship"}}])
    assert again[0] == state
    # The roll counted after the declaration is the one thrown before the kill.
    assert again[1]["event"] == "roll" and again[1]["faces"] == first["faces"]


def test_a_whole_seeded_game_is_stored_and_resumes_over(tmp_path):
    db = tmp_path / "express.db"
    answers = _express(
        db, [{"cmd": "new", "players": ["Ann", "Bo"], "lines": LINES, "game": "captain", "seed": 3}]
    )
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
