"""The three line protocols (`dartship referee`, `classic`, `express`) under hostile lines.

Each runs as a real subprocess under the C locale (so nothing helps it with the encoding), with a
game in play. Every fuzzed line (a huge number, a lone surrogate raw or escaped, a 0xff byte,
NaN, deep nesting, a line too long, a command whose field has the wrong type, an unknown
command) must get exactly one `error` answer, leave `state` (and classic's views) as they were,
and the process must write valid UTF-8 only, never a traceback, and end with status 0.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from tests.line_game import ENV, ROOT, _command
from tests.waits import Lines

LINES_PER_GAME = 2500

# A game in play for each protocol, and the well-formed commands the fuzzer breaks.
SETUPS: dict[str, list[dict[str, Any]]] = {
    "referee": [
        {"cmd": "new", "teams": ["Sharks", "Jets"], "players": [["Ann", "Bo"], ["Cy"]]},
        {"cmd": "random_fleet", "team": 0, "seed": 1},
        {"cmd": "random_fleet", "team": 1, "seed": 2},
        {"cmd": "start", "first": 0},
        {"cmd": "throw", "cell": "T20"},
    ],
    "classic": [
        {"cmd": "new", "mode": "solo", "players": ["Ann"], "ai": "easy", "seed": 3},
        {"cmd": "random_fleet", "player": 0, "seed": 1},
        {"cmd": "fire", "cell": "A1"},
    ],
    "express": [
        {"cmd": "new", "players": ["Ann", "Bo", "Cy"], "seed": 5},
    ],
}
TEMPLATES: dict[str, list[dict[str, Any]]] = {
    "referee": [
        {
            "cmd": "new",
            "teams": ["A", "B"],
            "players": [["x"], ["y"]],
            "fleet": [5, 4, 3, 2],
            "darts_per_visit": 3,
            "board": "four-ring",
        },
        {"cmd": "place", "team": 0, "fleet": "D20-L20-T20-S20-BULL T1-T18-T4-T13 L6-L10-L15 D3-D19"},
        {"cmd": "random_fleet", "team": 1, "seed": 7},
        {"cmd": "start", "first": 1},
        {"cmd": "throw", "cell": "T19"},
        {"cmd": "correct", "cell": "T1"},
        {"cmd": "bull", "team": 0, "cell": "DB"},
        {"cmd": "closer", "team": 1},
    ],
    "classic": [
        {"cmd": "new", "mode": "duel", "players": ["Ann", "Bo"], "first": 0},
        {"cmd": "new", "mode": "solo", "ai": "hard", "seed": 4},
        {"cmd": "new", "mode": "daily", "date": "2026-11-30"},
        {"cmd": "place", "player": 0, "fleet": "A1-A5 C3-F3 H2-H4 J7-J9 E9-F9"},
        {"cmd": "random_fleet", "player": 0, "seed": 7},
        {"cmd": "fire", "cell": "B7"},
        {"cmd": "view", "player": 1},
        {"cmd": "duel", "players": ["Ann", "Bo"]},
        {"cmd": "leaderboard", "date": "2026-11-30"},
    ],
    "express": [
        {"cmd": "new", "players": ["Ann", "Bo"], "game": "captain", "points_to_win": 2, "seed": 5},
        {"cmd": "dice", "faces": ["Carrier", "Burst"]},
        {"cmd": "attack", "ship": "Destroyer", "target": {"player": 1, "ship": "Carrier"}, "player": 0},
        {"cmd": "attack", "ship": "Carrier", "move": True},
        {"cmd": "target", "target": {"player": 1, "ship": "Battleship"}},
    ],
}
CHECKS: dict[str, list[dict[str, Any]]] = {
    "referee": [{"cmd": "state"}],
    "classic": [{"cmd": "state"}, {"cmd": "view", "player": 0}, {"cmd": "view", "player": 1}],
    "express": [{"cmd": "state"}],
}


def _wrong(value: Any, rng: random.Random) -> Any:
    """A value of another JSON type than `value` (never null: null may mean "the default")."""
    choices: list[Any] = [17, -3, 2.5, "x", "", True, [], [1, [2]], {}, {"a": 1}, 10**20]

    def kind(v: Any) -> str:
        return "bool" if isinstance(v, bool) else "num" if isinstance(v, int | float) else type(v).__name__

    return rng.choice([c for c in choices if kind(c) != kind(value)])


def _hostile(game: str, rng: random.Random) -> bytes:
    """One line that no protocol may accept."""
    template = dict(rng.choice(TEMPLATES[game]))
    how = rng.randrange(9)
    if how == 0:  # a number past Python's int-conversion limit
        return (json.dumps(template)[:-1] + ', "n": ' + "9" * rng.choice((31, 4301, 9000)) + "}").encode()
    if how == 1:  # a lone surrogate, escaped
        key = rng.choice([k for k in template if k != "cmd"] or ["cmd"])
        template[key] = "a\ud800" if rng.random() < 0.5 else ["\udcff", "Bo"]
        return json.dumps(template).encode()
    if how == 2:  # a raw 0xff (or a cut UTF-8 sequence) inside a string
        text = json.dumps(template, ensure_ascii=False).encode()
        cut = text.index(b'"', 1) + 1
        return text[:cut] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80")) + text[cut:]
    if how == 3:  # deep nesting
        depth = rng.choice((40, 5000, 30000))
        return ('{"cmd": "state", "x": ' + "[" * depth + "]" * depth + "}").encode()
    if how == 4:  # not a number JSON knows
        return (json.dumps(template)[:-1] + ', "seed": ' + rng.choice(("NaN", "Infinity")) + "}").encode()
    if how == 5:  # longer than any command
        return json.dumps({"cmd": "state", "pad": "x" * 70_000}).encode()
    if how == 6:  # not an object, or no cmd
        return rng.choice(
            (b"[1, 2]", b'"state"', b"17", b'{"cmd": null}', b'{"command": "x"}', b"{", b'{"cmd": "state",}')
        )
    if how == 7:  # an unknown command
        return json.dumps({**template, "cmd": rng.choice(("fly", "STATE ", "", "\u2028"))}).encode()
    # a field of the wrong type
    key = rng.choice(list(template))
    template[key] = _wrong(template[key], rng)
    return json.dumps(template).encode()


class _Raw:
    """One `dartship <game>` spoken to in bytes, under the C locale."""

    def __init__(self, game: str) -> None:
        env = {**ENV, "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii:strict", "PYTHONUTF8": "0"}
        env.pop("LANGUAGE", None)
        self.proc = subprocess.Popen(
            _command(game, None),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=env,
        )
        self.out: Lines[bytes] = Lines(self.proc)
        self.err: Lines[bytes] = Lines(self.proc, self.proc.stderr)

    def ask(self, line: bytes, then: list[dict[str, Any]]) -> tuple[list[Any], list[Any]]:
        """The answers to `line`, and to the check commands sent right after it."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        for check in then:
            self.proc.stdin.write(json.dumps(check).encode() + b"\n")
        self.proc.stdin.flush()
        answers: list[Any] = []
        # The checks answer one line each and never an error: read until all of them came.
        checks: list[Any] = []
        while len(checks) < len(then):
            raw = self.out.next(f"answer to {line[:80]!r}")
            answer = json.loads(raw.decode("utf-8"))  # strict: valid UTF-8 or this fails
            if answer.get("event") in ("state", "view"):
                checks.append(answer)
            else:
                answers.append(answer)
        return answers, checks

    def end(self) -> tuple[int, bytes]:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        status = self.proc.wait(timeout=60)
        self.out.close()
        self.err.close()
        return status, b"\n".join(self.err.lines)


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_every_hostile_line_gets_one_error_and_changes_nothing(game):
    rng = random.Random(f"fuzz-{game}")
    proc = _Raw(game)
    for command in SETUPS[game]:
        answers, _ = proc.ask(json.dumps(command).encode(), [{"cmd": "state"}])
        assert answers and all(a["event"] != "error" for a in answers), (command, answers)
    _, before = proc.ask(b"", CHECKS[game])
    crashes = 0
    for _n in range(LINES_PER_GAME):
        line = _hostile(game, rng)
        answers, after = proc.ask(line, CHECKS[game])
        assert [a["event"] for a in answers] == ["error"], (line[:200], answers)
        assert isinstance(answers[0]["message"], str) and answers[0]["message"]
        assert after == before, line[:200]
        crashes += proc.proc.poll() is not None
    status, err = proc.end()
    assert (status, crashes) == (0, 0)
    assert b"Traceback" not in err, err.decode("utf-8", "replace")[-2000:]


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_the_issues_repros_answer_an_error_in_valid_utf8(game):
    proc = _Raw(game)
    for command in SETUPS[game]:
        proc.ask(json.dumps(command).encode(), [{"cmd": "state"}])
    lines = [
        b'{"cmd":"state","n":' + b"1" * 5000 + b"}",
        b'{"cmd":"new","players":["\\ud800","Bo"],"teams":["\\ud800","Bo"]}',
        b'{"cmd":"new","players":["a\\udcffb","Bo"],"teams":["a\\udcffb","Bo"]}',
        b'{"cmd":"new","players":["\xff","Bo"],"teams":["\xff","Bo"]}',
    ]
    for line in lines:
        answers, _ = proc.ask(line, [{"cmd": "state"}])
        assert [a["event"] for a in answers] == ["error"], (line[:80], answers)
    status, err = proc.end()
    assert status == 0 and b"Traceback" not in err


def test_the_c_locale_is_really_used():
    # The fuzz runs mean something only if the child would have choked on its own: Python's
    # text stdin under this environment is strict ASCII.
    env = {**ENV, "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii:strict", "PYTHONUTF8": "0"}
    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.stdin.read()"],
        input=b"\xff\n",
        capture_output=True,
        env=env,
        timeout=30,
    )
    assert done.returncode != 0 and b"UnicodeDecodeError" in done.stderr
