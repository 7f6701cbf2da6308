"""The dart game's phone routes: the spectators' page and each team's API (docs/handheld-api.md
describes them). The links, who holds them, the guard and the sockets are the phone seats'
(`ui/handheld/seats.py`); a team route first claims its seat there (`_seat`): only the phone that
holds the link gets in, any other gets 403 and nothing of the fleet.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from aiohttp import web

from kiosk.board import CellError, Profile, board_for
from kiosk.darts.closer import CloserVotes
from kiosk.darts.double_next import refuse_stale
from kiosk.darts.fleet import MAX_SHIP, PlacementError, make_fleet, make_ship, random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Match, Next, Phase, Place, RuleError, Unplace
from kiosk.darts.wire import event_to_dict
from kiosk.i18n import _, said_of
from kiosk.service import MatchUpdate, NotSaved, ServiceEvent, Source
from ui.handheld.darts.views import board_description, public_view, team_view
from ui.handheld.errors import json_error
from ui.handheld.hub import Audience, Spoken
from ui.handheld.language import answer_language, spoken_view
from ui.handheld.seats import Seats, json_body, serve_socket

MAX_SHIPS = 10
MAX_CELL_TEXT = 8


class DartSides:
    """The dart game's sides as the phone seats see them: both teams have a link, but for the
    team the kiosk plays in a solo game (its fleet is nobody's to see)."""

    page = "index.html"

    def owns(self, match: object) -> bool:
        return isinstance(match, Match)

    def linkless(self, match: object, side: int) -> bool:
        assert isinstance(match, Match)
        computer = match.setup.computer
        return computer is not None and computer.side == side

    def side_name(self, match: object, side: int) -> str:
        assert isinstance(match, Match)
        return match.teams[side].name


class DartsApi:
    """The dart game's routes and what its pages hear, over the kiosk's phone seats."""

    def __init__(self, seats: Seats) -> None:
        self.seats = seats
        self.service = seats.service
        self.hub = seats.hub
        self.closer = CloserVotes(self.service)
        seats.sides.append(DartSides())
        # Both phones see each other's answer to "who was closer?" as it comes; the host's desk
        # (on the spectators' feed) sees a phone take a link.
        self.closer.on_change.append(self._changed)
        seats.on_change.append(self._changed)
        self._unsubscribe = self.service.subscribe(self.on_service_event)

    async def close(self) -> None:
        self._unsubscribe()
        if self._changed in self.seats.on_change:
            self.seats.on_change.remove(self._changed)

    def routes(self) -> list[web.AbstractRouteDef]:
        return [
            web.get("/", self.root),
            web.get("/watch", self.spectator_page),
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

    # -- service events --

    def on_service_event(self, event: ServiceEvent) -> None:
        if (
            isinstance(event, MatchUpdate) and event.game == self.service.game and self.match is not None
        ):  # the dart game's pages follow only the dart game
            self._broadcast([event_to_dict(e, detail=True) for e in DARTS.events_of(event.events)])

    def _changed(self) -> None:
        self._broadcast([])

    def _broadcast(self, events: list[dict[str, Any]]) -> None:
        match, game = self.match, self.service.game
        if match is None or game is None:
            return
        public = self._public_view(match, game)
        self.hub.send(Audience.SPECTATOR, partial(_view_message, public, events))
        for team in (0, 1):
            audience = Audience.of_team(team)
            if self.hub.listening(audience):
                view = self._team_view(match, game, team)
                self.hub.send(audience, partial(_view_message, view, events))

    @property
    def match(self) -> Match | None:
        """The dart game in play (the phone page follows only the dart game)."""
        return DARTS.in_play(self.service)

    def kiosk_team(self) -> int | None:
        """Solo mode: the team the kiosk plays has no phone (its fleet is nobody's to see)."""
        match = self.match
        seat = match.setup.computer if match is not None else None
        return seat.side if seat is not None else None

    def _seat(self, request: web.Request, *, may_issue: bool = True) -> tuple[int, int, Match]:
        """`claim`, for the dart game's routes: (team, game, match)."""
        team, game = self.seats.claim(request, may_issue=may_issue)
        match = self.match
        if match is None:
            raise web.HTTPNotFound()
        return team, game, match

    # -- pages --

    async def root(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound("/watch")

    async def spectator_page(self, request: web.Request) -> web.StreamResponse:
        return self.seats.page("index.html")

    # -- public API --

    async def board(self, request: web.Request) -> web.StreamResponse:
        try:
            profile = Profile(request.match_info["profile"])
        except ValueError:
            raise json_error(
                404, "unknown_board", _("unknown board profile: use four-ring or three-ring")
            ) from None
        return web.json_response(
            board_description(board_for(profile)), headers={"Cache-Control": "max-age=3600"}
        )

    async def game_view(self, request: web.Request) -> web.StreamResponse:
        match, game = self.match, self.service.game
        body = self._public_view(match, game) if match is not None and game is not None else None
        return web.json_response(
            {"view": spoken_view(body, answer_language())}, headers={"Cache-Control": "no-store"}
        )

    async def spectator_socket(self, request: web.Request) -> web.StreamResponse:
        return await self._socket(
            request, Audience.SPECTATOR, self.service.game or 0, lambda to: self._current_view(None, to)
        )

    # -- a team's API --

    @staticmethod
    def _team_answer(body: dict[str, Any]) -> web.Response:
        """A team's answer, its view's words in its phone's language."""
        if "view" in body:
            body = {**body, "view": spoken_view(body["view"], answer_language())}
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
        return self._team_answer({"ships": [[c.code for c in ship.cells] for ship in fleet.ships]})

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
            raise json_error(409, "refused", said_of(err)) from None
        except RuleError as err:
            raise json_error(409, "not_asked", said_of(err)) from None
        current = self.match
        assert current is not None
        return self._team_answer({"vote": outcome.value, "view": self._team_view(current, game, team)})

    async def next_visit(self, request: web.Request) -> web.StreamResponse:
        """Next from the phone of the team whose visit it is (darts out; early: the darts not
        thrown count as missed, as on the touchscreen). `{"visit": N}`: the visit the page
        showed; the dart game's guard refuses a Next for a visit already over and a second one
        at once (kiosk/darts/double_next.py). Without it (an older page), the visit in play."""
        team, game, match = self._seat(request)
        visit = await _visit_field(request)
        # Reading the body yielded to the loop: the game may have moved on meanwhile.
        if self.service.game != game or self.match is not match:
            raise web.HTTPNotFound()
        try:
            # A Next for a visit over already (the team that just threw, tapping again) is told
            # so before the turn check, which would say "not your visit" to that phone.
            refuse_stale(match, visit)
        except RuleError as err:
            raise json_error(409, "refused", said_of(err)) from None
        if match.phase not in (Phase.THROWING, Phase.TAKEOUT) or match.turn != team:
            raise json_error(409, "not_your_visit", _("Next is for the team whose visit it is"))
        try:
            self.service.submit(Next(visit=visit), Source.PHONE)
        except RuleError as err:
            raise json_error(409, "refused", said_of(err)) from None
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
                raise json_error(400, "bad_cell", said_of(err)) from None
            try:
                ships.append(make_ship(cells, board))
            except PlacementError as err:
                raise json_error(422, "bad_ship", said_of(err)) from None
        try:
            fleet = make_fleet(ships, match.setup.rules.fleet)
        except PlacementError as err:
            raise json_error(422, "bad_fleet", said_of(err)) from None
        _refuse_after_start(match)
        try:
            self.service.submit(Place(team, fleet), Source.PHONE)
        except RuleError as err:
            raise json_error(409, "refused", said_of(err)) from None
        current = self.match or match
        return self._team_answer({"view": self._team_view(current, game, team)})

    async def unplace_fleet(self, request: web.Request) -> web.StreamResponse:
        """The team changes its fleet again: not ready until it locks in anew."""
        team, game, match = self._seat(request)
        _refuse_after_start(match)
        try:
            self.service.submit(Unplace(team), Source.PHONE)
        except RuleError as err:
            raise json_error(409, "refused", said_of(err)) from None
        return self._team_answer({"view": self._team_view(self.match or match, game, team)})

    async def team_socket(self, request: web.Request) -> web.StreamResponse:
        team, game, _match = self._seat(request, may_issue=False)
        return await self._socket(
            request, Audience.of_team(team), game, lambda to: self._current_view(team, to)
        )

    # -- sockets --

    def _current_view(self, team: int | None, to: str) -> str:
        match, game = self.match, self.service.game
        if match is None or game is None:
            return json.dumps({"type": "view", "view": None, "events": []})
        view = self._public_view(match, game) if team is None else self._team_view(match, game, team)
        return _view_message(view, [], to)

    async def _socket(
        self, request: web.Request, audience: Audience, game: int, first: Spoken
    ) -> web.StreamResponse:
        return await serve_socket(self.hub, request, audience, game, first)


def _view_message(view: dict[str, Any], events: list[dict[str, Any]], to: str) -> str:
    """A socket's message, its words in language `to`."""
    return json.dumps(
        {"type": "view", "view": spoken_view(view, to), "events": events}, separators=(",", ":")
    )


async def _visit_field(request: web.Request) -> int | None:
    """The visit a Next is for, from its body: `{"visit": N}`, `{}` or no body at all."""
    if not request.can_read_body:
        return None
    body = await json_body(request)
    visit = body.get("visit") if isinstance(body, dict) else None
    if not isinstance(body, dict) or (visit is not None and (type(visit) is not int or visit < 0)):
        raise json_error(400, "bad_shape", _('send {"visit": N}: the visit the page shows'))
    return visit


def _refuse_after_start(match: Match) -> None:
    if match.phase is not Phase.PLACING:
        raise json_error(409, "game_started", _("the game has started: fleets can no longer be placed"))
    if all(match.state().placed):
        raise json_error(409, "locked", _("both fleets are locked in"))


def _ship_rows(body: object) -> list[list[str]]:
    """The {"ships": [["T20", "T1"], ...]} shape, checked before any cell is read."""
    rows = body.get("ships") if isinstance(body, dict) else None
    if (
        not isinstance(rows, list)
        or not rows
        or len(rows) > MAX_SHIPS
        or not all(isinstance(row, list) and 0 < len(row) <= MAX_SHIP for row in rows)
        or not all(isinstance(text, str) and 0 < len(text) <= MAX_CELL_TEXT for row in rows for text in row)
    ):
        raise json_error(
            400,
            "bad_shape",
            _('send {"ships": [["T20", "T1"], ...]}: a list of ships, each a list of 2 to 5 cell codes'),
        )
    return rows
