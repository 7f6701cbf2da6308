"""The phone page's web server, living in the kiosk's own asyncio loop.

`start_web(service, config)` is what the composition root calls; the touchscreen asks the
returned `WebServer` for the links and their QR codes of the current game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from kiosk.config import Settings
from kiosk.i18n import _
from kiosk.ports import Thrower
from kiosk.service import GameService
from ui.handheld import qr
from ui.handheld.access_log import RedactingAccessLogger
from ui.handheld.address import lan_address, url_host
from ui.handheld.api import MAX_BODY, HandheldApi
from ui.handheld.host import HostDesk
from ui.handheld.phones import hand_over_key
from ui.handheld.throttle import GuessThrottle

log = logging.getLogger("dartship.handheld")


def runner_options() -> dict[str, Any]:
    """How the app is run: the access log names no token (tests' TestServer takes the same)."""
    return {"access_log_class": RedactingAccessLogger,
            "access_log": logging.getLogger("dartship.handheld.access"),
            "shutdown_timeout": 2.0}


def build_app(api: HandheldApi, desk: HostDesk | None = None) -> web.Application:
    """The aiohttp application (tests drive it through aiohttp's TestServer)."""
    app = web.Application(middlewares=[api.guard], client_max_size=MAX_BODY)
    app.add_routes(api.routes())
    if desk is not None:
        app.add_routes(desk.routes())
    unsubscribe = api.service.subscribe(api.on_service_event)

    async def closing(_app: web.Application) -> None:
        unsubscribe()
        if desk is not None:
            desk.close()
        await api.hub.close_all()

    async def anonymous(_request: web.Request, response: web.StreamResponse) -> None:
        # aiohttp would name itself and its version (of use only to an attacker).
        response.headers["Server"] = "Dartship"

    app.on_shutdown.append(closing)
    app.on_response_prepare.append(anonymous)
    app.on_response_prepare.append(hand_over_key)
    return app


class WebServer:
    """The running server: its address, the current game's links and their QR codes."""

    def __init__(self, api: HandheldApi, runner: web.AppRunner, base_url: str,
                 desk: HostDesk | None = None) -> None:
        self.api = api
        self._runner = runner
        self.base_url = base_url
        self.desk = desk  # the host's desk of a headless kiosk

    async def stop(self) -> None:
        await self._runner.cleanup()

    def team_url(self, team: int) -> str | None:
        tokens = self.api.tokens
        if tokens is None or team not in (0, 1) or self.api.service.game != tokens.game:
            return None
        if self.api.kiosk_team() == team:
            return None  # solo mode: nobody may open the kiosk's own fleet
        return f"{self.base_url}/team/{tokens.teams[team]}"

    def spectator_url(self) -> str | None:
        if self.api.service.game is None:
            return None
        return f"{self.base_url}/watch"

    def phone_held(self, team: int) -> bool:
        return self.api.phone_held(team)

    def move(self, team: int) -> str | None:
        """From the touchscreen: the team's phone is cut off; the new link to scan."""
        if self.api.move(team, by="touchscreen") is None:
            return None
        return self.team_url(team)

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """`listener()` whenever a link changes or a phone takes one (the hand-over follows)."""
        def on_tokens(_tokens: Any) -> None:
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
        match = self.api.match
        if match is None:
            return
        lines = [_("Phone links for game {game}:").format(game=self.api.service.game)]
        for team in (0, 1):
            url = self.team_url(team)
            if url is not None:
                lines.append(f"  {match.teams[team].name}: {url}")
        lines.append(f"  {_('Spectators')}: {self.spectator_url()}")
        print("\n".join(lines), flush=True)


async def start_web(service: GameService, settings: Settings, *, print_links: bool = False,
                    throttle: GuessThrottle | None = None,
                    thrower: Thrower | None = None) -> WebServer:
    """Serve the phone page on web.host:web.port in the running loop. `thrower`: the simulated
    board, whose darts the host's desk of a headless kiosk throws."""
    api = HandheldApi(service, throttle)
    # Headless (links printed), nobody has a screen: the host's desk hands out links and games.
    desk = HostDesk(api, thrower) if print_links else None
    app = build_app(api, desk)
    runner = web.AppRunner(app, **runner_options())
    await runner.setup()
    host = settings.web.host
    site = web.TCPSite(runner, host, settings.web.port)
    await site.start()
    port = _bound_port(runner, settings.web.port)
    server = WebServer(api, runner, f"http://{url_host(lan_address(host))}:{port}", desk)
    log.info("phone page on %s", server.base_url)
    if desk is not None:
        desk.team_url, desk.spectator_url = server.team_url, server.spectator_url
        print(_("Host page (keep it to yourself): {url}").format(url=server.base_url + desk.path()),
              flush=True)
    if print_links:
        api.on_new_tokens.append(lambda _tokens: server.print_links())
        server.print_links()
    return server


def _bound_port(runner: web.AppRunner, configured: int) -> int:
    """The real port (the configured one, or the one the OS chose for port 0)."""
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return int(address[1])
    return configured

