"""The kiosk's league sync against a hub that answers anything (a broken or hostile hub, or a
captive portal or proxy in the way): nesting no parser follows, bytes that are not UTF-8, a
body of the wrong shape, an answer far larger than any hub's. The sync task goes on, the game
waits in the outbox with the reason (nothing lost), the boards kept stay the last good ones,
and pairing says that what answers is not a league hub. A real aiohttp server on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Callable

import aiohttp
import pytest
from aiohttp import web

from hub.cluster import free_port
from kiosk.app import league
from kiosk.app.league import LeagueSync
from kiosk.i18n import set_language
from kiosk.league import membership as members
from kiosk.league import signing
from kiosk.league.outbox import PENDING
from kiosk.store import Store
from tests import league_games as games
from tests.waits import PATIENCE

GOOD_BOARDS = {
    "daily_seeds": {"2026-12-02": "ab" * 16},
    "table": {"league": 1, "name": "L", "season": "2026", "rows": []},
    "daily": {"league": 1, "date": "2026-12-02", "rows": []},
    "venue": {"venue": 1, "name": "V", "league": 1, "rows": []},
}
DEEP = b"[" * 100_000 + b"]" * 100_000
NOT_UTF8 = b'{"error": "\xff\xfe\xfa"}'
ROW_WITHOUT_RANK = {**GOOD_BOARDS, "table": {**GOOD_BOARDS["table"], "rows": [{"player": "x"}]}}
HOSTILE = [
    (200, DEEP),
    (500, DEEP),
    (200, NOT_UTF8),
    (502, NOT_UTF8),
    (200, b"[1, 2]"),
    (200, json.dumps(ROW_WITHOUT_RANK).encode()),
    (200, json.dumps({**GOOD_BOARDS, "daily_seeds": [1]}).encode()),
    (200, b" " * (9 * 1024 * 1024) + json.dumps(GOOD_BOARDS).encode()),  # 9 MiB
]


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


@contextlib.asynccontextmanager
async def _hub(answer: Callable[[], tuple[int, bytes]]) -> AsyncIterator[str]:
    async def handle(request: web.Request) -> web.Response:
        await request.read()
        status, body = answer()
        return web.Response(status=status, body=body, content_type="application/json", charset="utf-8")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


def _member(hub: str) -> members.Membership:
    return members.Membership(hub, 1, signing.new_key(), 1, "V", 1, "L")


@pytest.mark.parametrize(("status", "body"), HOSTILE, ids=range(len(HOSTILE)))
async def test_a_hostile_hub_s_answers_lose_nothing_and_keep_the_last_good_boards(tmp_path, status, body):
    store = Store(tmp_path / "k.db")
    current: list[tuple[int, bytes]] = [(200, json.dumps(GOOD_BOARDS).encode())]
    async with _hub(lambda: current[0]) as url:
        member = _member(url)
        store.meta.remember(members.MEMBERSHIP, member.to_json())
        sync = LeagueSync(store, member, rng=random.Random(1))
        async with aiohttp.ClientSession() as session:
            assert await sync.refresh(session)
        good = members.boards(store.meta)
        assert good is not None and good.table["name"] == "L"
        games.play_darts(store, [["Ann"], ["Bo"]], random.Random(2))
        current[0] = (status, body)
        async with aiohttp.ClientSession() as session:
            assert await sync.flush(session) == 0
            assert not await sync.refresh(session)
        assert sync.last_error  # said, in words
        assert sync.outbox.counts()[PENDING] == 1  # the game waits for a hub that answers
        assert members.boards(store.meta) == good
        # The sync task itself goes on after such answers.
        sync.idle_seconds = 0.05
        task = asyncio.create_task(sync.run())
        await asyncio.sleep(0.5)
        try:
            assert not task.done(), task.exception()
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


@pytest.mark.parametrize(("status", "body"), [(201, DEEP), (201, NOT_UTF8), (201, b"[1]")], ids=range(3))
async def test_pairing_with_what_is_no_hub_says_so(status, body):
    async with _hub(lambda: (status, body)) as url:
        with pytest.raises(ValueError, match="not a league hub"):
            await asyncio.wait_for(league.pair(url, "ABCDEFGHJKMN", "Kiosk"), PATIENCE)


@pytest.mark.parametrize(
    "body", [DEEP, NOT_UTF8, b'{"code": "other_venue", "venue_name": [1]}'], ids=range(3)
)
async def test_a_kiosk_paired_anew_reads_a_hostile_409_as_the_hubs_refusal(body):
    """Pairing anew, the kiosk reads a 409 for the venue and league an `other_venue` names: what
    is no such answer (nesting no parser follows, not UTF-8, names that are no text) is the
    hub's refusal, never an exception of another kind."""
    before = members.Membership("http://127.0.0.1:9", 3, signing.new_key(), 1, "The Anchor", 1, "L")
    async with _hub(lambda: (409, body)) as url:
        kept = members.Membership(**{**before.__dict__, "hub": url})
        with pytest.raises(ValueError, match="The hub refused") as refused:
            await asyncio.wait_for(league.pair(url, "ABCDEFGHJKMN", "Kiosk", kept, same_venue=True), PATIENCE)
        assert not isinstance(refused.value, league.OtherVenue)
