"""Many hard solo games on phones at once, and one honest phone: does the computer slow the bar?

    python bench/classic_load.py [--games 100] [--level hard] [--think 2] [--seconds 30]
                                 [--rooms 10] [--local]

The real phone server (aiohttp, `ClassicApi`, `PhoneRooms`, each table's `ComputerSeat`, a store
on disk) on 127.0.0.1. `--games` phones each start a solo game against the computer and then,
every `--think` seconds (give or take half), fire at a square the computer's fleet does not hold
(a miss: the computer's turn follows at once, pace 0). One more, honest phone asks for its own
table's view (`GET /api/classic/play`) every 50 ms. Printed: that phone's request time p50 / p99
/ max (the goal: p99 <= 50 ms with 100 hard games), and the computer's answer time, from the
human's miss being committed to the computer's first shot being committed (the shared queue's
wait included; the budget: p99 <= 1 s, the pace of the kiosk's shots), with how many turns it
answered. Beside them `--rooms` pairs of phones play with rooms, over and over: the owner opens
its room, the friend opens the link (joins) and taps Ready, the owner starts the duel and closes
the room (the rare writes: each commits through the writer thread, or did on the loop before);
printed: the cycles done and those requests' time p50 / p99. `--dir /dev/shm` puts the database
in memory (what the commits cost apart).
`--local` runs the computer in the kiosk's own process (threads, as before
`kiosk.classic.thinking`), for comparison. Figures only, never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from aiohttp.test_utils import TestServer

from kiosk.classic.computer import ShotPace
from kiosk.classic.grid import SQUARES
from kiosk.classic.match import ComputerLevel, ShotFired, TurnPassed
from kiosk.classic.room import computer as classic_computer
from kiosk.classic.rooms import PhoneRooms, PhoneVenue
from kiosk.classic.wire import CLASSIC
from kiosk.service import GameService, MatchUpdate, ServiceEvent
from kiosk.store import Store
from ui.handheld.classic.api import ClassicApi, StartLimits
from ui.handheld.seats import Seats
from ui.handheld.server import build_app, runner_options
from ui.handheld.throttle import GuessThrottle

PHONE_P99 = 0.050  # issue 21, section 5: an honest phone's p99 with 100 hard games at once
COMPUTER_P99 = 1.0  # the computer's budget: the pace of the kiosk's shots


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def run(
    games: int,
    level: ComputerLevel,
    think: float,
    seconds: float,
    local: bool,
    where: str | None,
    pairs: int = 0,
) -> None:
    loop = asyncio.get_running_loop()
    store = Store(Path(tempfile.mkdtemp(prefix="dartship-load-", dir=where)) / "dartship.db")
    seats = Seats(GameService(store), GuessThrottle())
    make = classic_computer
    if local:
        from kiosk.classic.ai import Computer

        make = Computer
    rooms = PhoneRooms(store, loop, make, pace=ShotPace(shot=0), rng=random.Random(1))
    waits: list[float] = []
    handed: dict[str, float] = {}

    def watch(table: PhoneVenue) -> None:
        def heard(event: ServiceEvent) -> None:
            if not isinstance(event, MatchUpdate):
                return
            for e in event.events:
                if isinstance(e, TurnPassed) and e.side == 1:
                    handed[table.venue] = time.perf_counter()
                elif isinstance(e, ShotFired) and e.side == 1 and table.venue in handed:
                    waits.append(time.perf_counter() - handed.pop(table.venue))

        table.service.subscribe(heard)

    rooms.on_table.append(watch)
    commit_waits: list[float] = []
    grouped = store.games.append_grouped

    def timed_append(*args: object) -> concurrent.futures.Future[None]:
        begin = time.perf_counter()
        future = grouped(*args)  # type: ignore[arg-type]
        future.add_done_callback(lambda _f: commit_waits.append(time.perf_counter() - begin))
        return future

    store.games.append_grouped = timed_append  # type: ignore[method-assign]
    limits = StartLimits(capacity=10_000, per_minute=10_000, rooms_per_address=10_000, rooms_per_hour=10_000)
    classic = ClassicApi(seats, rooms, limits=limits)
    server = TestServer(build_app(seats, classic), host="127.0.0.1")
    await server.start_server(**runner_options())
    base = f"http://127.0.0.1:{server.port}"
    phones = [aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in range(games)]
    honest = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    latencies: list[float] = []
    stop = loop.time() + seconds

    failed: list[str] = []  # the bots' requests that got no answer (a busy machine's timeouts)

    async def send(phone: aiohttp.ClientSession, path: str, body: dict[str, str]) -> None:
        try:
            async with phone.post(f"{base}{path}", json=body) as answer:
                await answer.read()
        except (aiohttp.ClientError, TimeoutError) as err:
            failed.append(type(err).__name__)

    async def bot(index: int, phone: aiohttp.ClientSession) -> None:
        rng = random.Random(index)
        await send(phone, "/api/classic/play/solo", {"level": level.value})
        await asyncio.sleep(rng.uniform(0, think))
        while loop.time() < stop:
            table = rooms._tables.get(owned[index])
            match = CLASSIC.in_play(table.service) if table is not None else None
            if match is not None and match.winner is not None:
                await send(phone, "/api/classic/play/solo", {"level": level.value})
            elif match is not None and match.turn == 0:
                fleet = match.fleet(1)
                shot = match.radar(0).shots
                water = [s for s in SQUARES if fleet is not None and s not in fleet.cells and s not in shot]
                if water:
                    await send(phone, "/api/classic/play/fire", {"cell": rng.choice(water).code})
            await asyncio.sleep(rng.uniform(think / 2, think * 1.5))

    owned: dict[int, str] = {}  # phone -> its table's venue
    for index, phone in enumerate(phones):
        before = set(rooms._tables)
        async with phone.get(f"{base}/api/classic/play") as answer:
            await answer.read()
        (owned[index],) = set(rooms._tables) - before

    room_times: list[float] = []
    cycles = [0]

    async def timed(phone: aiohttp.ClientSession, method: str, path: str) -> dict[str, object]:
        begin = time.perf_counter()
        try:
            async with phone.request(method, f"{base}{path}", json={}) as answer:
                body = await answer.json() if answer.status == 200 else {}
        except (aiohttp.ClientError, TimeoutError) as err:
            failed.append(type(err).__name__)
            return {}
        room_times.append(time.perf_counter() - begin)
        return body

    async def room_pair(index: int) -> None:
        rng = random.Random(10_000 + index)
        owner, friend = pair_phones[2 * index], pair_phones[2 * index + 1]
        await send(owner, "/api/classic/play/solo", {"level": "easy"})
        await asyncio.sleep(rng.uniform(0, think))
        while loop.time() < stop:
            opened = await timed(owner, "POST", "/api/classic/play/room")
            room = opened.get("room")
            link = room.get("link") if isinstance(room, dict) else None
            if isinstance(link, str):
                token = link.rsplit("/", 1)[1]
                await timed(friend, "GET", f"/api/classic/r/{token}")  # joins
                await timed(friend, "POST", f"/api/classic/r/{token}/ready")
                await timed(owner, "POST", "/api/classic/play/duel")
                await timed(owner, "DELETE", "/api/classic/play/room")
                cycles[0] += 1
            await asyncio.sleep(rng.uniform(think / 2, think * 1.5))

    pair_phones = [aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in range(2 * pairs)]

    async def honest_phone() -> None:
        await asyncio.sleep(2.0)  # every game under way
        while loop.time() < stop:
            begin = time.perf_counter()
            async with honest.get(f"{base}/api/classic/play") as answer:
                await answer.read()
            latencies.append(time.perf_counter() - begin)
            await asyncio.sleep(0.05)

    try:
        await asyncio.gather(
            honest_phone(),
            *(bot(i, ph) for i, ph in enumerate(phones)),
            *(room_pair(i) for i in range(pairs)),
        )
    finally:
        for session in (*phones, *pair_phones, honest):
            await session.close()
        await classic.close()
        await server.close()
        group = store.group
        groups, writes = group.groups, group.writes
        store.close()
    where = "in the kiosk's process (threads)" if local else "in the shared worker processes"
    print(f"{games} {level.value} solo games, think {think} s, {seconds:.0f} s, computer {where}")
    print(
        f"  honest phone GET /api/classic/play: n={len(latencies)} p50 "
        f"{p(latencies, 0.5) * 1e3:.1f} ms, p99 {p(latencies, 0.99) * 1e3:.1f} ms, max "
        f"{max(latencies, default=float('nan')) * 1e3:.1f} ms"
    )
    print(
        f"  computer's answer (miss committed -> its shot committed): n={len(waits)} p50 "
        f"{p(waits, 0.5) * 1e3:.1f} ms, p99 {p(waits, 0.99) * 1e3:.1f} ms, max "
        f"{max(waits, default=float('nan')) * 1e3:.1f} ms"
    )
    print(
        f"  group commit: {writes} commands in {groups} transactions ({writes / max(groups, 1):.1f} "
        f"a transaction), wait for the disk p50 {p(commit_waits, 0.5) * 1e3:.1f} ms, p99 "
        f"{p(commit_waits, 0.99) * 1e3:.1f} ms"
    )
    if pairs:
        print(
            f"  {pairs} pairs with rooms: {cycles[0]} cycles (open, join, Ready, duel, close), those "
            f"requests n={len(room_times)} p50 {p(room_times, 0.5) * 1e3:.1f} ms, p99 "
            f"{p(room_times, 0.99) * 1e3:.1f} ms"
        )
    if failed:
        print(f"  bots' requests without an answer: {len(failed)} ({', '.join(sorted(set(failed)))})")
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    phone_met = p(latencies, 0.99) <= PHONE_P99
    computer_met = p(waits, 0.99) <= COMPUTER_P99
    print(f"  load average (1 / 5 / 15 min) at the end: {load}")
    print(
        f"  goal (honest phone p99 <= {PHONE_P99 * 1e3:.0f} ms): {'MET' if phone_met else 'MISSED'}; "
        f"budget (computer p99 <= {COMPUTER_P99:.0f} s): {'MET' if computer_met else 'MISSED'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", choices=[lv.value for lv in ComputerLevel], default="hard")
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rooms", type=int, default=10, help="pairs of phones playing with rooms")
    parser.add_argument("--local", action="store_true")
    parser.add_argument("--dir", help="where the database goes (default: the temporary folder)")
    args = parser.parse_args()
    from kiosk.classic.thinking import start_workers

    if not args.local:
        start_workers()  # spawned once per kiosk start, a second or two: not what is measured
    asyncio.run(
        run(args.games, ComputerLevel(args.level), args.think, args.seconds, args.local, args.dir, args.rooms)
    )
    from kiosk.classic.thinking import shutdown

    shutdown()


if __name__ == "__main__":
    main()
