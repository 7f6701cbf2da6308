"""`dartship classic --db` killed (SIGKILL) at random points of a seeded solo game, a few
milliseconds after a shot was sent: every restart resumes what was answered (nothing lost), the
computer's turn goes on by itself (its shots are the first lines the restarted referee writes),
and the game plays exactly as the same game without a kill (the computer's randomness comes
from the stored seed and the game's progress). And `ready` survives a restart."""

from __future__ import annotations

import random
import time
from typing import Any

from tests.line_game import LineGame, run_script

SETUP = [
    {"cmd": "new", "mode": "solo", "players": ["Ann"], "ai": "easy", "seed": 3},
    {"cmd": "random_fleet", "player": 0, "seed": 1},
]
ORDER = [f"{c}{r}" for r in range(1, 11) for c in "ABCDEFGHIJ"]
random.Random(8).shuffle(ORDER)  # the human's shots, the same in every run
KILLS = 25


def _sync(game: LineGame) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """What came before (a restart's computer shots, a command's answers), then state, view 0."""
    game.send({"cmd": "state"})
    game.send({"cmd": "view", "player": 0})
    before: list[dict[str, Any]] = []
    while True:
        answer = game.read()[0]
        if answer["event"] == "state":
            return before, answer, game.read()[0]
        before.append(answer)


def _start(db) -> LineGame:
    game = LineGame("classic", db)
    for command in SETUP:
        game.send(command)
    _sync(game)
    return game


def _reference(db) -> dict[int, tuple[dict[str, Any], dict[str, Any]]]:
    """(state, view) after each number of human shots, in a run that is never killed."""
    game = _start(db)
    seen = {0: _sync(game)[1:]}
    for index, cell in enumerate(ORDER):
        game.send({"cmd": "fire", "cell": cell})
        _before, state, view = _sync(game)
        seen[index + 1] = (state, view)
        if state["phase"] == "over":
            break
    assert game.end()[0] == 0
    return seen


def test_kill_9_at_random_points_loses_nothing_and_plays_the_same(tmp_path):
    reference = _reference(tmp_path / "reference.db")
    db = tmp_path / "killed.db"
    rng = random.Random(21)
    game = _start(db)
    answered = 0  # human shots whose answers were read
    kills = resumed_on_computers_turn = 0
    while True:
        state, view = reference[answered]
        if state["phase"] == "over":
            break
        game.send({"cmd": "fire", "cell": ORDER[answered]})
        if kills < KILLS and rng.random() < 0.6:
            time.sleep(rng.uniform(0, 0.015))
            game.kill()
            kills += 1
            game = LineGame("classic", db)
            before, state, view = _sync(game)
            shots = state["shots"][0]
            assert shots in (answered, answered + 1)  # nothing answered is lost
            # The computer's turn went on by itself, before anything was asked.
            assert state["turn"] != 1 and (state, view) == reference[shots], (before, state)
            resumed_on_computers_turn += any(a.get("player") == 1 for a in before)
            answered = shots
            continue
        _before, state, view = _sync(game)
        answered += 1
        assert (state, view) == reference[answered]
    assert game.end()[0] == 0
    assert kills == KILLS, kills
    print(f"{kills} kills, {kills} resumes, {resumed_on_computers_turn} on the computer's turn")


def test_ready_is_stored_and_a_duel_after_a_restart_finds_the_friend_ready(tmp_path):
    db = tmp_path / "r.db"
    answers = run_script("classic", db, [*SETUP, {"cmd": "ready"}])
    assert answers[-1] == {"event": "ready"}
    answers = run_script("classic", db, [{"cmd": "duel"}])
    assert [a["event"] for a in answers] == ["new", "placed", "placed"], answers


def test_a_game_cut_after_the_humans_miss_goes_on_with_the_computers_shots(tmp_path):
    # What a power cut between storing the human's miss and the computer's answer leaves: a
    # file whose last command is that miss, the computer to move.
    from kiosk.classic.fleet import random_fleet
    from kiosk.classic.grid import SQUARES
    from kiosk.classic.match import Fire, Place
    from kiosk.classic.wire import CLASSIC, setup_from_dict
    from kiosk.service import GameService
    from kiosk.store import Store

    db = tmp_path / "cut.db"
    store = Store(db)
    service = GameService(store, venue="classic", follow_ups=False)
    service.new_game(CLASSIC, setup_from_dict(SETUP[0]))
    service.submit(Place(1, random_fleet(random.Random(3))))
    service.submit(Place(0, random_fleet(random.Random(1))))
    computers = service.match.fleet(1)
    service.submit(Fire(0, next(s for s in SQUARES if s not in computers.cells)))
    assert service.match.computer_to_move
    store.close()
    game = LineGame("classic", db)
    before, state, view = _sync(game)
    assert before and before[0]["event"] == "shot" and before[0]["player"] == 1, before
    assert before[-1] == {"event": "turn", "player": 0} and state["turn"] == 0
    shots = len(view["incoming"]["hit"]) + len(view["incoming"]["miss"])
    assert shots == sum(1 for a in before if a["event"] == "shot") == state["shots"][1]
    # The human's next shot is the human's (it used to be taken as the computer's).
    game.send({"cmd": "fire", "cell": next(c for c in ORDER if c not in view["radar"]["miss"])})
    after, state, _view = _sync(game)
    assert after[0]["event"] == "shot" and after[0]["player"] == 0, after
    assert game.end()[0] == 0
