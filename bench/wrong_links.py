"""What an awaited count costs: wrong phone links answered while honest phones play.

    python bench/wrong_links.py [--guessers 20] [--seconds 20] [--dir DIR]

The real phone server (aiohttp, the dart game's phone API, `GuessThrottle` kept in a store on
disk, `synchronous=FULL`) on 127.0.0.1, a dart game in play. `--guessers` clients each send
wrong team links one after another (every one is counted and its count written through the
store's writer thread; the throttle's limits are raised so that nobody is slowed); one honest
phone asks for its team's state (`GET /api/team/<its link>`) every 50 ms. Printed: a wrong
link's answer time p50 / p99 / max, the honest phone's, and the writer's groups (writes per
fsync). Run it on two trees (this file copied into the other) to compare the code that answered
before the count was committed with the one that answers after. Figures only, never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from aiohttp.test_utils import TestServer

from kiosk.darts.kind import DARTS
from kiosk.darts.match import BullOffMode, HouseRules, Setup, Team
from kiosk.service import GameService
from kiosk.store import Store
from ui.handheld.darts.api import DartsApi
from ui.handheld.seats import Seats
from ui.handheld.server import build_app, runner_options
from ui.handheld.throttle import GuessThrottle, Limits


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def line(name: str, times: list[float]) -> str:
    ms = [t * 1000 for t in times]
    return (
        f"{name:<22} {len(ms):>6} requests: p50 {p(ms, 0.5):7.2f} ms, p99 {p(ms, 0.99):7.2f} ms, "
        f"max {max(ms):7.2f} ms"
    )


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="dartship-bench-links-", dir=args.dir))
    store = Store(folder / "dartship.db")
    service = GameService(store)
    never_slowed = Limits(per_client=10**9, per_client_per_minute=10**9)
    seats = Seats(service, GuessThrottle(never_slowed, store=store))
    server = TestServer(build_app(seats, DartsApi(seats)))
    await server.start_server(**runner_options())
    service.new_game(
        DARTS,
        Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), HouseRules(bull_off=BullOffMode.OFF)),
    )
    assert seats.tokens is not None
    honest_url = server.make_url(f"/api/team/{seats.tokens.teams[0]}")
    wrong, honest = [], []
    end = time.monotonic() + args.seconds

    async def guesser(session: aiohttp.ClientSession) -> None:
        while time.monotonic() < end:
            url = server.make_url(f"/api/team/{secrets.token_urlsafe(16)}")
            began = time.perf_counter()
            async with session.get(url) as answer:
                await answer.read()
                assert answer.status == 404, answer.status
            wrong.append(time.perf_counter() - began)

    async def phone(session: aiohttp.ClientSession) -> None:
        while time.monotonic() < end:
            began = time.perf_counter()
            async with session.get(honest_url) as answer:
                await answer.read()
            honest.append(time.perf_counter() - began)
            await asyncio.sleep(0.05)

    groups_before, writes_before = store.group.groups, store.group.writes
    async with aiohttp.ClientSession() as session:
        await asyncio.gather(phone(session), *(guesser(session) for _ in range(args.guessers)))
    groups, writes = store.group.groups - groups_before, store.group.writes - writes_before
    await server.close()
    store.close()
    shutil.rmtree(folder, ignore_errors=True)
    print(
        f"{args.guessers} guessers and one honest phone for {args.seconds:.0f} s, database in {folder.parent}"
    )
    print(line("wrong link (counted)", wrong))
    print(line("honest phone", honest))
    print(f"writer: {writes} writes in {groups} groups ({writes / max(groups, 1):.1f} a group)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--guessers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--dir", default=None, help="where the database goes (default: the temp folder)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
