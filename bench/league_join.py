"""Does the kiosk's loop wait while Settings -> League asks a hub? Figures, never a test.

    python bench/league_join.py [--seconds 3] [--tick-ms 10]

A kiosk from the composition root (`build_kiosk`, no devices, no web page) asks, through its
`LeagueDesk` (what the Settings -> League screen calls), hubs that cannot answer well: one whose
address refuses connections, one that takes the connection and never answers (the join ends at
the client's 20 s timeout; the bench stops it after `--seconds`), one that answers after 2 s,
and one that answers with something that is no hub. Meanwhile a ticker on the same loop asks
to run every `--tick-ms`; how late its ticks come is how long the loop was held (the screen's
frames and the games run on that loop in `dartship run`). Prints the lag p50 / p99 / max per
case (and of the loop asking nothing, the machine's own noise) and what the owner would read.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.app.root import build_kiosk
from kiosk.config import ConfigFile

CODE = "ABCD-EFGH-JKMN"


async def _ticker(lags: list[float], tick: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        due = time.perf_counter() + tick
        await asyncio.sleep(tick)
        lags.append(max(0.0, time.perf_counter() - due))


def _answering(handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> str:
    """A fake hub in a thread and loop of its own (its work is not the kiosk's loop's)."""
    ready: list[str] = []

    async def serve() -> None:
        app = web.Application()
        app.router.add_post("/api/pair", handler)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        ready.append(f"http://127.0.0.1:{port}")
        await asyncio.Event().wait()

    threading.Thread(target=asyncio.run, args=(serve(),), daemon=True).start()
    while not ready:
        time.sleep(0.01)
    return ready[0]


async def _slow(_request: web.Request) -> web.Response:
    await asyncio.sleep(2.0)
    return web.json_response({"error": "this pairing code is not valid"}, status=403)


async def _garbled(_request: web.Request) -> web.Response:
    return web.Response(text="<html>a captive portal</html>", status=201)


async def main(seconds: float, tick_ms: float) -> None:
    with tempfile.TemporaryDirectory(prefix="dartship-bench-join-") as tmp:
        folder = Path(tmp)
        config = ConfigFile(folder / "config.toml", {"kiosk.database": str(folder / "k.db"), "web.port": 0})
        kiosk = await build_kiosk(config, devices=False, web=False, rng=random.Random(1), instant=True)
        assert kiosk.league is not None
        silent = socket.create_server(("127.0.0.1", 0))
        closed = socket.create_server(("127.0.0.1", 0))
        closed_port = closed.getsockname()[1]
        closed.close()
        slow_url, garbled_url = _answering(_slow), _answering(_garbled)
        cases = (
            ("no join (baseline)", ""),
            ("nothing listens", f"http://127.0.0.1:{closed_port}"),
            ("never answers", f"http://127.0.0.1:{silent.getsockname()[1]}"),
            ("answers after 2 s", slow_url),
            ("answers no hub", garbled_url),
        )
        print(f"league join from a kiosk's loop: a ticker every {tick_ms:g} ms; lag = how late it ran")
        for name, url in cases:
            lags: list[float] = []
            stop = asyncio.Event()
            ticker = asyncio.create_task(_ticker(lags, tick_ms / 1000, stop))
            started = time.perf_counter()
            join = asyncio.create_task(kiosk.league.join(CODE, url) if url else asyncio.sleep(seconds))
            done, _pending = await asyncio.wait({join}, timeout=seconds)
            took = time.perf_counter() - started
            if join in done:
                error = join.exception()
                said = f"{type(error).__name__}: {error}" if error else "-" if not url else "joined (?)"
            elif not url:
                said = "-"
            else:
                join.cancel()
                said = f"still asking after {seconds:g} s (the client gives up at 20 s)"
            await asyncio.sleep(0.2)
            stop.set()
            await ticker
            ms = sorted(lag * 1000 for lag in lags)
            p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
            print(
                f"  {name:18} {took:5.2f} s, {len(ms)} ticks: lag p50 {statistics.median(ms):.2f} ms, "
                f"p99 {p99:.2f} ms, max {ms[-1]:.2f} ms; {said[:110]}"
            )
        silent.close()
        await kiosk.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--tick-ms", type=float, default=10.0)
    args = parser.parse_args()
    asyncio.run(main(args.seconds, args.tick_ms))
