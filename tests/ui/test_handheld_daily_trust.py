"""The daily challenge against one person with many cookies: device keys are the kiosk's own
(signed; a made-up key is no key), one entry per device, and a few phones per address a day;
names with nothing visible are refused, separators and control characters dropped."""

from __future__ import annotations

import secrets

from aiohttp.test_utils import TestClient

from kiosk.classic.match import daily_fleet
from kiosk.secret import kiosk_secret
from tests.ui.conftest_classic import DAY, classic_phones, device, ok
from ui.handheld.classic.api import StartLimits
from ui.handheld.phones import COOKIE

LIMITS = StartLimits(capacity=10_000, per_minute=10_000)  # only the daily limit counts here


async def _enter(phone: TestClient, targets: list[str], name: str) -> int:
    """Start, sink today's fleet without a miss, name it: the answer's status at the first
    refusal, else 200."""
    start = await phone.post("/api/classic/daily/start", json={})
    if start.status != 200:
        return start.status
    for cell in targets:
        await ok(await phone.post("/api/classic/daily/fire", json={"cell": cell}))
    return (await phone.post("/api/classic/daily/name", json={"name": name})).status


async def test_one_address_gets_three_entries_however_many_cookies(tmp_path):
    async with classic_phones(tmp_path, 10, limits=LIMITS) as (phones, classic):
        store = classic.api.service.store
        targets = [s.code for ship in daily_fleet(kiosk_secret(store), DAY).ships for s in ship.cells]
        statuses = [await _enter(phone, targets, f"Bot {n}") for n, phone in enumerate(phones)]
        assert statuses == [200] * 3 + [429] * 7
        board = await ok(await phones[0].get(f"/api/classic/leaderboard?date={DAY}"))
        assert len(board["entries"]) == 3
        # A phone that already began today's challenge goes on with it, limit or not.
        again = await phones[0].post("/api/classic/daily/start", json={})
        assert again.status == 200
        print(f"entries from one address with {len(phones)} cookie jars: {len(board['entries'])}")


async def test_a_made_up_device_key_is_no_key(tmp_path):
    async with classic_phones(tmp_path, 2, limits=LIMITS) as ([honest, forger], _classic):
        await ok(await honest.get("/api/classic/play"))
        real = next(c.value for c in honest.session.cookie_jar if c.key == COOKIE)
        body, _dot, _signature = real.partition(".")
        made_up = [
            secrets.token_urlsafe(16) + "." + "A" * 22,
            body + "." + "B" * 22,
            secrets.token_urlsafe(16),
            "x" * 40,
        ]
        for value in made_up:
            forger.session.cookie_jar.clear()
            forger.session.cookie_jar.update_cookies({COOKIE: value})
            answer = await forger.get("/api/classic/play")
            assert answer.status == 200
            # Not taken: the kiosk hands a key of its own instead.
            assert f"{COOKIE}=" in answer.headers.get("Set-Cookie", ""), value
            assert device(forger) != device(honest)
        # The honest phone's own key is still its own.
        again = await honest.get("/api/classic/play")
        assert "Set-Cookie" not in again.headers


async def test_names_with_nothing_visible_are_refused_and_separators_dropped(tmp_path):
    async with classic_phones(tmp_path, 2, limits=LIMITS) as (phones, classic):
        store = classic.api.service.store
        targets = [s.code for ship in daily_fleet(kiosk_secret(store), DAY).ships for s in ship.cells]
        assert await _enter(phones[0], targets, "\u3164") == 409
        for name in ("\u2800\u2800", "\u200b\u200e\u2061", " \u2028 ", "\u0301", "\x07"):
            answer = await phones[0].post("/api/classic/daily/name", json={"name": name})
            assert answer.status == 409, repr(name)
        assert await _enter(phones[1], targets, "Ann\u2028\u2029Lee\x07") == 200
        board = await ok(await phones[0].get(f"/api/classic/leaderboard?date={DAY}"))
        assert [e["player"] for e in board["entries"]] == ["AnnLee"]


async def test_the_three_phones_of_an_address_are_still_counted_after_a_restart(tmp_path):
    """Two phones of one address take on today's challenge, the kiosk is started again (kill -9,
    a power cut, the nightly restart): one more phone may, the fourth not, and the first goes
    on with its try."""
    async with classic_phones(tmp_path, 2, limits=LIMITS) as (phones, _classic):
        for phone in phones:
            assert (await phone.post("/api/classic/daily/start", json={})).status == 200
        first_cookie = next(c for c in phones[0].session.cookie_jar if c.key == COOKIE)
    async with classic_phones(tmp_path, 3, limits=LIMITS) as (phones, _classic):
        phones[0].session.cookie_jar.update_cookies({COOKIE: first_cookie.value})
        statuses = [(await phone.post("/api/classic/daily/start", json={})).status for phone in phones]
        assert statuses == [200, 200, 429]
