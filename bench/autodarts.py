"""Autodarts Board Manager snapshot -> dart on the service's asyncio queue: p50/p99.

A fake Board Manager (hardware/fake_autodarts.py, real aiohttp WebSocket on 127.0.0.1) pushes
`--noise` noise frames a second (motion_state, stats, cam_state, cam_stats) all along, and a
visit's darts one by one (a state snapshot each, then a takeout after three). The client is the
kiosk's (`AutodartsBoard`), in the same loop, handing events on as the kiosk does
(`loop.call_soon_threadsafe(queue.put_nowait, event)`). Each dart is timed from the moment its
snapshot reaches the client (`received`) and from the moment the Board Manager sent it (`sent`,
the WebSocket included) to `await queue.get()`.

    .venv/bin/python bench/autodarts.py [--darts 600] [--noise 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.autodarts import AutodartsBoard
from hardware.fake_autodarts import FakeBoardManager
from kiosk.inputs import Connected, DartInput, MissInput, TakeoutInput

CODES = [f"{ring}{n}" for ring in "TDSL" for n in range(1, 21)] + ["25", "50", "MISS"]


async def measure(darts: int, noise_rate: float) -> tuple[list[float], list[float], int]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()
    manager = FakeBoardManager(random.Random(5))
    url = await manager.start()
    board = AutodartsBoard(url, lambda ev: loop.call_soon_threadsafe(queue.put_nowait, ev))
    received: list[float] = []
    handle = board.handle_frame

    def stamped(text: str | bytes) -> None:
        if '"state"' in str(text)[:20]:
            received.append(time.perf_counter())
        handle(text)

    board.handle_frame = stamped  # type: ignore[method-assign]
    board.start()
    while not isinstance(await queue.get(), Connected):
        pass
    stop = asyncio.Event()
    noise_frames = 0

    async def chatter() -> None:
        nonlocal noise_frames
        while not stop.is_set():
            await manager.noise()
            noise_frames += 1
            await asyncio.sleep(1 / noise_rate)

    noisy = asyncio.create_task(chatter()) if noise_rate > 0 else None
    rng = random.Random(9)
    from_received: list[float] = []
    from_sent: list[float] = []
    try:
        for i in range(darts):
            received.clear()
            sent = time.perf_counter()
            await manager.throw(rng.choice(CODES))
            event = await asyncio.wait_for(queue.get(), 5)
            done = time.perf_counter()
            if not isinstance(event, DartInput | MissInput):
                raise SystemExit(f"dart {i}: expected a dart, got {event!r}")
            from_sent.append(done - sent)
            from_received.append(done - received[-1])
            if len(manager.throws) == 3:
                await manager.takeout()
                while not isinstance(await asyncio.wait_for(queue.get(), 5), TakeoutInput):
                    pass
            await asyncio.sleep(rng.uniform(0.005, 0.03))  # darts are never back to back
    finally:
        stop.set()
        if noisy is not None:
            await noisy
        board.stop()
        await manager.stop()
    return from_received, from_sent, noise_frames


def describe(name: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    q = statistics.quantiles(ms, n=100)
    return (
        f"  {name:<9} p50 {q[49]:.3f} ms   p90 {q[89]:.3f} ms   p99 {q[98]:.3f} ms   "
        f"max {ms[-1]:.3f} ms   mean {statistics.fmean(ms):.3f} ms"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--darts", type=int, default=600)
    p.add_argument("--noise", type=float, default=20.0, help="noise frames a second")
    a = p.parse_args()
    started = time.perf_counter()
    received, sent, noise = asyncio.run(measure(a.darts, a.noise))
    seconds = time.perf_counter() - started
    print(
        f"autodarts snapshot -> asyncio queue, {a.darts} darts, {noise} noise frames in "
        f"{seconds:.1f} s ({noise / seconds:.0f}/s), Python {sys.version.split()[0]}"
    )
    print(describe("received", received))
    print(describe("sent", sent))


if __name__ == "__main__":
    main()
