"""bench/phones.py runs to its end, and a phone it brings that is refused stops it loudly.

Since team links are bound to a device, a team socket without the device key the link's first
request hands out gets 403; the bench used to lose that client silently and wait for ever for a
view that never came (issue 20, point 15). Its figures are the bench's business, not asserted.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

import pytest
from aiohttp import ClientSession

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_phones", ROOT / "bench" / "phones.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


async def test_the_bench_runs_a_few_darts_to_its_end_with_both_team_phones():
    bench = _bench()
    # A hang is the failure this guards against: a bound, not a timing assertion.
    every, slowest = await asyncio.wait_for(bench.bench(darts=4, spectators=2), 120)
    assert len(slowest) == 4 and len(every) == 4 * (2 + 2)  # every phone heard every dart


async def test_a_refused_phone_stops_the_bench_with_a_reason(tmp_path):
    from kiosk.app.root import build_kiosk
    from kiosk.config import ConfigFile, InputKind

    bench = _bench()
    config = ConfigFile(
        None,
        {
            "web.host": "127.0.0.1",
            "web.port": 0,
            "board.input": InputKind.SIMULATOR,
            "kiosk.database": str(tmp_path / "k.db"),
        },
    )
    kiosk = await build_kiosk(config, devices=False)
    try:
        assert kiosk.web is not None
        base = kiosk.web.base_url.replace("http", "ws", 1)
        inbox: asyncio.Queue = asyncio.Queue()
        async with ClientSession() as session:  # no device key: the link is not this phone's
            await bench._phone(session, f"{base}/api/team/not-a-token/ws", inbox)
        with pytest.raises(bench.ClientRefused, match=r"404|403"):
            await bench._until(inbox, '"type":"view"')
    finally:
        await kiosk.stop()
