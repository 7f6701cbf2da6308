"""The host's desk of a kiosk without a screen (`dartship run --headless`, a phones-only bar).

Without a touchscreen, everything the touchscreen decides has to be decided here, so that a game
never stalls: the team links (one team's QR code at a time, as on the touchscreen's hand-over,
and "move to another phone"), "who was closer?" (with where each bull-off dart landed), Next,
Undo and Correct, and in simulator mode a throw pad (type a cell, tap the drawn board, or a
virtual throw). Once a game is over it starts the next one with the same teams; over a game
still in play it asks first, as the touchscreen does ("Start a new game? The one in play ends
with no winner."), and only a confirmation naming that very game ends it.

The desk is one page behind a secret of its own, printed in the terminal (or the journal) when
the kiosk starts and kept in the database (`kiosk.hostlink`: the link survives restarts until
the owner renews it; `dartship host-link` prints it again); wrong desk secrets are throttled
exactly like wrong team tokens. It shows no cell of any fleet: only what the whole bar may know
(the darts, the sunk ships' lengths).
The page works without script (forms that post to the desk and come back, and a refresh every
few seconds); `static/host.js` adds the drawn board to the throw pad, sends the forms of play
with fetch (the same POSTs, answered by the same routes: a refusal stays on the page in words)
and follows the game without reloading: on each change the spectators' socket tells of, it
fetches the desk page and swaps in what changed, keeping the drawn board and a field being
typed in, so a tap never lands on a page that is reloading.
"""

from __future__ import annotations

import hmac
import html
import logging
import sqlite3
from collections.abc import Callable, Sequence
from typing import NoReturn

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from kiosk import hostlink
from kiosk.board import BULL, MISS, Cell, CellError
from kiosk.darts.describe import bull_off_dart, cell_text
from kiosk.darts.kind import DARTS
from kiosk.darts.match import (
    BullOffCloser,
    Correct,
    Corrected,
    DartThrown,
    Match,
    Next,
    Phase,
    RuleError,
    Setup,
    Undo,
    Undone,
    no_dart_now,
    rings_not_told,
)
from kiosk.game import Result
from kiosk.i18n import _, said_of
from kiosk.ports import Thrower
from kiosk.rooms import in_play, start_over_question
from kiosk.service import GameStarted, MatchUpdate, ServiceEvent, Source
from kiosk.store import Store, StoreError
from ui.handheld import qr
from ui.handheld.darts.api import DartsApi
from ui.handheld.language import speaking_answer, told
from ui.handheld.tokens import MAX_TOKEN_LENGTH

log = logging.getLogger("dartship.handheld")

# The desk posts forms to itself (the phone pages' policy forbids forms altogether); its one
# script is our own file.
_DESK_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
REFRESH_SECONDS = 10  # without script only: with it, the page updates itself when the game changes
RECENT = 6
MAX_FIELD = 16


def _kept_secret(store: Store | None) -> str:
    """The host link's secret from the database (it survives restarts until renewed)."""
    try:
        return hostlink.host_secret(store.meta if store is not None else None)
    except (sqlite3.Error, StoreError) as err:
        log.warning("the host link could not be kept in the database (%s); it changes at the next start", err)
        return hostlink.renew(None)


class HostDesk:
    def __init__(self, api: DartsApi, thrower: Thrower | None = None) -> None:
        self.api = api
        self.thrower = thrower  # the simulated board (simulator mode), whose darts the pad throws
        self.secret = _kept_secret(api.service.store)
        # Filled by the server once it knows its address: (team) -> link, () -> spectator link.
        self.team_url: Callable[[int], str | None] = lambda _team: None
        self.spectator_url: Callable[[], str | None] = lambda: None
        # The last darts, newest first (public: announced to all): team, player (None: the team
        # alone, kiosk.darts.players), cell, result.
        self._darts: list[tuple[str, str | None, Cell, Result]] = []
        self._setup: Setup | None = None  # the last dart game's teams: the next game's
        self._recall()
        self._unsubscribe = api.service.subscribe(self._heard)

    async def close(self) -> None:
        self._unsubscribe()

    def renew(self) -> str:
        """A new secret (kept for the next starts): the old host link is dead at once."""
        try:
            store = self.api.service.store
            self.secret = hostlink.renew(store.meta if store is not None else None)
        except (sqlite3.Error, StoreError) as err:
            log.warning(
                "the new host link could not be kept in the database (%s); it changes "
                "again at the next start",
                err,
            )
            self.secret = hostlink.renew(None)
        return self.secret

    def routes(self) -> list[web.AbstractRouteDef]:
        return [
            web.get("/host/{secret}", self.page),
            web.post("/host/{secret}/next", self.next_game),
            web.post("/host/{secret}/visit", self.next_visit),
            web.post("/host/{secret}/undo", self.undo),
            web.post("/host/{secret}/correct", self.correct),
            web.post("/host/{secret}/closer", self.closer),
            web.post("/host/{secret}/throw", self.throw),
            web.post("/host/{secret}/virtual", self.virtual),
            web.post("/host/{secret}/move", self.move),
        ]

    def path(self) -> str:
        return f"/host/{self.secret}"

    # -- what the desk hears --

    def _heard(self, event: ServiceEvent) -> None:
        if isinstance(event, GameStarted):
            self._recall()
        elif isinstance(event, MatchUpdate) and event.game == self.api.service.game:
            match = self.api.match
            if match is not None:
                self._note(match, event.events)

    def _recall(self) -> None:
        """The last darts of the game in play, from its command log: a resumed game (a restart,
        a power cut) lists the darts thrown before it as the desk listed them then."""
        self._darts = []
        match = self.api.match
        if match is None:
            return
        self._setup = match.setup
        copy = Match(match.setup)
        for command in match.log:
            self._note(copy, copy.apply(command))

    def _note(self, match: Match, events: Sequence[object]) -> None:
        for e in events:
            if isinstance(e, DartThrown) and not e.padded:
                side = match.teams[e.side]
                self._darts.insert(0, (side.name, side.thrower(e.player), e.cell, e.result))
            elif isinstance(e, Undone) and self._darts:
                self._darts.pop(0)
            elif isinstance(e, Corrected) and self._darts:
                # Correct changes the last dart: the list shows what counts now.
                team, player, _old, _result = self._darts[0]
                self._darts[0] = (team, player, e.new, e.result)
        del self._darts[RECENT:]

    @property
    def recent(self) -> list[str]:
        """The last darts as the desk lists them, newest first."""
        return [
            (
                _("{team} · {player}: {cell} {result}").format(
                    team=team, player=player, cell=cell_text(cell), result=_result_word(result)
                )
                if player is not None
                else _("{team}: {cell} {result}").format(
                    team=team, cell=cell_text(cell), result=_result_word(result)
                )
            )
            for team, player, cell, result in self._darts
        ]

    # -- requests --

    def _check(self, request: web.Request) -> None:
        client = request.remote or "unknown"
        throttle = self.api.seats.throttle
        if not throttle.may_try(client):
            raise web.HTTPTooManyRequests(text=told(_("too many wrong links from this phone: wait a minute")))
        given = request.match_info.get("secret", "")
        if (
            not given
            or len(given) > MAX_TOKEN_LENGTH
            or not given.isascii()
            or not hmac.compare_digest(given.encode(), self.secret.encode())
        ):
            throttle.failed(client)
            raise web.HTTPNotFound()
        throttle.succeeded(client)

    async def _form(self, request: web.Request) -> dict[str, str]:
        self._check(request)
        try:
            form = await request.post()
        except (UnicodeDecodeError, ValueError, HttpProcessingError):
            # Bytes that are not UTF-8, a multipart form whose parts have no headers: a form
            # no browser of ours sends.
            raise web.HTTPBadRequest(text=told(_("the form could not be read"))) from None
        return {k: str(v)[:MAX_FIELD] for k, v in form.items() if isinstance(v, str)}

    def _done(self) -> NoReturn:
        """Back to the desk (a reload then does not post again)."""
        raise web.HTTPSeeOther(self.path())

    async def page(self, request: web.Request) -> web.StreamResponse:
        self._check(request)
        return self._render(self.api.match, team=_team_field(request.query.get("team")))

    async def next_game(self, request: web.Request) -> web.StreamResponse:
        """The next dart game with the last one's teams. Over an unfinished game (of any kind)
        it asks first (409 with the question); `confirm` must name that game's number, so a
        stale or replayed confirmation never ends a game nobody was asked about."""
        form = await self._form(request)
        service = self.api.service
        setup = self._setup
        if setup is None:
            return self._render(None, _("No game to repeat: start the kiosk with --teams."), 409)
        unfinished = in_play(service)
        if unfinished is not None:
            if form.get("confirm") != str(service.game):
                return self._render(self.api.match, status=409, asking=unfinished)
            try:
                game = service.abandon()
            except RuleError as err:  # it cannot be stored so (NotSaved): nothing changes
                return self._render(self.api.match, said_of(err), 409)
            log.info("game %s abandoned from the host's desk for a new game", game)
        service.new_game(DARTS, setup.on_board(service.board_profile()))
        return self._done()

    def _submit(self, command: object) -> web.StreamResponse:
        """The command sent: back to the desk, or the desk with the rules' refusal."""
        return self._refused(command) or self._done()

    def _refused(self, command: object) -> web.Response | None:
        """The command sent; the desk with the rules' refusal, or None once it is taken."""
        try:
            self.api.service.submit(command, Source.HOST)
        except RuleError as err:
            return self._render(self.api.match, said_of(err), 409)
        return None

    async def next_visit(self, request: web.Request) -> web.StreamResponse:
        """Next, for the visit the page showed (its form says which). The dart game's guard
        (kiosk/darts/double_next.py) refuses one for a visit already over (a page not yet
        refreshed) and a second tap of a double tap: said, not sent. A form without the field
        (a page served before it had one) is for the visit in play."""
        form = await self._form(request)
        pressed = form.get("visit")
        if pressed is not None and not (pressed.isascii() and pressed.isdigit()):
            return self._render(self.api.match, _("the form could not be read"), 400)
        return self._submit(Next(visit=None if pressed is None else int(pressed)))

    async def undo(self, request: web.Request) -> web.StreamResponse:
        await self._form(request)
        return self._submit(Undo())

    async def correct(self, request: web.Request) -> web.StreamResponse:
        form = await self._form(request)
        match = self.api.match
        if match is None:
            return self._render(None, _("No game is running."), 409)
        try:
            cell = match.board.parse(form.get("cell", ""))
        except CellError as err:
            return self._render(match, said_of(err), 400)
        return self._submit(Correct(cell))

    async def closer(self, request: web.Request) -> web.StreamResponse:
        """The host answers "who was closer?" alone: the host is the referee."""
        form = await self._form(request)
        team = _team_field(form.get("team"))
        if team is None:
            return self._render(self.api.match, _("team must be 0 or 1"), 400)
        return self._submit(BullOffCloser(team))

    async def move(self, request: web.Request) -> web.StreamResponse:
        form = await self._form(request)
        team = _team_field(form.get("team"))
        if team is None or self.api.seats.move(team, by="host page") is None:
            return self._render(self.api.match, _("This team has no phone link."), 409)
        raise web.HTTPSeeOther(f"{self.path()}?team={team}")

    async def throw(self, request: web.Request) -> web.StreamResponse:
        """A typed (or, with script, tapped) cell, as if a dart had landed exactly there."""
        form = await self._form(request)
        if self.thrower is None:
            return self._render(self.api.match, _("Darts come from the board, not from here."), 409)
        match = self.api.match
        closed = self._visit_over(match)
        if closed is not None:
            return closed
        text = form.get("cell", "")
        if match is not None:
            try:  # the board's refusal in the host's language (the thrower says the kiosk's)
                match.board.parse(text)
            except CellError as err:
                return self._render(match, said_of(err), 400)
        error = self.thrower.enter(text)
        if error:
            return self._render(self.api.match, error, 400)
        return self._done()

    async def virtual(self, request: web.Request) -> web.StreamResponse:
        """A dart with the virtual thrower's scatter: at the typed cell, else at the bull in a
        bull-off, else at a cell the team has not shot yet."""
        form = await self._form(request)
        match = self.api.match
        if self.thrower is None or match is None:
            return self._render(match, _("Darts come from the board, not from here."), 409)
        closed = self._visit_over(match)
        if closed is not None:
            return closed
        text = form.get("cell", "").strip()
        if text:
            try:
                aim = match.board.parse(text)
            except CellError as err:
                return self._render(match, said_of(err), 400)
        elif match.phase is Phase.BULL_OFF:
            aim = BULL
        else:
            team = match.turn
            shot = match.shots(team) if team is not None else {}
            fresh = [c for c in match.board.cells if c not in shot]
            aim = self.api.service.rng.choice(fresh) if fresh else MISS
        self.thrower.throw_at(aim)
        return self._done()

    def _visit_over(self, match: Match | None) -> web.Response | None:
        """A pad dart while the darts are pulled out (a tap that came a moment late, a page
        without script not yet refreshed): the game would ignore it without a word (a board's
        dart then is a hand pulling the darts out), but the host meant it: said, not sent."""
        if match is None or match.phase is not Phase.TAKEOUT:
            return None
        return self._render(match, no_dart_now(Phase.TAKEOUT), 409)

    # -- the page --

    def _render(
        self,
        match: Match | None,
        message: str = "",
        status: int = 200,
        team: int | None = None,
        asking: str | None = None,
    ) -> web.Response:
        """The desk, all of it in the host's phone's language (`message`, made in the kiosk's,
        said again in it)."""
        with speaking_answer():
            if asking is not None:
                body = self._question(told(asking))
            else:
                body = self._html(match, told(message) if message else "", team)
        response = web.Response(text=body, status=status, content_type="text/html")
        response.headers["Content-Security-Policy"] = _DESK_POLICY
        response.headers["Cache-Control"] = "no-store"
        return response

    def _head(self, match: Match | None, *, live: bool = True) -> list[str]:
        """The page's head and title. `live`: it follows the game (host.js, or a refresh without
        script; a question waiting for an answer does not, so nothing posts it again)."""
        esc = html.escape
        # host.js's own words, for a form it sent that no answer came back for
        unreachable = _("No answer from the kiosk: look at the page before you try again.")
        return [
            "<!doctype html><html><head><meta charset='utf-8'>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            f"<noscript><meta http-equiv='refresh' content='{REFRESH_SECONDS}'></noscript>" if live else "",
            "<link rel='stylesheet' href='/static/board.css'>",
            "<link rel='stylesheet' href='/static/host.css'>",
            "<link rel='icon' href='/static/icon.svg' type='image/svg+xml'>",
            "<script type='module' src='/static/host.js'></script>" if live else "",
            f"<title>{esc(_('Dartship: host'))}</title></head>",
            f"<body data-live='{esc(str(match.version) if match else '')}'"
            f" data-unreachable='{esc(unreachable)}'>",
            f"<h1>{esc(_('Dartship: host'))}</h1>",
        ]

    def _question(self, unfinished: str) -> str:
        """The question before a new game ends the one in play (what the touchscreen asks):
        Keep playing goes back to the desk, Start new game confirms for this game only."""
        esc = html.escape
        game = self.api.service.game
        return "".join(
            [
                *self._head(None, live=False),
                "<section id='asking' role='alertdialog' aria-labelledby='asking-title'>",
                f"<h2 id='asking-title'>{esc(unfinished)}</h2>",
                f"<p class='ask'>{esc(start_over_question())}</p><div class='row'>",
                f"<form method='get' action='{esc(self.path())}'>"
                f"<button id='stay'>{esc(_('Keep playing'))}</button></form>",
                self._form_html(
                    "next", _("Start new game"), fields={"confirm": str(game)}, cls="danger", ident="go"
                ),
                "</div></section></body></html>",
            ]
        )

    def _html(self, match: Match | None, message: str, team: int | None) -> str:
        esc = html.escape
        parts = self._head(match)
        if message:
            parts.append(f"<p class='message' id='message' role='alert'>{esc(message)}</p>")
        if match is None:
            other = self._other_game(team)
            parts.append(other or f"<p>{esc(_('No game is running.'))}</p>")
            parts.append("</body></html>")
            return "".join(parts)
        parts.append(f"<p class='status' id='status'>{esc(self._status(match))}</p>")
        if match.phase is Phase.BULL_OFF:
            parts.append(self._bull_off(match))
        if match.phase in (Phase.THROWING, Phase.TAKEOUT, Phase.OVER):
            parts.append(self._play(match))
        if self.thrower is not None and (
            match.phase is Phase.THROWING or (match.phase is Phase.BULL_OFF and not match.bull_off_undecided)
        ):
            parts.append(self._pad(match))
        if self.recent:
            items = "".join(f"<li>{esc(line)}</li>" for line in self.recent)
            parts.append(f"<section><h2>{esc(_('Last darts'))}</h2><ul class='recent'>{items}</ul></section>")
        parts.append(
            self._phones(
                [t.name for t in match.teams], list(match.state().placed), match.phase is Phase.PLACING, team
            )
        )
        if not self.api.service.board_rings_told():  # as the touchscreen's New game says
            parts.append(f"<p class='rings' id='rings'>{esc(rings_not_told())}</p>")
        if match.phase is Phase.OVER:
            parts.append(self._form_html("next", _("Next game, same teams"), cls="go"))
        else:  # asked first: the game in play would end with no winner
            parts.append(self._form_html("next", _("New game, same teams"), ident="new"))
        parts.append("</body></html>")
        return "".join(parts)

    def _form_html(
        self,
        action: str,
        label: str,
        *,
        fields: dict[str, str] | None = None,
        cls: str = "",
        ident: str = "",
        disabled: bool = False,
    ) -> str:
        esc = html.escape
        hidden = "".join(
            f"<input type='hidden' name='{esc(k)}' value='{esc(v)}'>" for k, v in (fields or {}).items()
        )
        named = f" id='{esc(ident)}'" if ident else ""
        return (
            f"<form method='post' action='{esc(self.path())}/{action}'>{hidden}"
            f"<button class='{cls}'{named}{' disabled' if disabled else ''}>{esc(label)}</button></form>"
        )

    def _bull_off(self, match: Match) -> str:
        esc = html.escape
        names = [t.name for t in match.teams]
        darts = "".join(
            f"<li><b>{esc(names[i])}</b>: {esc(bull_off_dart(zone, cell))}</li>"
            for i, (zone, cell) in enumerate(zip(match.bull_off_zones(), match.bull_off_cells(), strict=True))
        )
        parts = [f"<section id='bull-off'><h2>{esc(_('Bull-off'))}</h2><ul>{darts}</ul>"]
        if match.bull_off_undecided:
            votes = self.api.closer.votes()
            said = "".join(
                f"<li>{esc(_('{team} say: {closer}').format(team=names[i], closer=names[v]))}</li>"
                for i, v in enumerate(votes)
                if v is not None
            )
            parts.append(f"<p class='ask'>{esc(_('The board cannot tell: who was closer?'))}</p>")
            if said:
                parts.append(f"<ul class='votes'>{said}</ul>")
            parts.append(
                "<div class='row'>"
                + "".join(
                    self._form_html("closer", name, fields={"team": str(i)}, cls=f"team{i}")
                    for i, name in enumerate(names)
                )
                + "</div>"
            )
        parts.append("</section>")
        return "".join(parts)

    def _play(self, match: Match) -> str:
        esc = html.escape
        parts = ["<section id='play'><div class='row'>"]
        if match.phase in (Phase.THROWING, Phase.TAKEOUT):
            parts.append(
                self._form_html(
                    "visit",
                    _("Next"),
                    fields={"visit": str(match.state().visit)},
                    cls="go" if match.phase is Phase.TAKEOUT else "",
                )
            )
        # Undo and Correct stand there before the game's first dart too (greyed): the pad below
        # must not move under the host's finger when that dart comes.
        last = match.last_dart()
        off = " disabled" if last is None else ""
        shown = cell_text(last) if last is not None else "–"
        correct = _("Correct the last dart ({cell}) to").format(cell=shown)
        parts.append(self._form_html("undo", _("Undo"), disabled=last is None))
        parts.append("</div>")
        parts.append(
            f"<form method='post' action='{esc(self.path())}/correct' class='row'>"
            f"<label>{esc(correct)}"
            f" <input name='cell' size='6' maxlength='{MAX_FIELD}' autocomplete='off' "
            f"placeholder='{esc(_('e.g. T20'))}'{off}></label>"
            f"<button{off}>{esc(_('Correct'))}</button></form>"
        )
        parts.append("</section>")
        return "".join(parts)

    def _pad(self, match: Match) -> str:
        """The simulator's darts: type a cell or tap the drawn board (host.js), or throw one
        with the virtual thrower's scatter."""
        esc = html.escape
        return (
            f"<section id='pad'><h2>{esc(_('Score a dart (manual scoring)'))}</h2>"
            f"<form method='post' action='{esc(self.path())}/throw' id='throw'>"
            f"<div id='pad-board' data-profile='{esc(match.setup.rules.profile.value)}'"
            f" data-label='{esc(_('Dartboard'))}'></div>"
            f"<div class='row'><input name='cell' id='cell' size='6' maxlength='{MAX_FIELD}'"
            f" autocomplete='off' placeholder='{esc(_('e.g. T20'))}'>"
            f"<button>{esc(_('Throw'))}</button>"
            f"<button formaction='{esc(self.path())}/virtual'>{esc(_('Virtual throw'))}</button>"
            "</div></form></section>"
        )

    def _other_game(self, chosen: int | None) -> str | None:
        """Another kind of game with a team link per side (the classic duel the kiosk runs
        from phones): its public status and each side's phone, with Move. None for any other
        game (or none)."""
        game = self.api.service.match
        if game is None:
            return None
        view = game.public_view()
        names, winner = view.get("players"), view.get("winner")
        if (
            not isinstance(names, list)
            or len(names) != 2
            or not any(self.team_url(i) is not None for i in (0, 1))
        ):
            return None
        esc = html.escape
        shots, hits = view.get("shots", [0, 0]), view.get("hits", [0, 0])
        if winner is not None:
            status = _("Victory for {team}!").format(team=names[winner])
        else:
            status = _("In play: {who}").format(who=names[view.get("turn") or 0])
        tally = " · ".join(
            _("{team}: {shots} shots, {hits} hits").format(team=names[i], shots=shots[i], hits=hits[i])
            for i in (0, 1)
        )
        # Its fleets stand from the start (random, each shown only on its side's phone): the
        # codes are handed over one side at a time, as the touchscreen does.
        return f"<p class='status' id='status'>{esc(status)}</p><p>{esc(tally)}</p>" + self._phones(
            names, [False, False], False, chosen
        )

    def _phones(self, names: list[str], placed: list[bool], placing: bool, chosen: int | None) -> str:
        """The links, as the touchscreen's hand-over gives them: one team's QR code at a time
        (the first team no phone holds yet, or the one asked for), the others as a status."""
        esc = html.escape
        free = [i for i in (0, 1) if self.team_url(i) is not None and not self.api.seats.phone_held(i)]
        # A team whose fleet is in and no phone holds its link gets its code only when the host
        # asks for it (after Move): whoever scanned it would see that fleet.
        open_teams = [i for i in free if not placed[i]]
        step = chosen if chosen in free else (open_teams[0] if open_teams else None)
        parts = [f"<section id='phones'><h2>{esc(_('Phones'))}</h2>"]
        if step is not None:
            url = self.team_url(step)
            assert url is not None
            other = names[1 - step]
            ask = _("{other}, look away – {team}, scan this with your team’s phone").format(
                other=other, team=names[step]
            )
            parts.append(f"<p class='ask'>{esc(ask)}</p>")
            parts.append(self._link(url))
            for i in open_teams:
                if i != step:
                    parts.append(
                        f"<p><a href='{esc(self.path())}?team={i}'>"
                        f"{esc(_('Show the code of {team} instead').format(team=names[i]))}"
                        "</a></p>"
                    )
        for i in (0, 1):
            if self.team_url(i) is None:
                parts.append(f"<p><b>{esc(names[i])}</b>: {esc(_('the kiosk plays'))}</p>")
                continue
            held = self.api.seats.phone_held(i)
            state = (_("on a phone ✓") if held else _("no phone yet")) + (
                " · " + _("fleet locked in ✓") if placed[i] and placing else ""
            )
            parts.append(f"<div class='row'><p><b>{esc(names[i])}</b>: {esc(state)}</p>")
            if held or placed[i]:
                # A new link, the old phone cut off; its code then shows on this team's step.
                parts.append(
                    self._form_html(
                        "move",
                        _("Move to another phone") if held else _("Play on a phone"),
                        fields={"team": str(i)},
                    )
                )
            parts.append("</div>")
        spectators = self.spectator_url()
        if spectators:
            parts.append(f"<p>{esc(_('Spectators'))}: <a href='{esc(spectators)}'>{esc(spectators)}</a></p>")
        parts.append("</section>")
        return "".join(parts)

    @staticmethod
    def _link(url: str) -> str:
        esc = html.escape
        svg = qr.qr_svg(url, scale=6).decode()
        return f"<div class='qr'>{svg}</div><p><a href='{esc(url)}'>{esc(url)}</a></p>"

    def _status(self, match: Match) -> str:
        names = [t.name for t in match.teams]
        if match.winner is not None:
            return _("Victory for {team}!").format(team=names[match.winner])
        if match.phase is Phase.PLACING:
            return _("Placing the fleets: each team scans its code.")
        if match.phase is Phase.BULL_OFF:
            if match.bull_off_undecided:
                return _("Bull-off: who was closer?")
            return _("Bull-off: one dart each at the bull.")
        team, player, dart = match.up_next()
        if team is None:
            return ""
        named = match.teams[team].thrower(player)  # a team without named players: named once
        who = names[team] if named is None else f"{names[team]} ({named})"
        if match.phase is Phase.TAKEOUT and self.api.service.board_takes_out():
            return _("Pull the darts out: the cameras end the visit. Next: {who}").format(who=who)
        if match.phase is Phase.TAKEOUT:
            return _("Pull the darts out, then Next. Next: {who}").format(who=who)
        return _("In play: {who}, dart {dart}").format(who=who, dart=dart)


def _result_word(result: Result) -> str:
    return {
        Result.HIT: _("HIT"),
        Result.MISS: _("MISS"),
        Result.SUNK: _("SUNK!"),
        Result.REPEAT: _("REPEAT"),
    }[result]


def _team_field(value: str | None) -> int | None:
    return {"0": 0, "1": 1}.get((value or "").strip())
