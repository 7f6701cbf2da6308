"""The HTTP and WebSocket routes of the phone page (docs/handheld-api.md describes them).

Every route that takes a team token goes through `token_team`: rate limited per address, compared
in constant time, and a wrong or dead token gets the same bare 404 as a path that does not exist.
The team's API then goes through `_seat`: only the phone that holds the link gets in
(`ui/handheld/phones.py`); any other gets 403 and nothing of the fleet.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSMsgType, web

from kiosk.classic.match import Match as ClassicMatch
from kiosk.classic.match import Mode as ClassicMode
from kiosk.darts.board import CellError, Profile, board_for
from kiosk.darts.closer import CloserVotes
from kiosk.darts.fleet import MAX_SHIP, PlacementError, make_fleet, make_ship, random_fleet
from kiosk.darts.kind import match_of
from kiosk.darts.match import Match, Next, Phase, Place, RuleError, Unplace
from kiosk.darts.wire import event_to_dict
from kiosk.i18n import _
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
from kiosk.store import StoreError
from ui.handheld.errors import json_error
from ui.handheld.hub import Audience, Hub, Subscriber
from ui.handheld.phones import COOKIE, PhoneSeats, Seat, give_key
from ui.handheld.static_files import StaticFiles
from ui.handheld.throttle import GuessThrottle
from ui.handheld.tokens import GameTokens
from ui.handheld.views import board_description, public_view, team_view

log = logging.getLogger("dartship.handheld")

MAX_BODY = 4096  # a fleet of ten 5-cell ships is well under 1 KiB
BODY_SECONDS = 10.0  # the whole body must arrive within this after the headers
MAX_SHIPS = 10
MAX_CELL_TEXT = 8
WS_MAX_MESSAGE = 1024  # phones only ever send pings
WS_HEARTBEAT = 20.0

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                                "base-uri 'none'; form-action 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class HandheldApi:
    """The routes, the live tokens and the open sockets of one kiosk."""

    def __init__(self, service: GameService, throttle: GuessThrottle | None = None,
                 static: StaticFiles | None = None) -> None:
        self.service = service
        self.throttle = throttle or GuessThrottle()
        self.static = static or StaticFiles()
        self.hub = Hub()
        self.tokens: GameTokens | None = None
        self.on_new_tokens: list[Callable[[GameTokens], None]] = []
        self.phones = PhoneSeats(service.store)
        self.closer = CloserVotes(service)
        # Both phones see each other's answer to "who was closer?" as it comes; the host's desk
        # (on the spectators' feed) sees a phone take a link.
        self.closer.on_change.append(lambda: self._broadcast([]))
        self.phones.on_change.append(lambda: self._broadcast([]))
        if service.game is not None:
            self.tokens = self._tokens_for(service.game)[0]

    # -- the app --

    def routes(self) -> list[web.AbstractRouteDef]:
        return [
            web.get("/", self.root),
            web.get("/watch", self.spectator_page),
            web.get("/team/{token}", self.team_page),
            web.get("/static/{name:.+}", self.static_file),
            web.get("/api/board/{profile}", self.board),
            web.get("/api/game", self.game_view),
            web.get("/api/game/ws", self.spectator_socket),
            web.get("/api/team/{token}", self.team_state),
            web.post("/api/team/{token}/fleet", self.place_fleet),
            web.delete("/api/team/{token}/fleet", self.unplace_fleet),
            web.post("/api/team/{token}/random", self.random_fleet),
            web.post("/api/team/{token}/closer", self.closer_vote),
            web.post("/api/team/{token}/next", self.next_visit),
            web.get("/api/team/{token}/ws", self.team_socket),
        ]

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Security headers everywhere; JSON errors (never a traceback) under /api/."""
        try:
            response = await handler(request)
        except web.HTTPException as err:
            answer = _as_json(err) if (request.path.startswith("/api/")
                                       and err.content_type != "application/json") else err
            _secure(answer, request)
            raise answer from None
        except Exception:
            log.exception("error in %s %s", request.method, request.match_info.route.name or "route")
            failure = json_error(500, "internal", _("the kiosk failed to answer; try again"))
            _secure(failure, request)
            raise failure from None
        if not response.prepared:
            _secure(response, request)
        return response

    # -- service events --

    def on_service_event(self, event: ServiceEvent) -> None:
        if isinstance(event, GameStarted):
            self._new_game(event.game)
        elif (isinstance(event, MatchUpdate) and event.game == self.service.game
              and self.match is not None):  # the dart game's pages follow only the dart game
            self._broadcast([event_to_dict(e, detail=True) for e in event.events])
        elif isinstance(event, Notice) and event.kind in (NoticeKind.PAUSED, NoticeKind.RESUMED):
            self._broadcast([])  # every page shows the pause, and its end

    def _new_game(self, game: int) -> None:
        old = self.tokens
        if old is not None and old.game == game:
            # The same game rebuilt (after a failed save): its links, moves included, stand.
            self._broadcast([])
            return
        self.tokens, kept = self._tokens_for(game)
        self.throttle.new_game(old.teams if old is not None and old != self.tokens else ())
        if old == self.tokens or (old is None and kept):
            log.info("game %s: the phone links stay as they were", game)
        else:
            if old is not None:
                self.hub.hang_up((Audience.TEAM_0, Audience.TEAM_1),
                                 json.dumps({"type": "expired"}))
            log.info("game %s: new phone links issued", game)
        for callback in self.on_new_tokens:
            callback(self.tokens)
        self._broadcast([])

    def _tokens_for(self, game: int) -> tuple[GameTokens, bool]:
        """The game's links, and whether they are the ones kept in the database (a restart
        keeps the phones' links working); else new ones, kept there. If they cannot be kept,
        they still work until the kiosk stops."""
        tokens = None
        store = self.service.store
        if store is None:
            return GameTokens.issue(game), False
        try:
            kept = store.links(game)
            if kept is not None:
                return GameTokens(game, kept), True
            tokens = GameTokens.issue(game)
            store.keep_links(game, tokens.teams)
        except (sqlite3.Error, StoreError) as err:
            log.warning("game %s: the phone links could not be kept in the database (%s); "
                        "they will change at the next start", game, err)
        return tokens or GameTokens.issue(game), False

    def _broadcast(self, events: list[dict[str, Any]]) -> None:
        match, game = self.match, self.service.game
        if match is None or game is None:
            return
        self.hub.send(Audience.SPECTATOR, _view_message(self._public_view(match, game), events))
        for team in (0, 1):
            audience = Audience.of_team(team)
            if self.hub.listening(audience):
                self.hub.send(audience, _view_message(self._team_view(match, game, team), events))

    # -- moving a team to another phone --

    def phone_held(self, team: int) -> bool:
        tokens = self.tokens
        return tokens is not None and self.phones.held(tokens.game, team)

    def move(self, team: int, by: str) -> GameTokens | None:
        """Cut the phone holding `team`'s link off at once: the link is replaced (the old one
        answers 404, its open sockets hear `{"type": "moved"}` and are closed) and the first
        phone to open the new link holds it. None: no link to move (no game, solo's kiosk)."""
        tokens = self.tokens
        if (tokens is None or self.service.match is None or self.service.game != tokens.game
                or team not in (0, 1) or self.linkless(team)):
            return None
        renewed = tokens.renewed(team)
        store = self.service.store
        if store is not None:
            try:
                store.keep_links(renewed.game, renewed.teams)
            except (sqlite3.Error, StoreError) as err:
                log.warning("game %s: the new link cannot be kept in the database (%s); it "
                            "works until the kiosk stops", renewed.game, err)
        self.tokens = renewed
        # Hung up first: the old phone's last word is "moved", not one more view.
        self.hub.hang_up((Audience.of_team(team),), json.dumps({"type": "moved"}))
        self.phones.release(renewed.game, team)
        log.info("game %s: %s moved to another phone from the %s; the old link is dead",
                 renewed.game, self.side_name(team), by)
        for callback in self.on_new_tokens:
            callback(renewed)
        return renewed

    @property
    def match(self) -> Match | None:
        """The dart game in play (the phone page follows only the dart game)."""
        return match_of(self.service)

    # -- tokens --

    def kiosk_team(self) -> int | None:
        """Solo mode: the team the kiosk plays has no phone (its fleet is nobody's to see)."""
        match = self.match
        seat = match.setup.computer if match is not None else None
        return seat.team if seat is not None else None

    def linkless(self, team: int) -> bool:
        """Whether no phone may open `team`'s link: the kiosk's own team in a dart solo game,
        and both sides of a classic game on the touchscreen that is not a duel (its team's
        fleet is on the touchscreen, the computer's is nobody's)."""
        match = self.service.match
        if isinstance(match, ClassicMatch):
            return match.setup.mode is not ClassicMode.DUEL
        return team == self.kiosk_team()

    def side_name(self, team: int) -> str:
        """A side's name in the kiosk's game (a team of the dart game, a classic player)."""
        match = self.service.match
        if isinstance(match, ClassicMatch):
            return match.setup.name(team)
        dart = self.match
        return dart.teams[team].name if dart is not None else str(team + 1)

    def token_team(self, request: web.Request) -> tuple[int, int]:
        """(team, game) for a valid token of the kiosk's game in play (of any kind), or a bare
        404 / 429."""
        client = request.remote or "unknown"
        if not self.throttle.may_try(client):
            raise json_error(429, "too_many_attempts",
                             _("too many wrong links from this phone: wait a minute"),
                             **{"Retry-After": "60"})
        tokens = self.tokens
        team = tokens.team_of(request.match_info.get("token", "")) if tokens else None
        if (team is None or tokens is None or self.service.match is None
                or self.service.game != tokens.game or self.linkless(team)):
            self.throttle.failed(client)
            raise web.HTTPNotFound()
        self.throttle.succeeded(client)
        return team, tokens.game

    def claim(self, request: web.Request, *, may_issue: bool = True) -> tuple[int, int]:
        """(team, game) for the phone that holds this team's link, or takes it now (the first
        one to use it: its answer hands it a device key); 403 for any other device. Any kind of
        game: the classic duel's team routes claim their links here too."""
        team, game = self.token_team(request)
        admission = self.phones.admit(game, team, request.cookies.get(COOKIE),
                                      may_issue=may_issue)
        if admission.seat is Seat.OTHER_PHONE or admission.seat is Seat.NO_KEY:
            raise json_error(403, "other_phone", _("this team is playing on another phone"))
        if admission.seat is Seat.OTHER_TEAM:
            raise json_error(403, "other_team", _("this phone already plays for the other team: "
                                                  "each team plays on its own phone"))
        if admission.new_key is not None:
            give_key(request, admission.new_key)
        return team, game

    def _seat(self, request: web.Request, *, may_issue: bool = True) -> tuple[int, int, Match]:
        """`claim`, for the dart game's routes: (team, game, match)."""
        team, game = self.claim(request, may_issue=may_issue)
        match = self.match
        if match is None:
            raise web.HTTPNotFound()
        return team, game, match

    # -- pages and files --

    async def root(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound("/watch")

    def _page(self, status: int = 200) -> web.Response:
        return self.page("index.html", status)

    def page(self, name: str, status: int = 200) -> web.Response:
        """One of the page files (index.html, classic.html), never cached."""
        page = self.static.get(name)
        assert page is not None, f"ui/handheld/static/{name} is missing from the package"
        return web.Response(body=page.body, status=status, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store"})

    async def spectator_page(self, request: web.Request) -> web.StreamResponse:
        return self._page()

    async def team_page(self, request: web.Request) -> web.StreamResponse:
        # The same public page either way; only the status tells a live link from a dead one,
        # and the page then says "scan the new QR code" in the phone's language. A link of the
        # kiosk's classic duel opens the classic page.
        try:
            self.token_team(request)
        except web.HTTPNotFound:
            return self._page(404)
        except web.HTTPTooManyRequests:
            return self._page(429)
        if isinstance(self.service.match, ClassicMatch):
            return self.page("classic.html")
        return self._page()

    async def static_file(self, request: web.Request) -> web.StreamResponse:
        found = self.static.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        return web.Response(body=found.body, headers={"Content-Type": found.content_type,
                                                      "Cache-Control": "no-cache"})

    # -- public API --

    async def board(self, request: web.Request) -> web.StreamResponse:
        try:
            profile = Profile(request.match_info["profile"])
        except ValueError:
            raise json_error(404, "unknown_board",
                             _("unknown board profile: use four-ring or three-ring")) from None
        return web.json_response(board_description(board_for(profile)),
                                 headers={"Cache-Control": "max-age=3600"})

    async def game_view(self, request: web.Request) -> web.StreamResponse:
        match, game = self.match, self.service.game
        body = self._public_view(match, game) if match is not None and game is not None else None
        return web.json_response({"view": body}, headers={"Cache-Control": "no-store"})

    async def spectator_socket(self, request: web.Request) -> web.StreamResponse:
        return await self._socket(request, Audience.SPECTATOR, self.service.game or 0,
                                  lambda: self._current_view(None))

    # -- a team's API --

    @staticmethod
    def _team_answer(body: dict[str, Any]) -> web.Response:
        return web.json_response(body, headers={"Cache-Control": "no-store"})

    def _public_view(self, match: Match, game: int) -> dict[str, Any]:
        return public_view(match, game, self.closer.votes(), self.service.paused)

    def _team_view(self, match: Match, game: int, team: int) -> dict[str, Any]:
        return team_view(match, game, team, self.closer.votes(), self.service.paused)

    async def team_state(self, request: web.Request) -> web.StreamResponse:
        team, game, match = self._seat(request)
        return self._team_answer({"view": self._team_view(match, game, team)})

    async def random_fleet(self, request: web.Request) -> web.StreamResponse:
        _team, _game, match = self._seat(request)
        _refuse_after_start(match)
        rules = match.setup.rules
        fleet = random_fleet(rules.board, rules.fleet, self.service.rng)
        return self._team_answer(
            {"ships": [[c.code for c in ship.cells] for ship in fleet.ships]})

    async def closer_vote(self, request: web.Request) -> web.StreamResponse:
        """The team's answer to "who was closer?": `{"team": 0 | 1}`."""
        team, game, _match = self._seat(request)
        body = await json_body(request)
        closer = body.get("team") if isinstance(body, dict) else None
        if type(closer) is not int or closer not in (0, 1):
            raise json_error(400, "bad_shape", _('send {"team": 0} or {"team": 1}'))
        if self.service.game != game:
            raise web.HTTPNotFound()
        try:
            outcome = self.closer.vote(team, closer)
        except NotSaved as err:
            raise json_error(409, "refused", str(err)) from None
        except RuleError as err:
            raise json_error(409, "not_asked", str(err)) from None
        current = self.match
        assert current is not None
        return self._team_answer({"vote": outcome.value,
                                  "view": self._team_view(current, game, team)})

    async def next_visit(self, request: web.Request) -> web.StreamResponse:
        """Next from the phone of the team whose visit it is (darts out; early: the darts not
        thrown count as missed, as on the touchscreen)."""
        team, game, match = self._seat(request)
        if match.phase not in (Phase.THROWING, Phase.TAKEOUT) or match.turn != team:
            raise json_error(409, "not_your_visit", _("Next is for the team whose visit it is"))
        try:
            self.service.submit(Next(), Source.PHONE)
        except RuleError as err:
            raise json_error(409, "refused", str(err)) from None
        current = self.match or match
        return self._team_answer({"view": self._team_view(current, game, team)})

    async def place_fleet(self, request: web.Request) -> web.StreamResponse:
        team, game, match = self._seat(request)
        body = await json_body(request)
        # Reading the body yielded to the loop: the game may have moved on meanwhile.
        if self.service.game != game or self.match is not match:
            raise web.HTTPNotFound()
        rows = _ship_rows(body)
        board = match.board
        ships = []
        for row in rows:
            try:
                cells = [board.parse(text, allow_miss=False) for text in row]
            except CellError as err:
                raise json_error(400, "bad_cell", str(err)) from None
            try:
                ships.append(make_ship(cells, board))
            except PlacementError as err:
                raise json_error(422, "bad_ship", str(err)) from None
        try:
            fleet = make_fleet(ships, match.setup.rules.fleet)
        except PlacementError as err:
            raise json_error(422, "bad_fleet", str(err)) from None
        _refuse_after_start(match)
        try:
            self.service.submit(Place(team, fleet), Source.PHONE)
        except (RuleError, PlacementError) as err:
            raise json_error(409, "refused", str(err)) from None
        current = self.match or match
        return self._team_answer({"view": self._team_view(current, game, team)})

    async def unplace_fleet(self, request: web.Request) -> web.StreamResponse:
        """The team changes its fleet again: not ready until it locks in anew."""
        team, game, match = self._seat(request)
        _refuse_after_start(match)
        try:
            self.service.submit(Unplace(team), Source.PHONE)
        except RuleError as err:
            raise json_error(409, "refused", str(err)) from None
        return self._team_answer({"view": self._team_view(self.match or match, game, team)})

    async def team_socket(self, request: web.Request) -> web.StreamResponse:
        team, game, _match = self._seat(request, may_issue=False)
        return await self._socket(request, Audience.of_team(team), game,
                                  lambda: self._current_view(team))

    # -- sockets --

    def _current_view(self, team: int | None) -> str:
        match, game = self.match, self.service.game
        if match is None or game is None:
            return json.dumps({"type": "view", "view": None, "events": []})
        view = self._public_view(match, game) if team is None else self._team_view(match, game, team)
        return _view_message(view, [])

    async def _socket(self, request: web.Request, audience: Audience, game: int,
                      first: Callable[[], str]) -> web.StreamResponse:
        return await serve_socket(self.hub, request, audience, game, first)


async def serve_socket(hub: Hub, request: web.Request, audience: Audience, game: int,
                       first: Callable[[], str]) -> web.StreamResponse:
    """A WebSocket of `audience` in `hub`: `first()` at once, then whatever the hub sends it.
    Phones only ever send pings; anything but text ends the socket."""
    if not hub.make_room(audience):  # spectators and each team have their own budget
        raise json_error(503, "busy", _("too many phones are connected"))
    socket = web.WebSocketResponse(heartbeat=WS_HEARTBEAT, max_msg_size=WS_MAX_MESSAGE)
    await socket.prepare(request)
    subscriber = Subscriber(socket, audience, game)
    subscriber.offer(first())
    hub.add(subscriber)
    pump = asyncio.get_running_loop().create_task(subscriber.pump())
    try:
        async for message in socket:
            if message.type is not WSMsgType.TEXT:
                break
    finally:
        hub.remove(subscriber)
        subscriber.offer(None)
        await pump
        if not socket.closed:
            await socket.close()
    return socket


def _view_message(view: dict[str, Any], events: list[dict[str, Any]]) -> str:
    return json.dumps({"type": "view", "view": view, "events": events}, separators=(",", ":"))


def _refuse_after_start(match: Match) -> None:
    if match.phase is not Phase.PLACING:
        raise json_error(409, "game_started", _("the game has started: fleets can no longer be placed"))
    if all(match.state().placed):
        raise json_error(409, "locked", _("both fleets are locked in"))


async def json_body(request: web.Request) -> Any:
    """A request's JSON body: small, whole within BODY_SECONDS, valid, or a JSON error."""
    if request.content_type != "application/json":
        raise json_error(415, "not_json", _("send the fleet as JSON (Content-Type: application/json)"))
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise json_error(413, "too_large", _("the request is too large"))
    try:
        # A phone sends its few hundred bytes at once; a body that trickles in holds a
        # connection for nothing.
        async with asyncio.timeout(BODY_SECONDS):
            raw = await request.content.read(MAX_BODY + 1)
    except TimeoutError:
        raise json_error(408, "too_slow", _("the request came too slowly")) from None
    if len(raw) > MAX_BODY:
        raise json_error(413, "too_large", _("the request is too large"))
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        # 4 KiB of "[" nests deeper than Python's parser goes: bad JSON too, for a fleet.
        raise json_error(400, "bad_json", _("the request is not valid JSON")) from None


def _ship_rows(body: Any) -> list[list[str]]:
    """The {"ships": [["T20", "T1"], ...]} shape, checked before any cell is read."""
    rows = body.get("ships") if isinstance(body, dict) else None
    if (not isinstance(rows, list) or not rows or len(rows) > MAX_SHIPS
            or not all(isinstance(row, list) and 0 < len(row) <= MAX_SHIP for row in rows)
            or not all(isinstance(text, str) and 0 < len(text) <= MAX_CELL_TEXT
                       for row in rows for text in row)):
        raise json_error(400, "bad_shape", _('send {"ships": [["T20", "T1"], ...]}: a list of '
                                             "ships, each a list of 2 to 5 cell codes"))
    return rows


def _as_json(err: web.HTTPException) -> web.HTTPException:
    codes = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
    if err.status == 404:
        return err  # a bare 404, the same for a wrong token as for a path that does not exist
    if err.status in codes:
        return json_error(err.status, codes[err.status], err.reason)
    return err


def _secure(response: web.StreamResponse, request: web.Request) -> None:
    for name, value in _SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith(("/api/team/", "/team/")):
        response.headers["Cache-Control"] = "no-store"
