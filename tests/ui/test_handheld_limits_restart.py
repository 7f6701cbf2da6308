"""The limits per address survive a restart of the kiosk (`kiosk.address_limits`): an address
that used up its rooms or today's daily entries gets no new allowance from a restart, and what
no longer counts (another day's entries, a bucket full again) is forgotten, so the table stays
bounded. Each restart is a new server, a new store on the same file, and new phones (cookie
jars) from the same address."""

from __future__ import annotations

import contextvars
import datetime
import secrets

from kiosk.classic.match import daily_fleet
from kiosk.secret import kiosk_secret
from kiosk.service import GameService
from kiosk.store import Store
from tests.ui.conftest_classic import DAY, classic_phones, ok
from ui.handheld.classic.api import StartLimits
from ui.handheld.throttle import GuessThrottle, Limits

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


# -- the wrong links (ui/handheld/throttle.py) --

WRONG = Limits(per_client=10, per_client_per_minute=6, max_wait=0.0)  # no units left: 429 at once


def _throttle(store: Store, wall: Wall, boot: float, limits: Limits = WRONG) -> GuessThrottle:
    """The throttle of a kiosk started at wall-clock `boot` (its monotonic clock starts at 0)."""
    return GuessThrottle(limits, lambda: wall.now - boot, store=store, wall=wall)


async def _wrong_links(phone, count: int) -> list[int]:
    return [(await phone.get(f"/api/classic/r/{secrets.token_urlsafe(16)}")).status for _ in range(count)]


async def test_wrong_room_links_used_up_stay_used_up_after_a_restart(tmp_path):
    wall = Wall()
    for restart, (later, expected) in enumerate(
        [
            (0.0, [404] * 10 + [429]),  # ten wrong links at once, then the address waits
            (0.0, [429]),  # a restart gives it nothing back
            (60.0, [404] * 6 + [429]),  # six a minute, counted across the restart
        ]
    ):
        wall.now += later
        store = Store(tmp_path / "dartship.db")
        throttle = _throttle(store, wall, boot=wall.now - 0.5 * restart)
        service = GameService(store)
        async with classic_phones(tmp_path, 1, service=service, wall=wall, throttle=throttle) as ([phone], _):
            assert await _wrong_links(phone, len(expected)) == expected, restart
            _stop(store)
    store = Store(tmp_path / "dartship.db")
    try:
        rows = store.db.execute("SELECT address FROM address_buckets WHERE name='wrong_links'").fetchall()
    finally:
        store.close()
    assert len(rows) == 1 and "127.0.0.1" not in rows[0][0]  # one address, kept as a digest


def test_the_wrong_links_kept_are_bounded_and_a_bucket_full_again_is_forgotten(tmp_path):
    wall = Wall()
    limits = Limits(per_client=10, per_client_per_minute=6, tracked_clients=3)
    store = Store(tmp_path / "dartship.db")
    boot = wall.now
    throttle = _throttle(store, wall, boot=boot, limits=limits)
    fresh = contextvars.Context()  # no request's ticket: each wrong link costs a unit
    for n in range(5):  # a second apart
        fresh.run(throttle.failed, f"10.0.0.{n}")
        wall.now += 1.0
    _stop(store)
    assert _rows(tmp_path, "address_buckets") == 3  # at most tracked_clients addresses
    for address, recalled in (("10.0.0.4", True), ("10.0.0.0", False)):  # the oldest is forgotten
        store = Store(tmp_path / "dartship.db")
        again = _throttle(store, wall, boot=wall.now, limits=limits)
        assert (again._name(address) in again._clients) is recalled, address
        _stop(store)
    wall.now += 11.0  # 6 a minute: the unit each one took is back
    store = Store(tmp_path / "dartship.db")
    assert _throttle(store, wall, boot=wall.now, limits=limits)._clients == {}  # as good as unseen
    _stop(store)
