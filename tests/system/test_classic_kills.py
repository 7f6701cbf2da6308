"""The kiosk's classic solo game on a phone, killed (SIGKILL) at random points: the whole
headless kiosk (`dartship run --headless --simulator`) with its database, a phone playing solo
against the computer, and 8 kills a few milliseconds after a shot was sent. Each restart finds
what the phone was answered (its shots and the computer's), at most the one unanswered shot
more, and a game resumed on the computer's turn goes on by itself until the phone's turn. A
room's friend who said Ready is named in the duel as it said, though the kiosk was killed
between its Ready and the duel."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.system.test_phones_only import start_headless
from tests.waits import Lines, until_seen

KILLS = 8
ORDER = [f"{c}{r}" for r in range(1, 11) for c in "ABCDEFGHIJ"]
random.Random(5).shuffle(ORDER)


class Phone:
    """A phone that keeps its device key (set by hand: the kiosk's address is an IP), its
    browser speaking `language` (an Accept-Language header) if given."""

    def __init__(self, language: str | None = None) -> None:
        self.cookie: str | None = None
        self.language = language

    def call(self, url: str, body: object | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if self.language:
            headers["Accept-Language"] = self.language
        request = urllib.request.Request(url, data=data, method="POST" if data else "GET", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                self._keep(response.headers.get("Set-Cookie"))
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as err:
            self._keep(err.headers.get("Set-Cookie"))
            return err.code, json.loads(err.read() or b"null")

    def _keep(self, header: str | None) -> None:
        if header:
            self.cookie = header.split(";", 1)[0]


class Kiosk:
    def __init__(self, tmp: Path, port: int = 0) -> None:
        """`port` 0: the system picks one (read back from the kiosk's log); restarts pass it."""
        self.proc = start_headless(tmp, port, "[solo]\nshot_seconds = 0.05\n")
        out = Lines(self.proc)
        self.port = int(out.wait_for(r"phone page on http://[^\s/]+:(\d+)").group(1))
        self.web = f"http://127.0.0.1:{self.port}"
        out.wait_for(r"running headless")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)


def _shots(view: dict) -> tuple[set[str], set[str]]:
    """(the phone's shots, the computer's shots) as the view shows them."""
    radar, incoming = view["radar"], view["incoming"]
    return (set(radar["hit"]) | set(radar["miss"]), set(incoming["hit"]) | set(incoming["miss"]))


def _settled(kiosk: Kiosk, phone: Phone) -> dict:
    """The view once it is the phone's turn (or the game is over): the computer has fired."""

    def view() -> dict:
        status, body = phone.call(f"{kiosk.web}/api/classic/play")
        assert status == 200, body
        return body["view"]

    return until_seen(view, lambda v: v["winner"] is not None or v["turn"] == 0, "the computer's shots")


def test_a_killed_kiosk_resumes_the_phones_solo_game_with_the_computers_turn(tmp_path):
    rng = random.Random(13)
    phone = Phone()
    kiosk = Kiosk(tmp_path)
    port = kiosk.port
    try:
        status, _body = phone.call(f"{kiosk.web}/api/classic/play/solo", {"level": "easy"})
        assert status == 200
        answered = _settled(kiosk, phone)
        kills = on_computers_turn = 0
        while answered["winner"] is None and kills < KILLS:
            mine, _theirs = _shots(answered)
            cell = next(c for c in ORDER if c not in mine)
            if rng.random() < 0.5:
                status, body = phone.call(f"{kiosk.web}/api/classic/play/fire", {"cell": cell})
                assert status == 200, body
                answered = _settled(kiosk, phone)
                continue
            sender = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    (
                        "import json, sys, urllib.request as u; u.urlopen(u.Request(sys.argv[1], "
                        "data=json.dumps({'cell': sys.argv[2]}).encode(), headers={'Content-Type': "
                        "'application/json', 'Cookie': sys.argv[3]}), timeout=5)"
                    ),
                    f"{kiosk.web}/api/classic/play/fire",
                    cell,
                    phone.cookie or "",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            time.sleep(rng.uniform(0.05, 0.25))  # the request on its way, or just answered
            kiosk.kill()
            sender.wait(timeout=10)
            kills += 1
            kiosk = Kiosk(tmp_path, port)
            status, body = phone.call(f"{kiosk.web}/api/classic/play")
            assert status == 200
            first = body["view"]
            on_computers_turn += first["turn"] == 1 and first["winner"] is None
            resumed = _settled(kiosk, phone)
            was_mine, was_theirs = _shots(answered)
            mine, theirs = _shots(resumed)
            # Nothing answered is lost; at most the shot on its way when the kiosk died.
            assert was_mine <= mine and mine - was_mine <= {cell}, (answered, resumed)
            assert was_theirs <= theirs
            assert resumed["game"] == answered["game"] and len(resumed["fleet"]) == 5
            answered = resumed
        assert kills == KILLS
        print(f"{kills} kills, {kills} resumes, {on_computers_turn} found on the computer's turn")
    finally:
        kiosk.kill()


def test_a_friends_name_said_at_ready_survives_a_kill_before_the_duel(tmp_path):
    """Two rooms on a headless kiosk (English): one friend types "Dee" at Ready, a German one
    gives no name ("Spieler 2"). The kiosk is killed with SIGKILL after both Readys and started
    again; each owner starts its duel and both phones of each room are told the friend's name."""
    kiosk = Kiosk(tmp_path)
    rooms = []
    try:
        for owner_name, typed, language in (("Ann", "Dee", None), ("Bo", None, "de-DE,de;q=0.9")):
            owner, friend = Phone(), Phone(language)
            status, body = owner.call(
                f"{kiosk.web}/api/classic/play/solo", {"level": "easy", "name": owner_name}
            )
            assert status == 200, body
            status, body = owner.call(f"{kiosk.web}/api/classic/play/room", {})
            assert status == 200, body
            room = f"{kiosk.web}/api/classic/r/{body['room']['link'].rsplit('/', 1)[1]}"
            assert friend.call(room)[0] == 200
            status, body = friend.call(f"{room}/ready", {"name": typed} if typed else {})
            assert status == 200 and body["room"]["ready"], body
            rooms.append((owner, friend, room, [owner_name, typed or "Spieler 2"]))
        kiosk.kill()
        kiosk = Kiosk(tmp_path, kiosk.port)
        for owner, friend, room, names in rooms:
            status, body = owner.call(f"{kiosk.web}/api/classic/play/duel", {})
            assert status == 200, body
            assert body["view"]["mode"] == "duel" and body["view"]["players"] == names, body["view"]
            status, body = friend.call(room)
            assert status == 200 and body["view"]["players"] == names, body
    finally:
        kiosk.kill()
