"""An hour of bar time opening classic rooms, with one attacker: the database levels off.

    python bench/rooms.py [--minutes 60] [--phones 30] [--attack 60]

The real phone server (aiohttp, the store on disk, `ClassicApi` and `PhoneRooms`) on
127.0.0.1, its clocks simulated (a minute of bar time takes well under a second). Each honest
phone has an address of its own (127.0.0.10, .11, ...: a bar's Wi-Fi gives each phone one) and,
now and then, starts a solo game, opens a room, has a friend (another phone) join, fires a few
shots over some minutes and walks away. The attacker (127.0.0.200) sends `--attack` requests a
minute to open a room, each with a fresh cookie (no cookie jar: every request is a new phone).
Every minute the rooms that ended are swept (ROOM_IDLE, DUEL_LEFT); every five the bench prints
the open rooms, the rooms the attacker holds and has opened, and the database's size (file and
WAL). Figures only, never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from aiohttp.test_utils import TestServer

from kiosk.classic.computer import ShotPace
from kiosk.classic.room import computer as classic_computer
from kiosk.classic.rooms import PhoneRooms
from kiosk.service import GameService
from kiosk.store import Store
from ui.handheld.classic.api import ClassicApi
from ui.handheld.seats import Seats
from ui.handheld.server import build_app, runner_options
from ui.handheld.throttle import GuessThrottle


class Clock:
    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def session(address: str, *, jar: bool = True) -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
    return aiohttp.ClientSession(
        connector=connector, cookie_jar=aiohttp.CookieJar(unsafe=True) if jar else aiohttp.DummyCookieJar()
    )


async def run(minutes: int, phones: int, attack: int, seed: int) -> None:
    rng = random.Random(seed)
    db = Path(tempfile.mkdtemp(prefix="dartship-rooms-")) / "dartship.db"
    clock = Clock()
    store = Store(db)
    service = GameService(store)
    seats = Seats(service, GuessThrottle())
    rooms = PhoneRooms(
        store,
        asyncio.get_running_loop(),
        classic_computer,
        pace=ShotPace(shot=0),
        rng=random.Random(seed),
        clock=clock,
    )
    classic = ClassicApi(seats, rooms, clock=clock)
    server = TestServer(build_app(seats, classic), host="127.0.0.1")
    await server.start_server(**runner_options())
    base = f"http://127.0.0.1:{server.port}"
    honest = [session(f"127.0.0.{10 + n}") for n in range(phones)]
    friends = [session(f"127.0.0.{100 + n}") for n in range(phones)]
    attacker = session("127.0.0.200", jar=False)
    playing: dict[int, tuple[str, int]] = {}  # phone -> (room token, minutes left)
    opened = refused = 0
    print(
        f"{minutes} min of bar time, {phones} honest phones, attacker {attack} rooms/min with fresh cookies"
    )
    print(
        f"{'min':>4} {'open rooms':>10} {'attacker holds':>14} {'attacker opened':>15} "
        f"{'refused':>8} {'db KiB':>8}"
    )
    try:
        for minute in range(1, minutes + 1):
            for _second in range(attack):
                clock.now += 60 / max(attack, 1)
                async with attacker.post(f"{base}/api/classic/play/room", json={}) as answer:
                    if answer.status == 200:
                        opened += 1
                    else:
                        refused += 1
            if not attack:
                clock.now += 60
            for n, phone in enumerate(honest):
                if n in playing:
                    token, left = playing[n]
                    async with phone.post(
                        f"{base}/api/classic/play/fire",
                        json={"cell": f"{'ABCDEFGHIJ'[minute % 10]}{1 + (n + minute) % 10}"},
                    ) as a:
                        await a.read()
                    playing[n] = (token, left - 1)
                    if left <= 1:
                        del playing[n]  # walks away: the room is left idle
                elif rng.random() < 0.1:
                    async with phone.post(f"{base}/api/classic/play/solo", json={"level": "easy"}) as a:
                        await a.read()
                    async with phone.post(f"{base}/api/classic/play/room", json={}) as a:
                        body = await a.json()
                    if a.status == 200:
                        token = body["room"]["link"].rsplit("/", 1)[1]
                        async with friends[n].get(f"{base}/api/classic/r/{token}") as f:
                            await f.read()
                        playing[n] = (token, rng.randint(5, 20))
            classic._sweep()
            await asyncio.sleep(0)
            if minute % 5 == 0:
                rows = store.db.execute("SELECT count(*) FROM rooms").fetchone()[0]
                # Every honest room has a friend at once; the attacker's never get one.
                held = sum(1 for room, _at in store.rooms.open_rooms() if room.friend is None)
                print(f"{minute:>4} {rows:>10} {held:>14} {opened:>15} {refused:>8} {size(db) / 1024:>8.0f}")
    finally:
        for s in (*honest, *friends, attacker):
            await s.close()
        await server.close()
        store.close()
    print(
        f"attacker: {opened} rooms opened of {opened + refused} tried; database "
        f"{size(db) / 1024:.0f} KiB at the end ({db})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=60)
    parser.add_argument("--phones", type=int, default=30)
    parser.add_argument("--attack", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.minutes, args.phones, args.attack, args.seed))


if __name__ == "__main__":
    main()
