"""What the hub gives: league tables per season, ratings, venue boards, players, the daily board.

Tables and boards are sums over the stored games, so they always equal a recomputation. Ratings
(openskill, Plackett-Luce, one per player and kind of game) depend on the order of games: they
are computed from scratch in the order the games finished (ties by the hub's order of arrival)
and kept per process until a new game of that league and kind arrives. A team's players share
its result (the dart game's teams of rotating players); a game counts only where people played
on every side (not against the kiosk's computer).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

import psycopg
from openskill.models import PlackettLuce, PlackettLuceRating

from kiosk.errors import DartshipError
from kiosk.hosted import HOSTED
from kiosk.i18n import _


class NotFound(DartshipError, LookupError):
    """No such league, season, venue or player (`code`: a word for programs, as `Refused`'s)."""

    def __init__(self, message: str, code: str = "not_found") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Season:
    name: str
    starts: datetime.date
    ends: datetime.date | None  # the next season's start; None: the current one


@dataclass(frozen=True)
class Row:
    """One line of a table or board."""

    rank: int
    player: str
    key: str
    games: int
    wins: int
    points: int


@dataclass(frozen=True)
class Rating:
    player: str
    key: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The figure ranked by: mu - 3 sigma (a new player starts at 0)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class DailyRow:
    rank: int
    player: str
    venue: str
    shots: int
    finished: datetime.datetime


@dataclass
class Ratings:
    by_key: dict[str, Rating] = field(default_factory=dict)
    history: dict[str, list[tuple[datetime.datetime, float]]] = field(default_factory=dict)


async def league_name(conn: psycopg.AsyncConnection, league: int) -> tuple[str, int, int]:
    row = await (
        await conn.execute("SELECT name, points_win, points_loss FROM leagues WHERE id=%s", [league])
    ).fetchone()
    if row is None:
        raise NotFound(_("no league {league}").format(league=league))
    return row[0], row[1], row[2]


async def seasons(conn: psycopg.AsyncConnection, league: int) -> list[Season]:
    rows = await (
        await conn.execute("SELECT name, starts FROM seasons WHERE league=%s ORDER BY starts", [league])
    ).fetchall()
    return [
        Season(name, starts, rows[i + 1][1] if i + 1 < len(rows) else None)
        for i, (name, starts) in enumerate(rows)
    ]


async def season(conn: psycopg.AsyncConnection, league: int, name: str | None) -> Season:
    """The named season, or the one running today (the first if none has started)."""
    found = await seasons(conn, league)
    if not found:
        raise NotFound(_("league {league} has no season").format(league=league))
    if name is not None:
        for s in found:
            if s.name == name:
                return s
        raise NotFound(_("league {league} has no season {name!r}").format(league=league, name=name))
    today = datetime.date.today()
    started = [s for s in found if s.starts <= today]
    return started[-1] if started else found[0]


def _ranked(rows: list[tuple[str, str, int, int]], win: int, loss: int) -> list[Row]:
    scored = sorted(
        ((key, name, games, wins, wins * win + (games - wins) * loss) for key, name, games, wins in rows),
        key=lambda r: (-r[4], -r[3], r[2], r[0]),
    )
    return [
        Row(n, name, key, games, wins, points)
        for n, (key, name, games, wins, points) in enumerate(scored, start=1)
    ]


async def table(conn: psycopg.AsyncConnection, league: int, season_: Season) -> list[Row]:
    """The league's table in a season: every person's games, wins and points (all kinds)."""
    _name, win, loss = await league_name(conn, league)
    ends = season_.ends or datetime.date.max
    rows = await (
        await conn.execute(
            """SELECT p.key, min(p.player), count(*), count(*) FILTER (WHERE p.won)
           FROM games g JOIN game_players p ON p.game = g.uuid
           WHERE g.league=%s AND g.counted AND NOT p.computer
             AND g.finished >= %s AND g.finished < %s
           GROUP BY p.key""",
            [league, season_.starts, ends],
        )
    ).fetchall()
    return _ranked(rows, win, loss)


async def venue_board(conn: psycopg.AsyncConnection, venue: int) -> tuple[str, int, list[Row]]:
    """A venue's leaderboard (all its games that count, all time): its name, league, rows."""
    row = await (await conn.execute("SELECT name, league FROM venues WHERE id=%s", [venue])).fetchone()
    if row is None:
        raise NotFound(_("no venue {venue}").format(venue=venue))
    name, league = row
    _lname, win, loss = await league_name(conn, league)
    rows = await (
        await conn.execute(
            """SELECT p.key, min(p.player), count(*), count(*) FILTER (WHERE p.won)
           FROM games g JOIN game_players p ON p.game = g.uuid
           WHERE g.venue=%s AND g.counted AND NOT p.computer GROUP BY p.key""",
            [venue],
        )
    ).fetchall()
    return name, league, _ranked(rows, win, loss)


# (database, league, kind) -> (what had arrived, the ratings then)
_cache: dict[tuple[str, int, str], tuple[tuple[int, int], Ratings]] = {}
_model = PlackettLuce()


async def ratings(conn: psycopg.AsyncConnection, league: int, kind: str) -> Ratings:
    """Every person's rating in this league and kind of game (see the module's docstring)."""
    if kind not in HOSTED:
        raise NotFound(_("no kind of game {kind!r}").format(kind=kind))
    stamp_row = await (
        await conn.execute(
            "SELECT count(*), coalesce(max(seq), 0) FROM games WHERE league=%s AND kind=%s AND counted",
            [league, kind],
        )
    ).fetchone()
    assert stamp_row is not None
    stamp = (int(stamp_row[0]), int(stamp_row[1]))
    where = f"{conn.info.host}:{conn.info.port}/{conn.info.dbname}"
    kept = _cache.get((where, league, kind))
    if kept is not None and kept[0] == stamp:
        return kept[1]
    rows = await (
        await conn.execute(
            """SELECT g.seq, g.finished, p.side, p.key, p.player, p.won FROM games g
           JOIN game_players p ON p.game = g.uuid
           WHERE g.league=%s AND g.kind=%s AND g.counted AND NOT p.computer
           ORDER BY g.finished, g.seq, p.side, p.key""",
            [league, kind],
        )
    ).fetchall()
    result = _rate(rows)
    _cache[(where, league, kind)] = (stamp, result)
    return result


def _rate(rows: list[tuple[int, datetime.datetime, int, str, str, bool]]) -> Ratings:
    out = Ratings()
    state: dict[str, PlackettLuceRating] = {}
    names: dict[str, str] = {}
    games: dict[str, int] = {}
    start = 0
    while start < len(rows):
        end = start
        while end < len(rows) and rows[end][0] == rows[start][0]:
            end += 1
        sides: dict[int, list[tuple[str, bool]]] = {}
        for _seq, _fin, side, key, player, won in rows[start:end]:
            sides.setdefault(side, []).append((key, won))
            names.setdefault(key, player)
        finished = rows[start][1]
        start = end
        if len(sides) < 2:
            continue
        order = sorted(sides)
        teams = [[state.setdefault(key, _model.rating(name=key)) for key, _w in sides[s]] for s in order]
        ranks = [0 if any(w for _k, w in sides[s]) else 1 for s in order]
        rated = _model.rate(teams, ranks=[float(r) for r in ranks])
        for s, team in zip(order, rated, strict=True):
            for (key, _w), new in zip(sides[s], team, strict=True):
                state[key] = new
                games[key] = games.get(key, 0) + 1
                out.history.setdefault(key, []).append((finished, new.ordinal()))
    for key, rating in state.items():
        out.by_key[key] = Rating(
            names[key],
            key,
            rating.mu,
            rating.sigma,
            games.get(key, 0),
        )
    return out


def ranked(found: Ratings) -> list[Rating]:
    return sorted(found.by_key.values(), key=lambda r: (-r.ordinal, r.key))


async def daily(conn: psycopg.AsyncConnection, league: int, day: datetime.date) -> list[DailyRow]:
    """The league's daily classic challenge of `day`, every bar on one board: the games won,
    fewest shots first, ties to whoever finished first."""
    await league_name(conn, league)
    rows = await (
        await conn.execute(
            """SELECT p.player, v.name, p.shots, g.finished FROM games g
           JOIN game_players p ON p.game = g.uuid AND p.side = 0
           JOIN venues v ON v.id = g.venue
           WHERE g.league=%s AND g.daily=%s AND g.winner = 0
           ORDER BY p.shots, g.finished, g.seq""",
            [league, day],
        )
    ).fetchall()
    return [DailyRow(n, *row) for n, row in enumerate(rows, start=1)]


@dataclass(frozen=True)
class PlayerGame:
    finished: datetime.datetime
    kind: str
    venue: str
    won: bool
    shots: int
    hits: int
    opponents: str  # the people on the other sides
    computers: int = 0  # sides the kiosk's computer played (named in the reader's language)


async def player(
    conn: psycopg.AsyncConnection, league: int, key: str, limit: int = 50
) -> tuple[str, list[PlayerGame]]:
    """A player's name and their newest games in the league (opponents named)."""
    rows = await (
        await conn.execute(
            """SELECT p.player, g.finished, g.kind, v.name, p.won, p.shots, p.hits,
                  (SELECT string_agg(DISTINCT o.player, ', ') FROM game_players o
                   WHERE o.game = g.uuid AND o.side != p.side AND NOT o.computer),
                  (SELECT count(*) FROM game_players o
                   WHERE o.game = g.uuid AND o.side != p.side AND o.computer)
           FROM game_players p JOIN games g ON g.uuid = p.game JOIN venues v ON v.id = g.venue
           WHERE g.league=%s AND p.key=%s AND NOT p.computer
           ORDER BY g.finished DESC, g.seq DESC LIMIT %s""",
            [league, key, limit],
        )
    ).fetchall()
    if not rows:
        raise NotFound(_("no player {key!r} in league {league}").format(key=key, league=league))
    return rows[0][0], [PlayerGame(r[1], r[2], r[3], r[4], r[5], r[6], r[7] or "", r[8]) for r in rows]
