"""The classic page's routes (docs/handheld-api.md, "Classic on phones").

Three ways in, one set of plays:

* **The phone's own table** (`/classic`, API `/api/classic/play`, `/api/classic/daily`): the
  device is known by its key (the cookie every phone page shares); a phone without one gets one
  with its first answer. Solo games against the computer, the daily challenge, and the room it
  opens for a friend.
* **A room link** (`/classic/r/<token>`, API `/api/classic/r/<token>`): the owner's table as
  its friend (the first other device to use the link) or a spectator (any later one) sees it.
* **A team link of the kiosk's classic duel** (`/team/<token>`, API `/api/classic/team/<token>`):
  the same one-phone-per-link rules as the dart game's (`Seats.claim`).

Hidden information: a page gets its own player's private view, every other page the public one
(`views.py`); sockets are grouped per table and audience (`Hub`), and every message is made for
its audience. Bad input answers a JSON error and changes nothing.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from aiohttp import web

from kiosk.address_limits import address_digest, kept, logged, recalled
from kiosk.bucket import Bucket
from kiosk.classic.calls import room_duel_call
from kiosk.classic.fleet import CLASSES, Fleet, PlacementError, parse_ship
from kiosk.classic.grid import SquareError, parse_square
from kiosk.classic.match import (
    AlreadyFiredError,
    Command,
    ComputerLevel,
    Fire,
    FleetLockedError,
    Match,
    Mode,
    NotYourTurnError,
    Place,
)
from kiosk.classic.rooms import Membership, PhoneRooms, PhoneVenue, Role, RoomError, clean_name
from kiosk.classic.wire import CLASSIC, event_to_dict
from kiosk.game import RuleError
from kiosk.i18n import _, said_of
from kiosk.secret import derive, kiosk_secret
from kiosk.service import (
    GameService,
    GameStarted,
    MatchUpdate,
    Notice,
    NoticeKind,
    NotSaved,
    ServiceEvent,
    Source,
)
from kiosk.store import RoomRow, StoreError
from ui.handheld import qr
from ui.handheld.classic.views import PROTOCOL_VERSION, game_view, member_view, room_view
from ui.handheld.errors import json_error
from ui.handheld.hub import Audience, Hub
from ui.handheld.language import answer_language, phone_language, spoken_view
from ui.handheld.phones import device_of
from ui.handheld.rooms import TableHearer
from ui.handheld.seats import Seats, json_body, serve_socket
from ui.handheld.tokens import GameTokens

log = logging.getLogger("dartship.handheld.classic")

MAX_CELL_TEXT = 4  # "J10"
MAX_SHIP_TEXT = 8  # "J10-J6"
ROOM_SPECTATORS = 32  # sockets per room: a table of friends, not a stadium
ROOM_PLAYER_SOCKETS = 4
MAX_HUBS = 1000  # tables' socket groups kept; the idle ones go beyond this
SWEEP_SECONDS = 60.0  # how often the rooms that have ended are closed
NO_STORE = {"Cache-Control": "no-store"}


@dataclass(frozen=True)
class StartLimits:
    """New games an address may start: `capacity` at once, then `per_minute` (a phone that
    plays a game a minute never notices; a script that starts thousands is slowed)."""

    capacity: float = 30
    per_minute: float = 30
    tracked: int = 4096
    # Phones that may take on the daily challenge from one address in a day (docs/decisions.md:
    # on a bar's Wi-Fi each phone has an address of its own; a few share one behind a router).
    daily_per_address: int = 3
    # Rooms one address may open: this many at once, then one more every 15 minutes (each
    # phone has one room; a new cookie is a new phone, so the address bounds the rooms).
    rooms_per_address: float = 4
    rooms_per_hour: float = 4


class ClassicSides:
    """Classic's sides as the phone seats see them: only a duel's two teams have links (a solo
    game's team is on the touchscreen, the computer's fleet is nobody's)."""

    page = "classic.html"

    def owns(self, match: object) -> bool:
        return isinstance(match, Match)

    def linkless(self, match: object, side: int) -> bool:
        assert isinstance(match, Match)
        return match.setup.mode is not Mode.DUEL

    def side_name(self, match: object, side: int) -> str:
        assert isinstance(match, Match)
        return match.setup.name(side)


class ClassicApi:
    """The classic routes and sockets of one kiosk (see the module's docstring)."""

    def __init__(
        self,
        api: Seats,
        rooms: PhoneRooms,
        *,
        limits: StartLimits | None = None,
        today: Callable[[], datetime.date] = datetime.date.today,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        """`clock` times the limits; `wall` is the wall clock their stored counts keep (the
        monotonic clock starts again at a restart)."""
        self.api = api
        self.rooms = rooms
        self.limits = limits or StartLimits()
        self.today = today
        self.clock = clock
        self.wall = wall
        self.hubs: dict[str, Hub] = {}  # a table's venue -> its sockets
        self.kiosk_hub = Hub(spectators=0)  # the team phones of the kiosk's classic duel
        self._kiosk_tokens: GameTokens | None = api.tokens
        self._kiosk_game: int | None = api.service.game  # the game the team sockets follow
        self._starts: OrderedDict[str, Bucket] = OrderedDict()
        self._daily_devices: OrderedDict[tuple[str, datetime.date], set[str]] = OrderedDict()
        self._room_opens: OrderedDict[str, Bucket] = OrderedDict()
        self._address_key = derive(kiosk_secret(rooms.store), "addresses")
        self._recall_counts()
        self._sweeping = rooms.loop.call_later(SWEEP_SECONDS, self._sweep)
        self._sweep_task: asyncio.Future[None] | None = None
        rooms.on_table.append(self._watch)
        rooms.in_use = lambda table: any(self._hub(table.venue).listening(a) for a in Audience)
        api.sides.append(ClassicSides())
        self._unsubscribe = api.service.subscribe(self._kiosk_heard)
        api.on_new_tokens.append(self._kiosk_links)
        # A phone taking its team's link lets the other team's phone fire: tell both.
        api.phones.on_change.append(self._kiosk_phones)

    def routes(self) -> list[web.AbstractRouteDef]:
        return [
            web.get("/classic", self.own_page),
            web.get("/classic/r/{token}", self.room_page),
            web.get("/api/classic/leaderboard", self.leaderboard),
            # the phone's own table
            web.get("/api/classic/play", self.play_state),
            web.post("/api/classic/play/solo", self.play_solo),
            web.post("/api/classic/play/fire", self.play_fire),
            web.post("/api/classic/play/fleet", self.play_fleet),
            web.post("/api/classic/play/room", self.open_room),
            web.delete("/api/classic/play/room", self.close_room),
            web.get("/api/classic/play/room/qr.svg", self.room_qr),
            web.post("/api/classic/play/duel", self.start_duel),
            web.get("/api/classic/play/ws", self.play_socket),
            # its daily challenge
            web.get("/api/classic/daily", self.daily_state),
            web.post("/api/classic/daily/start", self.daily_start),
            web.post("/api/classic/daily/fire", self.daily_fire),
            web.post("/api/classic/daily/name", self.daily_name),
            web.get("/api/classic/daily/ws", self.daily_socket),
            # a room link
            web.get("/api/classic/r/{token}", self.room_state),
            web.post("/api/classic/r/{token}/ready", self.room_ready),
            web.post("/api/classic/r/{token}/fire", self.room_fire),
            web.post("/api/classic/r/{token}/fleet", self.room_fleet),
            web.get("/api/classic/r/{token}/ws", self.room_socket),
            # a team link of the kiosk's classic duel
            web.get("/api/classic/team/{token}", self.team_state),
            web.post("/api/classic/team/{token}/fire", self.team_fire),
            web.post("/api/classic/team/{token}/fleet", self.team_fleet),
            web.get("/api/classic/team/{token}/ws", self.team_socket),
        ]

    def hear_tables(self, hear: TableHearer) -> None:
        """The caller hears every room's duel (`PhoneContext.on_caller`): the tables there are and each one
        opened later, said as `room_duel_call` makes them."""

        def heard(table: PhoneVenue) -> None:
            hear(table.service, room_duel_call)

        for table in self.rooms.tables():
            heard(table)
        self.rooms.on_table.append(heard)

    async def close(self) -> None:
        self._sweeping.cancel()
        if self._sweep_task is not None:
            self._sweep_task.cancel()
        self._unsubscribe()
        if self._kiosk_links in self.api.on_new_tokens:
            self.api.on_new_tokens.remove(self._kiosk_links)
        if self._kiosk_phones in self.api.phones.on_change:
            self.api.phones.on_change.remove(self._kiosk_phones)
        for hub in (*self.hubs.values(), self.kiosk_hub):
            await hub.close_all()
        self.rooms.close()

    # -- pages --

    async def own_page(self, request: web.Request) -> web.StreamResponse:
        return self.api.page("classic.html")

    async def room_page(self, request: web.Request) -> web.StreamResponse:
        # As the team page: the same page for a dead link, only the status differs.
        try:
            self._room(request)
        except web.HTTPNotFound:
            return self.api.page("classic.html", 404)
        except web.HTTPTooManyRequests:
            return self.api.page("classic.html", 429)
        return self.api.page("classic.html")

    # -- the phone's own table --

    def _device(self, request: web.Request) -> str:
        device = device_of(request, issue=True)
        assert device is not None
        return device

    def _owner_message(self, device: str, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        table = self.rooms.table(device)
        room = self.rooms.room_of(device)
        return _message(table.service, 0, room_view(room, Role.OWNER), events)

    async def play_state(self, request: web.Request) -> web.StreamResponse:
        device = self._device(request)
        await self.rooms.table(device).service.settled()
        return _answer(self._owner_message(device))

    async def play_solo(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        device = self._device(request)
        level = body.get("level", "normal")
        try:
            chosen = ComputerLevel(level) if isinstance(level, str) else None
        except ValueError:
            chosen = None
        if chosen is None:
            raise json_error(400, "bad_shape", _('send {"level": "easy" | "normal" | "hard"}'))
        self._count_start(request)  # a request refused for its shape starts nothing: not counted
        with _refusals():
            await self.rooms.start_solo_grouped(device, chosen, _name(body), phone_language(request))
        return _answer(self._owner_message(device))

    async def play_fire(self, request: web.Request) -> web.StreamResponse:
        return await self._play(request, _fire)

    async def play_fleet(self, request: web.Request) -> web.StreamResponse:
        return await self._play(request, _place)

    async def _play(self, request: web.Request, command_of: CommandOf) -> web.StreamResponse:
        """The owner's shot or fleet on its own table (it is player 0 there)."""
        body = await _body(request)
        device = self._device(request)
        await _submit(self.rooms.table(device).service, command_of(body, 0))
        return _answer(self._owner_message(device))

    async def open_room(self, request: web.Request) -> web.StreamResponse:
        device = self._device(request)
        if self.rooms.room_of(device) is None:
            self._take(
                self._room_opens,
                request,
                self.limits.rooms_per_address,
                self.limits.rooms_per_hour / 3600,
                "too_many_rooms",
                _("too many rooms from this phone: wait a while, or close one"),
            )
        await self.rooms.open_room(device)
        self._changed_room(device)
        await self.rooms.table(device).service.settled()
        return _answer(self._owner_message(device))

    async def close_room(self, request: web.Request) -> web.StreamResponse:
        device = self._device(request)
        await self.rooms.table(device).service.settled()
        if await self.rooms.close_room(device) is not None:
            self._room_closed(device)
        return _answer(self._owner_message(device))

    def _room_closed(self, owner: str) -> None:
        """The link is dead: its friend and spectators are told so, and nothing more."""
        hub = self.hubs.get(f"phone:{owner}")
        if hub is not None:
            hub.hang_up((Audience.TEAM_1, Audience.SPECTATOR), json.dumps({"type": "closed"}))
        self._changed_room(owner)

    def _sweep(self) -> None:
        """Every SWEEP_SECONDS: close the rooms that have ended (`PhoneRooms.sweep`)."""
        self._sweep_task = asyncio.ensure_future(self.sweep())

    async def sweep(self) -> None:
        try:
            for room in await self.rooms.sweep():
                self._room_closed(room.owner)
        except (StoreError, sqlite3.Error, RuleError) as err:  # a store that cannot save
            log.warning("the rooms that ended cannot be closed now (%s)", err)
        finally:
            if self.rooms.store is not None:
                logged(self.rooms.store.limits.expire(self.today().isoformat(), self.wall()))
            self._sweeping = self.rooms.loop.call_later(SWEEP_SECONDS, self._sweep)

    async def room_qr(self, request: web.Request) -> web.StreamResponse:
        room = self.rooms.room_of(self._device(request))
        if room is None:
            raise json_error(404, "no_room", _("open a room first"))
        url = f"{request.scheme}://{request.host}/classic/r/{room.token}"
        return web.Response(body=qr.qr_svg(url, scale=6), content_type="image/svg+xml", headers=NO_STORE)

    async def start_duel(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        device = self._device(request)
        self._count_start(request)
        await self.rooms.table(device).service.settled()
        with _refusals():
            await self.rooms.duel(device, _name(body), phone_language(request))
        self._changed_room(device)
        return _answer(self._owner_message(device))

    async def play_socket(self, request: web.Request) -> web.StreamResponse:
        return await self._own_socket(request, self.rooms.table, self._owner_message)

    async def _own_socket(
        self,
        request: web.Request,
        table_of: Callable[[str], PhoneVenue],
        message: Callable[[str], dict[str, Any]],
    ) -> web.StreamResponse:
        """A socket of the phone's own table (or daily table): the device from its cookie."""
        device = device_of(request, issue=False)
        if device is None:
            raise json_error(403, "no_device", _("open the classic page first"))
        table = table_of(device)
        return await serve_socket(
            self._hub(table.venue),
            request,
            Audience.TEAM_0,
            table.service.game or 0,
            lambda to: _spoken_json(message(device), to),
            table.service.settled,
        )

    # -- the daily challenge --

    def _daily_message(self, device: str, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        table = self.rooms.daily_table(device)
        message = _message(table.service, 0, None, events)
        match = CLASSIC.in_play(table.service)
        today = self.today()
        current = match is not None and match.setup.date == today
        message["daily"] = {
            "date": today.isoformat(),
            "started": current,
            "name": self.rooms.daily_name(device) if current else None,
        }
        if not current:
            message["view"] = None  # yesterday's challenge is over and done with
        return message

    async def daily_state(self, request: web.Request) -> web.StreamResponse:
        device = self._device(request)
        await self.rooms.daily_table(device).service.settled()
        return _answer(self._daily_message(device))

    async def daily_start(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        device = self._device(request)
        self._count_start(request)
        today = self.today()
        await self.rooms.daily_table(device).service.settled()
        match = CLASSIC.in_play(self.rooms.daily_table(device).service)
        if match is None or match.setup.date != today:
            self._count_daily(request, device, today)
        with _refusals():
            await self.rooms.start_daily_grouped(device, today, _name(body), phone_language(request))
        return _answer(self._daily_message(device))

    def _count_daily(self, request: web.Request, device: str, today: datetime.date) -> None:
        """A new phone on today's challenge from this address: at most `daily_per_address` a
        day (a new cookie is a new phone, so the address bounds what one person can enter)."""
        place = (self._address(request), today)
        devices = self._daily_devices.setdefault(place, set())
        self._daily_devices.move_to_end(place)
        while len(self._daily_devices) > self.limits.tracked:
            self._daily_devices.popitem(last=False)
        if device not in devices and len(devices) >= self.limits.daily_per_address:
            raise json_error(
                429,
                "daily_taken",
                _("today's challenge has been played from this network address already: come back tomorrow"),
            )
        if device not in devices and self.rooms.store is not None:
            tracked = self.limits.tracked * self.limits.daily_per_address
            kept(
                self.rooms.store.limits.keep_daily_phone(
                    today.isoformat(), place[0], device, self.wall(), tracked
                )
            )
        devices.add(device)

    async def daily_fire(self, request: web.Request) -> web.StreamResponse:
        command = _fire(await _body(request), 0)
        device = self._device(request)
        table = self.rooms.daily_table(device)
        await table.service.settled()
        match = CLASSIC.in_play(table.service)
        if match is None or match.setup.date != self.today():
            raise json_error(409, "no_game", _("start today's challenge first"))
        await _submit(table.service, command)
        return _answer(self._daily_message(device))

    async def daily_name(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        device = self._device(request)
        await self.rooms.daily_table(device).service.settled()
        with _refusals():
            await self.rooms.name_daily(device, _name(body))
        return _answer(self._daily_message(device))

    async def daily_socket(self, request: web.Request) -> web.StreamResponse:
        return await self._own_socket(request, self.rooms.daily_table, self._daily_message)

    async def leaderboard(self, request: web.Request) -> web.StreamResponse:
        text = request.query.get("date")
        day = self.today()
        if text is not None:
            try:
                day = datetime.date.fromisoformat(text[:10])
            except ValueError:
                raise json_error(
                    400,
                    "bad_date",
                    _("'date' must be a date like 2026-11-30, not {value!r}").format(value=text[:10]),
                ) from None
        entries = self.leaderboard_of(day)
        return web.json_response({"date": day.isoformat(), "entries": entries}, headers=NO_STORE)

    def leaderboard_of(self, day: datetime.date) -> list[dict[str, Any]]:
        store = self.api.service.store
        rows = store.stats.daily_board(day.isoformat()) if store is not None else []
        return [{"player": r.player, "shots": r.shots} for r in rows]

    # -- a room link --

    def _room(self, request: web.Request) -> RoomRow:
        """The open room of the link, or a bare 404 (throttled like every secret link)."""
        client = request.remote or "unknown"
        throttle = self.api.throttle
        if not throttle.may_try(client):
            raise json_error(
                429,
                "too_many_attempts",
                _("too many wrong links from this phone: wait a minute"),
                **{"Retry-After": "60"},
            )
        room = self.rooms.find_room(request.match_info.get("token", ""))
        if room is None:
            throttle.failed(client)
            raise web.HTTPNotFound()
        throttle.succeeded(client)
        return room

    async def _member(self, request: web.Request, *, issue: bool = True) -> Membership:
        room = self._room(request)
        membership = await self.rooms.join(room, device_of(request, issue=issue))
        if membership.role is Role.FRIEND and room.friend is None:
            self._changed_room(room.owner)  # the owner sees its friend arrive
        return membership

    def _member_message(
        self, membership: Membership, events: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        table = self.rooms.table(membership.room.owner)
        side = self.rooms.side_of(membership)
        return _message(table.service, side, member_view(membership), events)

    async def room_state(self, request: web.Request) -> web.StreamResponse:
        membership = await self._member(request)
        await self.rooms.table(membership.room.owner).service.settled()
        return _answer(self._member_message(membership))

    async def room_ready(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        membership = await self._member(request)
        device = device_of(request, issue=False)
        if membership.role is not Role.FRIEND or device is None:
            raise json_error(403, "not_friend", _("only the friend who joined this room can say Ready"))
        with _refusals():
            room = await self.rooms.ready(membership.room, device, _name(body), phone_language(request))
        self._changed_room(room.owner)
        await self.rooms.table(room.owner).service.settled()
        return _answer(self._member_message(Membership(room, Role.FRIEND)))

    def _player_side(self, membership: Membership) -> int:
        side = self.rooms.side_of(membership)
        if side is None:
            raise json_error(403, "watching", _("you are watching this game"))
        return side

    async def room_fire(self, request: web.Request) -> web.StreamResponse:
        return await self._room_play(request, _fire)

    async def room_fleet(self, request: web.Request) -> web.StreamResponse:
        return await self._room_play(request, _place)

    async def _room_play(self, request: web.Request, command_of: CommandOf) -> web.StreamResponse:
        """A shot or fleet through a room link: its player's, in the duel (spectators: 403)."""
        body = await _body(request)
        membership = await self._member(request)
        service = self.rooms.table(membership.room.owner).service
        await service.settled()
        side = self._player_side(membership)
        await _submit(service, command_of(body, side))
        return _answer(self._member_message(membership))

    async def room_socket(self, request: web.Request) -> web.StreamResponse:
        # A socket never takes the friend's seat (no cookie can be set there): the page's first
        # API call does.
        membership = await self._member(request, issue=False)
        table = self.rooms.table(membership.room.owner)
        audience = {
            Role.OWNER: Audience.TEAM_0,
            Role.FRIEND: Audience.TEAM_1,
            Role.SPECTATOR: Audience.SPECTATOR,
        }[membership.role]
        return await serve_socket(
            self._hub(table.venue),
            request,
            audience,
            table.service.game or 0,
            lambda to: _spoken_json(self._member_message(membership), to),
            table.service.settled,
        )

    # -- a team link of the kiosk's classic duel --

    def _kiosk_duel(self) -> Match:
        match = CLASSIC.in_play(self.api.service)
        if match is None or match.setup.mode is not Mode.DUEL:
            raise web.HTTPNotFound()  # a link of the dart game: its own routes serve it
        return match

    def _team_message(self, team: int, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        message = _message(self.api.service, team, None, events)
        # The touchscreen hands each team its link in turn: shots wait until both phones hold
        # theirs, so no team fires at a fleet its team has not yet seen.
        message["phones"] = [self.api.phone_held(0), self.api.phone_held(1)]
        return message

    async def team_state(self, request: web.Request) -> web.StreamResponse:
        team, _game = self.api.claim(request)
        self._kiosk_duel()
        return _answer(self._team_message(team))

    async def team_fire(self, request: web.Request) -> web.StreamResponse:
        return await self._team_play(request, _fire)

    async def team_fleet(self, request: web.Request) -> web.StreamResponse:
        return await self._team_play(request, _place)

    async def _team_play(self, request: web.Request, command_of: CommandOf) -> web.StreamResponse:
        """A team's shot or fleet in the kiosk's duel, from the phone that holds its link."""
        body = await _body(request)
        team, _game = self.api.claim(request)
        self._kiosk_duel()
        command = command_of(body, team)
        if isinstance(command, Fire) and not (self.api.phone_held(0) and self.api.phone_held(1)):
            raise json_error(409, "waiting_for_phones", _("the other team has not opened its link yet"))
        await _submit(self.api.service, command)
        return _answer(self._team_message(team))

    async def team_socket(self, request: web.Request) -> web.StreamResponse:
        team, game = self.api.claim(request, may_issue=False)
        self._kiosk_duel()
        return await serve_socket(
            self.kiosk_hub,
            request,
            Audience.of_team(team),
            game,
            lambda to: _spoken_json(self._team_message(team), to),
        )

    # -- what the sockets hear --

    def _hub(self, venue: str) -> Hub:
        hub = self.hubs.get(venue)
        if hub is None:
            if len(self.hubs) >= MAX_HUBS:
                # The hubs of tables nobody listens to any more: a new socket makes one again.
                for name in [n for n, h in self.hubs.items() if not any(h.listening(a) for a in Audience)]:
                    del self.hubs[name]
            hub = self.hubs[venue] = Hub(spectators=ROOM_SPECTATORS, per_team=ROOM_PLAYER_SOCKETS)
        return hub

    def _watch(self, table: PhoneVenue) -> None:
        table.service.subscribe(lambda event: self._table_heard(table, event))

    def _table_heard(self, table: PhoneVenue, event: ServiceEvent) -> None:
        kind, _sep, device = table.venue.partition(":")
        if kind == "phone" and isinstance(event, MatchUpdate | GameStarted):
            self.rooms.touch(device)
        events = _events_of(event)
        if events is not None:
            self._broadcast(table, events)

    def _changed_room(self, owner: str) -> None:
        self._broadcast(self.rooms.table(owner), [])

    def _broadcast(self, table: PhoneVenue, events: list[dict[str, Any]]) -> None:
        hub = self.hubs.get(table.venue)
        if hub is None or table.service.committing:
            # While a command waits for its commit the table shows what is not stored: its
            # commit (or its failure) is told in a moment, and that sends the view.
            return
        kind, _sep, device = table.venue.partition(":")
        if kind == "daily":
            if hub.listening(Audience.TEAM_0):
                hub.send(Audience.TEAM_0, partial(_spoken_json, self._daily_message(device, events)))
            return
        room = self.rooms.room_of(device)
        if hub.listening(Audience.TEAM_0):
            hub.send(Audience.TEAM_0, partial(_spoken_json, self._owner_message(device, events)))
        if room is None:
            return
        for audience, role in ((Audience.TEAM_1, Role.FRIEND), (Audience.SPECTATOR, Role.SPECTATOR)):
            if hub.listening(audience):
                message = self._member_message(Membership(room, role), events)
                hub.send(audience, partial(_spoken_json, message))

    def _kiosk_phones(self) -> None:
        self._kiosk_broadcast([])  # the same view, with which team's phone holds its link

    def _kiosk_heard(self, event: ServiceEvent) -> None:
        if isinstance(event, GameStarted) and event.game != self._kiosk_game:
            # Before anything of the new game is sent: the old game's team phones are told
            # their link died, and hear nothing more.
            self._kiosk_game = event.game
            self.kiosk_hub.hang_up((Audience.TEAM_0, Audience.TEAM_1), json.dumps({"type": "expired"}))
        if CLASSIC.in_play(self.api.service) is None:
            return  # the dart game's events are not ours to read
        events = _events_of(event)
        if events is not None:
            self._kiosk_broadcast(events)

    def _kiosk_broadcast(self, events: list[dict[str, Any]]) -> None:
        if CLASSIC.in_play(self.api.service) is None:
            return
        for team in (0, 1):
            audience = Audience.of_team(team)
            if self.kiosk_hub.listening(audience):
                self.kiosk_hub.send(audience, partial(_spoken_json, self._team_message(team, events)))

    def _kiosk_links(self, tokens: GameTokens) -> None:
        """New links of the same game: a team moved to another phone (its old phone hears
        "moved"). A new game's links are `_kiosk_heard`'s."""
        old, self._kiosk_tokens = self._kiosk_tokens, tokens
        if old is None or old == tokens or old.game != tokens.game:
            return
        for team in (0, 1):
            if old.teams[team] != tokens.teams[team]:
                self.kiosk_hub.hang_up((Audience.of_team(team),), json.dumps({"type": "moved"}))

    # -- limits --

    def _count_start(self, request: web.Request) -> None:
        """A new game from this address: 429 beyond its budget (see StartLimits)."""
        self._take(
            self._starts,
            request,
            self.limits.capacity,
            self.limits.per_minute / 60,
            "too_many_games",
            _("too many new games from this phone: wait a minute"),
        )

    def _take(
        self,
        buckets: OrderedDict[str, Bucket],
        request: web.Request,
        capacity: float,
        per_second: float,
        code: str,
        message: str,
    ) -> None:
        """One unit of this address's bucket, or 429 with `code` when it is empty."""
        client = self._address(request)
        now = self.clock()
        bucket = buckets.get(client)
        if bucket is None:
            bucket = buckets[client] = Bucket.full(capacity, per_second, now)
            while len(buckets) > self.limits.tracked:
                buckets.popitem(last=False)
        if bucket.empty(now):
            raise json_error(429, code, message, **{"Retry-After": "60"})
        bucket.take(now)
        if self.rooms.store is not None:  # a restart gives no address its allowance back
            keep = self.rooms.store.limits.keep_bucket(
                code, client, bucket.level, self.wall(), self.limits.tracked
            )
            kept(keep)

    def _address(self, request: web.Request) -> str:
        """The address the limits count by: a digest keyed by the kiosk's secret (the counts
        are stored, and the database keeps no phone's address)."""
        return address_digest(self._address_key, request.remote or "unknown")

    def _recall_counts(self) -> None:
        """What each address used of its limits before this kiosk (re)started
        (`kiosk.address_limits`); what no longer counts is forgotten."""
        store = self.rooms.store
        if store is None:
            return
        limits, now, wall, today = self.limits, self.clock(), self.wall(), self.today()
        try:
            for buckets, code, capacity, per_second in (
                (self._starts, "too_many_games", limits.capacity, limits.per_minute / 60),
                (self._room_opens, "too_many_rooms", limits.rooms_per_address, limits.rooms_per_hour / 3600),
            ):
                for address, (level, at) in store.limits.buckets(code).items():
                    buckets[address] = recalled(capacity, per_second, level, at, now, wall)
            for address, devices in store.limits.daily_phones(today.isoformat()).items():
                self._daily_devices[(address, today)] = devices
            logged(store.limits.expire(today.isoformat(), wall))
        except (StoreError, sqlite3.Error) as err:
            log.warning("the counts per address cannot be read (%s): they start afresh", err)


# ---- helpers ---------------------------------------------------------------------------


def _events_of(event: ServiceEvent) -> list[dict[str, Any]] | None:
    """The page's events of a service event; None for one that changes nothing on the page."""
    if isinstance(event, MatchUpdate):
        return [event_to_dict(e) for e in CLASSIC.events_of(event.events)]
    if isinstance(event, GameStarted):
        return []
    if isinstance(event, Notice) and event.kind in (NoticeKind.PAUSED, NoticeKind.RESUMED):
        return []
    return None


def _message(
    service: GameService, side: int | None, room: dict[str, Any] | None, events: list[dict[str, Any]] | None
) -> dict[str, Any]:
    match = CLASSIC.in_play(service)
    if match is not None and match.setup.mode is not Mode.DUEL and side not in (None, 0):
        side = None  # only a duel has a second player's page: never the computer's fleet
    view = game_view(match, service.game, side, service.paused)
    return {"type": "view", "version": PROTOCOL_VERSION, "view": view, "room": room, "events": events or []}


def _answer(body: dict[str, Any]) -> web.Response:
    """An answer to the phone that asked, its view's words in that phone's language."""
    return web.json_response(_spoken(body, answer_language()), headers=NO_STORE)


def _spoken(message: dict[str, Any], to: str) -> dict[str, Any]:
    """A message (a view and its room) with the view's words in language `to`."""
    return {**message, "view": spoken_view(message.get("view"), to)}


def _spoken_json(message: dict[str, Any], to: str) -> str:
    """A socket's message, serialised for the sockets that speak `to`."""
    return json.dumps(_spoken(message, to))


async def _body(request: web.Request) -> dict[str, Any]:
    body = await json_body(request)
    if not isinstance(body, dict):
        raise json_error(400, "bad_shape", _("send a JSON object"))
    return body


def _name(body: dict[str, Any]) -> str | None:
    """The body's optional "name" (cleaned: `kiosk.names`); anything but a text is refused."""
    text = body.get("name")
    if text is not None and not isinstance(text, str):
        raise json_error(400, "bad_shape", _('send {"name": "Ann"}'))
    return clean_name(text)


def _square(body: dict[str, Any]) -> Any:
    text = body.get("cell")
    if not isinstance(text, str) or not 0 < len(text) <= MAX_CELL_TEXT:
        raise json_error(400, "bad_shape", _('send {"cell": "B7"}'))
    try:
        return parse_square(text)
    except SquareError as err:
        raise json_error(400, "bad_cell", said_of(err)) from None


def _fleet(body: dict[str, Any]) -> Fleet:
    """`{"ships": ["A1-A5", "C3-F3", "H2-H4", "J7-J9", "E9-F9"]}`: Carrier, Battleship, Cruiser,
    Submarine, Destroyer, in that order."""
    ships = body.get("ships")
    if (
        not isinstance(ships, list)
        or len(ships) != len(CLASSES)
        or not all(isinstance(s, str) and 0 < len(s) <= MAX_SHIP_TEXT for s in ships)
    ):
        raise json_error(
            400,
            "bad_shape",
            _(
                'send {"ships": ["A1-A5", "C3-F3", "H2-H4", '
                '"J7-J9", "E9-F9"]}: Carrier, Battleship, Cruiser, '
                "Submarine, Destroyer"
            ),
        )
    try:
        return Fleet(tuple(parse_ship(text, kind) for kind, text in zip(CLASSES, ships, strict=True)))
    except PlacementError as err:
        raise json_error(422, "bad_fleet", said_of(err)) from None


def _fire(body: dict[str, Any], side: int) -> Command:
    return Fire(side, _square(body))


def _place(body: dict[str, Any], side: int) -> Command:
    return Place(side, _fleet(body))


CommandOf = Callable[[dict[str, Any], int], Command]  # a request's body -> a side's command


async def _submit(service: GameService, command: Command) -> None:
    """The command, committed (grouped with other tables' on a phone's table) before the
    caller answers."""
    with _refusals():
        if CLASSIC.in_play(service) is None:
            raise RoomError(_("no game is running"))
        await service.play(command, Source.PHONE)


class _refusals:
    """Rule errors as JSON answers (409, with a code the page translates)."""

    CODES: tuple[tuple[type[RuleError], str], ...] = (
        (NotSaved, "paused"),
        (NotYourTurnError, "not_your_turn"),
        (AlreadyFiredError, "already_fired"),
        (FleetLockedError, "fleet_locked"),
        (PlacementError, "bad_fleet"),
        (RoomError, "refused"),
    )

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, _tb: object) -> None:
        if err is None or not isinstance(err, RuleError):
            return
        code = next((c for k, c in self.CODES if isinstance(err, k)), "refused")
        raise json_error(409, code, said_of(err)) from None
