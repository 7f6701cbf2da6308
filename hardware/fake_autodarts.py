"""A fake Autodarts Board Manager (aiohttp): the frames and answers of the real one, for tests,
the bench and demos (`dartship fake-autodarts`).

The shapes follow what the public clients of the Board Manager document (PROTOCOLS.md 6):
`{"type": "state", "data": {"connected", "running", "status", "event", "numThrows", "throws"}}`
pushed on /api/events at every change, each throw `{"segment": {"name", "number", "bed",
"multiplier"}, "coords": {"x", "y"}}`; other frame types (`motion_state`, `cam_state`,
`stats`) arrive too; GET /api/state, GET /api/version, POST /api/reset. GET /api/config
answers with a made-up cloud key and counts who asked (the kiosk must never).

What its users saw on the real one (a public bridge's notes, Board Manager 1.0.7): at a visit's
third dart the status turns "Takeout" while the event is still "Throw detected" (the darts wait
to be pulled; the hand is "Takeout in progress", event "Takeout started"), and a fourth dart
before the takeout is not reported at all (`numThrows` stops at 3). It never hears of a Next on
the kiosk: its visit ends only when the darts are pulled (or POST /api/reset).
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from aiohttp import web

VERSION = "0.27.0"
VISIT = 3  # the darts the Board Manager holds in a visit


def segment(code: str) -> dict[str, Any]:
    """The Board Manager's segment for a cell: `T20`, `D5`, `S20` (inner single), `L20`
    (outer single), `B20` (a bare Single, as a scorer that does not tell them apart), `25`
    and `50` (the bull, in the shapes seen), `SB`, `DB`, `MISS`."""
    upper = code.upper()
    if upper in ("MISS", "M", "OUT"):
        return {"name": "M11", "number": 11, "bed": "Outside", "multiplier": 0}
    if upper in ("25", "SB"):
        return {"name": "25", "number": 25, "bed": "Single", "multiplier": 1}
    if upper in ("50", "DB"):
        return {"name": "Bull", "number": 25, "bed": "Double", "multiplier": 2}
    if upper == "BULL":
        return {"name": "25", "number": 25, "bed": "OuterBull", "multiplier": 1}
    letter, number = upper[0], int(upper[1:])
    beds = {
        "T": ("Triple", 3, "T"),
        "D": ("Double", 2, "D"),
        "S": ("SingleInner", 1, "S"),
        "L": ("SingleOuter", 1, "S"),
        "B": ("Single", 1, "S"),
    }
    bed, multiplier, prefix = beds[letter]
    return {"name": f"{prefix}{number}", "number": number, "bed": bed, "multiplier": multiplier}


class FakeBoardManager:
    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(1)
        self.throws: list[dict[str, Any]] = []
        self.status = "Throw"
        self.running = True
        self.event = "Started"
        self.clients: set[web.WebSocketResponse] = set()
        self.config_reads = 0
        self.state_reads = 0
        self.connections = 0
        self.runner: web.AppRunner | None = None
        self.url = ""
        self.sent_at: list[float] = []  # loop time of every state frame pushed

    # --- the server ----------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/api/events", self._events)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/version", self._version)
        app.router.add_post("/api/reset", self._reset)
        app.router.add_get("/api/config", self._config)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        self.runner = web.AppRunner(self.app())
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        bound = site._server.sockets[0].getsockname()  # type: ignore[union-attr]
        self.url = f"http://{host}:{bound[1]}"
        return self.url

    async def stop(self) -> None:
        await self.drop_clients()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    async def _events(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.connections += 1
        self.clients.add(ws)
        try:
            async for _message in ws:
                pass  # the Board Manager reads nothing from its clients
        finally:
            self.clients.discard(ws)
        return ws

    async def _state(self, request: web.Request) -> web.Response:
        self.state_reads += 1
        return web.json_response(self.state())

    async def _version(self, request: web.Request) -> web.Response:
        return web.Response(text=VERSION)

    async def _reset(self, request: web.Request) -> web.Response:
        await self.takeout(event="Manual reset")
        return web.Response(text="")

    async def _config(self, request: web.Request) -> web.Response:
        self.config_reads += 1
        return web.json_response({"auth": {"board_id": "fake", "secret": "must-never-be-read"}})

    # --- what it pushes ------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        return {
            "connected": True,
            "running": self.running,
            "status": self.status,
            "event": self.event,
            "numThrows": len(self.throws),
            "throws": [dict(t) for t in self.throws],
        }

    async def push(self, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        if isinstance(message, dict) and message.get("type") == "state":
            self.sent_at.append(asyncio.get_running_loop().time())
        for ws in list(self.clients):
            try:
                await ws.send_str(text)
            except (ConnectionError, RuntimeError):
                self.clients.discard(ws)

    async def push_state(self) -> None:
        await self.push({"type": "state", "data": self.state()})

    async def throw(self, code: str) -> None:
        if len(self.throws) >= VISIT:
            return  # a dart while three are in the board: the real one reports nothing
        self.throws.append(
            {
                "segment": segment(code),
                "coords": {"x": round(self.rng.uniform(-1, 1), 4), "y": round(self.rng.uniform(-1, 1), 4)},
            }
        )
        self.event = "Throw detected"
        if len(self.throws) == VISIT:
            self.status = "Takeout"  # waiting for the darts to be pulled: not the hand yet
        await self.push_state()

    async def correct(self, index: int, code: str) -> None:
        self.throws[index] = {"segment": segment(code), "coords": self.throws[index]["coords"]}
        self.event = "Throw detected"
        await self.push_state()

    async def takeout(self, event: str = "Takeout finished") -> None:
        self.status, self.event = "Takeout in progress", "Takeout started"
        await self.push_state()
        self.throws = []
        self.status, self.event = "Throw", event
        await self.push_state()

    async def noise(self) -> None:
        kind = self.rng.choice(("motion_state", "stats", "cam_state", "cam_stats"))
        data = {
            "motion_state": {"motion": self.rng.random() < 0.5},
            "stats": {"fps": round(self.rng.uniform(10, 30), 1)},
            "cam_state": {"cams": [{"id": i, "running": True} for i in range(3)]},
            "cam_stats": {"latency": self.rng.randint(20, 60)},
        }[kind]
        await self.push({"type": kind, "data": data})

    async def set_running(self, running: bool, status: str = "Throw") -> None:
        self.running, self.status = running, status
        await self.push_state()

    async def drop_clients(self) -> None:
        for ws in list(self.clients):
            await ws.close()
        self.clients.clear()


# --- `dartship fake-autodarts` -------------------------------------------------------------


async def do(manager: FakeBoardManager, command: str) -> str | None:
    """One command of a script or typed line; returns a message for a bad one.

    `T20` (any cell: S20 inner, L20 outer, B20 a bare Single, SB, DB, 25, 50, MISS) a dart;
    `correct N CELL` dart N (1-based) seen again; `takeout`; `stop` / `start` the cameras;
    `drop` every WebSocket client; `garbage` a frame that is not JSON; `noise` one noise frame.
    """
    words = command.split()
    if not words:
        return None
    head = words[0].lower()
    try:
        if head == "correct" and len(words) == 3:
            await manager.correct(int(words[1]) - 1, words[2])
        elif head == "takeout":
            await manager.takeout()
        elif head in ("stop", "start"):
            await manager.set_running(head == "start", "Throw" if head == "start" else "Stopped")
        elif head == "drop":
            await manager.drop_clients()
        elif head == "garbage":
            await manager.push("{this is not json")
        elif head == "noise":
            await manager.noise()
        elif len(words) == 1:
            await manager.throw(words[0])
        else:
            return f"unknown command {command!r}"
    except (ValueError, IndexError, KeyError) as err:
        return f"{command!r}: {err}"
    return None


def main(argv: list[str]) -> int:
    import argparse
    import sys
    from pathlib import Path

    from hardware.fake_board import read_script

    p = argparse.ArgumentParser(
        prog="dartship fake-autodarts", description="a fake Autodarts Board Manager on a TCP port"
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=3180)
    p.add_argument("--script", help="file of '<seconds> <command>' lines to replay")
    p.add_argument(
        "--noise",
        type=float,
        default=20.0,
        help="noise frames (motion_state, stats, ...) a second (default 20)",
    )
    p.add_argument("--stay", action="store_true", help="keep serving after the script")
    a = p.parse_args(argv)

    async def run() -> int:
        manager = FakeBoardManager()
        print(await manager.start(a.host, a.port), flush=True)

        async def chatter() -> None:
            while a.noise > 0:
                await manager.noise()
                await asyncio.sleep(1 / a.noise)

        noise = asyncio.create_task(chatter())
        try:
            if a.script:
                steps, problems = read_script(
                    Path(a.script).read_text(encoding="utf-8").splitlines(), a.script
                )
                for bad in problems:
                    print(bad, file=sys.stderr)
                for step in steps:
                    await asyncio.sleep(step.delay)
                    print(await do(manager, step.command) or step.command, flush=True)
                if a.stay:
                    await asyncio.Event().wait()
            else:
                print(
                    "type T20, correct 1 S20, takeout, stop, start, drop, garbage; Ctrl+D ends",
                    file=sys.stderr,
                    flush=True,
                )
                loop = asyncio.get_running_loop()
                while line := await loop.run_in_executor(None, sys.stdin.readline):
                    said = await do(manager, line.strip())
                    if said:
                        print(said, file=sys.stderr, flush=True)
        finally:
            noise.cancel()
            await manager.stop()
        return 0

    try:
        return asyncio.run(run())
    except KeyboardInterrupt:
        return 0
