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

    def __init__(
        self, status: int, code: str, message: str, details: Mapping[str, str | int] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.details = dict(details or {})  # more for programs, beside `code` (`other_venue`)


@dataclass(frozen=True)
class Paired:
    kiosk: int
    key: str
    venue: int
    venue_name: str
    league: int
    league_name: str
    replaced: int | None = None  # the kiosk paired anew whose old key this pairing revoked


@dataclass(frozen=True)
class Signer:
    """The kiosk that signed a request."""

    kiosk: int
    venue: int
    league: int


@dataclass(frozen=True)
class Anew:
    """What a kiosk paired anew says of itself: `venue`, the venue it is in (a code for another
    is refused and not used), and the request's signature by its old key, if it still has one
    (that key is revoked once the new one is given)."""

    venue: int | None
    headers: Mapping[str, str]
    path: str
    body: bytes


async def pair(conn: psycopg.AsyncConnection, code: str, name: str, anew: Anew | None = None) -> Paired:
    """Use a pairing code: a new kiosk of its venue with a new key. Refused(403) for a code
    that is unknown, used or expired (the same answer for all three); Refused(409,
    "other_venue") for a kiosk paired anew with a code of another venue than its own (the code
    stays good). A kiosk paired anew that signs with its old key of the same venue has that key
    revoked in the same transaction (`Paired.replaced`)."""
    key, code_digest = signing.new_key(), digest(normal_code(code))
    async with conn.transaction():
        cursor = await conn.execute(
            "SELECT c.venue, v.name, l.id, l.name FROM pairing_codes c JOIN venues v ON v.id = c.venue "
            "JOIN leagues l ON l.id = v.league WHERE c.digest=%s AND c.used IS NULL AND "
            "c.expires > now() FOR UPDATE OF c",
            [code_digest],
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
        venue, venue_name, league, league_name = int(row[0]), row[1], int(row[2]), row[3]
        if anew is not None and anew.venue is not None and anew.venue != venue:
            raise Refused(
                409,
                "other_venue",
                _(
                    "this pairing code is for {venue} in {league}, not for this kiosk's venue; "
                    "it was not used"
                ).format(venue=venue_name, league=league_name),
                {"venue_name": venue_name, "league_name": league_name},
            )
        await conn.execute("UPDATE pairing_codes SET used=now() WHERE digest=%s", [code_digest])
        cursor = await conn.execute(
            "INSERT INTO kiosks (venue, name, key) VALUES (%s, %s, %s) RETURNING id",
            [venue, name[:100] or "kiosk", key],
        )
        kiosk_row = await cursor.fetchone()
        assert kiosk_row is not None
        replaced = None if anew is None else await _retire(conn, anew, venue)
    return Paired(int(kiosk_row[0]), key, venue, venue_name, league, league_name, replaced)


async def _retire(conn: psycopg.AsyncConnection, anew: Anew, venue: int) -> int | None:
    """The old kiosk of `venue` that signed this pairing, its key revoked now (or before); None
    where the request bears no good signature of a kiosk of that venue (a key the hub never
    gave or lost, another venue's: nothing is revoked)."""
    try:
        claim = signing.claim_of(anew.headers)
    except signing.SignatureError:
        return None
    cursor = await conn.execute("SELECT key, venue FROM kiosks WHERE id=%s", [claim.kiosk])
    row = await cursor.fetchone()
    if row is None or int(row[1]) != venue:
        return None
    try:
        signing.check(claim, row[0], "POST", anew.path, anew.body, time.time())
    except signing.SignatureError:
        return None
    await conn.execute("UPDATE kiosks SET revoked=now() WHERE id=%s AND revoked IS NULL", [claim.kiosk])
    return claim.kiosk


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
