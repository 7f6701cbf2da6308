"""From a dart to every phone updated: 50 spectator WebSockets and 2 team phones on 127.0.0.1.

    /work/venv/bin/python bench/phones.py [--darts 300] [--spectators 50]

The kiosk is built by the composition root (`build_kiosk`, as `dartship run` builds it: store,
service, phone server) in this process's loop, without devices; darts enter through the
service's input queue as the board reader thread puts them. The phones are aiohttp WebSocket
clients in the same loop, so their own work is counted against the kiosk too: the figures are
an upper bound for one CPU core.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import tempfile
import time
from pathlib import Path

from aiohttp import ClientSession, WSMsgType

from kiosk.app.root import build_kiosk
from kiosk.board import board_for
from kiosk.config import ConfigFile, InputKind
from kiosk.darts.fleet import parse_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import BullOffMode, Place, Setup, Team, house_rules
from kiosk.inputs import Button, ButtonInput, DartInput

FLEETS = ("D20-D1 T18-T4-T13 L6-L10-L15-L2 D17-L17-T17-S17-BULL",
          "S3-S19 T7-T16-T8 D11-D14-D9-D12 L5-L20-L1-L18-L4")
# Cells in neither fleet: every dart is a MISS (or a REPEAT), so the game never ends.
TARGETS = ("D3", "D7", "D16", "L8", "T11", "S14", "L9", "T12", "S5", "D15", "T2", "L13")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _phone(session: ClientSession, url: str, inbox: asyncio.Queue[tuple[float, str]]) -> None:
    async with session.ws_connect(url, max_msg_size=0) as ws:
        async for message in ws:
            if message.type is WSMsgType.TEXT:
                inbox.put_nowait((time.perf_counter(), message.data))


async def _until(inbox: asyncio.Queue[tuple[float, str]], marker: str) -> float:
    while True:
        at, data = await inbox.get()
        if marker in data:
            return at


async def bench(darts: int, spectators: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        config = ConfigFile(None, {"rules.bull_off": BullOffMode.OFF, "web.host": "127.0.0.1",
                                   "web.port": _free_port(), "board.input": InputKind.SIMULATOR,
                                   "kiosk.database": str(Path(folder) / "bench.db")})
        kiosk = await build_kiosk(config, devices=False)
        service, web = kiosk.service, kiosk.web
        assert web is not None
        loop = asyncio.get_running_loop()
        rules = house_rules(config.settings)
        service.new_game(DARTS, Setup((Team("Sharks", ("A",)), Team("Jets", ("B",))), rules))
        base = web.base_url.replace("http", "ws", 1)
        tokens = [str(web.team_url(t)).rsplit("/", 1)[1] for t in (0, 1)]
        urls = [f"{base}/api/team/{token}/ws" for token in tokens]
        urls += [f"{base}/api/game/ws"] * spectators
        inboxes: list[asyncio.Queue[tuple[float, str]]] = [asyncio.Queue() for _ in urls]
        async with ClientSession() as session:
            phones = [loop.create_task(_phone(session, url, inbox)) for url, inbox in zip(urls, inboxes,
                                                                                          strict=True)]
            for inbox in inboxes:
                await _until(inbox, '"type":"view"')
            board = board_for()
            for team, text in enumerate(FLEETS):
                service.submit(Place(team, parse_fleet(text, board, rules.fleet)))
            for inbox in inboxes:
                await _until(inbox, '"phase":"throwing"')
            every: list[float] = []
            slowest: list[float] = []
            for n in range(darts):
                if n and n % 3 == 0:
                    service.queue.put_nowait(ButtonInput(Button.NEXT))
                    for inbox in inboxes:
                        await _until(inbox, '"event":"visit"')
                code = TARGETS[n % len(TARGETS)]
                start = time.perf_counter()
                service.queue.put_nowait(DartInput(board.parse(code), code))
                arrivals = [await _until(inbox, '"event":"dart"') for inbox in inboxes]
                latencies = [(at - start) * 1000 for at in arrivals]
                every.extend(latencies)
                slowest.append(max(latencies))
            for task in phones:
                task.cancel()
            await asyncio.gather(*phones, return_exceptions=True)
        await kiosk.stop()
    print(f"phones: 2 team + {spectators} spectators on 127.0.0.1, {darts} darts "
          "(dart on the service queue -> stored -> message received)")
    print(f"  every phone updated (slowest phone per dart): p50 {_percentile(slowest, 0.5):.2f} ms, "
          f"p99 {_percentile(slowest, 0.99):.2f} ms, max {max(slowest):.2f} ms")
    print(f"  one phone updated (all phone x dart pairs):   p50 {_percentile(every, 0.5):.2f} ms, "
          f"p99 {_percentile(every, 0.99):.2f} ms, mean {statistics.fmean(every):.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--darts", type=int, default=300)
    parser.add_argument("--spectators", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(bench(args.darts, args.spectators))


if __name__ == "__main__":
    main()
