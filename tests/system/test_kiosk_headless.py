"""The whole kiosk, headless, with the fake serial board over TCP and the phones' API.

A full game: fleets placed from two "phones", the bull-off and every dart from the fake board,
a `kill -9` of the kiosk in the middle, a restart that resumes with nothing lost, and play on to
the win.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from tests.headless_kiosk import start_kiosk
from tests.waits import Lines, until_seen

ROOT = Path(__file__).resolve().parents[2]
SHARKS = [
    ["D20", "L20", "T20", "S20", "BULL"],
    ["T1", "T18", "T4", "T13"],
    ["L6", "L10", "L15"],
    ["D3", "D19"],
]
JETS = [["D5", "L5", "T5", "S5"], ["T11", "T14", "T9"], ["S6", "S10"], ["D1", "D18", "D4", "D13", "D6"]]


def phone() -> urllib.request.OpenerDirector:
    """A phone: it keeps its cookies (a team link is held by the phone that used it first)."""
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))


ANYONE = urllib.request.build_opener()


def _http(
    url: str, method: str = "GET", body: object | None = None, opener: urllib.request.OpenerDirector = ANYONE
) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


class Kiosk:
    def __init__(self, tmp: Path, board_url: str, web_port: int = 0) -> None:
        """`web_port` 0: the system picks one as the kiosk binds it (read back from its log);
        a restart gives the port of the first start, as a kiosk comes back on its port."""
        config = tmp / "config.toml"
        config.write_text(
            '[board]\ninput = "serial"\n'
            f'port = "{board_url}"\n'
            f'[web]\nhost = "127.0.0.1"\nport = {web_port}\n'
            # The script's Nexts come "a while" apart: at its pace, a Next right after the last
            # would be taken for a double tap (rules.double_next_seconds, 1.5 s by default).
            '[rules]\nbull_off = "normal"\ndouble_next_seconds = 0\n'
        )
        self.proc = start_kiosk(config, "--db", str(tmp / "kiosk.db"), simulator=False)
        self.out = Lines(self.proc)
        self.port = int(self.out.wait_for(r"phone page on http://[^\s/]+:(\d+)").group(1))
        self.web = f"http://127.0.0.1:{self.port}"
        self.out.wait_for(r"running headless")
        self.teams = [
            self.out.wait_for(r"Sharks: (http\S+)").group(1),
            self.out.wait_for(r"Jets: (http\S+)").group(1),
        ]

    def token_url(self, team: int) -> str:
        token = self.teams[team].rsplit("/", 1)[1]
        return f"{self.web}/api/team/{token}"

    def view(self) -> dict:
        status, body = _http(f"{self.web}/api/game")
        assert status == 200
        return body["view"]

    def wait_view(self, check, what: str = "the view wanted") -> dict:
        return until_seen(self.view, lambda view: view and check(view), f"{what} on the kiosk's page")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class FakeBoard:
    def __init__(self, port: int = 0) -> None:
        """`port` 0: the system picks one as the board listens; `url` is where it listens."""
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kiosk.app.cli", "fake-board", "--tcp", str(port), "--host", "127.0.0.1"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.out = Lines(self.proc)
        self.url = self.out.wait_for(r"(socket://\S+)").group(1)

    def type(self, text: str) -> None:
        # Two darts within the reader's 20 ms lockout are one dart touching two segments; real
        # darts come a second or so apart, typed ones here at least 0.25 s (the lockout is timed
        # when the reader reads, and this host is busy: lines typed 50 ms apart were read as one).
        # A button pressed again within 0.75 s is the same press held (firmwares repeat a held
        # button every 500 ms): two Nexts in a row come a second apart.
        time.sleep(0.8 if text.upper().startswith("BTN") else 0.25)
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)


@pytest.fixture
def rig(tmp_path):
    board = FakeBoard()
    kiosks: list[Kiosk] = []

    def start() -> Kiosk:
        kiosk = Kiosk(tmp_path, board.url, kiosks[0].port if kiosks else 0)
        kiosks.append(kiosk)
        kiosk.out.wait_for(r"board fake-\S+ connected")
        return kiosk

    yield board, start
    for kiosk in kiosks:
        kiosk.stop()
    board.stop()


def _dart_count(view: dict) -> int:
    return sum(view["state"]["darts"])


def test_full_game_with_kill_and_resume(rig):
    board, start = rig
    kiosk = start()
    # Two phones lock in their fleets.
    phones = (phone(), phone())
    for team, fleet in ((0, SHARKS), (1, JETS)):
        status, body = _http(f"{kiosk.token_url(team)}/fleet", "POST", {"ships": fleet}, phones[team])
        assert status == 200, body
    kiosk.wait_view(lambda v: v["state"]["phase"] == "bull_off")
    # Bull-off from the board: Sharks' outer bull, Jets' inner bull: the Jets start.
    board.type("25")
    board.type("DB")
    view = kiosk.wait_view(lambda v: v["state"]["phase"] == "throwing")
    assert view["state"]["team"] == 1

    def throw(cell: str) -> None:
        before = _dart_count(kiosk.view())
        board.type(cell)
        kiosk.wait_view(lambda v: _dart_count(v) == before + 1)

    def next_visit(team: int) -> None:
        board.type("BTN NEXT")
        kiosk.wait_view(lambda v: v["state"]["phase"] == "throwing" and v["state"]["team"] == team)

    for cell in ("D3", "D19", "T20"):  # Jets sink the 2 and hit the 5
        throw(cell)
    next_visit(0)
    throw("T5")  # Sharks: one dart, then Next pads two misses
    next_visit(1)
    for cell in ("T1", "T18", "T4"):  # Jets hit the 4 three times
        throw(cell)
    view = kiosk.wait_view(lambda v: v["state"]["phase"] == "takeout")
    assert view["state"]["sunk"] == [[2], []]
    assert view["shots"][1] == {
        "D3": "hit",
        "D19": "sunk",
        "T20": "hit",
        "T1": "hit",
        "T18": "hit",
        "T4": "hit",
    }
    assert view["shots"][0] == {"T5": "hit"}

    # The power goes: nothing the room was told may be lost.
    kiosk.kill()
    kiosk = start()
    resumed = kiosk.wait_view(lambda v: v["state"]["phase"] == "takeout")
    assert {k: resumed[k] for k in ("state", "shots", "sunk_ships")} == {
        k: view[k] for k in ("state", "shots", "sunk_ships")
    }
    # The links and the phones holding them survive the restart: the Sharks' phone sees its
    # fleet, any other device nothing.
    status, body = _http(f"{kiosk.token_url(0)}", opener=phones[0])
    assert status == 200 and sorted(map(tuple, body["view"]["fleet"])) == sorted(
        tuple(ship) for ship in SHARKS
    )
    status, body = _http(f"{kiosk.token_url(0)}", opener=phone())
    assert status == 403 and body["error"] == "other_phone" and "view" not in body

    # Play on: the Sharks throw a visit of misses and the Jets finish the job.
    next_visit(0)
    for cell in ("MISS", "MISS", "MISS"):
        throw(cell)
    for cell in ("T13", "L6", "L10", "L15", "D20", "L20", "S20", "BULL"):
        state = kiosk.view()["state"]
        if state["phase"] == "takeout":
            next_visit(state["team"])
        if kiosk.view()["state"]["team"] == 0:
            next_visit(1)  # the Sharks' visit: Next pads it with misses
        throw(cell)
    final = kiosk.wait_view(lambda v: v["state"]["phase"] == "over")
    assert final["state"]["winner"] == 1
    assert final["state"]["sunk"][0] == [2, 4, 3, 5]


def test_a_headless_start_says_when_the_board_has_not_told_its_rings(tmp_path):
    """A phones-only kiosk started with its teams (`--headless --teams`) on a serial board in
    dialect auto that says nothing until a dart (the bracket dialect of the GranBoard bridge):
    the game it sets up at once may count rings the board lacks, and the journal says so, with
    what to do; the touchscreen's New game and the host's desk say the same."""
    board = subprocess.Popen(
        [sys.executable, "-m", "kiosk.app.cli", "fake-board", "--dialect", "bracket", "--tcp", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "PYTHONUNBUFFERED": "1"},
    )
    kiosk = None
    try:
        url = Lines(board).wait_for(r"(socket://\S+)").group(1)
        config = tmp_path / "config.toml"
        config.write_text(f'[board]\ninput = "serial"\nport = "{url}"\n[web]\nhost = "127.0.0.1"\nport = 0\n')
        teams = ("--db", str(tmp_path / "kiosk.db"), "--teams", "Sharks,Jets")
        kiosk = start_kiosk(config, *teams, simulator=False)
        out = Lines(kiosk)
        out.wait_for(r"running headless")
        line = out.wait_for(r"Board: not told yet\..*").group(0)
        assert "tap New game, same teams on the host page" in line
    finally:
        for proc in (kiosk, board):
            if proc is not None:
                proc.kill()
                proc.wait(timeout=10)
