"""The phones' tables and rooms without a web server: venues of their own, the friend's seat,
names, and tables let go from memory but never from the store."""

from __future__ import annotations

import asyncio
import datetime
import random

import pytest

from kiosk.classic.computer import ShotPace
from kiosk.classic.match import ComputerLevel, Fire, Mode, Radar
from kiosk.classic.rooms import PhoneRooms, Role, RoomError, clean_name, duel_names
from kiosk.classic.wire import CLASSIC
from kiosk.store import Store

DAY = datetime.date(2026, 11, 30)


class Never:
    """A computer that is never asked in these tests (the phones' side fires first)."""

    def __init__(self, *_args: object) -> None:
        pass

    def choose(self, radar: Radar):  # pragma: no cover - the tests never let it fire
        raise AssertionError("not asked")

    def ponder(self, radar: Radar) -> None:
        pass


def _rooms(tmp_path, **kwargs) -> PhoneRooms:
    return PhoneRooms(
        Store(tmp_path / "k.db"),
        asyncio.get_running_loop(),
        Never,
        pace=ShotPace(0),
        rng=random.Random(1),
        **kwargs,
    )


async def test_each_phone_plays_on_venues_of_its_own(tmp_path):
    rooms = _rooms(tmp_path)
    rooms.start_solo("ann", ComputerLevel.EASY, "Ann")
    rooms.start_solo("bo", ComputerLevel.HARD, None)
    rooms.start_daily("ann", DAY, None)
    venues = {t.venue for t in rooms._tables.values()}
    assert venues == {"phone:ann", "phone:bo", "daily:ann"}
    assert rooms.table("ann").service.game != rooms.table("bo").service.game
    assert CLASSIC.in_play(rooms.table("ann").service).setup.players == ("Ann",)
    assert CLASSIC.in_play(rooms.table("bo").service).setup.name(0) == "Player 1"
    games = rooms.store.games
    assert games.unfinished("phone:ann") is not None and games.unfinished("kiosk") is None
    rooms.close()


async def test_a_table_let_go_comes_back_from_the_store(tmp_path):
    rooms = _rooms(tmp_path, max_tables=2)
    rooms.start_solo("ann", ComputerLevel.EASY, "Ann")
    match = CLASSIC.in_play(rooms.table("ann").service)
    rooms.table("ann").service.submit(Fire(0, next(iter(match.fleet(1).cells))))
    rooms.start_solo("bo", ComputerLevel.EASY, None)
    rooms.start_solo("cy", ComputerLevel.EASY, None)
    assert "phone:ann" not in rooms._tables  # the least recently used, with no socket
    again = CLASSIC.in_play(rooms.table("ann").service)
    assert again is not match and again.log == match.log and again.shots(0) == 1
    rooms.close()


async def test_the_first_other_device_is_the_friend_the_rest_watch(tmp_path):
    rooms = _rooms(tmp_path)
    rooms.start_solo("ann", ComputerLevel.EASY, "Ann")
    room = await rooms.open_room("ann")
    assert await rooms.open_room("ann") == room  # one open room a phone
    assert (await rooms.join(room, "ann")).role is Role.OWNER
    assert (await rooms.join(room, None)).role is Role.SPECTATOR  # no key, no seat
    friend = await rooms.join(room, "bo")
    assert friend.role is Role.FRIEND and friend.room.friend == "bo"
    assert (await rooms.join(friend.room, "cy")).role is Role.SPECTATOR
    assert (await rooms.join(rooms.find_room(room.token), "bo")).role is Role.FRIEND  # kept in the store
    with pytest.raises(RoomError):
        await rooms.ready(friend.room, "cy", None)
    with pytest.raises(RoomError):
        await rooms.duel("ann", None)  # not Ready yet
    await rooms.ready(friend.room, "bo", "Ann")  # the same name as the owner's
    duel = await rooms.duel("ann", None)
    assert duel.setup.mode is Mode.DUEL and duel.setup.players == ("Ann", "Ann 2")
    assert rooms.side_of(await rooms.join(rooms.find_room(room.token), "bo")) == 1
    assert rooms.side_of(await rooms.join(rooms.find_room(room.token), "cy")) is None
    await rooms.close_room("ann")
    assert rooms.find_room(room.token) is None
    assert CLASSIC.in_play(rooms.table("ann").service).setup.mode is Mode.SOLO
    rooms.close()


async def test_a_friend_opening_the_link_while_the_room_closes_takes_no_seat(tmp_path):
    """The rooms' changes take turns: a join that waited for a close finds the room gone (it
    must not bring the closed room back to its owner)."""
    rooms = _rooms(tmp_path)
    rooms.start_solo("ann", ComputerLevel.EASY, "Ann")
    room = await rooms.open_room("ann")
    found = rooms.find_room(room.token)
    closing = asyncio.ensure_future(rooms.close_room("ann"))
    await asyncio.sleep(0)  # the close has the rooms' turn, its write on its way to the disk
    joined = await rooms.join(found, "bo")
    await closing
    assert joined.role is Role.SPECTATOR
    assert rooms.room_of("ann") is None and rooms.find_room(room.token) is None
    with pytest.raises(RoomError):
        await rooms.ready(found, "bo", None)
    rooms.close()


@pytest.mark.parametrize(("typed", "language"), [("Dee", None), (None, "de"), ("Dee", "fi")])
async def test_the_friends_name_said_at_ready_survives_a_restart_until_the_duel(tmp_path, typed, language):
    """Ready, then a new PhoneRooms on the same database (a kiosk restarted): the duel names the
    friend as the friend said (typed, or "Player 2" in its phone's language), not the kiosk's
    default."""
    rooms = _rooms(tmp_path)
    rooms.start_solo("ann", ComputerLevel.EASY, "Ann")
    room = await rooms.open_room("ann")
    await rooms.join(room, "bo")
    await rooms.ready(rooms.find_room(room.token), "bo", typed, language)
    rooms.close()
    rooms.store.close()
    again = _rooms(tmp_path)
    assert again.room_of("ann").ready
    duel = await again.duel("ann", None)
    assert duel.setup.players == ("Ann", typed or "Spieler 2")
    # Ready again after the duel without a name: the name said before stands.
    await again.ready(again.find_room(room.token), "bo", None, "fi")
    assert again.room_of("ann").friend_name == (typed or "Spieler 2")
    again.close()


async def test_the_friends_name_ends_with_its_room(tmp_path):
    rooms = _rooms(tmp_path)
    rooms.start_solo("ann", ComputerLevel.EASY, "Ann")
    room = await rooms.open_room("ann")
    await rooms.join(room, "bo")
    await rooms.ready(rooms.find_room(room.token), "bo", "Dee")
    await rooms.close_room("ann")
    assert rooms.store.db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 0
    room = await rooms.open_room("ann")  # a new room, a new friend who gives no name
    await rooms.join(room, "cy")
    assert rooms.room_of("ann").friend_name is None
    await rooms.ready(rooms.find_room(room.token), "cy", None)
    assert (await rooms.duel("ann", None)).setup.players == ("Ann", "Player 2")
    rooms.close()


def test_names_are_cleaned_and_two_in_a_duel_differ():
    assert clean_name("  Anna\n\x1b[31m ") == "Anna[31m"
    assert clean_name("x" * 50) == "x" * 20
    assert clean_name("   ") is None and clean_name(7) is None
    assert duel_names(None, None) == ("Player 1", "Player 2")
    assert duel_names("Bo", "Bo") == ("Bo", "Bo 2")
    assert duel_names("Sharks", "sharks") == ("Sharks", "sharks 2")  # one name, told apart
    assert duel_names("A" * 20, "A" * 20)[1] == "A" * 18 + " 2"
