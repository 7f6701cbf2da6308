"""The phone page's web server, living in the kiosk's own asyncio loop.

`start_web(service, config)` is what the composition root calls; the touchscreen asks the
returned `WebServer` for the links and their QR codes of the current game.
"""

from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from aiohttp import web

from kiosk.address_limits import answering, counts_committed
from kiosk.config import Settings, WebSettings
from kiosk.i18n import _
from kiosk.ports import Thrower
from kiosk.rooms import REGISTRY, Room, load
from kiosk.service import GameService
from ui.handheld import qr
from ui.handheld.access_log import RedactingAccessLogger
from ui.handheld.address import lan_address, url_host
from ui.handheld.connections import AcceptErrorLog, ConnectionGate, GuardedSite
from ui.handheld.language import Handler, in_phone_language
from ui.handheld.phones import DEVICE_KEYS, hand_over_key
from ui.handheld.rooms import PhoneContext, PhonePart, PhoneRoom, TableHearer
from ui.handheld.seats import MAX_BODY, Seats
from ui.handheld.static_files import StaticFiles
from ui.handheld.throttle import GuessThrottle

T = TypeVar("T")

log = logging.getLogger("dartship.handheld")


# A connection must send a whole request's headers this soon after it opens, or after the answer
# to its last request: a phone sends them at once, a slowloris never. aiohttp's keep-alive timer
# is exactly that clock (it runs from the connection's start and from each answer, and closes
# the connection only while no complete request has come in).
HEADER_SECONDS = 10.0


def runner_options() -> dict[str, Any]:
    """How the app is run: the access log names no token, and slow headers are cut off (tests'
    TestServer takes the same)."""
    return {
        "access_log_class": RedactingAccessLogger,
        "access_log": logging.getLogger("dartship.handheld.access"),
        "shutdown_timeout": 2.0,
        "keepalive_timeout": HEADER_SECONDS,
    }


def favicon(static: StaticFiles) -> Callable[[web.Request], Awaitable[web.Response]]:
    """`/favicon.ico`, which every browser asks for whatever the page links: the page's own
    icon (an SVG, which browsers take as a favicon), so no phone page logs a 404 for it."""
    icon = static.get("icon.svg")
    assert icon is not None, "ui/handheld/static/icon.svg is missing from the package"

    async def serve(_request: web.Request) -> web.Response:
        return web.Response(
            body=icon.body, headers={"Content-Type": "image/svg+xml", "Cache-Control": "max-age=86400"}
        )

    return serve


@web.middleware
async def counted_first(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The counts this request makes (a wrong link, an address's new game) are waited for
    before its answer goes out (`kiosk.address_limits.kept`, the prepare hook of `build_app`)."""
    answering()
    return await handler(request)


def build_app(seats: Seats, *parts: PhonePart) -> web.Application:
    """The aiohttp application (tests drive it through aiohttp's TestServer): the phone seats'
    routes, then each part's (a game's phone routes, the host's desk), closed in turn at
    shutdown."""
    # The phone's language around everything (each answer in it: ui/handheld/language.py);
    # counts first (the answer waits for what its request counted: kiosk.address_limits); the
    # throttle's waiting comes before any route that looks at a token (see throttle.py).
    app = web.Application(
        middlewares=[in_phone_language, counted_first, seats.guard, seats.throttle.middleware],
        client_max_size=MAX_BODY,
    )
    app[DEVICE_KEYS] = seats.phones.keys
    app.add_routes(seats.routes())
    app.add_routes([web.get("/favicon.ico", favicon(seats.static))])
    for part in parts:
        app.add_routes(part.routes())
    unsubscribe = seats.service.subscribe(seats.on_service_event)

    async def closing(_app: web.Application) -> None:
        unsubscribe()
        for part in parts:
            await part.close()
        await seats.hub.close_all()

    async def anonymous(_request: web.Request, response: web.StreamResponse) -> None:
        # aiohttp would name itself and its version (of use only to an attacker).
        response.headers["Server"] = "Dartship"

    async def counts_before_answers(_request: web.Request, _response: web.StreamResponse) -> None:
        # Every answer, a socket's 101 too, goes out once what its request counted is committed.
        await counts_committed()

    app.on_shutdown.append(closing)
    app.on_response_prepare.append(counts_before_answers)
    app.on_response_prepare.append(anonymous)
    app.on_response_prepare.append(hand_over_key)
    return app


class WebServer:
    """The running server: its address, the current game's links and their QR codes."""

    def __init__(
        self,
        api: Seats,
        runner: web.AppRunner,
        base_url: str,
        gate: ConnectionGate | None = None,
        accept_errors: AcceptErrorLog | None = None,
        parts: Sequence[PhonePart] = (),
        context: PhoneContext | None = None,
    ) -> None:
        self.api = api
        self._runner = runner
        self.base_url = base_url
        self.gate = gate
        self._accept_errors = accept_errors
        self.parts = tuple(parts)  # the games' phone routes, the host's desk
        self._context = context

    def part(self, cls: type[T]) -> T | None:
        """The part of this class the server serves (a game's routes, the host's desk)."""
        return next((part for part in self.parts if isinstance(part, cls)), None)

    def hear_tables(self, hear: TableHearer) -> None:
        """Let `hear` hear every game a part seats at a table of its own (a phone room's duel),
        now and later (`PhoneContext.on_caller`)."""
        if self._context is not None:
            for tell in self._context.on_caller:
                tell(hear)

    def use_thrower(self, thrower: Thrower | None) -> None:
        """The simulated board, once the devices are up: the host's throw pad throws with it."""
        if self._context is not None:
            for tell in self._context.on_thrower:
                tell(thrower)

    @property
    def port(self) -> int:
        """The port it listens on (the one the system picked, for web.port = 0)."""
        return urlsplit(self.base_url).port or 0

    async def stop(self) -> None:
        await self._runner.cleanup()
        if self._accept_errors is not None:
            self._accept_errors.remove()

    def team_url(self, team: int) -> str | None:
        tokens = self.api.tokens
        if tokens is None or team not in (0, 1) or self.api.service.game != tokens.game:
            return None
        if self.api.linkless(team):
            return None  # a side the game gives no link (the kiosk's own fleet in a solo game)
        return f"{self.base_url}/team/{tokens.teams[team]}"

    def spectator_url(self) -> str | None:
        if self.api.service.game is None:
            return None
        return f"{self.base_url}/watch"

    def page_url(self, path: str) -> str:
        """The address of a page any phone may open (`path`: "/classic", say)."""
        return f"{self.base_url}{path}"

    def phone_held(self, team: int) -> bool:
        return self.api.phone_held(team)

    def move(self, team: int) -> str | None:
        """From the touchscreen: the team's phone is cut off; the new link to scan."""
        if self.api.move(team, by="touchscreen") is None:
            return None
        return self.team_url(team)

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """`listener()` whenever a link changes or a phone takes one (the hand-over follows)."""

        def on_tokens(_tokens: object) -> None:
            listener()

        self.api.on_new_tokens.append(on_tokens)
        self.api.phones.on_change.append(listener)

        def unsubscribe() -> None:
            if on_tokens in self.api.on_new_tokens:
                self.api.on_new_tokens.remove(on_tokens)
            if listener in self.api.phones.on_change:
                self.api.phones.on_change.remove(listener)

        return unsubscribe

    def qr_png(self, url: str, scale: int = 8) -> bytes:
        return qr.qr_png(url, scale)

    def qr_svg(self, url: str, scale: int = 8) -> bytes:
        return qr.qr_svg(url, scale)

    def print_links(self) -> None:
        """The links in the terminal (headless kiosks have no screen to show QR codes)."""
        links = [
            (self.api.side_name(team), url) for team in (0, 1) if (url := self.team_url(team)) is not None
        ]
        if not links:
            return
        lines = [_("Phone links for game {game}:").format(game=self.api.service.game)]
        lines += [f"  {name}: {url}" for name, url in links]
        lines.append(f"  {_('Spectators')}: {self.spectator_url()}")
        print("\n".join(lines), flush=True)


def phone_rooms(rooms: Sequence[Room] | None = None) -> list[PhoneRoom]:
    """The phone pages of these games (default: every hosted game), in the registry's order."""
    found: list[PhoneRoom] = []
    for room in REGISTRY.rooms() if rooms is None else rooms:
        if room.phones is not None:
            phones = load(room.phones)
            assert isinstance(phones, PhoneRoom), f"{room.phones} is no PhoneRoom"
            found.append(phones)
    return found


async def start_web(
    service: GameService,
    settings: Settings,
    *,
    print_links: bool = False,
    throttle: GuessThrottle | None = None,
    gate: ConnectionGate | None = None,
    thrower: Thrower | None = None,
    phones: Sequence[PhoneRoom] | None = None,
    instant: bool = False,
) -> WebServer:
    """Serve the phone page on web.host:web.port in the running loop (`gate`: other limits on
    connections than the defaults, for tests and benches; `thrower`: the simulated board, whose
    darts the host's desk of a headless kiosk throws; `phones`: the games' phone pages, every
    hosted game's by default; `instant`: their computers make no pauses)."""
    seats = Seats(service, throttle)
    context = PhoneContext(service, settings, headless=print_links, instant=instant)
    parts = [
        part for room in (phone_rooms() if phones is None else phones) for part in room.parts(seats, context)
    ]
    app = build_app(seats, *parts)
    runner = web.AppRunner(app, **runner_options())
    await runner.setup()
    gate = gate or ConnectionGate()
    site = await _listen(runner, settings.web, gate)
    if site is None:
        await runner.cleanup()
        raise OSError(
            f"the phone page cannot listen on {settings.web.host}:{settings.web.port} nor on any fallback"
        )
    accept_errors = AcceptErrorLog(asyncio.get_running_loop())
    accept_errors.install()
    server = WebServer(
        seats,
        runner,
        f"http://{url_host(lan_address(site.host))}:{site.port}",
        gate,
        accept_errors,
        parts,
        context,
    )
    log.info(
        "phone page on %s (at most %d connections, %d per address)",
        server.base_url,
        gate.overall,
        gate.per_address,
    )
    context.base_url = server.base_url
    context.team_url, context.spectator_url = server.team_url, server.spectator_url
    for served in context.on_served:
        served()
    server.use_thrower(thrower)
    if print_links:
        seats.on_new_tokens.append(lambda _tokens: server.print_links())
        server.print_links()
    return server


async def _listen(runner: web.AppRunner, configured: WebSettings, gate: ConnectionGate) -> GuardedSite | None:
    """Listen where the config says; where that cannot be (a host that does not resolve or is
    not this machine's, a port in use), fall back to the defaults and then to any free port,
    saying so: a bad web.host must not keep the kiosk (and its touchscreen) from starting."""
    default = WebSettings()
    tries = [
        (configured.host, configured.port),
        (default.host, configured.port),
        (default.host, default.port),
        (default.host, 0),
    ]
    reasons: list[str] = []
    for host, port in dict.fromkeys(tries):
        site = GuardedSite(runner, host, port, gate)
        try:
            await site.start()
        except OSError as err:
            await site.stop()
            if err.errno == errno.EADDRINUSE and port == configured.port:
                # The kiosk's own port is taken: nearly always another kiosk on this machine,
                # which a second one on another port would fight over the database and board.
                raise
            reasons.append(f"{host}:{port}: {err.strerror or err}")
            continue
        if reasons:
            log.error(
                "web.host/web.port: cannot listen on %s; the phone page listens on %s:%d "
                "instead (check web.host and web.port: dartship config check)",
                "; ".join(reasons),
                host,
                site.port,
            )
        return site
    log.error("the phone page cannot listen anywhere: %s", "; ".join(reasons))
    return None
