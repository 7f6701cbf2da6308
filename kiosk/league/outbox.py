"""The league's outbox in the kiosk's SQLite: every finished game, until the hub confirmed it.

A game enters the outbox in the same transaction that ends it (`Store.append` calls
`game_changed` inside its transaction): a power cut leaves the game unfinished and not queued,
or finished and queued, never one without the other. The store makes its outbox itself from the
membership kept in the database, so every program that finishes a game in a joined kiosk's
database (the kiosk, its phone rooms, `dartship referee|classic|express --db`) queues it.
An entry is marked sent only once the hub answered that it has the game; a refused one keeps
the hub's reason; what failed on the way is tried again later, with backoff and jitter kept on
disk, so a restart goes on where it was.

An undone winning dart reopens a game: its entry leaves the outbox if it was not sent yet.

Every entry belongs to the membership it was queued under (`member`: `Membership.ident`):
what a kiosk sends and counts is its current membership's only, so an old league's games are
never sent with a new key, nor counted again after a leave and a rejoin. Writes go through
the store's one transaction (its write lock), as every other write does.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from kiosk.league import reasons
from kiosk.league.membership import MEMBERSHIP, Membership, parsed
from kiosk.league.report import VERSION
from kiosk.names import kept_name

if TYPE_CHECKING:
    import sqlite_utils

# The store's `_transaction`: BEGIN IMMEDIATE ... COMMIT under its write lock.
Transaction = Callable[[], AbstractContextManager[None]]

PENDING, SENT, REFUSED = "pending", "sent", "refused"
FIRST_RETRY_SECONDS = 2.0
LAST_RETRY_SECONDS = 300.0


def migrate(db: sqlite_utils.Database) -> None:
    """The store's migration 7: the outbox (empty, and never written, on a kiosk with no league)."""
    db.execute("""CREATE TABLE outbox (
        game INTEGER PRIMARY KEY REFERENCES games(id), uuid TEXT NOT NULL UNIQUE,
        queued REAL NOT NULL, report TEXT NOT NULL, state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0, next_try REAL NOT NULL, done TEXT, answer TEXT)""")
    db.execute("CREATE INDEX outbox_due ON outbox (state, next_try)")


def migrate_member(db: sqlite_utils.Database) -> None:
    """The store's migration 9: each entry names the membership it was queued under. Entries
    queued before could not be told apart: they go to the membership kept now, if any (its
    pending ones are its to send; a membership left before gave up on its own already)."""
    db.execute("ALTER TABLE outbox ADD COLUMN member TEXT")
    row = db.execute("SELECT value FROM meta WHERE key=?", [f"kiosk.{MEMBERSHIP}"]).fetchone()
    now = parsed(row[0] if row else None)
    if now is not None:
        db.execute("UPDATE outbox SET member=?", [now.ident])
    db.execute("CREATE INDEX outbox_member ON outbox (member, state, next_try)")


@dataclass(frozen=True)
class Entry:
    game: int
    uuid: str
    report: str  # the JSON as it is sent
    attempts: int


def retry_delay(attempts: int, rng: random.Random) -> float:
    """Exponential backoff with jitter: after the n-th failure, between half and all of
    2 s x 2^(n-1), at most 5 minutes (a hub that comes back is not hit by every kiosk at once)."""
    ceiling = min(LAST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** max(attempts - 1, 0))
    return ceiling * (0.5 + rng.random() / 2)


def report_of(db: sqlite_utils.Database, game: int, game_uuid: str, venue: int) -> dict[str, Any]:
    """The report of a finished game, read from the store's tables (secrets put back)."""
    kind, started, finished, setup, winner, turns = db.execute(
        "SELECT kind, started, finished, setup, winner, turns FROM games WHERE id=?", [game]
    ).fetchone()
    log = [
        {"body": json.loads(body), "secret": secret}
        for body, secret in db.execute(
            "SELECT c.body, s.text FROM commands c LEFT JOIN secrets s ON s.game = c.game "
            "AND s.seq = c.seq WHERE c.game=? ORDER BY c.seq",
            [game],
        ).fetchall()
    ]
    results = [
        {
            "side": r[0],
            "player": r[1],
            "shots": r[2],
            "hits": r[3],
            "sunk": r[4],
            "turns": r[5],
            "won": bool(r[6]),
        }
        for r in db.execute(
            "SELECT side, player, shots, hits, sunk, turns, won FROM results WHERE game=? "
            "ORDER BY side, player",
            [game],
        ).fetchall()
    ]
    return {
        "version": VERSION,
        "uuid": game_uuid,
        "kind": kind,
        "venue": venue,
        "started": started,
        "finished": finished,
        "setup": _as_replayed(kind, json.loads(setup)),
        "log": log,
        "results": [{**r, "player": kept_name(r["player"])} for r in results],
        "winner": winner,
        "turns": turns,
    }


def _as_replayed(kind: str, setup: dict[str, Any]) -> dict[str, Any]:
    """The setup as the hub's replay reads it (`kiosk.league.report.verify`: the kind's own
    parser, whose names are `kiosk.names.kept_name`'s): a name stored as it was typed ("Ann ")
    is sent as the replay names it ("Ann"), so its figures are found under the same name. A
    setup the parser refuses is sent as stored (the hub says why)."""
    from kiosk.kinds import kind_named

    try:
        game = kind_named(kind)
        cleaned: dict[str, Any] = game.setup_to_dict(game.setup_from_dict(setup))
    except Exception:  # a kind's parser raises what it raises; the hub's replay names it
        return setup
    return cleaned


class Outbox:
    """The outbox of one kiosk's store, for the membership it is paired with (made by the
    store: `Store.outbox`, `Store.outbox_of`)."""

    def __init__(self, db: sqlite_utils.Database, member: Membership, transaction: Transaction) -> None:
        self.db = db
        self.venue = member.venue
        self.member = member.ident
        self._transaction = transaction

    def game_changed(
        self, game: int, over: bool, now: float | None = None, *, db: sqlite_utils.Database | None = None
    ) -> None:
        """Called inside the transaction of every command: a game just over is queued (again,
        with its new result, if a reopened game ended anew), a reopened one leaves the queue
        unless it was already sent. `db`: the connection of that transaction (the store's
        writer thread has its own)."""
        db = db or self.db
        row = db.execute("SELECT uuid, state FROM outbox WHERE game=?", [game]).fetchone()
        if not over:
            if row is not None and row[1] == PENDING:
                db.execute("DELETE FROM outbox WHERE game=?", [game])
            return
        game_uuid = row[0] if row else str(uuid.uuid4())
        if row is not None and row[1] != PENDING and self._same(db, game, game_uuid):
            return  # a command after the end that changes nothing the league sees
        report = json.dumps(report_of(db, game, game_uuid, self.venue), separators=(",", ":"))
        at = datetime.now(UTC).timestamp() if now is None else now
        db.execute(
            "INSERT INTO outbox (game, uuid, queued, report, state, attempts, next_try, member) "
            "VALUES (?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (game) DO UPDATE SET report=excluded.report, "
            "state=excluded.state, attempts=0, next_try=excluded.next_try, queued=excluded.queued, "
            "done=NULL, answer=NULL, member=excluded.member",
            [game, game_uuid, at, report, PENDING, at, self.member],
        )

    def _same(self, db: sqlite_utils.Database, game: int, game_uuid: str) -> bool:
        sent = db.execute("SELECT report FROM outbox WHERE game=?", [game]).fetchone()[0]
        return bool(json.loads(sent) == report_of(db, game, game_uuid, self.venue))

    def due(self, now: float, hold_seconds: float = 0.0, limit: int = 20) -> list[Entry]:
        """The entries to send now: pending, their retry time come, queued at least
        `hold_seconds` ago (the time to undo a misread winning dart), oldest first."""
        rows = self.db.execute(
            "SELECT game, uuid, report, attempts FROM outbox WHERE member=? AND state=? "
            "AND next_try<=? AND queued<=? ORDER BY next_try, game LIMIT ?",
            [self.member, PENDING, now, now - hold_seconds, limit],
        ).fetchall()
        return [Entry(int(r[0]), str(r[1]), str(r[2]), int(r[3])) for r in rows]

    def next_due(self, hold_seconds: float = 0.0) -> float | None:
        """When the next pending entry is due (see `due`), or None."""
        row = self.db.execute(
            "SELECT MIN(MAX(next_try, queued + ?)) FROM outbox WHERE member=? AND state=?",
            [hold_seconds, self.member, PENDING],
        ).fetchone()
        return float(row[0]) if row and row[0] is not None else None

    def _mark(self, entry: Entry, state: str, answer: str, attempts: int, next_try: float) -> None:
        # Only the report that was sent is marked: a game reopened and ended anew meanwhile
        # stays pending with its new report. Through the store's transaction: it waits its
        # turn behind the kiosk's own writes and the writer thread's groups (the write lock),
        # not on SQLite's busy timeout.
        with self._transaction():
            self.db.execute(
                "UPDATE outbox SET state=?, answer=?, attempts=?, next_try=?, done=? "
                "WHERE game=? AND report=?",
                [
                    state,
                    answer,
                    attempts,
                    next_try,
                    datetime.now(UTC).isoformat(timespec="seconds") if state != PENDING else None,
                    entry.game,
                    entry.report,
                ],
            )

    def sent(self, entry: Entry, answer: str) -> None:
        """The hub confirmed it has the game (new, or already had it)."""
        self._mark(entry, SENT, answer, entry.attempts + 1, 0)

    def refused(self, entry: Entry, reason: str) -> None:
        """The hub refused it for good (a result its replay does not give, a revoked key);
        `reason` as `kiosk.league.reasons` keeps it, as are `failed`'s and `give_up`'s."""
        self._mark(entry, REFUSED, reason, entry.attempts + 1, 0)

    def failed(self, entry: Entry, reason: str, now: float, rng: random.Random) -> float:
        """It did not get through (no network, the hub down or busy): tried again later;
        the delay chosen."""
        delay = retry_delay(entry.attempts + 1, rng)
        self._mark(entry, PENDING, reason, entry.attempts + 1, now + delay)
        return delay

    def hand_over(self, to: Membership, now: float | None = None) -> int:
        """The kiosk was paired anew with the same venue (`membership.repaired`): what waits
        under this membership is `to`'s, sent with its key, due at once (its tries and last
        reason, the old key's, start again). How many."""
        at = datetime.now(UTC).timestamp() if now is None else now
        with self._transaction():
            cursor = self.db.execute(
                "UPDATE outbox SET member=?, attempts=0, next_try=?, answer=NULL WHERE member=? AND state=?",
                [to.ident, at, self.member, PENDING],
            )
        return int(cursor.rowcount)

    def give_up(self, reason: str) -> int:
        """The kiosk left its league: what still waits is never sent (kept as refused, with
        `reason`, so that another league's key never sends this one's games). How many."""
        with self._transaction():
            cursor = self.db.execute(
                "UPDATE outbox SET state=?, answer=?, done=? WHERE member=? AND state=?",
                [REFUSED, reason, datetime.now(UTC).isoformat(timespec="seconds"), self.member, PENDING],
            )
        return int(cursor.rowcount)

    def last_sent(self) -> datetime | None:
        """When the hub last confirmed a game of this kiosk."""
        row = self.db.execute(
            "SELECT MAX(done) FROM outbox WHERE member=? AND state=?", [self.member, SENT]
        ).fetchone()
        return datetime.fromisoformat(row[0]) if row and row[0] else None

    def last_problem(self) -> str | None:
        """What keeps games from the hub now: why a waiting game's last try failed, else why
        the hub last refused one, in the language the kiosk speaks now (`reasons.told`); None
        when nothing is wrong."""
        row = self.db.execute(
            "SELECT answer FROM outbox WHERE member=? AND state=? AND attempts > 0 "
            "ORDER BY next_try DESC LIMIT 1",
            [self.member, PENDING],
        ).fetchone()
        if row is None:
            row = self.db.execute(
                "SELECT answer FROM outbox WHERE member=? AND state=? ORDER BY done DESC LIMIT 1",
                [self.member, REFUSED],
            ).fetchone()
        return reasons.told(str(row[0])) if row and row[0] else None

    def counts(self) -> dict[str, int]:
        """How many of this membership's games wait, were sent, were refused."""
        rows = self.db.execute(
            "SELECT state, COUNT(*) FROM outbox WHERE member=? GROUP BY state", [self.member]
        ).fetchall()
        return {PENDING: 0, SENT: 0, REFUSED: 0, **{str(s): int(n) for s, n in rows}}
