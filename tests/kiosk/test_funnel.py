"""The devices' way into the service's queue: darts always in, in order; noise bounded."""

from __future__ import annotations

import asyncio
import threading

from kiosk.board import Profile, board_for
from kiosk.funnel import InputFunnel
from kiosk.inputs import BadLine, DartInput, Info, InputEvent

FOUR = board_for(Profile.FOUR_RING)


async def test_a_flood_of_noise_is_bounded_and_no_dart_is_lost():
    queue: asyncio.Queue[InputEvent] = asyncio.Queue()
    funnel = InputFunnel(asyncio.get_running_loop(), queue, noise_limit=32)
    darts = [DartInput(FOUR.parse(code), code) for code in ("T20", "D3", "S5", "BULL")]

    def device() -> None:  # a reader thread gone wild, with four real darts in between
        for i in range(20_000):
            funnel(BadLine(f"garbage {i}"))
            if i % 5_000 == 0:
                funnel(darts[i // 5_000])

    thread = threading.Thread(target=device)
    thread.start()
    await asyncio.to_thread(thread.join)
    await asyncio.sleep(0.05)
    queued = [queue.get_nowait() for _ in range(queue.qsize())]
    assert [e for e in queued if isinstance(e, DartInput)] == darts
    bad = sum(isinstance(e, BadLine) for e in queued)
    assert bad <= 32 and len(queued) < 64  # 20 004 events came, a bounded few are waiting
    funnel(darts[0])  # the queue has room again: what was dropped since is told
    await asyncio.sleep(0.05)
    queued += [queue.get_nowait() for _ in range(queue.qsize())]
    told = [int(e.message.split()[0]) for e in queued if isinstance(e, Info)]
    assert bad + sum(told) == 20_000 and funnel.dropped == 0  # every drop is told, once
    assert all("dropped" in e.message for e in queued if isinstance(e, Info))
