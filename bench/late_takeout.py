"""How late a camera scorer's takeout may come after a Next tapped on a screen, in figures.

    .venv/bin/python bench/late_takeout.py [--visits 40]

For each delay between a tap on Next (the visit's three darts still in the board) and the
cameras seeing them pulled, `--visits` visits played through the fake Board Manager
(hardware/fake_autodarts.py, over a real WebSocket), the kiosk's client and the real game
service with the dart game's guard on a hand clock (the delays are exact, nobody waits): how
many takeouts ended the next team's visit before its first dart. "As a Next" is how the kiosk
read the takeout before branch takeout7 (a Next for the visit in play, caught only within
`rules.double_next_seconds`); "its darts' visit" is the takeout ending the visit its darts
went into. Each lost visit is three padded misses for a team that never threw; each refusal
shown is a toast and an error beep for darts pulled as they should be.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.autodarts import AutodartsBoard
from hardware.fake_autodarts import FakeBoardManager
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import BullOffMode, HouseRules, Next, Phase, Place, Setup, Team
from kiosk.inputs import Button, ButtonInput, InputEvent, TakeoutInput
from kiosk.service import GameService, Notice, NoticeKind, Source
from kiosk.store import Store
from tests.clocks import guard_next  # the tests' guard on a hand clock

DELAYS = (0.5, 1.4, 1.6, 3.0, 5.0, 10.0, 60.0)


async def lost(delay: float, visits: int, as_next: bool, folder: Path) -> tuple[int, int]:
    """Visits of the next team ended by a takeout `delay` s after a tap, before their first
    dart, and the refusals shown."""
    service = GameService(Store(folder / f"{delay}-{as_next}.db"), rng=random.Random(1))
    clock = guard_next(service)
    refused: list[Notice] = []
    service.subscribe(
        lambda e: refused.append(e) if isinstance(e, Notice) and e.kind is NoticeKind.REFUSED else None
    )
    manager = FakeBoardManager(random.Random(2))
    url = await manager.start()

    def sink(event: InputEvent) -> None:
        if as_next and isinstance(event, TakeoutInput):
            event = ButtonInput(Button.NEXT)  # the old reading: a Next for the visit in play
        service.handle_input(event)

    board = AutodartsBoard(url, sink, backoff=(0.05, 0.2))
    board.start()

    async def handled(frames: int) -> None:
        while board.frames < frames:
            await asyncio.sleep(0.001)

    try:
        while not service.board_connected:
            await asyncio.sleep(0.01)
        rules = HouseRules(bull_off=BullOffMode.OFF)
        service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
        for team in (0, 1):
            service.submit(Place(team, random_fleet(rules.board, rules.fleet, random.Random(team))))
        ended = 0
        for _ in range(visits):
            match = service.match
            assert match is not None and match.phase is Phase.THROWING
            for _dart in range(3):
                frames = board.frames + 1
                await manager.throw("MISS")
                await handled(frames)
            tapped = match.visits
            service.submit(Next(visit=tapped), Source.TOUCH)
            clock.advance(delay)
            frames = board.frames + 2
            await manager.takeout()  # the hand, then the empty board
            await handled(frames)
            match = service.match
            assert match is not None
            if match.visits > tapped + 1:
                ended += 1  # the next team's visit is over before it threw
            else:  # the next team throws its visit; its own takeout ends it
                for _dart in range(3):
                    frames = board.frames + 1
                    await manager.throw("MISS")
                    await handled(frames)
                frames = board.frames + 2
                await manager.takeout()
                await handled(frames)
            clock.advance(30)
        return ended, len(refused)
    finally:
        board.stop()
        await manager.stop()


async def run(visits: int) -> None:
    print(f"a takeout after a tap on Next, {visits} visits each, guard window 1.5 s")
    print("each cell: next visits lost, refusals shown")
    print("| takeout after the tap (s) | the takeout as a Next | as its darts' visit |")
    print("|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for delay in DELAYS:
            before = await lost(delay, visits, True, Path(folder))
            now = await lost(delay, visits, False, Path(folder))
            print(f"| {delay:g} | {before[0]}, {before[1]} | {now[0]}, {now[1]} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=40)
    args = parser.parse_args()
    asyncio.run(run(args.visits))


if __name__ == "__main__":
    main()
