"""Bars of a league as they really run, for the system tests: a hub process (`dartship hub`) on
the session's throwaway PostgreSQL, set up with `dartship hub admin`, and kiosks that joined it
with `dartship league join` and run as `dartship run --headless --simulator`, each in a folder of
its own (its config, its database), played by phones over HTTP."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.headless_kiosk import start_kiosk
from tests.system.test_kiosk_headless import ROOT
from tests.waits import Lines
from tests.waits import until as wait_until

ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
COLUMNS = "ABCDEFGHIJ"
SQUARES = [f"{c}{r}" for r in range(1, 11) for c in COLUMNS]


def dartship(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> str:
    """A `dartship` command to its end; its output (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.app.cli", *args],
        capture_output=True,
        text=True,
        env={**ENV, **(env or {})},
        timeout=timeout,
    )
    assert done.returncode == 0, f"dartship {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


def get_json(url: str, timeout: float = 10) -> dict:
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return json.loads(answer.read())


class HubProcess:
    """`dartship hub` on `database`, on a port of its own; `admin` runs `dartship hub admin`."""

    def __init__(self, database: str) -> None:
        from hub.cluster import free_port

        self.database = database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def admin(self, *args: str) -> str:
        return dartship("hub", "admin", "--database", self.database, *args).strip()

    def start(self) -> None:
        from hub.cluster import tied

        self.proc = subprocess.Popen(
            tied(
                [
                    sys.executable,
                    "-m",
                    "kiosk.app.cli",
                    "hub",
                    "--database",
                    self.database,
                    "--port",
                    str(self.port),
                ]
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=ENV,
        )

        def healthy() -> bool:
            try:
                urllib.request.urlopen(f"{self.url}/healthz", timeout=1).close()
                return True
            except OSError:
                return False

        wait_until(healthy, "a healthy hub", 60)

    def api(self, path: str) -> dict:
        return get_json(f"{self.url}/api{path}")

    def games(self) -> list[tuple[str, str, str]]:
        """(uuid, kind, venue) of every game the hub has, straight from its database."""
        import psycopg

        with psycopg.connect(self.database) as conn:
            rows = conn.execute(
                "SELECT g.uuid::text, g.kind, v.name FROM games g JOIN venues v ON v.id = g.venue "
                "ORDER BY g.seq"
            ).fetchall()
        return [(str(u), str(k), str(v)) for u, k, v in rows]

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class League:
    """A league of the hub made with `dartship hub admin`: its number and its venues'."""

    def __init__(self, hub: HubProcess, name: str, venues: tuple[str, ...]) -> None:
        self.hub = hub
        self.id = int(hub.admin("league", name).split()[-1])
        self.venues = {v: int(hub.admin("venue", str(self.id), v).split()[-1]) for v in venues}

    def code(self, venue: str) -> str:
        return self.hub.admin("code", str(self.venues[venue]))


class BarKiosk:
    """A kiosk in its own folder that joined the league (`dartship league join`), run as
    `dartship run --headless --simulator` by `start`, and stopped or killed."""

    def __init__(self, folder: Path, hub_url: str, code: str, extra: str = "") -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.db = folder / "kiosk.db"
        self.config = folder / "config.toml"
        self.config.write_text(
            f'[kiosk]\ndatabase = "{self.db}"\n[web]\nhost = "127.0.0.1"\nport = 0\n'
            f"[solo]\nshot_seconds = 0.02\n[league]\nhold_seconds = 0\n{extra}"
        )
        self.joined = dartship(
            "league", "--config", str(self.config), "join", code, "--hub", hub_url, "--name", folder.name
        )
        self.proc: subprocess.Popen[str] | None = None

    def start(self, players: str | None = None, teams: str | None = None, *, links: bool = True) -> None:
        """Run the kiosk; a restart keeps the players and teams it was first started with.
        `links`: wait for the team links it prints (none when it resumes a game without any)."""
        self.players = players or getattr(self, "players", "Anna,Ben;Cleo")
        self.teams = teams or getattr(self, "teams", "Sharks,Jets")
        players, teams = self.players, self.teams
        self.proc = start_kiosk(self.config, "--teams", teams, "--players", players)
        self.out = Lines(self.proc)
        self.web = "http://127.0.0.1:" + self.out.wait_for(r"phone page on http://[^\s/]+:(\d+)", 90).group(1)
        self.host = self.out.wait_for(r"Host page .*: (http\S+)", 60).group(1)
        self.out.wait_for(r"running headless", 60)
        if links:
            self.links = [
                self.out.wait_for(rf"{name}: (http\S+/team/\S+)").group(1) for name in teams.split(",")
            ]

    def team_api(self, team: int) -> str:
        return f"{self.web}/api/team/{self.links[team].rsplit('/', 1)[1]}"

    def desk(self, action: str, **form: str) -> int:
        from urllib.parse import urlencode

        request = urllib.request.Request(
            f"{self.host}/{action}", data=urlencode(form).encode(), method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status
        except urllib.error.HTTPError as err:
            return err.code

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=10)

    def read(self, sql: str, args: tuple = ()) -> list[tuple]:
        """A read of the kiosk's SQLite beside the running kiosk (WAL: readers never block it)."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10) as conn:
            return conn.execute(sql, args).fetchall()

    def outbox(self) -> dict[str, int]:
        return {str(s): int(n) for s, n in self.read("SELECT state, count(*) FROM outbox GROUP BY state")}

    def boards_fetched(self) -> str | None:
        """When the kiosk's sync task last fetched the league's boards (ISO, UTC), or None."""
        rows = self.read("SELECT value FROM meta WHERE key='kiosk.league.boards'")
        return json.loads(rows[0][0])["fetched"] if rows and rows[0][0] else None


class Phone:
    """A phone: keeps the kiosk's device key cookie (set by hand: the kiosk's address is an IP)."""

    def __init__(self) -> None:
        self.cookie: str | None = None

    def call(self, url: str, body: object | None = None, method: str | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        request = urllib.request.Request(
            url, data=data, method=method or ("POST" if data else "GET"), headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=15) as answer:
                self._keep(answer.headers.get("Set-Cookie"))
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as err:
            self._keep(err.headers.get("Set-Cookie"))
            return err.code, json.loads(err.read() or b"null")

    def ok(self, url: str, body: object | None = None, method: str | None = None) -> dict:
        status, answer = self.call(url, body, method)
        assert status == 200, (url, status, answer)
        return answer

    def _keep(self, header: str | None) -> None:
        if header:
            self.cookie = header.split(";", 1)[0]


def squares(ship: str) -> list[str]:
    """The squares of a classic ship written "C3-F3"."""
    start, end = ship.split("-")
    (c0, r0), (c1, r1) = (COLUMNS.index(start[0]), int(start[1:])), (COLUMNS.index(end[0]), int(end[1:]))
    return [
        f"{COLUMNS[c]}{r}"
        for c in range(min(c0, c1), max(c0, c1) + 1)
        for r in range(min(r0, r1), max(r0, r1) + 1)
    ]


def bar_behind_a_proxy(database: str, folder: Path):
    """A hub process, a proxy before it that can hold either direction (held_proxy.py), and The
    Anchor's kiosk of the Harbour League, joined through the proxy (not started yet)."""
    from tests.system.held_proxy import HeldProxy

    hub = HubProcess(database)
    proxy = HeldProxy(hub.port)
    league = League(hub, "Harbour League", ("The Anchor",))
    return hub, proxy, BarKiosk(folder, proxy.url, league.code("The Anchor"))


def kill_when_the_hub_has(kiosk: BarKiosk, hub: HubProcess, games: int, lag: float = 0.0) -> None:
    """Kill the kiosk (SIGKILL) `lag` seconds after the hub has committed `games` games (looked
    at every few milliseconds on one connection: with no lag the kill lands between the hub's
    commit and the kiosk hearing of it, or one upload later)."""
    import psycopg

    assert kiosk.proc is not None
    deadline = time.monotonic() + 120
    with psycopg.connect(hub.database, autocommit=True) as conn:
        while True:
            row = conn.execute("SELECT count(*) FROM games").fetchone()
            if row is not None and row[0] >= games:
                time.sleep(lag)
                kiosk.kill()
                return
            assert time.monotonic() < deadline and kiosk.proc.poll() is None, (
                f"the hub never had {games} games"
            )
            time.sleep(0.005)
