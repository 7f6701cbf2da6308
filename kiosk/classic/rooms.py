"""Classic on phones: each phone's own table, its daily challenge, and the room a friend joins.

Pure logic over the service and the store (no web framework): `ui/handheld/classic` turns HTTP
requests into these calls. A phone is known by its *device*, an opaque string (the digest of
the device key in its cookie, `ui/handheld/phones.py`).

* **A table per phone.** A phone's solo games (and the duels that grow out of them) run on a
  venue of their own (`phone:<device>`), its daily challenges on another (`daily:<device>`): each
  beside the kiosk's own game and every other phone's, stored like every game (one game in play
  per venue), picked up where it stopped after a restart the first time the phone asks.
* **One daily challenge per phone and day.** A phone's daily venue holds at most one game of a
  date: asking again continues it (or shows its result). Its result counts on the leaderboard
  once the phone names it; the first name stands.
* **Rooms** ("play with friends"): an owner opens a room, which gives its table a secret link
  (128 random bits). The first other device that opens the link is the friend (bound to it, as
  a team link is bound to its phone); every later one is a spectator. The friend watches the
  solo game (the public view only), taps Ready, and the owner switches both into a duel: the
  owner keeps its fleet, the friend gets a random one (re-placeable until the first shot that
  concerns it). Closing the room kills the link (a duel in play ends with it). The name the
  friend said Ready by is stored with the room (a restart before the duel keeps it); a new
  friend in the seat starts without one, and the room's end deletes it.
* **A name in the phone's own language.** A player who gives no name is stored as "Player 1"
  (a friend: "Player 2") in the language of the phone that started the game or said Ready (the
  route's `language`, from its Accept-Language), not in the one the kiosk's screen speaks then;
  only that name is said in it (`default_name`), so nothing the call tells (the journal, the
  kiosk's screen, the caller) changes language. Without a `language` (the kiosk's own callers)
  the name is the kiosk's, as on the touchscreen.

Every write here goes through the store's writer thread (`Store.group`) like the shots: opening
and closing a room, a friend joining, Ready, the duel's start, the daily's name. Each of these
returns once its write is committed (a phone is answered only what is stored), and the loop never
waits for the disk meanwhile. The rooms' changes take turns (`_changing`): what one decides from
a room is never undone by another's write that was waiting at the same time.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import enum
import hmac
import logging
import random
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from kiosk import names
from kiosk.classic.computer import ComputerSeat, ShooterFactory, ShotPace, pool
from kiosk.classic.fleet import Fleet
from kiosk.classic.leaderboard import PHONE_DAILY
from kiosk.classic.match import ComputerLevel, Match, Mode, Setup, default_name
from kiosk.classic.table import ensure_fleets, start, start_grouped
from kiosk.classic.wire import CLASSIC
from kiosk.game import RuleError
from kiosk.i18n import _
from kiosk.service import GameService, Source
from kiosk.store import RoomRow, Store, StoreError

log = logging.getLogger("dartship.classic.rooms")

T = TypeVar("T")

TOKEN_BYTES = 16
MAX_TOKEN_LENGTH = 64
MAX_NAME = names.PHONE_MAX_NAME
# Tables kept in memory; beyond this the least recently used idle one is let go (it stays in
# the store and comes back when its phone asks again).
MAX_TABLES = 400
# Rooms end (docs/decisions.md): one idle this long (no shot, no new game, no friend joining or
# saying Ready) is closed; so is one whose duel is over and left alone this long; and any room
# once it is this old (a bar's night). A kiosk that restarts counts the idle time from its start.
ROOM_IDLE = 30 * 60.0
DUEL_LEFT = 10 * 60.0
ROOM_MAX_AGE = 12 * 3600.0
ROOMS_REMEMBERED = 4096  # devices whose open room (or none) is known without asking the store


class Role(enum.Enum):
    OWNER = "owner"
    FRIEND = "friend"
    SPECTATOR = "spectator"


class RoomError(RuleError):
    """A room request that cannot be done now; the message says why."""


def clean_name(text: object) -> str | None:
    """A player's name as a phone typed it (`kiosk.names.clean_name`), at most MAX_NAME
    characters; None for no name (the game then says "Player 1")."""
    return names.clean_name(text, MAX_NAME)


@dataclass
class PhoneVenue:
    """One venue of one phone: its service and, for solo games, the computer's seat."""

    venue: str
    service: GameService
    seat: ComputerSeat


@dataclass(frozen=True)
class Membership:
    """What a device is in a room: its role, and the room (whose owner's table it follows)."""

    room: RoomRow
    role: Role


class PhoneRooms:
    """The phones' tables and rooms of one kiosk (see the module's docstring)."""

    def __init__(
        self,
        store: Store | None,
        loop: asyncio.AbstractEventLoop,
        make_computer: ShooterFactory,
        *,
        pace: ShotPace | None = None,
        rng: random.Random | None = None,
        max_tables: int = MAX_TABLES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.loop = loop
        self.make_computer = make_computer
        self.pace = pace or ShotPace()
        self.rng = rng or random.Random()
        self.max_tables = max_tables
        self._tables: OrderedDict[str, PhoneVenue] = OrderedDict()
        self._rooms: dict[int, RoomRow] = {}  # rooms whose state changed here (no store: all)
        # Each device's open room (or None) as the store holds it: every page and every shot
        # asks, and only this class writes the rooms, so the store is read once per device.
        self._room_of: OrderedDict[str, RoomRow | None] = OrderedDict()
        self.clock = clock
        self._touched: dict[int, float] = {}  # room -> when anything last happened in it
        self._born: dict[int, float] = {}  # room -> when it was opened (or this kiosk started)
        # Told of every table made (the web layer listens to its service), and asked before one
        # is let go (False: a phone still listens to it).
        self.on_table: list[Callable[[PhoneVenue], None]] = []
        self.in_use: Callable[[PhoneVenue], bool] = lambda _table: False
        self._changes: asyncio.Lock | None = None  # made on the loop, at the first change
        self._closed_forgotten = False

    # -- tables --

    def table(self, device: str) -> PhoneVenue:
        """The device's own table (solo games, and duels as the owner of a room)."""
        return self._table(f"phone:{device}")

    def tables(self) -> list[PhoneVenue]:
        """The tables kept now (a new one is told to `on_table`)."""
        return list(self._tables.values())

    def daily_table(self, device: str) -> PhoneVenue:
        return self._table(f"{PHONE_DAILY}{device}")

    def _table(self, venue: str) -> PhoneVenue:
        found = self._tables.get(venue)
        if found is not None:
            self._tables.move_to_end(venue)
            return found
        # Grouped: many phones' tables share the disk's waits (`GameService.play`).
        service = GameService(
            self.store, rng=random.Random(self.rng.getrandbits(64)), venue=venue, grouped=True
        )
        seat = ComputerSeat(
            service,
            self.loop,
            self.make_computer,
            pace=self.pace,
            rng=random.Random(self.rng.getrandbits(64)),
            executor=pool("choose", 2),
            ponder_executor=pool("ponder", 1),
        )
        seat.attach()
        table = PhoneVenue(venue, service, seat)
        try:
            # However long ago it ended: a phone comes back to its last result card.
            if service.resume(finished_within=None):
                ensure_fleets(service, service.rng, Source.PHONE)
        except (StoreError, sqlite3.Error, ValueError) as err:
            log.error(
                "%s: the last game cannot be picked up (%s); the phone starts afresh",
                venue.split(":")[0],
                err,
            )
        self._tables[venue] = table
        for listener in list(self.on_table):
            listener(table)
        self._let_go()
        return table

    def _let_go(self) -> None:
        for venue in list(self._tables):
            if len(self._tables) <= self.max_tables:
                return
            table = self._tables[venue]
            if not self.in_use(table) and table.seat.idle:
                table.seat.close()
                del self._tables[venue]

    # -- games --

    def start_solo(
        self, device: str, level: ComputerLevel, name: str | None, language: str | None = None
    ) -> Match:
        """A new solo game against the computer on the device's table (a game in play there is
        left unfinished, as on the kiosk). `language`: the phone's (see the module's
        docstring): a player who gave no name is stored as "Player 1" in it."""
        table = self.table(device)
        start(table.service, _solo(level, name, language), table.service.rng, source=Source.PHONE)
        return self._match(table)

    async def start_solo_grouped(
        self, device: str, level: ComputerLevel, name: str | None, language: str | None = None
    ) -> Match:
        """`start_solo`, its commits grouped with other tables' (the loop never waits for the
        disk: the phones' routes use this)."""
        table = self.table(device)
        setup = _solo(level, name, language)
        await start_grouped(table.service, setup, table.service.rng, source=Source.PHONE)
        return self._match(table)

    def start_daily(
        self, device: str, today: datetime.date, name: str | None, language: str | None = None
    ) -> Match:
        """Today's challenge of this device: the one it began today, or a new one."""
        table = self.daily_table(device)
        match = CLASSIC.in_play(table.service)
        if match is not None and match.setup.date == today:
            return match
        start(table.service, _daily(today, name, language), table.service.rng, source=Source.PHONE)
        return self._match(table)

    async def start_daily_grouped(
        self, device: str, today: datetime.date, name: str | None, language: str | None = None
    ) -> Match:
        """`start_daily`, its commits grouped with other tables' (see `start_solo_grouped`)."""
        table = self.daily_table(device)
        await table.service.settled()
        match = CLASSIC.in_play(table.service)
        if match is not None and match.setup.date == today:
            return match
        setup = _daily(today, name, language)
        await start_grouped(table.service, setup, table.service.rng, source=Source.PHONE)
        return self._match(table)

    async def name_daily(self, device: str, name: str | None) -> str:
        """Name the device's won challenge for the leaderboard; the first name stands."""
        table = self.daily_table(device)
        await table.service.settled()
        match, game = CLASSIC.in_play(table.service), table.service.game
        if match is None or game is None or match.winner is None:
            raise RoomError(_("sink today's fleet first, then enter your name"))
        if not name:
            raise RoomError(_("enter a name for the leaderboard"))
        if self.store is None:
            raise RoomError(_("this kiosk keeps no leaderboard"))
        await committed(self.store.rooms.name_daily_grouped(game, name))
        return self.store.rooms.daily_name(game) or name

    def daily_name(self, device: str) -> str | None:
        table = self.daily_table(device)
        game = table.service.game
        if self.store is None or game is None:
            return None
        return self.store.rooms.daily_name(game)

    @staticmethod
    def _match(table: PhoneVenue) -> Match:
        match = CLASSIC.in_play(table.service)
        assert match is not None
        return match

    # -- rooms --

    def room_of(self, device: str) -> RoomRow | None:
        """The device's open room, as its owner."""
        if self.store is None:
            return next((r for r in self._rooms.values() if r.owner == device), None)
        if device in self._room_of:
            self._room_of.move_to_end(device)
            return self._room_of[device]
        return self._remember(device, self.store.rooms.room_of(device))

    def _remember(self, device: str, room: RoomRow | None) -> RoomRow | None:
        self._room_of[device] = room
        self._room_of.move_to_end(device)
        while len(self._room_of) > ROOMS_REMEMBERED:
            self._room_of.popitem(last=False)
        return room

    def _changing(self) -> asyncio.Lock:
        """Held while a room changes (see the module's docstring)."""
        if self._changes is None:
            self._changes = asyncio.Lock()
        return self._changes

    def _fresh(self, room: RoomRow) -> RoomRow | None:
        """The room as it stands now (a change that waited for the lock may have altered it),
        None if it was closed meanwhile."""
        current = self.room_of(room.owner)
        return current if current is not None and current.id == room.id else None

    async def open_room(self, device: str) -> RoomRow:
        """The device's room (its link for a friend): the open one, or a new one."""
        async with self._changing():
            found = self.room_of(device)
            if found is not None:
                return found
            token = secrets.token_urlsafe(TOKEN_BYTES)
            if self.store is not None:
                room = await committed(self.store.rooms.open_room_grouped(device, token))
            else:
                room = RoomRow(len(self._rooms) + 1, token, device, None, False)
            self._rooms[room.id] = room
            self._remember(device, room)
            self._born[room.id] = self._touched[room.id] = self.clock()
        log.info("a phone opened a room")
        return room

    async def close_room(self, device: str) -> RoomRow | None:
        """The owner closes its room: the link dies, and the table leaves the duel (in play or
        over: a later friend must never take over this friend's seat and see its fleet) for a
        new solo game."""
        async with self._changing():
            room = self.room_of(device)
            if room is None:
                return None
            if self.store is not None:
                await committed(self.store.rooms.close_room_grouped(room.id))
            self._rooms.pop(room.id, None)
            self._remember(device, None)
            self._touched.pop(room.id, None)
            self._born.pop(room.id, None)
        table = self.table(device)
        await table.service.settled()
        match = CLASSIC.in_play(table.service)
        if match is not None and match.setup.mode is Mode.DUEL:
            owner = match.setup.players[0] if match.setup.players else None
            await self.start_solo_grouped(device, ComputerLevel.NORMAL, owner)
        log.info("a phone closed its room")
        return room

    def find_room(self, token: str) -> RoomRow | None:
        """The open room of this link, or None (compared in constant time)."""
        if not token or len(token) > MAX_TOKEN_LENGTH or not token.isascii():
            return None
        room: RoomRow | None
        if self.store is not None:
            room = self.store.rooms.room_by_token(token)
        else:
            room = next((r for r in self._rooms.values() if r.token == token), None)
        if room is None:
            return None
        return room if hmac.compare_digest(room.token.encode(), token.encode()) else None

    def role(self, room: RoomRow, device: str | None) -> Role | None:
        """What `device` already is in `room` (None: it would take the free friend's seat)."""
        if device is not None and hmac.compare_digest(room.owner, device):
            return Role.OWNER
        if room.friend is not None:
            if device is not None and hmac.compare_digest(room.friend, device):
                return Role.FRIEND
            return Role.SPECTATOR
        return Role.SPECTATOR if device is None else None

    async def join(self, room: RoomRow, device: str | None) -> Membership:
        """What `device` is in `room`, binding it as the friend if that seat is free (once
        that is stored). A device with no key (it could not be given one) is a spectator."""
        current = self._fresh(room)
        role = self.role(current, device) if current is not None else Role.SPECTATOR
        if role is not None:
            return Membership(current or room, role)
        async with self._changing():
            current = self._fresh(room)
            if current is None:  # closed while this device waited: it takes no seat
                return Membership(room, Role.SPECTATOR)
            role = self.role(current, device)
            if role is not None:  # another device took the seat while this one waited
                return Membership(current, role)
            room = await self._keep(replace(current, friend=device, friend_name=None))
        self.touch(room.owner)
        log.info("a friend joined a room")
        return Membership(room, Role.FRIEND)

    async def ready(
        self, room: RoomRow, device: str, name: str | None, language: str | None = None
    ) -> RoomRow:
        """The friend is ready for a duel, by `name` (its earlier one if none; none at all:
        "Player 2" in the friend's phone's `language`, else the kiosk's when the duel starts).
        The name is stored with the room: a kiosk restarted before the duel still knows it."""
        async with self._changing():
            current = self._fresh(room)
            if current is None or current.friend is None or not hmac.compare_digest(current.friend, device):
                raise RoomError(_("only the friend who joined this room can say Ready"))
            friend_name = name or current.friend_name
            if friend_name is None and language is not None:
                friend_name = default_name(1, language)
            return await self._keep(replace(current, ready=True, friend_name=friend_name))

    async def duel(self, device: str, name: str | None, language: str | None = None) -> Match:
        """The owner switches its table into a duel with its ready friend: the owner keeps its
        fleet (its solo game ends unfinished), the friend gets a random one; the owner fires
        first. An owner without a name (now or in its solo game) is "Player 1" in its phone's
        `language`."""
        async with self._changing():
            room = self.room_of(device)
            if room is None or room.friend is None or not room.ready:
                raise RoomError(_("a duel starts once your friend has tapped Ready"))
            table = self.table(device)
            await table.service.settled()
            current = CLASSIC.in_play(table.service)
            kept: Fleet | None = None
            if current is not None and current.setup.mode is not Mode.DAILY:
                kept = current.fleet(0)  # the owner's own fleet, for the owner's own next game
            if name is None and current is not None and current.setup.players:
                name = current.setup.players[0]
            names = duel_names(name or default_name(0, language), room.friend_name)
            setup = Setup(Mode.DUEL, names)
            await start_grouped(table.service, setup, table.service.rng, fleet=kept, source=Source.PHONE)
            await self._keep(replace(room, ready=False))
            return self._match(table)

    async def _keep(self, room: RoomRow) -> RoomRow:
        if self.store is not None:
            await committed(self.store.rooms.keep_room_grouped(room))
            self._remember(room.owner, room)
        self._rooms[room.id] = room
        self._touched[room.id] = self.clock()
        return room

    # -- rooms end --

    def touch(self, owner: str) -> None:
        """Something happened at the owner's table (a shot, a new game): its room lives on."""
        room = self.room_of(owner)
        if room is not None:
            self._touched[room.id] = self.clock()

    async def sweep(self) -> list[RoomRow]:
        """Close the rooms that have ended (idle, a duel over and left, too old); the closed
        ones, whose sockets the caller hangs up."""
        if self.store is not None and not self._closed_forgotten:
            await committed(self.store.rooms.forget_closed_grouped())
            self._closed_forgotten = True
        now = self.clock()
        rooms = (
            [room for room, _created in self.store.rooms.open_rooms()]
            if self.store is not None
            else list(self._rooms.values())
        )
        ended = []
        for room in rooms:
            touched = self._touched.setdefault(room.id, now)
            born = self._born.setdefault(room.id, now)
            table = self._tables.get(f"phone:{room.owner}")
            match = CLASSIC.in_play(table.service) if table is not None else None
            over = match is not None and match.setup.mode is Mode.DUEL and match.winner is not None
            if (
                now - touched >= ROOM_IDLE
                or now - born >= ROOM_MAX_AGE
                or (over and now - touched >= DUEL_LEFT)
            ):
                ended.append(room)
        for room in ended:
            await self.close_room(room.owner)
        if ended:
            log.info("%d room(s) ended (idle, a duel over and left, or too old)", len(ended))
        return ended

    def side_of(self, membership: Membership) -> int | None:
        """Which player the member is in the owner's game now (None: it only watches)."""
        if membership.role is Role.OWNER:
            return 0
        match = CLASSIC.in_play(self.table(membership.room.owner).service)
        if membership.role is Role.FRIEND and match is not None and match.setup.mode is Mode.DUEL:
            return 1
        return None

    def close(self) -> None:
        for table in self._tables.values():
            table.seat.close()
        self._tables.clear()


async def committed(write: concurrent.futures.Future[T]) -> T:
    """The result of a write of the store's writer thread, once it is committed (the loop goes
    on meanwhile)."""
    return await asyncio.wrap_future(write)


def _player(name: str | None, language: str | None) -> tuple[str, ...]:
    """A phone's one player: its name, else "Player 1" in the phone's language (stored so: its
    result and stats rows keep it whatever the kiosk's screen speaks), else none (the game
    names it in the language `_` speaks when it is shown)."""
    if name:
        return (name,)
    return (default_name(0, language),) if language is not None else ()


def _solo(level: ComputerLevel, name: str | None, language: str | None = None) -> Setup:
    return Setup(Mode.SOLO, _player(name, language), level=level)


def _daily(today: datetime.date, name: str | None, language: str | None = None) -> Setup:
    return Setup(Mode.DAILY, _player(name, language), date=today)


def duel_names(owner: str | None, friend: str | None) -> tuple[str, str]:
    """Two different names for a duel (the store refuses a duel of two equal names; two that
    differ only in case are one name, `kiosk.names.same_name`: the friend's gets a " 2")."""
    first = owner or default_name(0)
    second = friend or default_name(1)
    if names.same_name(second, first):
        second = f"{second[: MAX_NAME - 2]} 2"
    return first, second
