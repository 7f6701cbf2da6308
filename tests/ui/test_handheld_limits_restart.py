"""The limits per address survive a restart of the kiosk (`kiosk.address_limits`): an address
that used up its rooms or today's daily entries gets no new allowance from a restart, and what
no longer counts (another day's entries, a bucket full again) is forgotten, so the table stays
bounded. Each restart is a new server, a new store on the same file, and new phones (cookie
jars) from the same address."""

from __future__ import annotations

import datetime

from kiosk.classic.match import daily_fleet
from kiosk.secret import kiosk_secret
from kiosk.store import Store
from tests.ui.conftest_classic import DAY, classic_phones, ok
from ui.handheld.classic.api import StartLimits

LIMITS = StartLimits(capacity=10_000, per_minute=10_000)  # rooms and daily entries count here


class Wall:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def _open_room(phone) -> int:
    return (await phone.post("/api/classic/play/room", json={})).status


async def _daily(phone, targets: list[str]) -> int:
    start = await phone.post("/api/classic/daily/start", json={})
    if start.status != 200:
        return start.status
    for cell in targets:
        await ok(await phone.post("/api/classic/daily/fire", json={"cell": cell}))
    return (await phone.post("/api/classic/daily/name", json={"name": "Bot"})).status


def _stop(store: Store) -> None:
    store.close()  # what the writer thread holds is committed first, as at a kiosk's stop


def _rows(tmp_path, table: str) -> int:
    store = Store(tmp_path / "dartship.db")
    try:
        return int(store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        store.close()


async def test_rooms_used_up_stay_used_up_after_a_restart(tmp_path):
    wall = Wall()
    async with classic_phones(tmp_path, 5, limits=LIMITS, wall=wall) as (phones, classic):
        assert [await _open_room(p) for p in phones] == [200] * 4 + [429]
        _stop(classic.rooms.store)
    async with classic_phones(tmp_path, 2, limits=LIMITS, wall=wall) as (phones, classic):
        assert await _open_room(phones[0]) == 429  # no new allowance from the restart
        _stop(classic.rooms.store)
    wall.now += 15 * 60  # one more each quarter of an hour, counted across the restart
    async with classic_phones(tmp_path, 2, limits=LIMITS, wall=wall) as (phones, classic):
        assert [await _open_room(p) for p in phones] == [200, 429]
        _stop(classic.rooms.store)


async def test_todays_daily_entries_stay_counted_after_a_restart_and_yesterdays_go(tmp_path):
    wall = Wall()
    async with classic_phones(tmp_path, 3, limits=LIMITS, wall=wall) as (phones, classic):
        targets = [
            s.code for ship in daily_fleet(kiosk_secret(classic.rooms.store), DAY).ships for s in ship.cells
        ]
        assert [await _daily(p, targets) for p in phones] == [200] * 3
        _stop(classic.rooms.store)
    async with classic_phones(tmp_path, 1, limits=LIMITS, wall=wall) as ([phone], classic):
        assert await _daily(phone, targets) == 429  # the address's three phones of today
        _stop(classic.rooms.store)
    assert _rows(tmp_path, "daily_phones") == 3 and _rows(tmp_path, "address_buckets") >= 1
    tomorrow = DAY + datetime.timedelta(days=1)
    wall.now += 2 * 24 * 3600
    async with classic_phones(tmp_path, 1, limits=LIMITS, wall=wall, today=tomorrow) as ([phone], classic):
        # Yesterday's entries and the buckets full again are gone from the file.
        _stop(classic.rooms.store)
    assert _rows(tmp_path, "daily_phones") == 0 and _rows(tmp_path, "address_buckets") == 0
    async with classic_phones(tmp_path, 1, limits=LIMITS, wall=wall, today=tomorrow) as ([phone], classic):
        start = await phone.post("/api/classic/daily/start", json={})
        assert start.status == 200  # a new day, a new allowance
        _stop(classic.rooms.store)
