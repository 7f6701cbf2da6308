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
Each printed as the median of `--rounds` (ms).
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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=200)
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


if __name__ == "__main__":
    main()
