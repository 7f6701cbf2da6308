"""Taking in a kiosk's report of a finished game: checked, replayed, stored once.

The report must be of the signing kiosk's own venue; its log is replayed with the pure engine
(`kiosk.league.report.verify`) and refused, saying what differs, unless it gives the claimed
result. The game's UUID makes it idempotent: the same report again changes nothing and is
answered as received; another report under a UUID the hub has is a conflict.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import logging
import uuid
from dataclasses import dataclass
from typing import Any

import psycopg

from hub import untrusted
from hub.kiosks import Refused, Signer
from kiosk.classic.match import daily_fleet
from kiosk.i18n import _, said_of
from kiosk.league import report as reports

log = logging.getLogger("dartship.hub")


@dataclass(frozen=True)
class Received:
    uuid: str
    new: bool  # False: the hub had this very report already


def player_key(name: str) -> str:
    """Who a name is in the league: the same name at two bars is one player (trimmed, case
    folded, inner spaces made one)."""
    return " ".join(name.split()).casefold()


def _when(report: dict[str, Any], key: str) -> datetime.datetime:
    try:
        value = datetime.datetime.fromisoformat(report[key])
    except ValueError:
        raise reports.ReportError(_("the report's {key!r} is not a time").format(key=key)) from None
    if value.tzinfo is None:
        raise reports.ReportError(_("the report's {key!r} has no time zone").format(key=key))
    return value


def daily_seed(secret: str, day: datetime.date) -> str:
    """The league's daily challenge seed of `day`: drawn from the league's secret, so every
    bar of the league plays one fleet that nobody outside the league can foresee."""
    return hmac.new(bytes.fromhex(secret), f"daily:{day.isoformat()}".encode(), hashlib.sha256).hexdigest()[
        :32
    ]


def _daily(report: dict[str, Any], secret: str) -> datetime.date | None:
    """The day of the league's daily challenge this game was, if it was one: a classic daily
    game played on the league's fleet of its day (a kiosk's own daily, on the fleet of the
    date alone, is not on the league's board)."""
    setup = report["setup"]
    if report["kind"] == "classic" and setup.get("mode") == "daily" and setup.get("date"):
        day = datetime.date.fromisoformat(setup["date"])
        league_fleet = daily_fleet(bytes.fromhex(daily_seed(secret, day)), day).code
        # The computer's fleet is its `place` command's secret, put back in the report.
        placed = [
            entry["secret"]
            for entry in report["log"]
            if entry["body"].get("cmd") == "place" and entry["body"].get("player") == 1
        ]
        if placed and placed[-1] == league_fleet:
            return day
    return None


def check(signer: Signer, body: bytes) -> tuple[dict[str, Any], reports.Verified]:
    """The report, parsed and replayed; Refused(422/403) saying why not (CPU work: no I/O)."""
    try:
        report = reports.parse(body)
        if untrusted.holds_nul(report):
            raise reports.ReportError(
                _("a text of the report holds a NUL character, which the league cannot keep")
            )
        try:
            uuid.UUID(report["uuid"])
        except ValueError:
            raise reports.ReportError(_("the report's 'uuid' is not a UUID")) from None
        if report["venue"] != signer.venue:
            raise Refused(
                403,
                "wrong_venue",
                _("kiosk {kiosk} may write only venue {venue}'s games, not venue {other}'s").format(
                    kiosk=signer.kiosk, venue=signer.venue, other=report["venue"]
                ),
            )
        verified = reports.verify(report)
        started, finished = _when(report, "started"), _when(report, "finished")
        if finished < started:
            raise reports.ReportError(_("the game finished before it started"))
    except reports.ReportError as err:
        raise Refused(422, "bad_report", said_of(err)) from None
    return report, verified


async def store(
    conn: psycopg.AsyncConnection, signer: Signer, report: dict[str, Any], verified: reports.Verified
) -> Received:
    """Write a checked report (the game, its players) in one transaction, once."""
    text = json.dumps(report, sort_keys=True, separators=(",", ":"))
    report_digest = hashlib.sha256(text.encode()).hexdigest()
    game_uuid = report["uuid"]
    secret_row = await (
        await conn.execute("SELECT secret FROM leagues WHERE id=%s", [signer.league])
    ).fetchone()
    assert secret_row is not None
    async with conn.transaction():  # a savepoint inside the upload's transaction
        cursor = await conn.execute(
            """INSERT INTO games (uuid, league, venue, kiosk, kind, started, finished, winner,
                   turns, counted, daily, digest, setup, log)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
               ON CONFLICT (uuid) DO NOTHING RETURNING seq""",
            [
                game_uuid,
                signer.league,
                signer.venue,
                signer.kiosk,
                verified.kind,
                _when(report, "started"),
                _when(report, "finished"),
                verified.winner,
                verified.turns,
                not verified.computers,
                _daily(report, secret_row[0]),
                report_digest,
                json.dumps(report["setup"]),
                json.dumps(report["log"]),
            ],
        )
        if await cursor.fetchone() is None:
            cursor = await conn.execute("SELECT digest FROM games WHERE uuid=%s", [game_uuid])
            row = await cursor.fetchone()
            if row is not None and row[0] == report_digest:
                return Received(game_uuid, new=False)
            raise Refused(
                409,
                "conflict",
                _("game {game} was reported before with another result").format(game=game_uuid),
            )
        async with conn.cursor() as players:
            await players.executemany(
                "INSERT INTO game_players (game, side, player, key, computer, shots, hits, sunk, "
                "turns, won) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    [
                        game_uuid,
                        r.side,
                        r.player,
                        player_key(r.player),
                        r.side in verified.computers,
                        r.shots,
                        r.hits,
                        r.sunk,
                        r.turns,
                        r.won,
                    ]
                    for r in verified.results
                ],
            )
    return Received(game_uuid, new=True)
