"""The hub's web app (aiohttp): what kiosks send, what admins do, what everyone reads.

* Kiosks: `POST /api/pair` (a one-time code -> the kiosk's key), `POST /api/games` (a signed
  report of a finished game), `GET /api/kiosk/boards` (signed: the kiosk's league table, daily
  board and venue board, for its Stats screen).
* Admins (`Authorization: Bearer <token>`): `POST /api/admin/leagues`, `.../leagues/{id}/venues`,
  `.../leagues/{id}/seasons`, `.../venues/{id}/codes`, `.../kiosks/{id}/revoke`.
* Everyone: `/`, `/leagues/{id}` (table; `?season=`), `/leagues/{id}/ratings/{kind}`,
  `/leagues/{id}/daily` (`?date=`), `/leagues/{id}/players/{key}`, `/venues/{id}`; the same
  under `/api/...` as JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import html
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import quote

import psycopg
from aiohttp import web
from psycopg_pool import AsyncConnectionPool

from hub import admin, ingest, kiosks, pages, standings, throttle, untrusted
from hub.kiosks import Refused
from hub.pages import _
from kiosk.bucket import Bucket
from kiosk.hosted import HOSTED
from kiosk.i18n import language, recording, said_json, said_of
from kiosk.league import signing
from kiosk.lines import WireError, untrusted_json

log = logging.getLogger("dartship.hub")

MAX_REPORT_BYTES = 1024 * 1024  # a long dart game's report is ~50 kB
# A connection must send its request's headers this soon after it opens or after its last
# answer (aiohttp's keep-alive timer: the phones' server's rule), and a body must be whole this
# soon after its headers: a kiosk sends its report at once (1 MiB takes 8 s at 1 Mbit/s), a
# slowloris never.
HEADER_SECONDS = 10.0
BODY_SECONDS = 30.0
MAX_POINTS = 1000  # a league's points for a win or a loss
POOL: web.AppKey[AsyncConnectionPool] = web.AppKey("pool", AsyncConnectionPool)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Limits:
    """Uploads per kiosk: buckets in memory, per hub process (docs/league.md says why they stay
    there). The pairing throttle is in PostgreSQL: `hub.throttle`."""

    def __init__(self) -> None:
        self.uploads: dict[int, Bucket] = {}

    def may_upload(self, kiosk: int) -> bool:
        if len(self.uploads) > 50_000:
            self.uploads.clear()  # a flood of kiosks must not grow the hub without bound
        bucket = self.uploads.setdefault(kiosk, Bucket.full(60, 2.0, time.monotonic()))
        now = time.monotonic()
        if bucket.empty(now):
            return False
        bucket.take(now)
        return True


LIMITS: web.AppKey[Limits] = web.AppKey("limits", Limits)
PAIRING: web.AppKey[throttle.PairingLimits] = web.AppKey("pairing", throttle.PairingLimits)
MIRROR: web.AppKey[throttle.Mirror] = web.AppKey("pairing_mirror", throttle.Mirror)
READ_CONNECTIONS = 3  # of the pool's, kept for pages and the kiosks' boards
MAX_WAITING = 32  # uploads queued beyond this are told to come back later (503)


class Turns:
    """Uploads take turns for the pool's connections, and no more than `MAX_WAITING` wait: a
    hub behind on its work says so at once (503, and the kiosk backs off with jitter) instead
    of keeping a kiosk waiting past its timeout, which would only make it send the same game
    again while the hub still works on it."""

    def __init__(self, at_once: int, waiting: int = MAX_WAITING) -> None:
        self._turns = asyncio.Semaphore(at_once)
        self._most = waiting
        self.waiting = 0

    @contextlib.asynccontextmanager
    async def take(self) -> AsyncIterator[None]:
        if self.waiting >= self._most:
            raise Refused(503, "busy", _("the hub is busy; try again shortly"))
        self.waiting += 1
        try:
            await self._turns.acquire()
        finally:
            self.waiting -= 1
        try:
            yield
        finally:
            self._turns.release()


UPLOADS: web.AppKey[Turns] = web.AppKey("uploads", Turns)


def problem(
    status: int, code: str, message: str, details: Mapping[str, str | int] | None = None
) -> web.Response:
    """An error answer: `code` for programs (never translated, never changed), `error` for
    people, in the language of the request (`errors`), and `said`: how to say `error` again in
    another language (its msgid and the values its fields show, `kiosk.i18n.said_json`), for a
    kiosk that keeps the reason and shows it later in whatever language it speaks then."""
    body: dict[str, object] = {**(details or {}), "error": str(message), "code": code}
    said = said_json(message)
    if said is not None:
        body["said"] = said
    return web.json_response(
        body,
        status=status,
        headers={"Content-Language": language(), "Vary": "Accept-Language"},
    )


@web.middleware
async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A refusal is an answer with its reason; a database that is away is a 503 to retry.
    Every answer speaks the reader's language as the pages do (`?lang=`, else Accept-Language:
    a kiosk sends its own), so its reasons do too."""
    reader = pages.language_of(request.headers.get("Accept-Language"), request.query.get("lang"))
    with pages.rendered_in(reader), recording():  # every message remembers how it was made
        try:
            return await handler(request)
        except Refused as err:
            return problem(err.status, err.code, said_of(err), err.details)
        except standings.NotFound as err:
            return problem(404, err.code, said_of(err))
        except admin.AdminError as err:
            return problem(400, err.code, said_of(err))
        except (TimeoutError, psycopg.OperationalError) as err:
            log.warning("database unavailable: %s", err)
            return problem(
                503, "database_away", _("the league's database is not reachable; try again shortly")
            )
        except Exception as err:
            from psycopg_pool import PoolTimeout

            if isinstance(err, PoolTimeout):
                return problem(503, "busy", _("the hub is busy; try again shortly"))
            raise


async def _body(request: web.Request) -> bytes:
    if request.content_length is not None and request.content_length > MAX_REPORT_BYTES:
        raise Refused(
            413,
            "too_large",
            _("the request is {size} bytes; at most {most} are taken").format(
                size=request.content_length, most=MAX_REPORT_BYTES
            ),
        )
    try:
        async with asyncio.timeout(BODY_SECONDS):
            return await request.read()
    except TimeoutError:
        raise Refused(408, "too_slow", _("the request came too slowly")) from None
    except web.HTTPRequestEntityTooLarge:
        raise Refused(
            413, "too_large", _("the request is larger than {most} bytes").format(most=MAX_REPORT_BYTES)
        ) from None


def _text(data: dict[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise admin.AdminError(_("{key!r} must be a text").format(key=key))
    return value


def _points(data: dict[str, Any], key: str, default: int) -> int:
    """A league's points for a win or a loss: a whole number a table can add up."""
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not -MAX_POINTS <= value <= MAX_POINTS:
        raise admin.AdminError(
            _("{key!r} must be a whole number from {least} to {most}").format(
                key=key, least=-MAX_POINTS, most=MAX_POINTS
            )
        )
    return value


def _int(request: web.Request, name: str) -> int:
    try:
        return int(request.match_info[name])
    except ValueError:
        raise standings.NotFound(_("{name} must be a number").format(name=name), "bad_number") from None


def _query(request: web.Request, name: str) -> str | None:
    value = request.query.get(name)
    return None if value is None else untrusted.address_text(value)


# ---- kiosks ---------------------------------------------------------------------------------


async def pair(request: web.Request) -> web.Response:
    """A pairing code for a kiosk's key. Every guess spends a token of its address's bucket and
    the hub-wide one in PostgreSQL (`hub.throttle`: the same allowance over restarts and for
    every hub process) before the code is looked at; a code that pairs gives them back. A body
    that is no guess (not JSON, no code, too slow) spends nothing."""
    pool, limits = request.app[POOL], request.app[PAIRING]
    address = request.remote or "?"
    raw = await _body(request)
    data = untrusted.json_object(raw)
    code, name, venue = data.get("code"), data.get("name", "kiosk"), data.get("venue")
    if (
        not isinstance(code, str)
        or not isinstance(name, str)
        or not (venue is None or (isinstance(venue, int) and not isinstance(venue, bool)))
    ):
        return problem(
            400,
            "bad_pairing",
            _(
                'send a JSON object with "code" (the pairing code, three groups of four letters and digits) '
                'and "name" (the kiosk\'s name); a kiosk paired anew may add "venue" (the number of its own)'
            ),
        )
    mirror = request.app[MIRROR]
    # The mirror first: a bucket this process emptied by itself costs the database nothing.
    if mirror.refuses(address) or not await throttle.take(pool, limits, address):
        return problem(429, "too_many_codes", _("too many wrong pairing codes; wait a minute"))
    mirror.took(address)
    anew = None
    if venue is not None or signing.KIOSK in request.headers:
        anew = kiosks.Anew(venue, request.headers, request.path_qs, raw)
    async with pool.connection() as conn:
        # Refused (a wrong code, another venue's): the token is spent.
        paired = await kiosks.pair(conn, code, name, anew)
    await throttle.give_back(pool, limits, address)
    mirror.gave_back(address)
    log.info("kiosk %s paired with venue %s (%s)", paired.kiosk, paired.venue, paired.venue_name)
    if paired.replaced is not None:
        log.info("kiosk %s paired anew as kiosk %s: its old key is revoked", paired.replaced, paired.kiosk)
    return web.json_response(
        {
            "kiosk": paired.kiosk,
            "key": paired.key,
            "venue": paired.venue,
            "venue_name": paired.venue_name,
            "league": paired.league,
            "league_name": paired.league_name,
            "replaced": paired.replaced,
        },
        status=201,
    )


async def upload(request: web.Request) -> web.Response:
    body = await _body(request)
    # The request's nonce, the game and its players: one transaction, one commit. A refused
    # report leaves nothing behind (its nonce neither: sent again, it is refused again).
    # Uploads take turns for all but a few of the pool's connections: the pages stay quick.
    async with request.app[UPLOADS].take(), request.app[POOL].connection() as conn, conn.transaction():
        signer = await kiosks.signer(conn, request.headers, request.method, request.path_qs, body)
        if not request.app[LIMITS].may_upload(signer.kiosk):
            return problem(429, "too_many_uploads", _("too many uploads from this kiosk; slow down"))
        try:
            report, verified = ingest.check(signer, body)
            received = await ingest.store(conn, signer, report, verified)
        except Refused as err:
            log.warning(
                "kiosk %s: game %s refused (HTTP %s): %s", signer.kiosk, _uuid_of(body), err.status, err
            )
            raise
    if received.new:
        log.info("kiosk %s: game %s received", signer.kiosk, received.uuid)
    return web.json_response(
        {"game": received.uuid, "status": "new" if received.new else "duplicate"},
        status=201 if received.new else 200,
    )


def _uuid_of(body: bytes) -> str:
    """The game a refused report says it is, for the log (best effort: it may not be JSON)."""
    try:
        return str(untrusted_json(body)["uuid"])[:40]
    except (WireError, KeyError, TypeError):
        return "(unreadable)"


async def kiosk_boards(request: web.Request) -> web.Response:
    async with request.app[POOL].connection() as conn:
        signer = await kiosks.signer(
            conn, request.headers, request.method, request.path_qs, await _body(request)
        )
        row = await (await conn.execute("SELECT secret FROM leagues WHERE id=%s", [signer.league])).fetchone()
        assert row is not None
        today = datetime.date.today()
        # Yesterday's, today's and tomorrow's (by the hub's clock): a kiosk offline at midnight
        # still plays the league's board, and so does a bar whose day is still the hub's
        # yesterday (a kiosk's daily game is of the kiosk's own date).
        seeds = {
            day.isoformat(): ingest.daily_seed(row[0], day)
            for day in (today + datetime.timedelta(days=step) for step in (-1, 0, 1))
        }
        return web.json_response(
            {
                "daily_seeds": seeds,
                "table": await _table_data(conn, signer.league, None),
                "daily": await _daily_data(conn, signer.league, None),
                "venue": await _venue_data(conn, signer.venue),
            }
        )


# ---- admins -----------------------------------------------------------------------------------


async def _admin(request: web.Request, conn: psycopg.AsyncConnection, league: int | None) -> None:
    """Refused unless the request bears a live admin token for `league` (None: a token for
    every league, which alone may create leagues)."""
    header = request.headers.get("Authorization", "")
    token = await admin.token_of(conn, header[7:]) if header.startswith("Bearer ") else None
    if token is None:
        raise Refused(
            401,
            "admin_token",
            _("an admin token is needed (Authorization: Bearer ...; made by `dartship hub admin token`)"),
        )
    if token.league is not None and token.league != league:
        raise Refused(
            403, "other_league", _("this token is for league {league} only").format(league=token.league)
        )


async def admin_league(request: web.Request) -> web.Response:
    data = untrusted.json_object(await _body(request))
    async with request.app[POOL].connection() as conn:
        await _admin(request, conn, None)
        league = await admin.create_league(
            conn,
            _text(data, "name", ""),
            points_win=_points(data, "points_win", 3),
            points_loss=_points(data, "points_loss", 0),
        )
    return web.json_response({"league": league}, status=201)


async def admin_venue(request: web.Request) -> web.Response:
    data = untrusted.json_object(await _body(request))
    league = _int(request, "league")
    async with request.app[POOL].connection() as conn:
        await _admin(request, conn, league)
        venue = await admin.create_venue(conn, league, _text(data, "name", ""))
    return web.json_response({"venue": venue}, status=201)


async def admin_season(request: web.Request) -> web.Response:
    data = untrusted.json_object(await _body(request))
    league = _int(request, "league")
    try:
        starts = datetime.date.fromisoformat(str(data.get("starts")))
    except ValueError:
        raise Refused(400, "bad_date", _("'starts' must be a date like 2027-01-01")) from None
    async with request.app[POOL].connection() as conn:
        await _admin(request, conn, league)
        name = _text(data, "name", str(starts.year))
        await admin.add_season(conn, league, name, starts)
    return web.json_response({"season": name}, status=201)


async def admin_code(request: web.Request) -> web.Response:
    venue = _int(request, "venue")
    async with request.app[POOL].connection() as conn:
        await _admin(request, conn, await admin.venue_league(conn, venue))
        code = await admin.pairing_code(conn, venue)
    return web.json_response({"code": code, "hours": admin.CODE_HOURS}, status=201)


async def admin_revoke(request: web.Request) -> web.Response:
    kiosk = _int(request, "kiosk")
    async with request.app[POOL].connection() as conn:
        await _admin(request, conn, await admin.kiosk_league(conn, kiosk))
        await admin.revoke(conn, kiosk)
    log.info("kiosk %s revoked", kiosk)
    return web.json_response({"kiosk": kiosk, "revoked": True})


# ---- what everyone reads -----------------------------------------------------------------------


def _wants_json(request: web.Request) -> bool:
    return request.path.startswith("/api/")


def _answer(
    request: web.Request, data: dict[str, Any], render: Callable[[dict[str, Any]], str]
) -> web.Response:
    if _wants_json(request):
        return web.json_response(data)
    return web.Response(  # in the reader's language: `errors` speaks it for the whole request
        text=render(data),
        content_type="text/html",
        headers={"Content-Language": language(), "Vary": "Accept-Language"},
    )


def _row(row: standings.Row) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "player": row.player,
        "key": row.key,
        "games": row.games,
        "wins": row.wins,
        "points": row.points,
    }


async def _table_data(conn: psycopg.AsyncConnection, league: int, season: str | None) -> dict[str, Any]:
    name, win, loss = await standings.league_name(conn, league)
    chosen = await standings.season(conn, league, season)
    rows = await standings.table(conn, league, chosen)
    return {
        "league": league,
        "name": name,
        "season": chosen.name,
        "seasons": [s.name for s in await standings.seasons(conn, league)],
        "points": {"win": win, "loss": loss},
        "rows": [_row(r) for r in rows],
    }


async def _daily_data(conn: psycopg.AsyncConnection, league: int, day: str | None) -> dict[str, Any]:
    try:
        date = datetime.date.fromisoformat(day) if day else datetime.date.today()
    except ValueError:
        # A page's address that names no day is a page that is not there (as `bad_number` is
        # for a path); `bad_date` is a 400 only: a date in a request's body (docs/league.md).
        raise standings.NotFound(
            _("there is no day {value!r}: a day is a date like 2026-12-01").format(value=(day or "")[:10]),
            "no_such_day",
        ) from None
    rows = await standings.daily(conn, league, date)
    return {
        "league": league,
        "date": date.isoformat(),
        "rows": [
            {
                "rank": r.rank,
                "player": r.player,
                "venue": r.venue,
                "shots": r.shots,
                "finished": r.finished.isoformat(),
            }
            for r in rows
        ],
    }


async def _venue_data(conn: psycopg.AsyncConnection, venue: int) -> dict[str, Any]:
    name, league, rows = await standings.venue_board(conn, venue)
    return {"venue": venue, "name": name, "league": league, "rows": [_row(r) for r in rows]}


def _table_page(data: dict[str, Any]) -> str:
    league = data["league"]
    rows = [
        (
            r["rank"],
            pages.link(pages.player_href(league, r["key"]), r["player"]),
            r["games"],
            r["wins"],
            r["points"],
        )
        for r in data["rows"]
    ]
    seasons = " ".join(pages.link(f"/leagues/{league}?season={quote(s)}", s) for s in data["seasons"])
    season = html.escape(
        _("Season {season} · a win {win} points, a loss {loss} · seasons:").format(
            season=data["season"], win=data["points"]["win"], loss=data["points"]["loss"]
        )
    )
    body = f'<p class="quiet">{season} {seasons}</p>' + pages.table(
        ("#", _("Player"), _("Games"), _("Wins"), _("Points")),
        rows,
        numeric=frozenset({0, 2, 3, 4}),
        raw=frozenset({1}),
    )
    nav = [
        (f"/leagues/{league}/ratings/{k}", _("Ratings: {kind}").format(kind=pages.kind_name(k)))
        for k in HOSTED
    ]
    return pages.page(
        _("{league}: the table").format(league=data["name"]),
        body,
        [*nav, (f"/leagues/{league}/daily", _("Daily challenge"))],
    )


async def league_list(request: web.Request) -> web.Response:
    async with request.app[POOL].connection() as conn:
        leagues = await (await conn.execute("SELECT id, name FROM leagues ORDER BY name")).fetchall()
        venues = await (await conn.execute("SELECT id, league, name FROM venues ORDER BY name")).fetchall()
    data = {
        "leagues": [
            {
                "league": lid,
                "name": name,
                "venues": [{"venue": v, "name": vn} for v, vl, vn in venues if vl == lid],
            }
            for lid, name in leagues
        ]
    }

    def render(d: dict[str, Any]) -> str:
        items = "".join(
            "<li>"
            + pages.link(f"/leagues/{lg['league']}", lg["name"])
            + ": "
            + ", ".join(pages.link(f"/venues/{v['venue']}", v["name"]) for v in lg["venues"])
            + "</li>"
            for lg in d["leagues"]
        )
        return pages.page(_("Dartship leagues"), f"<ul>{items}</ul>")

    return _answer(request, data, render)


async def league_table(request: web.Request) -> web.Response:
    async with request.app[POOL].connection() as conn:
        data = await _table_data(conn, _int(request, "league"), _query(request, "season"))
    return _answer(request, data, _table_page)


async def league_ratings(request: web.Request) -> web.Response:
    league, kind = _int(request, "league"), untrusted.address_text(request.match_info["kind"])
    async with request.app[POOL].connection() as conn:
        name, _w, _l = await standings.league_name(conn, league)
        found = await standings.ratings(conn, league, kind)
    data = {
        "league": league,
        "name": name,
        "kind": kind,
        "rows": [
            {
                "rank": n,
                "player": r.player,
                "key": r.key,
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
                "rating": round(r.ordinal, 3),
                "games": r.games,
            }
            for n, r in enumerate(standings.ranked(found), start=1)
        ],
    }

    def render(d: dict[str, Any]) -> str:
        rows = [
            (
                r["rank"],
                pages.link(pages.player_href(league, r["key"]), r["player"]),
                f"{r['rating']:.1f}",
                f"{r['mu']:.1f} ± {r['sigma']:.1f}",
                r["games"],
            )
            for r in d["rows"]
        ]
        about = html.escape(
            _("openskill (Plackett-Luce): rating = mu - 3 sigma; a team's players share its result.")
        )
        body = f'<p class="quiet">{about}</p>' + pages.table(
            ("#", _("Player"), _("Rating"), "mu ± sigma", _("Games")),
            rows,
            numeric=frozenset({0, 2, 4}),
            raw=frozenset({1}),
        )
        return pages.page(
            _("{league}: ratings, {kind}").format(league=d["name"], kind=pages.kind_name(kind)),
            body,
            [(f"/leagues/{league}", _("Table"))],
        )

    return _answer(request, data, render)


async def league_daily(request: web.Request) -> web.Response:
    league = _int(request, "league")
    async with request.app[POOL].connection() as conn:
        name, _w, _l = await standings.league_name(conn, league)
        data = {**await _daily_data(conn, league, _query(request, "date")), "name": name}

    def render(d: dict[str, Any]) -> str:
        rows = [(r["rank"], r["player"], r["venue"], r["shots"]) for r in d["rows"]]
        about = html.escape(
            _(
                "Classic daily challenge of {date}: one fleet for every bar of the league; "
                "fewest shots first."
            ).format(date=d["date"])
        )
        body = f'<p class="quiet">{about}</p>' + pages.table(
            ("#", _("Player"), _("Bar"), _("Shots")), rows, numeric=frozenset({0, 3})
        )
        return pages.page(
            _("{league}: daily challenge").format(league=d["name"]),
            body,
            [(f"/leagues/{league}", _("Table"))],
        )

    return _answer(request, data, render)


async def player_page(request: web.Request) -> web.Response:
    league, key = _int(request, "league"), untrusted.address_text(request.match_info["key"])
    async with request.app[POOL].connection() as conn:
        name, games = await standings.player(conn, league, key)
        rated = {kind: await standings.ratings(conn, league, kind) for kind in HOSTED}
    data = {
        "league": league,
        "player": name,
        "key": key,
        "ratings": {
            kind: {
                "rating": round(r.by_key[key].ordinal, 3),
                "mu": round(r.by_key[key].mu, 3),
                "sigma": round(r.by_key[key].sigma, 3),
                "history": [[at.isoformat(), round(v, 3)] for at, v in r.history.get(key, [])],
            }
            for kind, r in rated.items()
            if key in r.by_key
        },
        "games": [
            {
                "finished": g.finished.isoformat(),
                "kind": g.kind,
                "venue": g.venue,
                "won": g.won,
                "shots": g.shots,
                "hits": g.hits,
                "opponents": g.opponents,
                "computers": g.computers,
            }
            for g in games
        ],
    }

    def render(d: dict[str, Any]) -> str:
        ratings = pages.table(
            (_("Game"), _("Rating"), _("Over time")),
            [
                (
                    pages.kind_name(kind),
                    f"{r['rating']:.1f}",
                    " → ".join(f"{v:.1f}" for _at, v in r["history"][-12:]),
                )
                for kind, r in d["ratings"].items()
            ],
        )
        when = pages.when_header(g["finished"] for g in d["games"])
        games = pages.table(
            (when, _("Game"), _("Bar"), _("Against"), _("Result"), _("Shots"), _("Hits")),
            [
                (
                    pages.local_time(g["finished"]),
                    pages.kind_name(g["kind"]),
                    g["venue"],
                    pages.opponents(g["opponents"], g["computers"]),
                    _("won") if g["won"] else _("lost"),
                    g["shots"],
                    g["hits"],
                )
                for g in d["games"]
            ],
            numeric=frozenset({5, 6}),
            cards=True,
        )
        return pages.page(
            d["player"],
            f"<h2>{html.escape(_('Ratings'))}</h2>{ratings}<h2>{html.escape(_('Games'))}</h2>{games}",
            [(f"/leagues/{league}", _("Table"))],
        )

    return _answer(request, data, render)


async def venue_page(request: web.Request) -> web.Response:
    async with request.app[POOL].connection() as conn:
        data = await _venue_data(conn, _int(request, "venue"))

    def render(d: dict[str, Any]) -> str:
        rows = [
            (
                r["rank"],
                pages.link(pages.player_href(d["league"], r["key"]), r["player"]),
                r["games"],
                r["wins"],
                r["points"],
            )
            for r in d["rows"]
        ]
        return pages.page(
            _("{venue}: leaderboard").format(venue=d["name"]),
            pages.table(
                ("#", _("Player"), _("Games"), _("Wins"), _("Points")),
                rows,
                numeric=frozenset({0, 2, 3, 4}),
                raw=frozenset({1}),
            ),
            [(f"/leagues/{d['league']}", _("League table"))],
        )

    return _answer(request, data, render)


async def health(request: web.Request) -> web.Response:
    async with request.app[POOL].connection() as conn:
        await conn.execute("SELECT 1")
    return web.json_response({"ok": True})


async def _sweep(app: web.Application) -> None:
    """Old nonces and full pairing buckets go, once a minute, by whichever hub process gets
    there."""
    while True:
        await asyncio.sleep(60)
        try:
            async with app[POOL].connection() as conn:
                await kiosks.forget_old_nonces(conn)
                await throttle.sweep(conn)
        except Exception as err:  # a database that is away now is retried next minute
            log.warning("nonce and throttle sweep: %s", err)


def runner_options() -> dict[str, Any]:
    """How the app is run (`dartship hub`, the tests' hubs): no access log (a page's address
    names a player), and headers that trickle in are cut off."""
    return {"access_log": None, "keepalive_timeout": HEADER_SECONDS}


def make_app(
    pool: AsyncConnectionPool,
    pairing: throttle.PairingLimits | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> web.Application:
    """The hub on `pool`; `pairing`: how many wrong pairing codes it lets through (tests and
    benches choose their own; `dartship hub` the defaults); `clock`: the pairing mirror's
    (`throttle.Mirror`; tests move it as they move the database's stored times)."""
    app = web.Application(middlewares=[errors], client_max_size=MAX_REPORT_BYTES)
    app[POOL] = pool
    app[LIMITS] = Limits()
    app[PAIRING] = pairing or throttle.PairingLimits()
    app[MIRROR] = throttle.Mirror(app[PAIRING], clock)
    app[UPLOADS] = Turns(max(1, pool.max_size - READ_CONNECTIONS))
    app.router.add_post("/api/pair", pair)
    app.router.add_post("/api/games", upload)
    app.router.add_get("/api/kiosk/boards", kiosk_boards)
    app.router.add_post("/api/admin/leagues", admin_league)
    app.router.add_post("/api/admin/leagues/{league}/venues", admin_venue)
    app.router.add_post("/api/admin/leagues/{league}/seasons", admin_season)
    app.router.add_post("/api/admin/venues/{venue}/codes", admin_code)
    app.router.add_post("/api/admin/kiosks/{kiosk}/revoke", admin_revoke)
    for prefix in ("", "/api"):
        app.router.add_get(f"{prefix}/leagues/{{league}}", league_table)
        app.router.add_get(f"{prefix}/leagues/{{league}}/ratings/{{kind}}", league_ratings)
        app.router.add_get(f"{prefix}/leagues/{{league}}/daily", league_daily)
        app.router.add_get(f"{prefix}/leagues/{{league}}/players/{{key}}", player_page)
        app.router.add_get(f"{prefix}/venues/{{venue}}", venue_page)
    app.router.add_get("/", league_list)
    app.router.add_get("/api/leagues", league_list)
    app.router.add_get("/healthz", health)

    async def sweeper(app: web.Application) -> Any:
        task = asyncio.create_task(_sweep(app))
        yield
        task.cancel()

    app.cleanup_ctx.append(sweeper)
    return app
