"""A TCP proxy between a kiosk and its hub that can hold either direction: what the kiosk sends
(the hub never hears of it) or what the hub answers (the hub has done its work, the kiosk never
learns of it). It runs its own asyncio loop in a thread; the test sets `mode` between chunks."""

from __future__ import annotations

import asyncio
import contextlib
import threading

PASS, HOLD_REQUESTS, HOLD_ANSWERS = "pass", "hold requests", "hold answers"


class HeldProxy:
    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.mode = PASS
        self.requests_seen = 0  # chunks from the kiosk since the last `count_from_now`
        self.answers_held = 0  # chunks from the hub held back
        self._open: set[asyncio.Future[None]] = set()
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(10)
        self.url = f"http://127.0.0.1:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]
        self._ready.set()
        self.loop.run_forever()

    def count_from_now(self) -> None:
        self.requests_seen = 0
        self.answers_held = 0

    async def _serve(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        try:
            hub_in, hub_out = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            client_out.close()
            return
        pipes = [
            asyncio.ensure_future(self._pipe(client_in, hub_out, HOLD_REQUESTS, True)),
            asyncio.ensure_future(self._pipe(hub_in, client_out, HOLD_ANSWERS, False)),
        ]
        self._open.update(pipes)
        await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        for pipe in pipes:
            pipe.cancel()
            self._open.discard(pipe)
        for writer in (client_out, hub_out):
            writer.close()

    def cut(self) -> None:
        """Drop every open connection and what it holds (the kiosk on its end was killed)."""

        def cancel() -> None:
            for pipe in list(self._open):
                pipe.cancel()

        self.loop.call_soon_threadsafe(cancel)

    async def _pipe(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, holding: str, from_kiosk: bool
    ) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while chunk := await source.read(65536):
                if from_kiosk:
                    self.requests_seen += 1
                elif self.mode == holding:
                    self.answers_held += 1
                while self.mode == holding:  # held until the mode changes (or the kiosk dies)
                    await asyncio.sleep(0.02)
                sink.write(chunk)
                await sink.drain()

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
