"""Serial line written -> dart event on the service's asyncio queue: p50/p99 through a pty.

The reader thread hands events to the loop exactly as the kiosk does
(`loop.call_soon_threadsafe(queue.put_nowait, event)`). Lines are sent one at a time and each
is timed from `os.write` to `await queue.get()`, so the figure is the latency of one dart, not
of a backlog. Lines follow each other at once here (the 81 cells in turn, ~30 ms a round), so
the reader's lockout (two segments within 20 ms are one dart touching both, as on the GPIO
matrix) and its repeat window (a contact printed again within 0.75 s is a held one) are set to
0 for the bench: their checks still run on every dart, they only never drop one.

    /work/venv/bin/python bench/serial_latency.py [--lines 2000] [--dialect dartship|auto|x ...]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.boardmap import demo_map
from hardware.dialects import dialect, encode
from hardware.serial_reader import SerialReader
from kiosk.board import BullZone, board_for
from kiosk.inputs import Connected, DartInput, Info


async def measure(lines: int, dialect_name: str) -> list[float]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()
    master, slave = os.openpty()
    tty.setraw(slave)
    # "auto": the board speaks dartship and the reader tells it from the first line
    chosen = dialect("dartship" if dialect_name == "auto" else dialect_name)
    board = board_for(chosen.profile or "four-ring")
    board_map = demo_map(board.profile)
    reader = SerialReader(
        os.ttyname(slave),
        lambda ev: loop.call_soon_threadsafe(queue.put_nowait, ev),
        dialect_name=dialect_name,
        profile=board.profile,
        board_map=board_map,
        baud=115200,
        lockout_seconds=0.0,
        repeat_seconds=0.0,
    )
    reader.start()
    while not isinstance(await queue.get(), Connected):
        pass
    texts = [encode(chosen, cell, BullZone.OUTER, board_map).encode() + b"\n" for cell in board.cells]
    samples: list[float] = []
    try:
        for i in range(lines):
            start = time.perf_counter()
            os.write(master, texts[i % len(texts)])
            try:
                event = await asyncio.wait_for(queue.get(), 5)
            except TimeoutError:
                raise SystemExit(f"line {i} {texts[i % len(texts)]!r}: nothing came") from None
            while isinstance(event, Info):  # what the reader says about the board
                event = await asyncio.wait_for(queue.get(), 5)
            samples.append(time.perf_counter() - start)
            if not isinstance(event, DartInput):
                raise SystemExit(f"line {i}: expected a dart, got {event!r}")
    finally:
        reader.stop()
        os.close(master)
        os.close(slave)
    return samples


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lines", type=int, default=2000)
    p.add_argument("--dialect", default="dartship")
    args = p.parse_args()
    samples = asyncio.run(measure(args.lines, args.dialect))
    ms = sorted(s * 1000 for s in samples)
    q = statistics.quantiles(ms, n=100)
    print(
        f"serial line -> asyncio queue, {len(ms)} lines, dialect {args.dialect}, "
        f"Python {sys.version.split()[0]}"
    )
    print(
        f"  p50 {q[49]:.3f} ms   p90 {q[89]:.3f} ms   p99 {q[98]:.3f} ms   "
        f"max {ms[-1]:.3f} ms   mean {statistics.fmean(ms):.3f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
