"""What the limits of branch guard7 cost (docs/defences.md). Figures only, never a test.

    python bench/guard_costs.py [--rounds 200]

* The hub's reading of a report: `json.loads` as before, against `untrusted_json` (UTF-8, no
  lone surrogate, no huge number, no NaN, at most 16 deep) and the walk for NUL that the hub
  adds, on a real Express report as the outbox keeps it.
* The kiosk's reading of a hub's answer: aiohttp's `answer.text()` as before, against the
  bounded read (`kiosk.app.league._read`: at most 4 MiB, chunk by chunk) and `untrusted_json`,
  for the boards of a league of 5 000 players served on 127.0.0.1.
* A save from the Settings screen: `config.write_changes` now reads the text back as `run`
  reads it before it replaces the file; the read-back alone, and the whole save.
* A wrong pairing guess at the hub (branch throttle8), on a throwaway PostgreSQL 15 (fsync on,
  as `dartship hub --demo` starts it) and a hub app on 127.0.0.1: the throttle's statement
  alone (`hub.throttle.take`: the address's token and the hub-wide one) against the in-memory
  buckets it replaced; a whole wrong guess over HTTP (403) with each; a guess refused by the
  throttle (429), from the process's own mirror of its takes and by PostgreSQL; and guesses
  from 8 addresses at once over two hub apps on the one database (every one of them updates the
  hub-wide row: what the row lock serialises).
Each printed as the median of `--rounds` (ms). `--no-hub` leaves the hub's part out.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hub.untrusted import holds_nul
from kiosk import config
from kiosk.lines import untrusted_json


def _median_ms(work: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def report_body(folder: Path) -> bytes:
    """An Express game's report, as the outbox keeps it."""
    from kiosk.league import membership as members
    from kiosk.league import signing
    from kiosk.store import Store
    from tests import league_games as games

    store = Store(folder / "k.db")
    member = members.Membership("http://hub", 1, signing.new_key(), 1, "V", 1, "L")
    store.meta.remember(members.MEMBERSHIP, member.to_json())
    store.use_league(member)
    games.play_express(store, ["Ann", "Bo", "Cy"], random.Random(3))
    return str(store.db.execute("SELECT report FROM outbox").fetchone()[0]).encode()


def boards(players: int) -> bytes:
    rows = [
        {"rank": n, "player": f"Player {n}", "key": f"player {n}", "games": 9, "wins": 4, "points": 12}
        for n in range(1, players + 1)
    ]
    return json.dumps(
        {
            "daily_seeds": {"2026-12-02": "ab" * 16},
            "table": {"league": 1, "name": "L", "season": "2026", "rows": rows},
            "daily": {"league": 1, "date": "2026-12-02", "rows": []},
            "venue": {"venue": 1, "name": "V", "league": 1, "rows": rows[:200]},
        }
    ).encode()


async def answer_reading(body: bytes, rounds: int) -> tuple[float, float]:
    import aiohttp
    from aiohttp import web

    from hub.cluster import free_port
    from kiosk.app.league import _json, _read

    async def serve(_request: web.Request) -> web.Response:
        return web.Response(body=body, content_type="application/json")

    app = web.Application()
    app.router.add_get("/", serve)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    url = f"http://127.0.0.1:{port}/"
    before, after = [], []
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(rounds):
                start = time.perf_counter()
                async with session.get(url) as answer:
                    json.loads(await answer.text())
                before.append(time.perf_counter() - start)
                start = time.perf_counter()
                async with session.get(url) as answer:
                    _json(await _read(answer, url), url)
                after.append(time.perf_counter() - start)
    finally:
        await runner.cleanup()
    return statistics.median(before) * 1000, statistics.median(after) * 1000


def _memory_buckets() -> Callable[[str], bool]:
    """The pairing throttle as it was (hub.web.Limits before throttle8): two Buckets in memory."""
    from kiosk.bucket import Bucket

    pairing: dict[str, Bucket] = {}
    everyone = Bucket.full(10**9, 2.0, time.monotonic())

    def take(address: str) -> bool:
        now = time.monotonic()
        mine = pairing.setdefault(address, Bucket.full(10**9, 0.2, now))
        if mine.empty(now) or everyone.empty(now):
            return False
        mine.take(now)
        everyone.take(now)
        return True

    return take


async def pairing_costs(url: str, rounds: int) -> list[str]:
    import aiohttp
    from aiohttp import web

    from hub import admin, db, throttle
    from hub.cluster import free_port
    from hub.web import make_app, runner_options

    never = throttle.PairingLimits(throttle.Allowance(10**9, 1.0), throttle.Allowance(10**9, 1.0))
    used_up = throttle.PairingLimits(throttle.Allowance(1, 1e-9), throttle.Allowance(10**9, 1.0))
    codes = random.Random(4)
    lines = []

    def wrong() -> bytes:
        return json.dumps({"code": "".join(codes.choice(admin.CODE_ALPHABET) for _ in range(12))}).encode()

    async def serve(pool: object, limits: throttle.PairingLimits) -> tuple[web.AppRunner, str]:
        runner = web.AppRunner(make_app(pool, limits), **runner_options())  # type: ignore[arg-type]
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        return runner, f"http://127.0.0.1:{port}/api/pair"

    async def timed(session: aiohttp.ClientSession, target: str, status: int) -> float:
        start = time.perf_counter()
        async with session.post(target, data=wrong(), headers={"Content-Type": "application/json"}) as answer:
            await answer.read()
            assert answer.status == status, answer.status
        return time.perf_counter() - start

    pool = await db.open_pool(url, 4)
    other = await db.open_pool(url, 4)
    try:
        memory = _memory_buckets()
        stamp = time.perf_counter()
        for n in range(rounds):
            memory(f"10.0.{n % 200}.1")
        in_memory = (time.perf_counter() - stamp) / rounds * 1000
        statement = []
        for n in range(rounds):
            stamp = time.perf_counter()
            assert await throttle.take(pool, never, f"10.0.{n % 200}.1")
            statement.append(time.perf_counter() - stamp)
        lines.append(
            f"hub, a wrong pairing guess's throttle: in memory {in_memory * 1000:.1f} us, "
            f"in PostgreSQL (one statement, two buckets) {statistics.median(statement) * 1000:.2f} ms"
        )
        runner, target = await serve(pool, never)
        used_runner, used_target = await serve(pool, used_up)
        # Another process over the same database: its mirror has taken nothing, so its 429s
        # are PostgreSQL's (`throttle.Mirror`).
        fresh_runner, fresh_target = await serve(pool, used_up)
        second, second_target = await serve(other, never)
        real_take = throttle.take

        async def take_in_memory(_pool: object, _limits: object, address: str) -> bool:
            return memory(address)

        try:
            apart = aiohttp.TCPConnector(local_addr=("127.0.0.20", 0))  # a bucket of its own
            async with aiohttp.ClientSession() as session, aiohttp.ClientSession(connector=apart) as used:
                await timed(used, used_target, 403)  # its one token: the rest are 429
                refused = [await timed(used, used_target, 429) for _ in range(rounds)]
                by_database = [await timed(used, fresh_target, 429) for _ in range(rounds)]
                before, now = [], []
                for _ in range(rounds):  # turn about: the machine's load falls on both alike
                    throttle.take = take_in_memory  # type: ignore[assignment]
                    before.append(await timed(session, target, 403))
                    throttle.take = real_take
                    now.append(await timed(session, target, 403))
                lines.append(
                    f"hub, a whole wrong guess over 127.0.0.1 (403): throttle in memory "
                    f"{statistics.median(before) * 1000:.2f} ms, in PostgreSQL "
                    f"{statistics.median(now) * 1000:.2f} ms; one refused by it (429): from the "
                    f"process's mirror {statistics.median(refused) * 1000:.2f} ms, by PostgreSQL "
                    f"(the tokens spent by another process) {statistics.median(by_database) * 1000:.2f} ms"
                )
            many = rounds * 4
            for name, take in (("in memory", take_in_memory), ("in PostgreSQL", real_take)):
                throttle.take = take  # type: ignore[assignment]
                sessions = [
                    aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{a}", 0)))
                    for a in range(2, 10)
                ]
                try:
                    stamp = time.perf_counter()
                    await asyncio.gather(
                        *(timed(sessions[n % 8], (target, second_target)[n % 2], 403) for n in range(many))
                    )
                    took = time.perf_counter() - stamp
                finally:
                    for done_session in sessions:
                        await done_session.close()
                lines.append(
                    f"hub, {many} wrong guesses at once from 8 addresses over two hub apps, the "
                    f"throttle {name}: {many / took:.0f} guesses/s ({took:.2f} s)"
                )
        finally:
            throttle.take = real_take
            for done in (runner, used_runner, fresh_runner, second):
                await done.cleanup()
    finally:
        await pool.close()
        await other.close()
    return lines


def hub_lines(rounds: int) -> list[str]:
    from hub.cluster import Cluster, ClusterError

    cluster = Cluster()
    try:
        url = cluster.start()
    except (ClusterError, OSError) as err:
        return [f"hub: no PostgreSQL to measure the pairing throttle on: {err}"]
    try:
        return asyncio.run(pairing_costs(url, rounds))
    finally:
        cluster.remove()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--no-hub", action="store_true", help="leave out the pairing throttle's figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        body = report_body(Path(folder))
        loads = _median_ms(lambda: json.loads(body), args.rounds)
        checked = _median_ms(lambda: holds_nul(untrusted_json(body)), args.rounds)
        print(
            f"hub, an Express report of {len(body)} bytes: json.loads {loads:.2f} ms, "
            f"untrusted_json + NUL walk {checked:.2f} ms"
        )
        for players in (500, 5000):
            answer = boards(players)
            before, after = asyncio.run(answer_reading(answer, max(20, args.rounds // 4)))
            print(
                f"kiosk, boards of {players} players ({len(answer)} bytes) over 127.0.0.1: "
                f"text() + json.loads {before:.2f} ms, bounded read + untrusted_json {after:.2f} ms"
            )
        path = Path(folder) / "config.toml"
        path.write_text('web = {host = "127.0.0.1", port = 8080}\n[caller]\nvolume = 40\n', encoding="utf-8")
        text = path.read_text(encoding="utf-8")
        back = _median_ms(lambda: config._from_text(text, str(path)), args.rounds)
        ports = iter(range(10_000, 10_000 + args.rounds))
        save = _median_ms(lambda: config.write_changes(path, {"web.port": next(ports)}), args.rounds)
        print(f"config: the read-back of a save {back:.2f} ms, the whole save (fsync included) {save:.2f} ms")
    if not args.no_hub:
        for line in hub_lines(args.rounds):
            print(line, flush=True)


if __name__ == "__main__":
    main()
