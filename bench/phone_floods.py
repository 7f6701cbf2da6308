"""Hostile phones against the real headless kiosk (issue 13): what still gets served.

`dartship run --headless` runs in its own process, with the open-file limit of the old unit
(1024, soft and hard, so it cannot raise it) unless `--nofile` says otherwise; the attackers and
the honest phones are this process, on loopback, each "phone" from its own 127.x.y.z address
(loopback answers to all of 127/8).

* slowloris: 1100 connections from one address each send half a request and wait; meanwhile
  5 honest requests from another address: how many are served, and how fast.
* guesses: 250 addresses send 1000 wrong team links (4 each), then keep guessing; meanwhile
  the team's phone (its link is bound to its device key) opens its link 20 times, each time
  from an address not seen before (the page, the API and the team socket's first message):
  how often it gets in, and how fast.
* spectators: 256 spectator sockets (from 8 addresses), then a team phone's socket: accepted,
  and its first view how fast; and the 257th spectator is turned away.

    .venv/bin/python bench/phone_floods.py [slowloris|guesses|spectators|all] [--nofile 1024]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aiohttp import (
    ClientSession,
    ClientWebSocketResponse,
    CookieJar,
    TCPConnector,
    WSServerHandshakeError,
)

ROOT = Path(__file__).resolve().parents[1]


class Kiosk:
    """`dartship run --headless` in a process of its own, its output kept."""

    def __init__(self, nofile: int) -> None:
        self.port = 0  # read back from its log: the system picks a free one as it binds
        folder = Path(tempfile.mkdtemp(prefix="dartship-phones-"))
        config = folder / "config.toml"
        config.write_text('[web]\nhost = "0.0.0.0"\nport = 0\n')

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk.app.cli",
                "run",
                "--headless",
                "--config",
                str(config),
                "--db",
                str(folder / "k.db"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            preexec_fn=limit,
        )
        self.lines: list[str] = []
        self.tokens: list[str] = []
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            found = re.search(r"/team/([\w-]+)", line)
            if found and "Host page" not in line:
                self.tokens.append(found.group(1))
            listening = re.search(r"phone page on http://\S+:(\d+)", line)
            if listening:  # where it really listens (it falls back if the port was taken)
                self.port = int(listening.group(1))
            if "running headless" in line:
                break
        if not self.port or len(self.tokens) < 2:
            raise SystemExit("bench/phone_floods.py: the kiosk did not start:\n" + "\n".join(self.lines))
        self._reader = asyncio.get_event_loop().run_in_executor(None, self._read)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    async def stop(self) -> None:
        self.proc.terminate()
        await asyncio.to_thread(self.proc.wait, 20)
        await self._reader


async def _request(port: int, path: str, source: str, timeout: float = 30.0) -> tuple[int, float]:
    start = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), timeout
        )
    except (OSError, TimeoutError):
        return 0, time.perf_counter() - start
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: kiosk\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
        status = int(line.split()[1]) if line else 0
    except (OSError, TimeoutError, ValueError, IndexError):
        status = 0
    finally:
        writer.close()
    return status, time.perf_counter() - start


def _ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    return f"p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms"


async def slowloris(kiosk: Kiosk, idle: int = 1100, honest: int = 5, attackers: int = 1) -> None:
    held: list[asyncio.StreamWriter] = []
    log_before = len(kiosk.lines)
    for n in range(idle):
        source = "127.0.0.1" if attackers == 1 else f"127.0.7.{1 + n % attackers}"
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", kiosk.port, local_addr=(source, 0))
            writer.write(b"GET / HTTP/1.1\r\nHost: kiosk\r\nX-Slow: ")
            held.append(writer)
        except OSError:
            pass
    await asyncio.sleep(0.5)
    answers = [await _request(kiosk.port, "/api/game", "127.0.0.2") for _ in range(honest)]
    served = [t for status, t in answers if status == 200]
    for writer in held:
        writer.close()
    log = kiosk.lines[log_before:]
    print(
        f"slowloris: {len(held)} idle connections opened from {attackers} address(es); honest requests "
        f"from 127.0.0.2 served: {len(served)} of {honest} ({_ms(served)}); the kiosk's log "
        f"meanwhile: {len(log)} lines"
    )
    for line in log:
        print(f"  | {line}")


async def guesses(
    kiosk: Kiosk, addresses: int = 250, first: int = 4, seconds: float = 20.0, phones: int = 20
) -> None:
    guessers = [f"127.0.{1 + n // 250}.{1 + n % 250}" for n in range(addresses)]
    at_once = asyncio.Semaphore(100)  # a crowd, not a SYN flood: every guess gets its answer

    async def guess(address: str) -> tuple[int, float]:
        async with at_once:
            return await _request(kiosk.port, f"/api/team/{secrets.token_urlsafe(16)}", address)

    warmup = await asyncio.gather(*(guess(a) for a in guessers for _ in range(first)))
    statuses: dict[int, int] = {}
    for status, _t in warmup:
        statuses[status] = statuses.get(status, 0) + 1
    stop = asyncio.Event()
    sent = [0]

    async def guesser(address: str) -> None:
        while not stop.is_set():
            await _request(kiosk.port, f"/api/team/{secrets.token_urlsafe(16)}", address, 60)
            sent[0] += 1

    stream = [asyncio.create_task(guesser(a)) for a in guessers]
    outcomes: list[tuple[bool, float]] = []
    token = kiosk.tokens[0]
    # The team's phone (one device key: the link is bound to it), each time from an address
    # the kiosk has not seen, as a phone that roams between access points.
    jar = CookieJar(unsafe=True)
    for n in range(phones):
        await asyncio.sleep(seconds / phones)
        outcomes.append(await _fresh_phone(kiosk.port, token, f"127.0.9.{n + 1}", jar))
    stop.set()
    for task in stream:
        task.cancel()
    await asyncio.gather(*stream, return_exceptions=True)
    good = [t for ok, t in outcomes if ok]
    print(
        f"guesses: {sum(statuses.values())} wrong links from {addresses} addresses "
        f"({statuses}), then {sent[0]} more during {seconds:g} s; the team's phone "
        f"opening its link from fresh addresses (page, API, socket): {len(good)} of {phones} ({_ms(good)})"
    )


def _phone_session(source: str, jar: CookieJar | None = None) -> ClientSession:
    """A phone: its own address and its own cookies (the device key its team link is bound
    to; the jar must take cookies from an IP address). The same `jar` again: the same phone
    from another address (it roams between access points)."""
    return ClientSession(
        connector=TCPConnector(local_addr=(source, 0)),
        cookie_jar=jar if jar is not None else CookieJar(unsafe=True),
    )


async def _team_socket(phone: ClientSession, url: str, token: str) -> ClientWebSocketResponse:
    """A team's phone as its page opens it: the team's state first (that takes the link and
    hands over the device key), then the socket. A refusal raises, with its status."""
    async with phone.get(f"{url}/api/team/{token}") as answer:
        if answer.status != 200:
            raise WSServerHandshakeError(
                answer.request_info,
                (),
                status=answer.status,
                message=f"the team state answered {answer.status}",
            )
    return await phone.ws_connect(f"{url}/api/team/{token}/ws")


async def _fresh_phone(
    port: int, token: str, source: str, jar: CookieJar | None = None
) -> tuple[bool, float]:
    start = time.perf_counter()
    page, _t = await _request(port, f"/team/{token}", source)
    ok = page == 200
    if ok:
        try:
            async with _phone_session(source, jar) as phone:
                ws = await _team_socket(phone, f"http://127.0.0.1:{port}", token)
                first = await ws.receive(timeout=30)
                ok = json.loads(first.data)["type"] == "view"
                await ws.close()
        except (OSError, WSServerHandshakeError, TimeoutError, ValueError):
            ok = False
    return ok, time.perf_counter() - start


async def spectators(kiosk: Kiosk, count: int = 256, sources: int = 8) -> None:
    sessions = [
        ClientSession(connector=TCPConnector(limit=0, local_addr=(f"127.0.5.{n + 1}", 0)))
        for n in range(sources)
    ]
    url = f"http://127.0.0.1:{kiosk.port}"
    sockets = []
    try:
        for n in range(count):
            sockets.append(await sessions[n % sources].ws_connect(f"{url}/api/game/ws"))
        try:
            extra = await sessions[0].ws_connect(f"{url}/api/game/ws")
            turned_away = "accepted (!)"
            await extra.close()
        except WSServerHandshakeError as err:
            turned_away = f"turned away ({err.status})"
        start = time.perf_counter()
        async with _phone_session("127.0.6.1") as phone:
            try:
                team = await _team_socket(phone, url, kiosk.tokens[0])
            except WSServerHandshakeError as err:
                raise SystemExit(
                    f"bench/phone_floods.py: the team phone was refused ({err.status}): no figures"
                ) from None
            first = json.loads((await team.receive(timeout=30)).data)
            took = time.perf_counter() - start
            await team.close()
        print(
            f"spectators: {len(sockets)} spectator sockets open; the team phone's socket: "
            f"accepted, first view ({first['type']}) in {took * 1000:.1f} ms; spectator "
            f"{count + 1}: {turned_away}"
        )
    finally:
        for ws in sockets:
            await ws.close()
        for session in sessions:
            await session.close()


async def main_async(args: argparse.Namespace) -> int:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attackers need many
    print(
        f"dartship run --headless with an open-file limit of {args.nofile}; Python {sys.version.split()[0]}"
    )
    for name in ("slowloris", "guesses", "spectators"):
        if args.what not in (name, "all"):
            continue
        kiosk = Kiosk(args.nofile)
        try:
            if name == "slowloris":
                await slowloris(kiosk, attackers=args.attackers)
            else:
                await {"guesses": guesses, "spectators": spectators}[name](kiosk)
        finally:
            await kiosk.stop()
        with contextlib.suppress(Exception):
            accepts = [line for line in kiosk.lines if "accept" in line]
            if accepts:
                print(f"  (accept errors in the kiosk's log: {len(accepts)} lines)")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("what", nargs="?", default="all", choices=("slowloris", "guesses", "spectators", "all"))
    p.add_argument(
        "--attackers", type=int, default=1, help="slowloris: addresses the idle connections come from"
    )
    p.add_argument(
        "--nofile", type=int, default=1024, help="the kiosk's open-file limit (the unit's old default: 1024)"
    )
    return asyncio.run(main_async(p.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
