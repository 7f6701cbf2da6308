"""The host's desk of a kiosk without a screen (`dartship run --headless`, a phones-only bar).

Without a touchscreen somebody still has to hand out the team links and start the next game.
The desk is one small page behind a secret of its own, printed once in the terminal (or the
journal) when the kiosk starts: it shows the current game's team and spectator links with their
QR codes, who is ready, who won, and a button that starts the next game with the same teams
once a game is over. It shows no cell of any fleet; wrong desk secrets are throttled exactly like
wrong team tokens.
"""

from __future__ import annotations

import hmac
import html
import secrets
from collections.abc import Callable

from aiohttp import web

from kiosk.darts.kind import DARTS
from kiosk.darts.match import Match, Phase
from kiosk.i18n import _
from ui.handheld import qr
from ui.handheld.api import HandheldApi
from ui.handheld.tokens import MAX_TOKEN_LENGTH, TOKEN_BYTES

# The desk posts a form to itself: the phone pages' policy forbids forms altogether.
_DESK_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'none'; "
                "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
REFRESH_SECONDS = 10


class HostDesk:
    def __init__(self, api: HandheldApi) -> None:
        self.api = api
        self.secret = secrets.token_urlsafe(TOKEN_BYTES)
        # Filled by the server once it knows its address: (team) -> link, () -> spectator link.
        self.team_url: Callable[[int], str | None] = lambda _team: None
        self.spectator_url: Callable[[], str | None] = lambda: None

    def routes(self) -> list[web.AbstractRouteDef]:
        return [web.get("/host/{secret}", self.page),
                web.post("/host/{secret}/next", self.next_game)]

    def path(self) -> str:
        return f"/host/{self.secret}"

    def _check(self, request: web.Request) -> None:
        client = request.remote or "unknown"
        throttle = self.api.throttle
        if not throttle.may_try(client):
            raise web.HTTPTooManyRequests(text=_("too many wrong links from this phone: wait a minute"))
        given = request.match_info.get("secret", "")
        if (not given or len(given) > MAX_TOKEN_LENGTH or not given.isascii()
                or not hmac.compare_digest(given.encode(), self.secret.encode())):
            throttle.failed(client)
            raise web.HTTPNotFound()
        throttle.succeeded(client)

    async def page(self, request: web.Request) -> web.StreamResponse:
        self._check(request)
        return self._render(self.api.match)

    async def next_game(self, request: web.Request) -> web.StreamResponse:
        self._check(request)
        service = self.api.service
        match = self.api.match
        if match is not None and match.phase is not Phase.OVER:
            return self._render(match, _("The game is still running: finish it first."), 409)
        if match is None:
            return self._render(None, _("No game to repeat: start the kiosk with --teams."), 409)
        service.new_game(DARTS, match.setup)
        raise web.HTTPSeeOther(self.path())

    def _render(self, match: Match | None, message: str = "", status: int = 200) -> web.Response:
        body = self._html(match, message)
        response = web.Response(text=body, status=status, content_type="text/html")
        response.headers["Content-Security-Policy"] = _DESK_POLICY
        response.headers["Cache-Control"] = "no-store"
        return response

    def _html(self, match: Match | None, message: str) -> str:
        esc = html.escape
        parts = [
            "<!doctype html><html><head><meta charset='utf-8'>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            f"<meta http-equiv='refresh' content='{REFRESH_SECONDS}'>",
            "<link rel='stylesheet' href='/static/host.css'>",
            f"<title>{esc(_('Dartship: host'))}</title></head><body>",
            f"<h1>{esc(_('Dartship: host'))}</h1>",
        ]
        if message:
            parts.append(f"<p class='message'>{esc(message)}</p>")
        if match is None:
            parts.append(f"<p>{esc(_('No game is running.'))}</p>")
        else:
            parts.append(f"<p class='status'>{esc(self._status(match))}</p>")
            parts.append("<div class='links'>")
            state = match.state()
            for team in (0, 1):
                url = self.team_url(team)
                name = match.teams[team].name
                ready = _("ready ✓") if state.placed[team] else _("placing …")
                if url is None:
                    parts.append(f"<section><h2>{esc(name)}</h2><p>{esc(_('the kiosk plays'))}"
                                 "</p></section>")
                    continue
                parts.append(self._link(f"{name}: {ready}", url))
            spectators = self.spectator_url()
            if spectators:
                parts.append(self._link(_("Spectators"), spectators))
            parts.append("</div>")
            if match.phase is Phase.OVER:
                parts.append(f"<form method='post' action='{esc(self.path())}/next'>"
                             f"<button>{esc(_('Next game, same teams'))}</button></form>")
        parts.append("</body></html>")
        return "".join(parts)

    @staticmethod
    def _link(title: str, url: str) -> str:
        esc = html.escape
        svg = qr.qr_svg(url, scale=6).decode()
        return (f"<section><h2>{esc(title)}</h2><div class='qr'>{svg}</div>"
                f"<p><a href='{esc(url)}'>{esc(url)}</a></p></section>")

    @staticmethod
    def _status(match: Match) -> str:
        names = [t.name for t in match.teams]
        if match.winner is not None:
            return _("Victory for {team}!").format(team=names[match.winner])
        if match.phase is Phase.PLACING:
            return _("Placing the fleets: scan your team's code.")
        if match.phase is Phase.BULL_OFF:
            return _("Bull-off: one dart each at the bull.")
        team, player, _dart = match.up_next()
        return _("In play: {team}, {player}").format(team=names[team] if team is not None else "",
                                                     player=player or "")
