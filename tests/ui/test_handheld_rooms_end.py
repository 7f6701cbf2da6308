"""Rooms that end: a few per address however many cookies, closed when idle (ROOM_IDLE) or
when their duel is over and left (DUEL_LEFT), and gone from the database once closed."""

from __future__ import annotations

from kiosk.classic.rooms import DUEL_LEFT, ROOM_IDLE
from tests.ui.conftest_classic import classic_phones, enemy_squares, ok, play_match, water
from ui.handheld.classic.api import StartLimits

LIMITS = StartLimits(capacity=10_000, per_minute=10_000)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _open(phone) -> tuple[int, str | None]:
    answer = await phone.post("/api/classic/play/room", json={})
    body = await answer.json()
    return answer.status, (body["room"]["link"].rsplit("/", 1)[1] if answer.status == 200 else None)


async def test_one_address_opens_four_rooms_however_many_cookies(tmp_path):
    async with classic_phones(tmp_path, 8, limits=LIMITS) as (phones, classic):
        clock = Clock()
        classic.clock = clock
        opened = [await _open(phone) for phone in phones]
        assert [status for status, _token in opened] == [200] * 4 + [429] * 4
        assert (await _open(phones[0]))[0] == 200  # its own open room, not a new one
        clock.now += 15 * 60  # one more each quarter of an hour
        assert (await _open(phones[4]))[0] == 200 and (await _open(phones[5]))[0] == 429
        rows = classic.api.service.store.db.execute("SELECT count(*) FROM rooms").fetchone()[0]
        assert rows == 5


async def _room_with_friend(classic, owner, friend) -> tuple[Clock, str]:
    """The owner plays solo and opens its room, the friend joins; the rooms' clock, the link."""
    clock = Clock()
    classic.rooms.clock = clock
    await ok(await owner.post("/api/classic/play/solo", json={"level": "easy"}))
    _status, token = await _open(owner)
    assert token is not None
    await ok(await friend.get(f"/api/classic/r/{token}"))
    return clock, token


async def test_an_idle_room_is_closed_and_its_link_dies(tmp_path):
    async with classic_phones(tmp_path, 2, limits=LIMITS) as ((owner, friend), classic):
        clock, token = await _room_with_friend(classic, owner, friend)
        clock.now += ROOM_IDLE - 60
        assert (await classic.rooms.sweep()) == []
        match = play_match(classic, owner)
        await ok(await owner.post("/api/classic/play/fire", json={"cell": water(match, 0)[0]}))
        clock.now += ROOM_IDLE - 60  # a shot a while ago keeps it open
        assert (await classic.rooms.sweep()) == []
        clock.now += 61
        assert [r.owner for r in (await classic.rooms.sweep())] != []
        assert (await friend.get(f"/api/classic/r/{token}")).status == 404
        assert classic.api.service.store.db.execute("SELECT count(*) FROM rooms").fetchone()[0] == 0
        assert (await ok(await owner.get("/api/classic/play")))["room"] is None


async def test_a_duel_over_and_left_is_closed_after_duel_left(tmp_path):
    async with classic_phones(tmp_path, 2, limits=LIMITS) as ((owner, friend), classic):
        clock, token = await _room_with_friend(classic, owner, friend)
        await ok(await friend.post(f"/api/classic/r/{token}/ready", json={}))
        await ok(await owner.post("/api/classic/play/duel", json={}))
        match = play_match(classic, owner)
        for cell in enemy_squares(match, 0):
            await ok(await owner.post("/api/classic/play/fire", json={"cell": cell}))
        assert match.winner == 0
        clock.now += DUEL_LEFT - 1
        assert (await classic.rooms.sweep()) == []
        clock.now += 2
        assert len(await classic.rooms.sweep()) == 1
        assert (await friend.get(f"/api/classic/r/{token}")).status == 404
        assert DUEL_LEFT < ROOM_IDLE  # a duel over ends sooner than a room merely idle
