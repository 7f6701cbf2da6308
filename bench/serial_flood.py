"""A serial board floods the kiosk with bad lines: how late do real darts count, during the flood
and after it, and how long is the kiosk's log of it?

The whole kiosk (the composition root, `build_kiosk`, with a serial board on a pty, its log in
journal format) plays a game; a writer thread sends `--rate` bad lines a second (terminal
escapes, bells, non-ASCII) for `--seconds`, and one real dart every `--every` seconds during
the flood and for `--after` seconds after it. A dart's delay runs from its line's `os.write` to
the moment the service announces it (committed to SQLite, `synchronous=FULL`). The darts never
hit a ship, so the game never ends; a visit's takeout is ended by Next at once.

    .venv/bin/python bench/serial_flood.py [--rate 10000] [--seconds 3] [--show-log]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import os
import statistics
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.app import logs
from kiosk.app.root import build_kiosk
from kiosk.board import Profile, board_for
from kiosk.config import ConfigFile, check_values
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import DartThrown, HouseRules, Next, Place, Setup, TakeoutNeeded, Team
from kiosk.service import MatchUpdate, ServiceEvent, Source

FOUR = board_for(Profile.FOUR_RING)
GARBAGE = [
    b"\x1b[2J\x1b[31mPWNED\x07\r\n",
    b"\xfe\xff\xfd not ascii\n",
    b"QQ99\n",
    b"RC 99 99\n",
    b"#" + b"x" * 90 + b"\n",
]


def flood_lines(rate: int, chunk_seconds: float) -> bytes:
    per_chunk = max(1, round(rate * chunk_seconds))
    return b"".join(GARBAGE[i % len(GARBAGE)] for i in range(per_chunk))


class Writer(threading.Thread):
    """The board: bad lines at `rate` a second for `seconds`, a dart every `every` seconds
    during the flood and `after` seconds beyond it. Records each dart's send time."""

    def __init__(
        self, fd: int, cells: list[str], rate: int, seconds: float, every: float, after: float
    ) -> None:
        super().__init__(daemon=True)
        self.fd, self.cells = fd, cells
        self.rate, self.seconds, self.every, self.after = rate, seconds, every, after
        self.sent: list[tuple[float, bool]] = []  # (perf_counter at write, during the flood)
        self.flooded = 0

    def run(self) -> None:
        chunk = 0.005
        garbage = flood_lines(self.rate, chunk)
        lines_per_chunk = garbage.count(b"\n")
        start = time.perf_counter()
        next_dart = start + self.every / 2
        end_flood, end = start + self.seconds, start + self.seconds + self.after
        tick = start
        while True:
            now = time.perf_counter()
            if now >= end:
                return
            if now < end_flood and now >= tick:
                os.write(self.fd, garbage)
                self.flooded += lines_per_chunk
                tick += chunk
            if now >= next_dart:
                cell = self.cells[len(self.sent) % len(self.cells)]
                self.sent.append((time.perf_counter(), now < end_flood))
                os.write(self.fd, cell.encode() + b"\n")
                next_dart += self.every
            time.sleep(0.0005)


def _quantiles(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    if len(ms) < 2:
        return "n/a"
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return f"p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms"


async def run(args: argparse.Namespace) -> int:
    master, slave = os.openpty()
    tty.setraw(slave)
    folder = Path(tempfile.mkdtemp(prefix="dartship-flood-"))
    typed, problems = check_values(
        {
            "board.input": "serial",
            "board.port": os.ttyname(slave),
            "rules.bull_off": "off",
            "rules.darts_per_visit": 9,
            "kiosk.database": str(folder / "flood.db"),
        }
    )
    assert not problems, problems
    journal = io.StringIO()
    handler = logs.setup(level="INFO", stream=journal, journal=True, environ={})
    counted: list[float] = []
    kiosk = await build_kiosk(ConfigFile(None, typed), web=False)
    loop = asyncio.get_running_loop()
    service = kiosk.service

    def listen(event: ServiceEvent) -> None:
        if not isinstance(event, MatchUpdate):
            return
        for e in event.events:
            if isinstance(e, DartThrown) and not e.padded:
                counted.append(time.perf_counter())
            if isinstance(e, TakeoutNeeded):
                loop.call_soon(service.try_submit, Next(), Source.SYSTEM)

    try:
        rules = HouseRules(darts_per_visit=9, bull_off=kiosk.settings.rules.bull_off)
        service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
        fleets = [random_fleet(FOUR, rules.fleet, service.rng) for _ in (0, 1)]
        for team, fleet in enumerate(fleets):
            service.submit(Place(team, fleet))
        service.subscribe(listen)
        taken = {c.code for f in fleets for c in f.cells}
        cells = [c.code for c in FOUR.cells if c.code not in taken][:12]  # never a hit
        while not service.board_connected:
            await asyncio.sleep(0.05)
        writer = Writer(master, cells, args.rate, args.seconds, args.every, args.after)
        started = time.perf_counter()
        writer.start()
        await asyncio.to_thread(writer.join)
        deadline = time.perf_counter() + 10
        while len(counted) < len(writer.sent) and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
        # Stay until the reader's 10 s window closes, so the log shows the flood's count.
        await asyncio.sleep(max(0.0, started + args.seconds + 10.5 - time.perf_counter()))
    finally:
        await kiosk.stop()
        logging.getLogger().removeHandler(handler)
        os.close(master)
        os.close(slave)
    during = [c - s for (s, flood), c in zip(writer.sent, counted, strict=False) if flood]
    after = [c - s for (s, flood), c in zip(writer.sent, counted, strict=False) if not flood]
    lines = journal.getvalue().splitlines()
    about_board = [line for line in lines if "dartship.service" in line]
    print(
        f"serial flood: {writer.flooded} bad lines in {args.seconds:g} s "
        f"({writer.flooded / args.seconds:,.0f}/s) on a pty; a dart every {args.every:g} s; "
        f"Python {sys.version.split()[0]}"
    )
    print(f"  darts counted: {len(counted)} of {len(writer.sent)} sent")
    print(f"  during the flood ({len(during)} darts): {_quantiles(during)}")
    print(f"  after the flood  ({len(after)} darts): {_quantiles(after)}")
    print(
        f"  the kiosk's log: {len(lines)} lines in all, {len(about_board)} from the service "
        f"(board news, bad lines)"
    )
    if args.show_log:
        print("  --- the log ---")
        for line in lines:
            print("  " + line)
    return 0 if len(counted) == len(writer.sent) else 1


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rate", type=int, default=10_000, help="bad lines a second")
    p.add_argument("--seconds", type=float, default=3.0, help="length of the flood")
    p.add_argument("--every", type=float, default=0.1, help="seconds between real darts")
    p.add_argument("--after", type=float, default=2.0, help="darts go on this long after")
    p.add_argument("--show-log", action="store_true", help="print the kiosk's whole log")
    return asyncio.run(run(p.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
