"""Benchmark of the classic computer as the kiosk runs it: `ComputerSeat`s on one asyncio loop
(the kiosk's own game and phone rooms beside it), their decisions in the shared executors.

    python bench/classic_seats.py [--rooms 1,4,8] [--level hard] [--think 0.3] [--seconds 20]

Each room is a solo game on a service of its own (no store: the store's commit is not what is
measured here), its computer at pace 0; the "human" of every room thinks `--think` seconds and
then always misses, so every room spends most of its time in the computer's turns or pondering.
Printed per number of rooms: every `choose` as timed in its executor thread (the budget
bench/classic.py measured: p99 <= 50 ms for normal and hard's first answer), the wait from the
human's miss to the computer's shot being committed (the decision plus any queueing behind other
rooms' decisions), and how late the loop ran a 10 ms ticker (a loop that never blocks stays near
0). Timings only here, never in tests.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.classic.ai import Computer
from kiosk.classic.computer import ComputerSeat, ShotPace, pool
from kiosk.classic.grid import SQUARES
from kiosk.classic.match import ComputerLevel, Fire, Mode, Setup, ShotFired
from kiosk.classic.table import start
from kiosk.classic.wire import CLASSIC
from kiosk.service import GameService, MatchUpdate


def p(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(rooms: int, level: ComputerLevel, think: float, seconds: float, seed: int) -> dict:
    loop = asyncio.get_running_loop()
    rng = random.Random(seed)
    seats: list[ComputerSeat] = []
    services: list[GameService] = []
    waits: list[float] = []
    handed: dict[int, float] = {}  # room -> when the human's miss handed the computer the turn

    def listen(index: int, service: GameService):
        def heard(event: object) -> None:
            if isinstance(event, MatchUpdate):
                for e in event.events:
                    if isinstance(e, ShotFired) and e.side == 1 and index in handed:
                        waits.append(time.perf_counter() - handed.pop(index))

        return heard

    for index in range(rooms):
        service = GameService(None, venue=f"bench:{index}")
        service.subscribe(listen(index, service))
        seat = ComputerSeat(
            service,
            loop,
            Computer,
            pace=ShotPace(shot=0),
            rng=random.Random(rng.getrandbits(64)),
            executor=pool("choose", 2),
            ponder_executor=pool("ponder", 1),
        ).attach()
        start(service, Setup(Mode.SOLO, ("Human",), level=level), random.Random(rng.getrandbits(64)))
        seats.append(seat)
        services.append(service)

    lags: list[float] = []
    stop = loop.time() + seconds

    async def ticker() -> None:
        while loop.time() < stop:
            before = loop.time()
            await asyncio.sleep(0.01)
            lags.append(loop.time() - before - 0.01)

    async def human(index: int) -> None:
        service = services[index]
        while loop.time() < stop:
            match = CLASSIC.in_play(service)
            if match is None:
                return
            if match.winner is not None:
                start(service, match.setup, random.Random(rng.getrandbits(64)))
                continue
            if match.turn != 0:
                await asyncio.sleep(0.002)
                continue
            await asyncio.sleep(think)
            fleet = match.fleet(1)
            assert fleet is not None
            shot = match.radar(0).shots
            water = [s for s in SQUARES if s not in shot and fleet.ship_at(s) is None]
            handed[index] = time.perf_counter()
            service.submit(Fire(0, rng.choice(water)))

    await asyncio.gather(ticker(), *(human(i) for i in range(rooms)))
    for seat in seats:
        seat.close()
    decisions = [d for seat in seats for d in seat.decision_seconds]
    return {"rooms": rooms, "decisions": decisions, "waits": waits, "lags": lags}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", default="1,4,8")
    parser.add_argument("--level", default="hard", choices=[lv.value for lv in ComputerLevel])
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    level = ComputerLevel(args.level)
    print(
        f"classic computer seats, level {level.value}, human thinks {args.think} s, "
        f"{args.seconds:.0f} s per row"
    )
    print(
        "rooms  decisions  choose p50 / p99 / max (ms)   shot after the miss p50 / p99 (ms)"
        "   loop lag p99 / max (ms)"
    )
    for rooms in (int(n) for n in args.rooms.split(",")):
        r = asyncio.run(run(rooms, level, args.think, args.seconds, args.seed))
        d = [x * 1000 for x in r["decisions"]]
        w = [x * 1000 for x in r["waits"]]
        lag = [x * 1000 for x in r["lags"]]
        print(
            f"{rooms:5d}  {len(d):9d}  {statistics.median(d):8.2f} / {p(d, 0.99):6.1f} / "
            f"{max(d):6.1f}        {statistics.median(w):8.1f} / {p(w, 0.99):6.1f}"
            f"                 {p(lag, 0.99):5.1f} / {max(lag):5.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
