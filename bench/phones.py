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
import statistics
import tempfile
import time
from pathlib import Path

from aiohttp import ClientError, ClientSession, CookieJar, WSMsgType

from kiosk.app.root import build_kiosk
from kiosk.board import board_for
from kiosk.config import ConfigFile, InputKind
from kiosk.darts.fleet import parse_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import BullOffMode, Place, Setup, Team, house_rules
from kiosk.inputs import Button, ButtonInput, DartInput

FLEETS = (
    "D20-D1 T18-T4-T13 L6-L10-L15-L2 D17-L17-T17-S17-BULL",
    "S3-S19 T7-T16-T8 D11-D14-D9-D12 L5-L20-L1-L18-L4",
)
# Cells in neither fleet: every dart is a MISS (or a REPEAT), so the game never ends.
TARGETS = ("D3", "D7", "D16", "L8", "T11", "S14", "L9", "T12", "S5", "D15", "T2", "L13")


# A bench never waits for ever: a view that does not come within this is a failure, said aloud.
WAIT_SECONDS = 30.0


class ClientRefused(RuntimeError):
    """A phone of the bench was refused or cut off: the figures would be of nothing."""


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


Inbox = asyncio.Queue[tuple[float, str | ClientRefused]]


async def _phone(session: ClientSession, url: str, inbox: Inbox, page: str | None = None) -> None:
    """One phone: a team's phone first asks for its team's state (as its page does on opening:
    that takes the link and hands the phone its device key), then listens on its socket. A
    refusal or a closed socket is put in the inbox, so the bench stops with it instead of
    waiting for a view that never comes."""
    try:
        if page is not None:
            async with session.get(page) as answer:
                if answer.status != 200:
                    raise ClientRefused(f"{page} answered {answer.status}")
        async with session.ws_connect(url, max_msg_size=0) as ws:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    inbox.put_nowait((time.perf_counter(), message.data))
        raise ClientRefused(f"{url}: the kiosk closed the socket ({ws.close_code})")
    except ClientRefused as err:
        inbox.put_nowait((time.perf_counter(), err))
    except (ClientError, OSError) as err:
        inbox.put_nowait((time.perf_counter(), ClientRefused(f"{url}: {err}")))


async def _until(inbox: Inbox, marker: str) -> float:
    while True:
        try:
            at, data = await asyncio.wait_for(inbox.get(), WAIT_SECONDS)
        except TimeoutError:
            raise ClientRefused(f"no message with {marker} within {WAIT_SECONDS:.0f} s") from None
        if isinstance(data, ClientRefused):
            raise data
        if marker in data:
            return at


def bench_config(folder: str) -> ConfigFile:
    """A bench's kiosk: the simulator board, no bull-off, its phone server on a free port of
    127.0.0.1, its database in `folder` (bench/host_page.py's too)."""
    return ConfigFile(
        None,
        {
            "rules.bull_off": BullOffMode.OFF,
            "web.host": "127.0.0.1",
            "web.port": 0,
            "board.input": InputKind.SIMULATOR,
            "kiosk.database": str(Path(folder) / "bench.db"),
        },
    )


async def bench(darts: int, spectators: int) -> tuple[list[float], list[float]]:
    """Every phone x dart latency and the slowest phone's per dart, in ms."""
    with tempfile.TemporaryDirectory() as folder:
        config = bench_config(folder)
        kiosk = await build_kiosk(config, devices=False)
        service, web = kiosk.service, kiosk.web
        assert web is not None
        loop = asyncio.get_running_loop()
        rules = house_rules(config.settings)
        service.new_game(DARTS, Setup((Team("Sharks", ("A",)), Team("Jets", ("B",))), rules))
        base = web.base_url.replace("http", "ws", 1)
        tokens = [str(web.team_url(t)).rsplit("/", 1)[1] for t in (0, 1)]
        pages = [f"{web.base_url}/api/team/{token}" for token in tokens]
        urls = [f"{base}/api/team/{token}/ws" for token in tokens]
        urls += [f"{base}/api/game/ws"] * spectators
        inboxes: list[Inbox] = [asyncio.Queue() for _ in urls]
        # Each phone its own session: its own cookies, so its own device key.
        sessions = [ClientSession(cookie_jar=CookieJar(unsafe=True)) for _ in urls]  # an IP host
        phones = [
            loop.create_task(_phone(session, url, inbox, page))
            for session, url, inbox, page in zip(
                sessions, urls, inboxes, [*pages, *[None] * spectators], strict=True
            )
        ]
        try:
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
        finally:
            for task in phones:
                task.cancel()
            await asyncio.gather(*phones, return_exceptions=True)
            for session in sessions:
                await session.close()
            await kiosk.stop()
    return every, slowest


def report(every: list[float], slowest: list[float], darts: int, spectators: int) -> None:
    print(
        f"phones: 2 team + {spectators} spectators on 127.0.0.1, {darts} darts "
        "(dart on the service queue -> stored -> message received)"
    )
    print(
        f"  every phone updated (slowest phone per dart): p50 {_percentile(slowest, 0.5):.2f} ms, "
        f"p99 {_percentile(slowest, 0.99):.2f} ms, max {max(slowest):.2f} ms"
    )
    print(
        f"  one phone updated (all phone x dart pairs):   p50 {_percentile(every, 0.5):.2f} ms, "
        f"p99 {_percentile(every, 0.99):.2f} ms, mean {statistics.fmean(every):.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--darts", type=int, default=300)
    parser.add_argument("--spectators", type=int, default=50)
    args = parser.parse_args()
    try:
        every, slowest = asyncio.run(bench(args.darts, args.spectators))
    except ClientRefused as err:
        raise SystemExit(f"bench/phones.py: a phone was refused, no figures: {err}") from None
    report(every, slowest, args.darts, args.spectators)


if __name__ == "__main__":
    main()
