"""The league under an evening's load, with faults: N kiosks x M games to two hub processes.

    .venv/bin/python bench/hub.py [--kiosks 500] [--games 30] [--minutes 3] [--no-faults]

One machine, loopback only. A throwaway PostgreSQL (hub/cluster.py, fsync on) and two
`dartship hub` processes on it; N simulated kiosks in this process, each paired with its own
one-time code (its own key) and with its own SQLite outbox (a real `Store` file each, in
/dev/shm where there is one), emptied by the kiosk's real sync task (`LeagueSync`: signing,
retries with backoff and jitter, marking sent only when confirmed). Half the kiosks send to
one hub, half to the other. The games are real: a pool of games of all three kinds played by
the engines, each sent under its own UUID, with the kiosk's own venue and players; the hub
replays every one. Games finish at random times over `--minutes`.

Faults, during the run (times scaled to the run's length, said in the output): kill -9 of hub
A (restarted 10 s later), a restart of PostgreSQL, and 50 kiosks' network dropped (their
traffic goes through a proxy that swallows it: requests hang until the client's timeout) for
a minute, or a third of the run if that is shorter. Afterwards: every game at the hub exactly
once, no outbox entry refused or left, and the league table equal to a recomputation from the
games the kiosks sent. Then the hostile kiosks, each refused.

Prints: results per second, push p50/p99 (a signed POST answered 2xx), league table page p99
(HTML, fetched from both hubs every 0.2 s throughout the run).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import typing
import urllib.request
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hub import admin, db  # noqa: E402
from hub.cluster import Cluster, free_port  # noqa: E402
from hub.ingest import player_key  # noqa: E402
from kiosk.app.league import LeagueSync  # noqa: E402
from kiosk.league import membership as members  # noqa: E402
from kiosk.league import signing  # noqa: E402
from kiosk.league.outbox import PENDING, REFUSED, SENT  # noqa: E402
from kiosk.store import Store  # noqa: E402
from tests import league_games  # noqa: E402

VENUES = 10
ROSTER = 30  # players per venue
PLACEHOLDERS = ("Pa", "Pb", "Pc", "Pd")


def _templates(rng: random.Random, folder: Path) -> list[str]:
    """Real games of every kind, with placeholder names, as report JSON (venue and UUID blank)."""
    from kiosk.league.outbox import report_of

    store = Store(folder / "templates.db")
    played = []
    a, b, c, d = PLACEHOLDERS
    for n in range(12):
        played.append(
            league_games.play_darts(store, [[a, b][: 1 + n % 2], [c, d][: 1 + n // 6]], rng, winner=n % 2)
        )
        played.append(league_games.play_classic(store, [a, b], rng, winner=n % 2))
        played.append(league_games.play_express(store, list(PLACEHOLDERS[: 2 + n % 3]), rng))
    for _ in range(4):
        played.append(league_games.play_classic(store, [a], rng, daily=datetime.date.today()))
    out = [json.dumps(report_of(store.db, game, "UUID", 0)) for game in played]
    store.close()
    return out


def _game(template: str, venue: int, names: list[str]) -> tuple[str, dict[str, Any]]:
    text = template
    for placeholder, name in zip(PLACEHOLDERS, names, strict=True):
        text = text.replace(f'"{placeholder}"', json.dumps(name))
        text = text.replace(f'"{placeholder}\'s team"', json.dumps(f"{name}'s team"))
    report = json.loads(text)
    report["uuid"] = str(uuid.uuid4())
    report["venue"] = venue
    finished = datetime.datetime.now(datetime.UTC)
    report["finished"] = finished.isoformat(timespec="milliseconds")
    report["started"] = (finished - datetime.timedelta(minutes=20)).isoformat(timespec="milliseconds")
    return json.dumps(report, separators=(",", ":")), report


class TimedSync(LeagueSync):
    """The kiosk's real sync task, its signed POSTs timed."""

    pushes: typing.ClassVar[list[float]] = []

    async def _request(
        self, session: aiohttp.ClientSession, method: str, path: str, body: bytes = b""
    ) -> tuple[int, str]:
        start = time.perf_counter()
        status, text = await super()._request(session, method, path, body)
        if method == "POST" and status in (200, 201):
            TimedSync.pushes.append(time.perf_counter() - start)
        return status, text


class Blackhole:
    """A TCP proxy to a hub; while `down`, it swallows traffic (a dropped network)."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.down = False
        self.port = free_port()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", self.port)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await src.read(65536):
                    while self.down:  # swallowed: neither side hears anything
                        await asyncio.sleep(0.5)
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(OSError):
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


def _start_hub(url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk.app.cli",
                "hub",
                "--database",
                url,
                "--port",
                str(port),
                "--pool",
                "8",
            ],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).close()
            return process
        time.sleep(0.2)
    raise RuntimeError(f"hub on port {port} did not start; see {log}")


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _setup(url: str, kiosks: int) -> tuple[int, list[int], list[str], str]:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await db.migrate(conn)
        league = await admin.create_league(conn, "Bench league")
        venues = [await admin.create_venue(conn, league, f"Bar {n}") for n in range(VENUES)]
        codes = [await admin.pairing_code(conn, venues[k % VENUES]) for k in range(kiosks)]
        token = await admin.create_token(conn, "bench")
    return league, venues, codes, token


async def _pair_all(hubs: list[str], codes: list[str]) -> list[members.Membership]:
    from kiosk.app.league import pair

    found = []
    for n, code in enumerate(codes):
        found.append(await pair(hubs[n % 2], code, f"kiosk {n}"))
    return found


async def _watch_table(hubs: list[str], league: int, stop: asyncio.Event, latencies: list[float]) -> None:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
        n = 0
        while not stop.is_set():
            start = time.perf_counter()
            with contextlib.suppress(aiohttp.ClientError, TimeoutError, OSError):
                async with session.get(f"{hubs[n % 2]}/leagues/{league}") as answer:
                    await answer.read()
                    if answer.status == 200:
                        latencies.append(time.perf_counter() - start)
            n += 1
            await asyncio.sleep(0.2)


async def _kiosk_games(sync: TimedSync, store: Store, games: list[tuple[float, str]], t0: float) -> None:
    """Games end at their times: each enters the outbox (as the store's transaction puts it)."""
    for at, text in games:
        await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))
        store.db.execute("BEGIN IMMEDIATE")
        cursor = store.db.execute(
            "INSERT INTO games (kind, venue, started, finished, setup, status,"
            " winner, turns) VALUES ('darts', 'kiosk', '', '', '{}', 'over',"
            " NULL, 0)"
        )
        game = cursor.lastrowid
        report = json.loads(text)
        now = time.time()
        store.db.execute(
            "INSERT INTO outbox (game, uuid, queued, report, state, attempts, "
            "next_try, member) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
            [game, report["uuid"], now, text, PENDING, now, sync.outbox.member],
        )
        store.db.execute("COMMIT")
        sync.wake.set()


def _expected_table(reports: list[dict[str, Any]], win: int, loss: int) -> dict[str, tuple]:
    """The league table recomputed from what the kiosks sent: games, wins, points per player."""
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for report in reports:
        if report["setup"].get("mode") in ("solo", "daily"):
            continue  # a side is the kiosk's computer: not counted
        for result in report["results"]:
            key = player_key(result["player"])
            games[key] += 1
            wins[key] += bool(result["won"])
    return {k: (games[k], wins[k], wins[k] * win + (games[k] - wins[k]) * loss) for k in games}


async def _post(
    session: aiohttp.ClientSession, url: str, body: bytes, headers: dict[str, str]
) -> tuple[int, str]:
    async with session.post(url, data=body, headers=headers) as answer:
        return answer.status, (await answer.text())[:160]


async def _hostile(
    hubs: list[str], member: members.Membership, other_venue: int, template: str, names: list[str], url: str
) -> list[str]:
    """Each hostile kiosk's attempt and the hub's answer; raises if any was let through."""
    lines = []
    async with aiohttp.ClientSession() as session:
        hub = member.hub

        def signed(data: bytes, key: str = member.key) -> dict[str, str]:
            return signing.signed_headers(member.kiosk, key, "POST", "/api/games", data)

        async def attempt(what: str, body: bytes, headers: dict[str, str], want: int) -> None:
            status, text = await _post(session, f"{hub}/api/games", body, headers)
            lines.append(f"  {what}: HTTP {status} {text}")
            if status != want:
                raise AssertionError(f"{what}: expected {want}, got {status} {text}")

        other, _r = _game(template, other_venue, names)
        await attempt("another venue's game", other.encode(), signed(other.encode()), 403)
        good, report = _game(template, member.venue, names)
        await attempt("a forged signature", good.encode(), signed(good.encode(), signing.new_key()), 401)
        report["winner"] = 1 - (report["winner"] or 0)
        for r in report["results"]:
            r["won"] = not r["won"]
        tampered = json.dumps(report).encode()
        await attempt("a result its log does not give", tampered, signed(tampered), 422)
        big = b"{" + b" " * (10 * 1024 * 1024) + b"}"
        await attempt("a 10 MB upload", big, signed(big), 413)
        replayed, _r = _game(template, member.venue, names)
        headers = signed(replayed.encode())
        await attempt("a fresh game (should pass)", replayed.encode(), headers, 201)
        await attempt("the same request replayed", replayed.encode(), headers, 401)
        statuses: Counter[int] = Counter()
        rng = random.Random(7)
        for _ in range(1000):
            guess = "".join(rng.choice(admin.CODE_ALPHABET) for _ in range(admin.CODE_LENGTH))
            status, _t = await _post(
                session,
                f"{hubs[0]}/api/pair",
                json.dumps({"code": guess}).encode(),
                {"Content-Type": "application/json"},
            )
            statuses[status] += 1
        lines.append(f"  1000 pairings with guessed codes: {dict(statuses)}")
        if set(statuses) - {403, 429}:
            raise AssertionError(f"a guessed code was not refused: {statuses}")
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await admin.revoke(conn, member.kiosk)
    async with aiohttp.ClientSession() as session:
        again, _r = _game(template, member.venue, names)
        status, text = await _post(
            session,
            f"{member.hub}/api/games",
            again.encode(),
            signing.signed_headers(member.kiosk, member.key, "POST", "/api/games", again.encode()),
        )
        lines.append(f"  a revoked kiosk: HTTP {status} {text}")
        if status != 403:
            raise AssertionError("a revoked kiosk was let through")
    return lines


async def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    shm = Path("/dev/shm")
    folder = Path(
        tempfile.mkdtemp(
            prefix="dartship-bench-hub-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None
        )
    )
    cluster = Cluster(folder=Path(tempfile.mkdtemp(prefix="dartship-pg-")))
    hubs_p: list[subprocess.Popen[bytes]] = []
    tasks: list[asyncio.Task[Any]] = []
    try:
        url = cluster.start()
        print(f"PostgreSQL 15 cluster in {cluster.folder} (fsync on); kiosk stores in {folder}")
        league, venues, codes, _token = await _setup(url, args.kiosks)
        ports = [free_port(), free_port()]
        hub_log = folder / "hubs.log"
        hubs_p = [_start_hub(url, port, hub_log) for port in ports]
        hubs = [f"http://127.0.0.1:{port}" for port in ports]
        proxy = Blackhole(ports[1])
        await proxy.start()
        print(f"two hubs: {hubs[0]} (A) and {hubs[1]} (B); pairing {args.kiosks} kiosks ...", flush=True)
        memberships = await _pair_all(hubs, codes)
        templates = _templates(rng, folder)
        span = args.minutes * 60
        dropped = set(range(1, 100, 2)[:50])  # 50 kiosks of hub B, through the proxy
        syncs, sent_reports = [], []
        t0 = time.monotonic() + 2
        for n, member in enumerate(memberships):
            if n in dropped:
                member = members.Membership(**{**member.__dict__, "hub": f"http://127.0.0.1:{proxy.port}"})
            store = Store(folder / f"kiosk{n}.db")
            store.db.execute("PRAGMA synchronous=NORMAL")  # tmpfs: the bench measures the hub
            store.meta.remember(members.MEMBERSHIP, member.to_json())
            sync = TimedSync(store, member, rng=random.Random(n), idle_seconds=2.0, boards_seconds=10**9)
            roster = [f"Player {member.venue}-{i}" for i in range(ROSTER)]
            games = []
            for _g in range(args.games):
                names = [*rng.sample(roster, 3), f"Traveller {rng.randrange(20)}"]
                rng.shuffle(names)
                text, report = _game(rng.choice(templates), member.venue, names)
                games.append((rng.uniform(0, span), text))
                sent_reports.append(report)
            games.sort()
            syncs.append((sync, store))
            tasks.append(asyncio.create_task(_kiosk_games(sync, store, games, t0)))
            tasks.append(asyncio.create_task(sync.run()))
        total = len(sent_reports)
        print(
            f"{total} games of {len(templates)} real templates ({args.kiosks} kiosks x "
            f"{args.games}) finish over {span:.0f} s",
            flush=True,
        )
        stop = asyncio.Event()
        table_latencies: list[float] = []
        tasks.append(asyncio.create_task(_watch_table(hubs, league, stop, table_latencies)))

        async def count() -> int:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                row = await (await conn.execute("SELECT count(*) FROM games")).fetchone()
                return int(row[0]) if row else 0

        async def at(fraction: float) -> None:
            await asyncio.sleep(max(0.0, t0 + fraction * span - time.monotonic()))

        drop_seconds = min(60.0, span / 3)
        if args.faults:
            await at(0.15)
            hubs_p[0].send_signal(signal.SIGKILL)
            hubs_p[0].wait()
            print(f"t={time.monotonic() - t0:5.1f}s  kill -9 hub A", flush=True)
            await asyncio.sleep(10)
            hubs_p[0] = await asyncio.to_thread(_start_hub, url, ports[0], hub_log)
            print(f"t={time.monotonic() - t0:5.1f}s  hub A restarted", flush=True)
            await at(0.35)
            print(f"t={time.monotonic() - t0:5.1f}s  restarting PostgreSQL", flush=True)
            await asyncio.to_thread(cluster.restart)
            print(f"t={time.monotonic() - t0:5.1f}s  PostgreSQL back", flush=True)
            await at(0.5)
            proxy.down = True
            print(
                f"t={time.monotonic() - t0:5.1f}s  {len(dropped & set(range(args.kiosks)))} "
                f"kiosks' network dropped for "
                f"{drop_seconds:.0f} s",
                flush=True,
            )
            await asyncio.sleep(drop_seconds)
            proxy.down = False
            print(f"t={time.monotonic() - t0:5.1f}s  their network is back", flush=True)
        await at(1.0)
        # Drain: every kiosk's outbox empties (a kiosk whose request was swallowed waits out
        # its client timeout and its backoff: at most a few minutes).
        deadline = time.monotonic() + args.drain
        while time.monotonic() < deadline:
            left = sum(store.outbox.counts()[PENDING] for _s, store in syncs if store.outbox)
            if left == 0:
                break
            await asyncio.sleep(1)
        elapsed = time.monotonic() - t0
        stop.set()
        counts: Counter[str] = Counter()
        for _sync, store in syncs:
            assert store.outbox is not None
            counts.update(store.outbox.counts())
        at_hub = await count()
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            uuids = {str(r[0]) for r in await (await conn.execute("SELECT uuid FROM games")).fetchall()}
            players = await (await conn.execute("SELECT count(*) FROM game_players")).fetchone()
        sent_uuids = {r["uuid"] for r in sent_reports}
        lost = len(sent_uuids - uuids)
        extra = len(uuids - sent_uuids)
        expected_players = sum(len(r["results"]) for r in sent_reports)
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{hubs[1]}/api/leagues/{league}") as answer,
        ):
            table = await answer.json()
        got = {r["key"]: (r["games"], r["wins"], r["points"]) for r in table["rows"]}
        expected = _expected_table(sent_reports, table["points"]["win"], table["points"]["loss"])
        player_rows = players[0] if players else 0
        # A game's UUID is its key at the hub: a duplicate would be a game no kiosk sent, or a
        # game's players written twice.
        duplicated = extra + max(0, player_rows - expected_players)
        print(
            f"\nresults: {at_hub} games at the hub of {total} sent; lost {lost}, duplicated "
            f"{duplicated}; outboxes: {dict(counts)}"
        )
        print(f"table equals the recomputation: {got == expected} ({len(got)} players)")
        print(
            f"throughput: {at_hub / elapsed:.1f} results/s over {elapsed:.0f} s "
            f"(games finish over {span:.0f} s, then the outboxes drain)"
        )
        pushes = TimedSync.pushes
        print(
            f"push (signed POST, 2xx): n={len(pushes)} p50 {_pct(pushes, 0.5) * 1000:.0f} ms, "
            f"p99 {_pct(pushes, 0.99) * 1000:.0f} ms, max {max(pushes) * 1000:.0f} ms"
        )
        print(
            f"league table page (HTML) under load: n={len(table_latencies)} p50 "
            f"{_pct(table_latencies, 0.5) * 1000:.0f} ms, p99 "
            f"{_pct(table_latencies, 0.99) * 1000:.0f} ms"
        )
        ok = (
            lost == 0
            and at_hub == total
            and counts[REFUSED] == 0
            and counts[PENDING] == 0
            and counts[SENT] == total
            and got == expected
            and player_rows == expected_players
        )
        print("hostile kiosks:")
        other_venue = next(v for v in venues if v != memberships[0].venue)
        good = next(t for t in templates if '"kind":"darts"' in t.replace(" ", ""))
        for line in await _hostile(
            hubs, memberships[0], other_venue, good, [f"Hostile {i}" for i in range(4)], url
        ):
            print(line)
        after = await count()
        print(
            f"games at the hub after the hostile kiosks: {after} (one fresh game let through "
            f"on purpose: {after == at_hub + 1})"
        )
        ok = ok and after == at_hub + 1
        print("OK" if ok else "FAILED")
        return 0 if ok else 1
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for process in hubs_p:
            process.kill()
            process.wait()
        cluster.remove()
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kiosks", type=int, default=500)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--minutes", type=float, default=3.0, help="games finish over this long")
    parser.add_argument(
        "--drain",
        type=float,
        default=300.0,
        help="seconds to wait for the outboxes to empty after the last game",
    )
    parser.add_argument("--no-faults", dest="faults", action="store_false")
    parser.add_argument("--seed", type=int, default=1)
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
