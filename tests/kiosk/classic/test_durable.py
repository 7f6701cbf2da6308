"""`dartship classic --db`: every answered command is stored first; a restart resumes exactly;
the daily leaderboard comes from the store's finished daily games."""

from __future__ import annotations

from pathlib import Path

from tests.line_game import LineGame, run_script

ALL_CELLS = [f"{c}{r}" for r in range(1, 11) for c in "ABCDEFGHIJ"]


def _classic(db: Path, commands: list[dict]) -> list[dict]:
    return run_script("classic", db, commands)


def _daily_to_the_end(db: Path, name: str, cells: list[str]) -> int:
    answers = _classic(
        db,
        [{"cmd": "new", "mode": "daily", "players": [name], "date": "2026-11-30"}]
        + [{"cmd": "fire", "cell": c} for c in cells],
    )
    assert any(a["event"] == "win" for a in answers), answers[-3:]
    return sum(1 for a in answers if a["event"] == "shot")


def test_daily_games_in_the_file_make_the_leaderboard(tmp_path):
    db = tmp_path / "classic.db"
    slow = _daily_to_the_end(db, "Bo", ALL_CELLS)
    fast = _daily_to_the_end(db, "Ann", list(reversed(ALL_CELLS)))
    board = _classic(db, [{"cmd": "leaderboard", "date": "2026-11-30"}])[0]
    expected = sorted(
        [{"player": "Bo", "shots": slow}, {"player": "Ann", "shots": fast}], key=lambda e: e["shots"]
    )
    assert board == {"event": "leaderboard", "date": "2026-11-30", "entries": expected}
    other_day = _classic(db, [{"cmd": "leaderboard", "date": "2026-12-01"}])[0]
    assert other_day["entries"] == []


def test_a_killed_solo_game_resumes_exactly(tmp_path):
    db = tmp_path / "classic.db"
    game = LineGame("classic", db)

    def ask(command: dict) -> dict:
        return game.ask(command)[0]

    ask({"cmd": "new", "mode": "solo", "players": ["Ann"], "seed": 4})
    ask({"cmd": "random_fleet", "player": 0, "seed": 9})
    game.send({"cmd": "fire", "cell": "E5"})
    state = None
    while state is None:  # the computer's shots follow the answer: read up to the state
        game.send({"cmd": "state"})
        while True:
            answer = game.read()[0]
            if answer["event"] == "state":
                state = answer
                break
    view = ask({"cmd": "view", "player": 0})
    game.kill()
    again = _classic(db, [{"cmd": "state"}, {"cmd": "view", "player": 0}])
    assert again == [state, view]
