"""Kiosks: pairing with a one-time code, and who signed a request.

A pairing code is good once, for one venue, until it expires; the kiosk gets its own key. Every
later request carries the kiosk's number, the time, a nonce and an HMAC (`kiosk.league.signing`);
the nonce is written to the database, so a request seen once is refused by every hub process.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

import psycopg

from hub.admin import digest
from kiosk.errors import DartshipError
from kiosk.i18n import _, said_of
from kiosk.league import signing
from kiosk.league.membership import normal_code


class Refused(DartshipError):
    """A request the hub will not serve: `status` is the HTTP answer, `code` a word for
    programs that never changes (`busy`, `revoked`, `bad_report`...: docs/league.md), the
    message says why in the reader's language (made with `_` while the request is served)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


@dataclass(frozen=True)
class Paired:
    kiosk: int
    key: str
    venue: int
    venue_name: str
    league: int
    league_name: str


@dataclass(frozen=True)
class Signer:
    """The kiosk that signed a request."""

    kiosk: int
    venue: int
    league: int


async def pair(conn: psycopg.AsyncConnection, code: str, name: str) -> Paired:
    """Use a pairing code: a new kiosk of its venue with a new key. Refused(403) for a code
    that is unknown, used or expired (the same answer for all three)."""
    key = signing.new_key()
    async with conn.transaction():
        cursor = await conn.execute(
            "UPDATE pairing_codes SET used=now() WHERE digest=%s AND used IS NULL AND "
            "expires > now() RETURNING venue",
            [digest(normal_code(code))],
        )
        row = await cursor.fetchone()
        if row is None:
            raise Refused(
                403,
                "bad_code",
                _(
                    "this pairing code is not valid (unknown, used or expired): ask "
                    "the league's admin for a new one"
                ),
            )
        venue = int(row[0])
        cursor = await conn.execute(
            "INSERT INTO kiosks (venue, name, key) VALUES (%s, %s, %s) RETURNING id",
            [venue, name[:100] or "kiosk", key],
        )
        kiosk_row = await cursor.fetchone()
        assert kiosk_row is not None
        cursor = await conn.execute(
            "SELECT v.name, l.id, l.name FROM venues v JOIN leagues l ON l.id = v.league WHERE v.id=%s",
            [venue],
        )
        names = await cursor.fetchone()
        assert names is not None
    return Paired(int(kiosk_row[0]), key, venue, names[0], int(names[1]), names[2])


async def signer(
    conn: psycopg.AsyncConnection, headers: Mapping[str, str], method: str, path: str, body: bytes
) -> Signer:
    """The kiosk that signed this request; Refused(401) for a request not signed by a known
    kiosk's key, out of time or seen before, Refused(403) for a revoked kiosk."""
    try:
        claim = signing.claim_of(headers)
    except signing.SignatureError as err:
        raise Refused(401, "not_signed", said_of(err)) from None
    cursor = await conn.execute(
        "SELECT k.key, k.revoked, k.venue, v.league FROM kiosks k JOIN venues v ON v.id = k.venue "
        "WHERE k.id=%s",
        [claim.kiosk],
    )
    row = await cursor.fetchone()
    if row is None:
        raise Refused(
            401, "unknown_kiosk", _("no kiosk {kiosk} is paired with this hub").format(kiosk=claim.kiosk)
        )
    key, revoked, venue, league = row
    try:
        signing.check(claim, key, method, path, body, time.time())
    except signing.SignatureError as err:
        raise Refused(401, "bad_signature", said_of(err)) from None
    if revoked is not None:
        raise Refused(
            403, "revoked", _("kiosk {kiosk}'s key was revoked: pair it again").format(kiosk=claim.kiosk)
        )
    cursor = await conn.execute(
        "INSERT INTO nonces (kiosk, nonce) VALUES (%s, %s) ON CONFLICT DO NOTHING RETURNING 1",
        [claim.kiosk, claim.nonce],
    )
    if await cursor.fetchone() is None:
        raise Refused(401, "replayed", _("this request was sent before (a replayed nonce)"))
    # Once a minute is enough for `hub admin list`; a write per request is not.
    await conn.execute(
        "UPDATE kiosks SET last_seen=now() WHERE id=%s AND (last_seen IS NULL OR "
        "last_seen < now() - interval '1 minute')",
        [claim.kiosk],
    )
    return Signer(claim.kiosk, int(venue), int(league))


async def forget_old_nonces(conn: psycopg.AsyncConnection) -> None:
    """Nonces older than twice the window can never be replayed (their time is refused)."""
    await conn.execute(
        "DELETE FROM nonces WHERE at < now() - make_interval(secs => %s)", [2 * signing.WINDOW_SECONDS]
    )
