"""A whole game with no touchscreen and no board: `dartship run --headless --simulator`, as
`./run-kiosk --headless` starts it, played from two phones and the host's desk.

The phones take their links (a third device gets nothing), lock in their fleets, answer "who was
closer?" together after a bull-off the board cannot decide, and press Next for their own visits;
the host's desk throws every dart on its throw pad (simulator mode) and, once the game is won,
starts the next one.
"""

from __future__ import annotations

import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.headless_kiosk import start_kiosk
from tests.system.test_kiosk_headless import JETS, SHARKS, _http, phone
from tests.waits import Lines, until_seen


def start_headless(tmp: Path, port: int, config: str, *args: str) -> subprocess.Popen:
    """`dartship run --headless --simulator` on 127.0.0.1:`port` with the database in `tmp`
    and `config` (TOML) after the [web] section."""
    path = tmp / "config.toml"
    path.write_text(f'[web]\nhost = "127.0.0.1"\nport = {port}\n{config}')
    return start_kiosk(path, "--db", str(tmp / "kiosk.db"), *args)


class HeadlessKiosk:
    def __init__(self, tmp: Path) -> None:
        self.proc = start_headless(
            tmp,
            0,
            '[rules]\nbull_off = "normal"\n',  # the system picks
            "--players",
            "Anna,Ben;Cleo",
        )
        self.out = Lines(self.proc)
        self.host = self.out.wait_for(r"Host page .*: (http\S+)").group(1)
        self.web = self.host.split("/host/")[0]
        self.out.wait_for(r"running headless")
        self.links = [
            self.out.wait_for(rf"{name}: (http\S+/team/\S+)").group(1) for name in ("Sharks", "Jets")
        ]

    def api(self, team: int) -> str:
        return f"{self.web}/api/team/{self.links[team].rsplit('/', 1)[1]}"

    def desk(self, action: str, **form: str) -> int:
        """A button of the host's desk (a form post; the desk answers with itself)."""
        request = urllib.request.Request(
            f"{self.host}/{action}", data=urllib.parse.urlencode(form).encode(), method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as err:
            return err.code

    def desk_page(self) -> str:
        with urllib.request.urlopen(self.host, timeout=10) as response:
            return response.read().decode()

    def view(self) -> dict:
        status, body = _http(f"{self.web}/api/game")
        assert status == 200
        return body["view"]

    def wait_view(self, check, what: str) -> dict:
        return until_seen(self.view, lambda view: view and check(view), what)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def test_a_whole_game_from_phones_and_the_host_desk(tmp_path):
    kiosk = HeadlessKiosk(tmp_path)
    try:
        phones = (phone(), phone())
        for team in (0, 1):
            status, body = _http(kiosk.api(team), opener=phones[team])
            assert status == 200 and body["view"]["you"] == team
        status, body = _http(kiosk.api(0), opener=phone())  # anyone else: nothing
        assert status == 403 and "view" not in body
        for team, fleet in ((0, SHARKS), (1, JETS)):
            status, body = _http(f"{kiosk.api(team)}/fleet", "POST", {"ships": fleet}, phones[team])
            assert status == 200, body
        kiosk.wait_view(lambda v: v["state"]["phase"] == "bull_off", "the bull-off")

        # The bull-off from the desk's pad: two darts beside the bull, the board cannot tell.
        for cell in ("S20", "T3"):
            assert kiosk.desk("throw", cell=cell) == 200
        view = kiosk.wait_view(lambda v: v["bull_off"]["undecided"], "who was closer?")
        assert view["bull_off"]["darts"] == [
            {"zone": "other", "cell": "S20"},
            {"zone": "other", "cell": "T3"},
        ]
        assert "S20 – not the bull" in kiosk.desk_page()
        status, body = _http(f"{kiosk.api(0)}/closer", "POST", {"team": 0}, phones[0])
        assert status == 200 and body["vote"] == "waiting"
        status, body = _http(f"{kiosk.api(1)}/closer", "POST", {"team": 0}, phones[1])
        assert status == 200 and body["vote"] == "decided"
        view = kiosk.wait_view(lambda v: v["state"]["phase"] == "throwing", "the first visit")
        assert view["state"]["team"] == 0 and view["state"]["player"] == "Anna"

        # Play: the Sharks aim at the Jets' ships, the Jets miss; each team's phone says Next.
        targets = [cell for ship in JETS for cell in ship]
        for _dart in range(200):
            state = kiosk.view()["state"]
            if state["phase"] == "over":
                break
            if state["phase"] == "takeout":
                thrower = state["turn"]
                status, _body = _http(f"{kiosk.api(1 - thrower)}/next", "POST", {}, phones[1 - thrower])
                assert status == 409  # not theirs to press
                status, _body = _http(f"{kiosk.api(thrower)}/next", "POST", {}, phones[thrower])
                assert status == 200
                kiosk.wait_view(lambda v: v["state"]["phase"] == "throwing", "the next visit")
                continue
            before = sum(state["darts"])
            cell = targets.pop(0) if state["team"] == 0 else "MISS"
            assert kiosk.desk("throw", cell=cell) == 200
            kiosk.wait_view(lambda v, b=before: sum(v["state"]["darts"]) > b, f"dart {cell}")
        final = kiosk.view()
        assert final["state"]["phase"] == "over" and final["state"]["winner"] == 0
        assert sorted(final["state"]["sunk"][1]) == [2, 3, 4, 5]
        assert "Victory for Sharks!" in kiosk.desk_page()

        # The next game from the desk: new links, printed for the host.
        assert kiosk.desk("next") == 200
        kiosk.out.wait_for(r"Phone links for game 2")
        with pytest.raises(urllib.error.HTTPError) as dead:
            phones[0].open(kiosk.api(0), timeout=10)
        assert dead.value.code == 404  # the old link died with its game
    finally:
        kiosk.stop()
