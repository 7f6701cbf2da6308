"""The phones' seats at the kiosk's game in play, for every kind of game: its team links
(tokens, kept in the store so a restart keeps them), which phone holds each (device keys,
`ui/handheld/phones.py`), a team moved to another phone, the guard every route goes through
(security headers, JSON errors), the page files, request bodies and sockets.

Every route that takes a team token goes through `token_team`: rate limited per address, compared
in constant time, and a wrong or dead token gets the same bare 404 as a path that does not exist.
A game's team routes then go through `claim`: only the phone that holds the link gets in; any
other gets 403 and nothing of the fleet.

Which sides of a game have a link, and what a side is called, the game says: each game's phone
room hands in its `PhoneSides` (`Seats.sides`); this module names no game.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Protocol

from aiohttp import WSMsgType, web

from kiosk.i18n import _
from kiosk.lines import WireError, untrusted_json
from kiosk.service import GameService, GameStarted, Notice, NoticeKind, ServiceEvent
from kiosk.store import StoreError
from ui.handheld.errors import json_error
from ui.handheld.hub import Audience, Hub, Spoken, Subscriber
from ui.handheld.language import Handler, phone_language
from ui.handheld.phones import COOKIE, Claim, PhoneSeats, give_key
from ui.handheld.static_files import StaticFiles
from ui.handheld.throttle import GuessThrottle
from ui.handheld.tokens import GameTokens

log = logging.getLogger("dartship.handheld")

MAX_BODY = 4096  # a fleet of ten 5-cell ships is well under 1 KiB
BODY_SECONDS = 10.0  # the whole body must arrive within this after the headers
WS_MAX_MESSAGE = 1024  # phones only ever send pings
WS_HEARTBEAT = 20.0

_SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; "
        "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class PhoneSides(Protocol):
    """What a game tells the phone seats about its sides (one per game that phones play at the
    kiosk; `Seats.sides`)."""

    def owns(self, match: object) -> bool:
        """Whether `match` is a game of this kind."""
        ...

    def linkless(self, match: object, side: int) -> bool:
        """Whether no phone may open `side`'s link (a side the kiosk plays, or one on the
        touchscreen)."""
        ...

    def side_name(self, match: object, side: int) -> str: ...

    @property
    def page(self) -> str:
        """The page file a team link of this kind opens (index.html, classic.html)."""
        ...


class Seats:
    """The live links of the kiosk's game in play, the phones holding them, and their sockets'
    hub; `on_change` hears every change a page shows (a new game, a phone taking a link, a pause)."""

    def __init__(
        self, service: GameService, throttle: GuessThrottle | None = None, static: StaticFiles | None = None
    ) -> None:
        self.service = service
        self.throttle = throttle or GuessThrottle(store=service.store)  # kept across restarts
        self.static = static or StaticFiles()
        self.hub = Hub()
        self.tokens: GameTokens | None = None
        self.sides: list[PhoneSides] = []
        self.on_new_tokens: list[Callable[[GameTokens], None]] = []
        self.on_change: list[Callable[[], None]] = []
        self.phones = PhoneSeats(service.store)
        self.phones.on_change.append(self.changed)
        if service.game is not None:
            self.tokens = self._tokens_for(service.game)[0]
        self._recall_dead_links()

    def routes(self) -> list[web.AbstractRouteDef]:
        return [
            web.get("/team/{token}", self.team_page),
            web.get("/static/{name:.+}", self.static_file),
        ]

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Security headers everywhere; JSON errors (never a traceback) under /api/."""
        try:
            response = await handler(request)
        except web.HTTPException as err:
            answer = (
                _as_json(err)
                if (request.path.startswith("/api/") and err.content_type != "application/json")
                else err
            )
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

    def on_service_event(self, event: ServiceEvent) -> None:
        if isinstance(event, GameStarted):
            self._new_game(event.game)
        elif isinstance(event, Notice) and event.kind in (NoticeKind.PAUSED, NoticeKind.RESUMED):
            self.changed()  # every page shows the pause, and its end
        elif isinstance(event, Notice) and event.kind is NoticeKind.ABANDONED:
            # Staff ended the game: its team links are dead, every page shows no game.
            self.hub.hang_up((Audience.TEAM_0, Audience.TEAM_1), json.dumps({"type": "expired"}))
            self.changed()

    def changed(self) -> None:
        for callback in list(self.on_change):
            callback()

    def _new_game(self, game: int) -> None:
        old = self.tokens
        if not self.has_links():
            # A game no side of which plays on a phone (Express, classic solo): none issued,
            # and the last game's links are dead.
            self.tokens = None
            self.throttle.new_game(old.teams if old is not None else ())
            if old is not None:
                self.hub.hang_up((Audience.TEAM_0, Audience.TEAM_1), json.dumps({"type": "expired"}))
            log.debug("game %s: no phone links (no side of it plays on a phone)", game)
            self.changed()
            return
        if old is not None and old.game == game:
            # The same game rebuilt (after a failed save): its links, moves included, stand.
            self.changed()
            return
        self.tokens, kept = self._tokens_for(game)
        self.throttle.new_game(old.teams if old is not None and old != self.tokens else ())
        if old == self.tokens or (old is None and kept):
            log.info("game %s: the phone links stay as they were", game)
        else:
            if old is not None:
                self.hub.hang_up((Audience.TEAM_0, Audience.TEAM_1), json.dumps({"type": "expired"}))
            log.info("game %s: new phone links issued", game)
        for callback in self.on_new_tokens:
            callback(self.tokens)
        self.changed()

    def _tokens_for(self, game: int) -> tuple[GameTokens, bool]:
        """The game's links, and whether they are the ones kept in the database (a restart
        keeps the phones' links working); else new ones, kept there. If they cannot be kept,
        they still work until the kiosk stops."""
        tokens = None
        store = self.service.store
        if store is None:
            return GameTokens.issue(game), False
        try:
            kept = store.phones.links(game)
            if kept is not None:
                return GameTokens(game, kept), True
            tokens = GameTokens.issue(game)
            store.phones.keep_links(game, tokens.teams, past=self.throttle.limits.dead_games)
        except (sqlite3.Error, StoreError) as err:
            log.warning(
                "game %s: the phone links could not be kept in the database (%s); "
                "they will change at the next start",
                game,
                err,
            )
        return tokens or GameTokens.issue(game), False

    def _recall_dead_links(self) -> None:
        """The links of the last games, kept in the database: dead links to the throttle after
        a restart as before it (a phone reloading last game's page). The game in play's are
        among them, which changes nothing: a valid link never costs anything anyway."""
        store = self.service.store
        if store is None:
            return
        try:
            kept = store.phones.recent_links(self.throttle.limits.dead_games + 1)
        except (sqlite3.Error, StoreError) as err:
            log.warning("the last games' links cannot be read (%s): they count as guesses", err)
            return
        for links in reversed(kept):  # oldest first, as they were retired
            self.throttle.new_game(links)

    def phone_held(self, team: int) -> bool:
        tokens = self.tokens
        return tokens is not None and self.phones.held(tokens.game, team)

    def move(self, team: int, by: str) -> GameTokens | None:
        """Cut the phone holding `team`'s link off at once: the link is replaced (the old one
        answers 404, its open sockets hear `{"type": "moved"}` and are closed) and the first
        phone to open the new link holds it. None: no link to move (no game, solo's kiosk)."""
        tokens = self.tokens
        if (
            tokens is None
            or self.service.match is None
            or self.service.game != tokens.game
            or team not in (0, 1)
            or self.linkless(team)
        ):
            return None
        renewed = tokens.renewed(team)
        store = self.service.store
        if store is not None:
            try:
                store.phones.keep_links(renewed.game, renewed.teams)
            except (sqlite3.Error, StoreError) as err:
                log.warning(
                    "game %s: the new link cannot be kept in the database (%s); it "
                    "works until the kiosk stops",
                    renewed.game,
                    err,
                )
        self.tokens = renewed
        # Hung up first: the old phone's last word is "moved", not one more view.
        self.hub.hang_up((Audience.of_team(team),), json.dumps({"type": "moved"}))
        self.phones.release(renewed.game, team)
        log.info(
            "game %s: %s moved to another phone from the %s; the old link is dead",
            renewed.game,
            self.side_name(team),
            by,
        )
        for callback in self.on_new_tokens:
            callback(renewed)
        return renewed

    def _sides_of(self, match: object) -> PhoneSides | None:
        return next((sides for sides in self.sides if sides.owns(match)), None)

    def has_links(self) -> bool:
        """Whether the kiosk's game in play gives any side a phone link: its game says (a game
        no phone room claims has none, nor one whose every side is the kiosk's or on the
        touchscreen)."""
        match = self.service.match
        sides = self._sides_of(match)
        return sides is not None and not all(sides.linkless(match, side) for side in (0, 1))

    def linkless(self, team: int) -> bool:
        """Whether no phone may open `team`'s link in the kiosk's game (its game says: the
        kiosk's own team in a dart solo game, both sides of a classic game on the touchscreen
        that is not a duel). A game no phone room claims has no links."""
        match = self.service.match
        sides = self._sides_of(match)
        return sides is None or sides.linkless(match, team)

    def side_name(self, team: int) -> str:
        """A side's name in the kiosk's game (a team of the dart game, a classic player)."""
        match = self.service.match
        sides = self._sides_of(match)
        return sides.side_name(match, team) if sides is not None else str(team + 1)

    def token_team(self, request: web.Request) -> tuple[int, int]:
        """(team, game) for a valid token of the kiosk's game in play (of any kind), or a bare
        404 / 429."""
        client = request.remote or "unknown"
        if not self.throttle.may_try(client):
            raise json_error(
                429,
                "too_many_attempts",
                _("too many wrong links from this phone: wait a minute"),
                **{"Retry-After": "60"},
            )
        tokens = self.tokens
        team = tokens.team_of(request.match_info.get("token", "")) if tokens else None
        if (
            team is None
            or tokens is None
            or self.service.match is None
            or self.service.game != tokens.game
            or self.linkless(team)
        ):
            self.throttle.failed(client)
            raise web.HTTPNotFound()
        self.throttle.succeeded(client)
        return team, tokens.game

    def claim(self, request: web.Request, *, may_issue: bool = True) -> tuple[int, int]:
        """(team, game) for the phone that holds this team's link, or takes it now (the first
        one to use it: its answer hands it a device key); 403 for any other device. Any kind of
        game: the classic duel's team routes claim their links here too."""
        team, game = self.token_team(request)
        admission = self.phones.admit(game, team, request.cookies.get(COOKIE), may_issue=may_issue)
        if admission.seat is Claim.OTHER_PHONE or admission.seat is Claim.NO_KEY:
            raise json_error(403, "other_phone", _("this team is playing on another phone"))
        if admission.seat is Claim.OTHER_TEAM:
            raise json_error(
                403,
                "other_team",
                _("this phone already plays for the other team: each team plays on its own phone"),
            )
        if admission.new_key is not None:
            give_key(request, admission.new_key)
        return team, game

    # -- pages and files --

    def _page(self, status: int = 200) -> web.Response:
        return self.page("index.html", status)

    def page(self, name: str, status: int = 200) -> web.Response:
        """One of the page files (index.html, classic.html), never cached."""
        page = self.static.get(name)
        assert page is not None, f"ui/handheld/static/{name} is missing from the package"
        return web.Response(
            body=page.body,
            status=status,
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )

    async def team_page(self, request: web.Request) -> web.StreamResponse:
        # The same public page either way; only the status tells a live link from a dead one,
        # and the page then says "scan the new QR code" in the phone's language. A link of the
        # kiosk's game opens that game's page (the classic duel's: the classic page).
        try:
            self.token_team(request)
        except web.HTTPNotFound:
            return self._page(404)
        except web.HTTPTooManyRequests:
            return self._page(429)
        sides = self._sides_of(self.service.match)
        return self.page(sides.page) if sides is not None else self._page()

    async def static_file(self, request: web.Request) -> web.StreamResponse:
        found = self.static.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=found.body, headers={"Content-Type": found.content_type, "Cache-Control": "no-cache"}
        )


async def serve_socket(
    hub: Hub,
    request: web.Request,
    audience: Audience,
    game: int,
    first: Spoken,
    settled: Callable[[], Awaitable[None]] | None = None,
) -> web.StreamResponse:
    """A WebSocket of `audience` in `hub`: `first(language)` at once, then whatever the hub
    sends it, in the language of the request that opened it. `settled`: awaited just before
    `first` (a game whose command waits for its commit shows only what is stored once it is
    done). Phones only ever send pings; anything but text ends the socket."""
    if not hub.make_room(audience):  # spectators and each team have their own budget
        raise json_error(503, "busy", _("too many phones are connected"))
    socket = web.WebSocketResponse(heartbeat=WS_HEARTBEAT, max_msg_size=WS_MAX_MESSAGE)
    await socket.prepare(request)
    if settled is not None:
        await settled()
    subscriber = Subscriber(socket, audience, game, phone_language(request))
    subscriber.offer(first(subscriber.language))
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


async def json_body(request: web.Request) -> object:
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
        # The line protocols' own checks: not UTF-8, a lone surrogate, a huge number, NaN or
        # deep nesting is bad JSON here too.
        return untrusted_json(raw)
    except WireError:
        raise json_error(400, "bad_json", _("the request is not valid JSON")) from None


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
