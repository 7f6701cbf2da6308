"""`dartship referee --db` and `dartship express --db` killed (SIGKILL) at random points of a
seeded game, a few milliseconds after a command was sent, as `dartship classic` is in
tests/kiosk/classic/test_kills.py: every restart answers `state` as the game stood after the
last command or the one before it (what was answered is never lost, nothing is half done),
and the game plays on to the same states as the same game never killed."""

from __future__ import annotations

import random
import time
from typing import Any

from tests.line_game import LineGame

KILLS = 12


def _state(game: LineGame) -> dict[str, Any]:
    """The state after whatever was sent before (the answers before it are skipped); before
    the first game, the error that says there is none."""
    game.send({"cmd": "state"})
    while True:
        answer = game.read()[0]
        if answer["event"] == "state" or answer.get("message", "").startswith("no game yet"):
            return answer


def _darts_script() -> list[dict[str, Any]]:
    rng = random.Random(4)
    cells = [f"{ring}{n}" for ring in "LSDT" for n in range(1, 21)] + ["BULL"]
    rng.shuffle(cells)
    script: list[dict[str, Any]] = [
        {"cmd": "new", "teams": ["Sharks", "Jets"], "players": [["Ann", "Bo"], ["Cy"]]},
        {"cmd": "random_fleet", "team": 0, "seed": 1},
        {"cmd": "random_fleet", "team": 1, "seed": 2},
        {"cmd": "start", "first": 0},
    ]
    for visit in range(24):
        script += [{"cmd": "throw", "cell": cells[(visit * 3 + d) % len(cells)]} for d in range(3)]
        script.append({"cmd": "undo"} if visit % 5 == 4 else {"cmd": "next"})
        if visit % 5 == 4:
            script.append({"cmd": "next"})
    return script


def _express_script(db) -> list[dict[str, Any]]:
    """A seeded Express game's commands, chosen from its states (the front ship attacks the
    next player's front ship; a Carrier names its target after its roll)."""
    game = LineGame("express", db)
    new = {"cmd": "new", "players": ["Ann", "Bo", "Cy"], "points_to_win": 10, "seed": 5}
    script: list[dict[str, Any]] = [new]
    game.send(script[0])
    state = _state(game)
    while state["phase"] != "over" and len(script) < 80:
        turn, lines = state["turn"], state["lines"]
        other = next(p for p in range(1, len(lines)) if lines[(turn + p) % len(lines)])
        target = {"player": (turn + other) % len(lines), "ship": lines[(turn + other) % len(lines)][0]}
        if state["phase"] == "target":
            command: dict[str, Any] = {"cmd": "target", "target": target}
        elif lines[turn][0] == "Carrier":
            command = {"cmd": "attack", "ship": "Carrier"}
        else:
            command = {"cmd": "attack", "ship": lines[turn][0], "target": target}
        script.append(command)
        game.send(command)
        state = _state(game)
    assert game.end()[0] == 0
    return script


def _reference(name: str, db, script: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The state after each number of commands, in a run that is never killed."""
    game = LineGame(name, db)
    seen = [_state(game)]
    for command in script:
        game.send(command)
        seen.append(_state(game))
    assert game.end()[0] == 0
    return seen


def _killed(name: str, db, script: list[dict[str, Any]], reference: list[dict[str, Any]]) -> int:
    rng = random.Random(len(script))
    game = LineGame(name, db)
    done = kills = 0
    while done < len(script):
        game.send(script[done])
        if kills < KILLS and rng.random() < 0.6:
            time.sleep(rng.uniform(0, 0.015))
            game.kill()
            kills += 1
            game = LineGame(name, db)
            state = _state(game)
            # The command sent is stored whole or not at all; nothing before it is lost.
            assert state in (reference[done], reference[done + 1]), (done, state)
            done += state == reference[done + 1] and state != reference[done]
            continue
        done += 1
        assert _state(game) == reference[done], done
    assert game.end()[0] == 0
    return kills


def test_the_dart_referee_killed_at_random_loses_nothing_and_plays_the_same(tmp_path):
    script = _darts_script()
    reference = _reference("referee", tmp_path / "reference.db", script)
    assert reference[-1]["phase"] != "placing" and len({str(s) for s in reference}) > 40
    assert _killed("referee", tmp_path / "killed.db", script, reference) == KILLS


def test_the_express_referee_killed_at_random_loses_nothing_and_plays_the_same(tmp_path):
    script = _express_script(tmp_path / "script.db")
    reference = _reference("express", tmp_path / "reference.db", script)
    assert reference[-1]["phase"] == "over" and len(script) > 20
    assert _killed("express", tmp_path / "killed.db", script, reference) >= KILLS // 2
