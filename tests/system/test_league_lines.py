"""Games finished through the line protocols reach the league, each exactly once, every part a
real process: a `dartship hub` on the tests' throwaway PostgreSQL, a kiosk's folder joined with
`dartship league join`, one game of each kind played to its end by `dartship referee --db`,
`dartship classic --db` and `dartship express --db` on that kiosk's database (killed with
SIGKILL now and then: after an answer, and while a command is on its way, the last one
included), then the kiosk run as `dartship run --headless --simulator`, whose sync task sends
them through a proxy that can hold either direction (tests/system/held_proxy.py), killed after
the hub committed the first game but before the kiosk heard so, killed before the hub heard of
the next, and killed at a random moment. At the end the hub has the three games, once each,
under the UUIDs of the kiosk's outbox, and nothing waits or was refused."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from tests.line_game import LineGame
from tests.system.held_proxy import HOLD_ANSWERS, HOLD_REQUESTS, PASS
from tests.system.league_bars import bar_behind_a_proxy, kill_when_the_hub_has, squares, wait_until

DART_FLEET = "D20-L20-T20-S20-BULL T1-T18-T4-T13 L6-L10-L15 D3-D19"
CLASSIC_FLEET = "A1-A5 C3-F3 H2-H4 J7-J9 E9-F9"
KILLS_PER_GAME = 2


class Line:
    """One game's line protocol on the kiosk's database, restarted after every kill."""

    def __init__(self, game: str, db: Path) -> None:
        self.game_name = game
        self.db = db
        self.game = LineGame(game, db)
        self.kills = 0

    def ask(self, command: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The command's answers (none may be an error), and the state after it."""
        self.game.send(command)
        answers = [a for a in self.state_after() if a.get("event") != "state"]
        assert not [a for a in answers if a.get("event") == "error"], (command, answers)
        return answers, self._state

    def state_after(self) -> list[dict[str, Any]]:
        """Everything answered up to the answer to a `state` sent now (the state kept)."""
        self.game.send({"cmd": "state"})
        answers = []
        while True:
            (answer,) = self.game.read()
            answers.append(answer)
            if answer.get("event") == "state":
                self._state = answer
                return answers

    def state(self) -> dict[str, Any]:
        self.state_after()
        return self._state

    def restart(self) -> None:
        self.game.kill()
        self.kills += 1
        self.game = LineGame(self.game_name, self.db)

    def kill_in_flight(self, command: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
        """SIGKILL while `command` is on its way (before, during or after its transaction);
        after the restart it is sent again only if the state says it was not kept. Where the
        kill landed, and the state after the command."""
        before = self.state()
        self.game.send(command)
        if rng.random() < 0.5:  # else at once: most likely before the line was read
            time.sleep(rng.uniform(0.0, 0.004))
        self.restart()
        after = self.state()
        if after != before:
            return "kept", after
        return "not kept", self.ask(command)[1]

    def end(self) -> None:
        status, err = self.game.end()
        assert status == 0, err


def _play(line: Line, commands: list[dict[str, Any]], rng: random.Random, landed: list[str]) -> dict:
    """Every command in turn, killed after a few answers, and in flight on the last one."""
    kill_after = set(rng.sample(range(len(commands) - 1), KILLS_PER_GAME))
    for n, command in enumerate(commands[:-1]):
        line.ask(command)
        if n in kill_after:
            line.restart()
    where, state = line.kill_in_flight(commands[-1], rng)
    landed.append(f"{line.game_name}: last command {where}")
    return state


def _darts(line: Line, rng: random.Random, landed: list[str]) -> None:
    cells = DART_FLEET.replace("-", " ").split()
    commands: list[dict[str, Any]] = [
        {"cmd": "new", "teams": ["Sharks", "Jets"], "players": [["Ann", "Bo"], ["Cy"]]},
        {"cmd": "place", "team": 0, "fleet": DART_FLEET},
        {"cmd": "place", "team": 1, "fleet": DART_FLEET},
        {"cmd": "start", "first": 0},
    ]
    for first in range(0, len(cells), 3):
        commands += [{"cmd": "throw", "cell": cell} for cell in cells[first : first + 3]]
        if first + 3 < len(cells):
            commands += [{"cmd": "next"}, {"cmd": "next"}]  # the Sharks' takeout, the Jets' visit
    state = _play(line, commands, rng, landed)
    assert state["phase"] == "over" and state["winner"] == 0


def _classic(line: Line, rng: random.Random, landed: list[str]) -> None:
    commands: list[dict[str, Any]] = [
        {"cmd": "new", "mode": "duel", "players": ["Ann", "Dee"], "first": 0},
        {"cmd": "place", "player": 0, "fleet": CLASSIC_FLEET},
        {"cmd": "place", "player": 1, "fleet": CLASSIC_FLEET},
    ]
    commands += [{"cmd": "fire", "cell": cell} for ship in CLASSIC_FLEET.split() for cell in squares(ship)]
    state = _play(line, commands, rng, landed)
    assert state["phase"] == "over" and state["winner"] == 0


def _express(line: Line, rng: random.Random, landed: list[str]) -> None:
    lines = [
        ["Carrier", "Battleship", "Destroyer", "Submarine", "Patrol Boat"],
        ["Battleship", "Destroyer", "Carrier", "Submarine", "Patrol Boat"],
    ]
    _answers, state = line.ask(
        {"cmd": "new", "players": ["Ann", "Cy"], "lines": lines, "game": "captain", "seed": 3}
    )
    attacks = 0
    while state["phase"] != "over":
        assert attacks < 400, state
        me, other = state["turn"], 1 - state["turn"]
        attack = {
            "cmd": "attack",
            "ship": state["lines"][me][0],
            "target": {"player": other, "ship": state["lines"][other][0]},
        }
        attacks += 1
        if rng.random() < 0.15:
            where, state = line.kill_in_flight(attack, rng)
            landed.append(f"express: attack {attacks} {where}")
        else:
            _answers, state = line.ask(attack)
    assert state["winner"] in (0, 1)


def test_games_finished_through_the_line_protocols_reach_the_hub_once_each(database, tmp_path):
    hub, proxy, kiosk = bar_behind_a_proxy(database, tmp_path / "anchor")
    rng = random.Random(24)
    landed: list[str] = []
    try:
        for name, play in (("referee", _darts), ("classic", _classic), ("express", _express)):
            line = Line(name, kiosk.db)
            play(line, rng, landed)
            line.end()
            assert line.kills >= 1
        # Queued by the line protocols themselves, in the transactions that ended the games.
        assert kiosk.outbox() == {"pending": 3}
        assert hub.games() == []

        # Killed after the hub committed the first game, before the kiosk heard so.
        proxy.mode = HOLD_ANSWERS
        proxy.count_from_now()
        kiosk.start()
        wait_until(lambda: len(hub.games()) == 1 and proxy.answers_held, "the hub has one game")
        assert kiosk.outbox() == {"pending": 3}
        kiosk.kill()
        proxy.cut()
        # Killed while its next request is held on the way: the hub never hears of it.
        proxy.mode = HOLD_REQUESTS
        proxy.count_from_now()
        kiosk.start()
        wait_until(lambda: proxy.requests_seen, "an upload on its way")
        kiosk.kill()
        proxy.cut()
        assert len(hub.games()) == 1 and kiosk.outbox() == {"pending": 3}
        # And once while it streams them, the proxy letting everything through: as soon as the
        # hub has committed the second (held on the way while the kiosk starts up), before the
        # kiosk heard so or sent the third.
        proxy.mode = HOLD_REQUESTS
        kiosk.start()
        proxy.mode = PASS
        kill_when_the_hub_has(kiosk, hub, 2)
        proxy.cut()
        time.sleep(0.5)  # an upload whose body got through may still commit at the hub
        landed.append(f"kiosk killed with {kiosk.outbox()} and {len(hub.games())} at the hub")
        # Landed while sending: the hub took more than before, the kiosk had not marked all sent.
        assert len(hub.games()) >= 2 and kiosk.outbox().get("pending", 0) > 0, landed
        kiosk.start()
        wait_until(lambda: kiosk.outbox() == {"sent": 3}, lambda: f"3 games sent: {kiosk.outbox()}", 120)
        at_hub = hub.games()
        outbox = dict(kiosk.read("SELECT o.uuid, g.kind FROM outbox o JOIN games g ON g.id = o.game"))
        assert sorted(u for u, _k, _v in at_hub) == sorted(outbox)
        assert sorted(k for _u, k, _v in at_hub) == ["classic", "darts", "express"]
        assert {v for _u, _k, v in at_hub} == {"The Anchor"}
        print("kills landed:", landed)
    finally:
        kiosk.stop()
        proxy.close()
        hub.stop()
