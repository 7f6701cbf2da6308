"""Two `dartship hub` processes on one database (the tests' PostgreSQL), with the hub's own
numbers (10 wrong pairing codes per address, then one every 5 s; 200 from all addresses, then 2
a second): guesses sent to both at once, then both killed with SIGKILL and started again, and
guessed at again, spend one allowance. Guesses come from addresses of their own (a client socket
bound to 127.0.0.N). The bound of each assertion is the allowance plus what its refill gave
over the time the test took, measured, never waited for; the in-memory buckets before branch
throttle8 gave each process and each start the whole allowance again."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter

import aiohttp

from hub import admin
from tests.system.league_bars import HubProcess

PER_ADDRESS, ADDRESS_STEP = 10, 5.0  # hub.throttle.PairingLimits' defaults
IN_ALL, ALL_PER_SECOND = 200, 2.0


async def _guesses(
    urls: list[str], addresses: range, each: int, rng: random.Random
) -> Counter[tuple[int, int]]:
    """`each` wrong codes from every address to every hub, all at once (16 in flight): how many
    of each (address, status)."""
    at_once = asyncio.Semaphore(16)
    sessions = {
        a: aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{a}", 0)))
        for a in addresses
    }

    async def one(address: int, url: str) -> tuple[int, int]:
        code = "".join(rng.choice(admin.CODE_ALPHABET) for _ in range(12))
        async with (
            at_once,
            sessions[address].post(
                f"{url}/api/pair",
                data=json.dumps({"code": code}),
                headers={"Content-Type": "application/json"},
            ) as answer,
        ):
            await answer.read()
            return address, answer.status

    try:
        sent = [one(a, url) for a in addresses for url in urls for _ in range(each)]
        rng.shuffle(sent)
        return Counter(await asyncio.gather(*sent))
    finally:
        for session in sessions.values():
            await session.close()


def _accepted(found: Counter[tuple[int, int]], addresses: range | None = None) -> int:
    return sum(
        n for (a, status), n in found.items() if status == 403 and (addresses is None or a in addresses)
    )


def test_two_hub_processes_killed_and_started_again_spend_one_allowance(database):
    hubs = [HubProcess(database), HubProcess(database)]
    rng = random.Random(21)
    try:
        urls = [hub.url for hub in hubs]
        start = time.monotonic()
        guesser, crowd = range(2, 3), range(10, 35)
        before = asyncio.run(_guesses(urls, guesser, 12, rng))  # 24 from one address
        before += asyncio.run(_guesses(urls, crowd, 5, rng))  # 10 from each of 25 others: 250
        for hub in hubs:
            assert hub.proc is not None
            hub.proc.kill()
            hub.proc.wait(timeout=10)
        for hub in hubs:
            hub.start()
        after = asyncio.run(_guesses(urls, guesser, 6, rng))
        after += asyncio.run(_guesses(urls, range(35, 45), 2, rng))  # new addresses, 40
        took = time.monotonic() - start
        statuses = {status for (_a, status) in before + after}
        assert statuses <= {403, 429}, before + after
        # The address's 10, and no more than its refill gave (one every 5 s) over both
        # processes, both lives of each.
        assert _accepted(before, guesser) >= PER_ADDRESS
        assert _accepted(before, guesser) + _accepted(after, guesser) <= PER_ADDRESS + int(
            took / ADDRESS_STEP
        )
        # The hub's 200, and no more than 2 a second besides.
        assert _accepted(before) >= IN_ALL
        assert _accepted(before) + _accepted(after) <= IN_ALL + int(took * ALL_PER_SECOND), (
            took,
            before,
            after,
        )
    finally:
        for hub in hubs:
            hub.stop()
