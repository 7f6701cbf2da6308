"""What a league's admin does: tokens, leagues and seasons, venues, pairing codes, revoking.

Both `dartship hub admin ...` (on the server, straight on the database) and the admin API
(`/api/admin/...`, with a token) do it through these functions. Tokens and pairing codes are
shown once and kept only as digests.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from dataclasses import dataclass

import psycopg

from kiosk.errors import DartshipError
from kiosk.i18n import _
from kiosk.league.membership import CODE_ALPHABET, CODE_LENGTH  # the kiosk checks typed codes

CODE_HOURS = 48


class AdminError(DartshipError, ValueError):
    """What an admin asked for cannot be done; the message says why."""

    code = "admin_refused"  # for programs, as `Refused.code`


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Token:
    id: int
    league: int | None  # None: every league


async def create_token(conn: psycopg.AsyncConnection, name: str, league: int | None = None) -> str:
    token = secrets.token_urlsafe(32)
    if league is not None:
        await league_row(conn, league)
    await conn.execute(
        "INSERT INTO admin_tokens (digest, name, league) VALUES (%s, %s, %s)", [digest(token), name, league]
    )
    return token


async def token_of(conn: psycopg.AsyncConnection, token: str) -> Token | None:
    cursor = await conn.execute(
        "SELECT id, league FROM admin_tokens WHERE digest=%s AND revoked IS NULL", [digest(token)]
    )
    row = await cursor.fetchone()
    return Token(row[0], row[1]) if row else None


async def league_row(conn: psycopg.AsyncConnection, league: int) -> tuple[int, str]:
    cursor = await conn.execute("SELECT id, name FROM leagues WHERE id=%s", [league])
    row = await cursor.fetchone()
    if row is None:
        raise AdminError(_("no league {league}").format(league=league))
    return row[0], row[1]


async def create_league(
    conn: psycopg.AsyncConnection,
    name: str,
    *,
    points_win: int = 3,
    points_loss: int = 0,
    season_starts: datetime.date | None = None,
) -> int:
    """A new league with its secret and a first season (named by its year) from today."""
    name = name.strip()
    if not name:
        raise AdminError(_("a league needs a name"))
    starts = season_starts or datetime.date.today()
    try:
        async with conn.transaction():
            cursor = await conn.execute(
                "INSERT INTO leagues (name, secret, points_win, points_loss) VALUES (%s, %s, %s, "
                "%s) RETURNING id",
                [name, secrets.token_hex(32), points_win, points_loss],
            )
            row = await cursor.fetchone()
            assert row is not None
            await conn.execute(
                "INSERT INTO seasons (league, name, starts) VALUES (%s, %s, %s)",
                [row[0], str(starts.year), starts],
            )
    except psycopg.errors.UniqueViolation:
        raise AdminError(_("there is a league named {name!r} already").format(name=name)) from None
    return int(row[0])


async def add_season(conn: psycopg.AsyncConnection, league: int, name: str, starts: datetime.date) -> None:
    """A new season from `starts` on (the one before it ends that day)."""
    await league_row(conn, league)
    try:
        await conn.execute(
            "INSERT INTO seasons (league, name, starts) VALUES (%s, %s, %s)", [league, name, starts]
        )
    except psycopg.errors.UniqueViolation:
        raise AdminError(
            _("the league has a season named {name!r} or starting {starts} already").format(
                name=name, starts=starts
            )
        ) from None


async def create_venue(conn: psycopg.AsyncConnection, league: int, name: str) -> int:
    await league_row(conn, league)
    try:
        cursor = await conn.execute(
            "INSERT INTO venues (league, name) VALUES (%s, %s) RETURNING id", [league, name.strip()]
        )
    except psycopg.errors.UniqueViolation:
        raise AdminError(_("the league has a venue named {name!r} already").format(name=name)) from None
    row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def venue_league(conn: psycopg.AsyncConnection, venue: int) -> int:
    cursor = await conn.execute("SELECT league FROM venues WHERE id=%s", [venue])
    row = await cursor.fetchone()
    if row is None:
        raise AdminError(_("no venue {venue}").format(venue=venue))
    return int(row[0])


async def pairing_code(conn: psycopg.AsyncConnection, venue: int, hours: int = CODE_HOURS) -> str:
    """A one-time code for one kiosk of `venue`, good for `hours`; shown as XXXX-XXXX-XXXX."""
    await venue_league(conn, venue)
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    await conn.execute(
        "INSERT INTO pairing_codes (digest, venue, expires) VALUES (%s, %s, "
        "now() + make_interval(hours => %s))",
        [digest(code), venue, hours],
    )
    return "-".join(code[i : i + 4] for i in range(0, CODE_LENGTH, 4))


async def kiosk_league(conn: psycopg.AsyncConnection, kiosk: int) -> int:
    cursor = await conn.execute(
        "SELECT v.league FROM kiosks k JOIN venues v ON v.id = k.venue WHERE k.id=%s", [kiosk]
    )
    row = await cursor.fetchone()
    if row is None:
        raise AdminError(_("no kiosk {kiosk}").format(kiosk=kiosk))
    return int(row[0])


async def revoke(conn: psycopg.AsyncConnection, kiosk: int) -> None:
    """The kiosk's key is refused from its next request on (its games stay in the league)."""
    await kiosk_league(conn, kiosk)
    await conn.execute("UPDATE kiosks SET revoked=now() WHERE id=%s AND revoked IS NULL", [kiosk])


async def listing(conn: psycopg.AsyncConnection) -> list[str]:
    """Every league, its venues and kiosks, as lines for the terminal."""
    lines = []
    leagues = await (
        await conn.execute("SELECT id, name, points_win, points_loss FROM leagues ORDER BY id")
    ).fetchall()
    for lid, name, win, loss in leagues:
        lines.append(f"league {lid}: {name} (a win {win} points, a loss {loss})")
        for vid, vname in await (
            await conn.execute("SELECT id, name FROM venues WHERE league=%s ORDER BY id", [lid])
        ).fetchall():
            lines.append(f"  venue {vid}: {vname}")
            for kid, kname, revoked, seen in await (
                await conn.execute(
                    "SELECT id, name, revoked, last_seen FROM kiosks WHERE venue=%s ORDER BY id", [vid]
                )
            ).fetchall():
                state = (
                    f"revoked {revoked:%Y-%m-%d %H:%M}"
                    if revoked
                    else (f"last seen {seen:%Y-%m-%d %H:%M}" if seen else "not seen yet")
                )
                lines.append(f"    kiosk {kid}: {kname} ({state})")
    return lines
