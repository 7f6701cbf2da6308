"""From the devices' threads into the service's queue, with a bound on noise.

Each device already cuts its own floods down (the serial reader summarises bad lines), but the
queue itself must not grow without bound whatever a device does: a dart, a miss, a button, a
board connecting or going away always gets in, in order; noise (bad lines, unmapped or stuck
contacts, device messages) is dropped while `noise_limit` of it is already on its way or
waiting, and how much was dropped is told once the queue has room again.
"""

from __future__ import annotations

import asyncio
import threading

from kiosk.i18n import _
from kiosk.inputs import BadLine, Info, InputEvent, StuckInput, UnmappedInput

NOISE_LIMIT = 32


def is_noise(event: InputEvent) -> bool:
    return isinstance(event, BadLine | UnmappedInput | StuckInput | Info)


class InputFunnel:
    """The sink the composition root gives the devices (any thread may call it)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        queue: asyncio.Queue[InputEvent],
        noise_limit: int = NOISE_LIMIT,
    ) -> None:
        self.loop = loop
        self.queue = queue
        self.noise_limit = noise_limit
        self._lock = threading.Lock()
        self._on_the_way = 0  # noise handed to the loop, not yet on the queue
        self._dropped = 0

    def __call__(self, event: InputEvent) -> None:
        noise = is_noise(event)
        if noise:
            with self._lock:
                # qsize() from another thread is only an estimate: a bound needs no more.
                if self._on_the_way + self.queue.qsize() >= self.noise_limit:
                    self._dropped += 1
                    return
                self._on_the_way += 1
        self.loop.call_soon_threadsafe(self._put, event, noise)

    def _put(self, event: InputEvent, noise: bool) -> None:
        """In the loop: onto the queue; and, once there is room, the news of what was dropped."""
        with self._lock:
            if noise:
                self._on_the_way -= 1
            dropped = self._dropped if self.queue.qsize() < self.noise_limit // 2 else 0
            self._dropped -= dropped
        self.queue.put_nowait(event)
        if dropped:
            self.queue.put_nowait(
                Info(
                    _(
                        "{count} messages from the devices were dropped: they "
                        "came faster than the kiosk could show them"
                    ).format(count=dropped)
                )
            )

    @property
    def dropped(self) -> int:
        with self._lock:
            return self._dropped
