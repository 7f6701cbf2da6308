"""Every game of every kind on disk: SQLite through sqlite-utils, WAL with synchronous=FULL.

Written for any game (`kiosk/game.py`): a game row (its kind, venue, setup and outcome), its
command log, its shots and per-player results for the statistics. A command is committed before
its answer is announced, so whatever the players saw survives a power cut; a game is resumed by
replaying its command log. A command's secret part (a fleet) lives in the `secrets` table and is
read only to replay and through `secret(game, side)`: nothing public (stats, last games, the
command log) ever holds it.
"""

from __future__ import annotations

import concurrent.futures
import json
import logging
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import sqlite_utils

from kiosk import address_limits, names, store_faults
from kiosk.errors import DartshipError
from kiosk.game import Game, GameKind
from kiosk.group_commit import GroupCommit
from kiosk.i18n import _
from kiosk.league import membership, outbox
from kiosk.store_faults import APPLICATION_ID, SQLITE_HEADER

T = TypeVar("T")

log = logging.getLogger("dartship.store")

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "SQLITE_HEADER",
    "DailyResult",
    "GameLog",
    "GameSummary",
    "Meta",
    "Phones",
    "PlayerStats",
    "RoomRow",
    "Rooms",
    "Stats",
    "Store",
    "StoreError",
]

SIDE_FILES = ("-wal", "-shm", "-journal")


class StoreError(DartshipError, RuntimeError):
    """The database file cannot be used; the message says why and what to do."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class PlayerResultRow:
    side: int
    player: str
    shots: int
    hits: int
    sunk: int
    turns: int
    won: int


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as the statistics see it: its setup (public) and its results."""

    id: int
    finished: str
    setup: dict[str, Any]
    results: tuple[PlayerResultRow, ...]


@dataclass(frozen=True)
class RoomRow:
    """A phone's room (classic "play with friends"): SECRET (its link's token, the devices)."""

    id: int
    token: str
    owner: str  # the digest of the owner's device key
    friend: str | None  # the digest of the friend's, once a friend has opened the link
    ready: bool  # the friend tapped Ready
    # The name the friend said Ready by (typed, or "Player 2" in its phone's language), kept
    # until the duel starts (and for the next one); None: none yet (the kiosk's default).
    friend_name: str | None = None


@dataclass(frozen=True)
class DailyResult:
    """A daily challenge won: by whom, in how many shots (public)."""

    player: str
    shots: int
    game: int


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    darts: int
    hits: int
    sunk: int

    @property
    def hit_rate(self) -> float:
        return self.hits / self.darts if self.darts else 0.0


@dataclass(frozen=True)
class GameSummary:
    id: int
    started: str
    finished: str | None
    teams: tuple[str, ...]
    winner: str | None
    turns: int
    abandoned: bool = False  # ended by staff (or by a new game) without a winner


def _migrate_1(db: sqlite_utils.Database) -> None:
    db.table("meta").create({"key": str, "value": str}, pk="key")
    db.table("games").create(
        {
            "id": int,
            "started": str,
            "finished": str,
            "setup": str,
            "status": str,
            "winner": int,
            "visits": int,
        },
        pk="id",
    )
    db.table("commands").create(
        {"game": int, "seq": int, "at": str, "body": str},
        pk=("game", "seq"),
        foreign_keys=[("game", "games", "id")],
    )
    db.table("placements").create(
        {"game": int, "team": int, "fleet": str, "at": str},
        pk=("game", "team"),
        foreign_keys=[("game", "games", "id")],
    )
    db.table("darts").create(
        {
            "id": int,
            "game": int,
            "at": str,
            "team": int,
            "player": str,
            "dart": int,
            "cell": str,
            "result": str,
        },
        pk="id",
        foreign_keys=[("game", "games", "id")],
    )
    db.table("results").create(
        {
            "game": int,
            "team": int,
            "player": str,
            "darts": int,
            "hits": int,
            "sunk": int,
            "visits": int,
            "won": int,
        },
        pk=("game", "team", "player"),
        foreign_keys=[("game", "games", "id")],
    )


def _migrate_2(db: sqlite_utils.Database) -> None:
    db.table("darts").create_index(["game"], if_not_exists=True)
    db.table("results").create_index(["player"], if_not_exists=True)
    db.table("games").create_index(["status"], if_not_exists=True)


def _migrate_3(db: sqlite_utils.Database) -> None:
    # The secret phone links of the game in play, so that a restart does not break them.
    db.table("links").create(
        {"game": int, "team0": str, "team1": str}, pk="game", foreign_keys=[("game", "games", "id")]
    )


def _migrate_4(db: sqlite_utils.Database) -> None:
    """A house for every kind of game: games get a kind and a venue, the dart-only names become
    the general ones, and secrets are kept per command (a fleet re-placed keeps each version)."""
    db.execute("ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'darts'")
    db.execute("ALTER TABLE games ADD COLUMN venue TEXT NOT NULL DEFAULT 'kiosk'")
    db.execute("ALTER TABLE games RENAME COLUMN visits TO turns")
    db.execute("ALTER TABLE darts RENAME TO shots")
    for old, new in (("team", "side"), ("dart", "number"), ("cell", "target")):
        db.execute(f"ALTER TABLE shots RENAME COLUMN {old} TO {new}")
    for old, new in (("team", "side"), ("darts", "shots"), ("visits", "turns")):
        db.execute(f"ALTER TABLE results RENAME COLUMN {old} TO {new}")
    db.table("secrets").create(
        {"game": int, "seq": int, "side": int, "text": str},
        pk=("game", "seq"),
        foreign_keys=[("game", "games", "id")],
    )
    # Before this, only a team's latest fleet was kept: every place command of that team gets it.
    db.execute("""INSERT INTO secrets (game, seq, side, text)
                  SELECT c.game, c.seq, p.team, p.fleet FROM commands c
                  JOIN placements p ON p.game = c.game
                   AND p.team = json_extract(c.body, '$.team')
                  WHERE json_extract(c.body, '$.cmd') = 'place'""")
    db.execute("DROP TABLE placements")
    db.table("games").create_index(["venue", "status"], if_not_exists=True)


def _migrate_5(db: sqlite_utils.Database) -> None:
    # Which phone holds each team's link of the game in play (a digest of the phone's device
    # key), so that after a restart the team's own phone still gets in and no other does.
    db.table("phones").create(
        {"game": int, "team": int, "device": str, "at": str},
        pk=("game", "team"),
        foreign_keys=[("game", "games", "id")],
    )


def _migrate_6(db: sqlite_utils.Database) -> None:
    # Classic on phones: a phone's room (its secret link for a friend, and the two devices it is
    # bound to, as digests), and the names given to daily challenges after they were won.
    db.table("rooms").create(
        {"id": int, "token": str, "owner": str, "friend": str, "ready": int, "created": str, "closed": str},
        pk="id",
    )
    db.table("rooms").create_index(["token"], unique=True)
    db.table("rooms").create_index(["owner", "closed"])
    db.table("daily_names").create(
        {"game": int, "name": str, "at": str}, pk="game", foreign_keys=[("game", "games", "id")]
    )


def _migrate_rooms_friend_name(db: sqlite_utils.Database) -> None:
    # The name the room's friend said Ready by, so that a restart before the duel keeps it.
    db.execute("ALTER TABLE rooms ADD COLUMN friend_name TEXT")


MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (
    _migrate_1,
    _migrate_2,
    _migrate_3,
    _migrate_4,
    _migrate_5,
    _migrate_6,
    outbox.migrate,
    address_limits.migrate,
    outbox.migrate_member,
    _migrate_rooms_friend_name,
)
SCHEMA_VERSION = len(MIGRATIONS)


def _sqlite_utils() -> Any:
    """sqlite-utils, imported without numpy. It imports numpy only to store numpy values (we
    store none), and that import alone costs ~0.3 s on a Pi: `dartship referee --db` answers
    sooner without it. numpy stays importable for whoever needs it later (the AI)."""
    if "sqlite_utils" in sys.modules:
        return sys.modules["sqlite_utils"]
    hide = "numpy" not in sys.modules
    if hide:
        sys.modules["numpy"] = None  # type: ignore[assignment]  # `import numpy` fails now
    try:
        import sqlite_utils
    finally:
        if hide:
            del sys.modules["numpy"]
    return sqlite_utils


class Store:
    """The database: one connection (sqlite-utils over sqlite3, WAL, synchronous=FULL), the one
    `_transaction` every write goes through, the migrations, and its parts, each a small class
    over that same connection:

    * `games`  (`GameLog`): games, their command logs and secrets (new_game, append, load...)
    * `phones` (`Phones`): the dart game's phone links and the phones that hold them
    * `rooms`  (`Rooms`): classic's phone rooms and the names of won daily challenges
    * `stats`  (`Stats`): what the Stats screens and leaderboards read (never a secret)
    * `meta`   (`Meta`): the schema version and the kiosk's own small state (remember/recall)
    * `drafts` (`Drafts`): what was answered before a game's play (a line-up, a fleet being
      placed), until it starts or is given up
    * `limits` (`kiosk.address_limits.AddressLimits`): what each address used of the phones' limits
    """

    def __init__(self, path: Path | str, *, timeout: float = 5.0) -> None:
        """Open (or create) the database at `path`; StoreError says why it cannot be used.

        Nothing is written to an existing file before it is known to be ours and not newer:
        it is inspected through a read-only connection first, and only then opened for writing
        (WAL mode, migrations). `timeout`: how long to wait for another program's lock."""
        self.path = Path(path)
        # The league's outbox, on a database that joined a league (`use_league`): every game
        # that ends is queued in the transaction that ends it, whichever program ends it.
        self.outbox: outbox.Outbox | None = None
        self._write_lock = threading.Lock()
        self._group: GroupCommit | None = None
        self._timeout = timeout
        created = self._check_place()
        found = store_faults.inspect(self.path, SCHEMA_VERSION)
        refusal = store_faults.refusal(found, self.path, SCHEMA_VERSION)
        if refusal is not None:
            raise StoreError(refusal)
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=timeout)
            self.db: sqlite_utils.Database = _sqlite_utils().Database(conn)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except (sqlite3.Error, OSError, StoreError) as err:
            if conn is not None:
                conn.close()
            if created:
                self._remove_new_file()
            if isinstance(err, StoreError):
                raise
            raise StoreError(store_faults.explain(err, self.path)) from None
        self.games = GameLog(self)
        self.phones = Phones(self)
        self.rooms = Rooms(self)
        self.stats = Stats(self)
        self.meta = Meta(self)
        self.drafts = Drafts(self)
        self.limits = address_limits.AddressLimits(self)
        self.use_league(membership.kept(self.meta))

    def use_league(self, member: membership.Membership | None) -> None:
        """From now on every game that ends is queued for `member`'s hub (None: for no hub).
        Set at opening from the membership kept in the database, and by a join or a leave."""
        self.outbox = self.outbox_of(member) if member is not None else None

    def outbox_of(self, member: membership.Membership) -> outbox.Outbox:
        """The outbox entries of `member`, written through this store's transaction."""
        return outbox.Outbox(self.db, member, self._transaction)

    def close(self) -> None:
        """Commit what the writer thread holds, then close."""
        if self._group is not None:
            self._group.close()
        self.db.conn.close()

    # -- opening safely --

    def _check_place(self) -> bool:
        """Is there room for a database at `path`? True when there is no file yet (this store
        creates it, and removes it again if it cannot be set up)."""
        if self.path.is_dir():
            raise StoreError(_("{path} is a folder, not a database file").format(path=self.path))
        if self.path.exists():
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(store_faults.explain(err, self.path)) from None
        return True

    def _remove_new_file(self) -> None:
        """A file this store created moments ago but could not set up (a full disk) holds
        nothing of anyone's: it is not left behind, nor are its side files."""
        for leftover in (self.path, *(Path(f"{self.path}{end}") for end in SIDE_FILES)):
            with suppress(OSError):
                leftover.unlink(missing_ok=True)

    def _migrate(self) -> None:
        version = 0
        if "meta" in self.db.table_names():
            row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            version = int(row[0]) if row else 0
        if version > SCHEMA_VERSION:
            raise StoreError(
                _(
                    "{path} was written by a newer Dartship (schema {found}, this one "
                    "knows {known}); it was left untouched"
                ).format(path=self.path, found=version, known=SCHEMA_VERSION)
            )
        for number in range(version, SCHEMA_VERSION):
            with self._transaction():
                MIGRATIONS[number](self.db)
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self._insert("meta", {"key": "schema_version", "value": str(number + 1)}, replace=True)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """All or nothing: a failure anywhere, COMMIT included (a full disk fails there), rolls
        the whole transaction back, so the file holds what it held before and stays usable.
        It takes turns with the writer thread's groups (`group`) through the write lock."""
        with self._write_lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.conn.in_transaction:
                    self.db.execute("ROLLBACK")
                raise

    @property
    def group(self) -> GroupCommit:
        """The writer thread that commits many games' commands in one transaction (started on
        first use; `kiosk.group_commit`)."""
        if self._group is None:
            self._group = GroupCommit(
                self.path, self._write_lock, _sqlite_utils().Database, timeout=self._timeout
            )
        return self._group

    def _insert(self, table: str, row: dict[str, Any], replace: bool = False) -> sqlite3.Cursor:
        return insert(self.db, table, row, replace)


def insert(
    db: sqlite_utils.Database, table: str, row: dict[str, Any], replace: bool = False
) -> sqlite3.Cursor:
    # Plain SQL: sqlite-utils' insert helpers commit on their own, which would end our explicit
    # transaction half way.
    verb = "INSERT OR REPLACE" if replace else "INSERT"
    names = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    return db.execute(f"{verb} INTO {table} ({names}) VALUES ({marks})", list(row.values()))


class _Part:
    """One part of the store: its tables, read and written on the store's one connection, every
    write inside the store's one `_transaction`."""

    def __init__(self, store: Store) -> None:
        self._store = store

    @property
    def db(self) -> sqlite_utils.Database:
        return self._store.db

    def _transaction(self) -> AbstractContextManager[None]:
        return self._store._transaction()

    def _insert(self, table: str, row: dict[str, Any], replace: bool = False) -> sqlite3.Cursor:
        return self._store._insert(table, row, replace)


class GameLog(_Part):
    """Every game of every kind: its row (kind, venue, setup, outcome), its command log with the
    secrets apart, its shots and results. A command is committed before it is announced."""

    def new_game(
        self,
        kind: GameKind[Any, Any, Any, Any],
        setup: object,
        *,
        venue: str = "kiosk",
        at: str | None = None,
    ) -> int:
        """A new game of this kind at this venue; an unfinished older one there is abandoned
        (one game at a time runs at a venue: the kiosk's screen, one phone room)."""
        write = self._new_game_write(kind, setup, venue, at)
        with self._transaction():
            return write(self.db)

    def new_game_grouped(
        self, kind: GameKind[Any, Any, Any, Any], setup: object, *, venue: str = "kiosk"
    ) -> concurrent.futures.Future[int]:
        """`new_game` through the writer thread (see `append_grouped`): the game's id, once
        its row is committed."""
        return self._store.group.submit(self._new_game_write(kind, setup, venue, None))

    @staticmethod
    def _new_game_write(
        kind: GameKind[Any, Any, Any, Any], setup: object, venue: str, at: str | None
    ) -> Callable[[sqlite_utils.Database], int]:
        row = {
            "kind": kind.name,
            "venue": venue,
            "started": at or now_iso(),
            "finished": None,
            "setup": json.dumps(kind.setup_to_dict(setup)),
            "status": "playing",
            "winner": None,
            "turns": 0,
        }

        def write(db: sqlite_utils.Database) -> int:
            db.execute("UPDATE games SET status='abandoned' WHERE status='playing' AND venue=?", [venue])
            return int(insert(db, "games", row).lastrowid)  # type: ignore[arg-type]

        return write

    def append(
        self,
        game: int,
        kind: GameKind[Any, Any, Any, Any],
        command: object,
        events: Sequence[Any],
        state: Game[Any, Any],
        at: str | None = None,
    ) -> None:
        """Commit one accepted command (and what it caused) before anyone is told about it.

        `state` is the game after the command: its outcome (over, winner, results) is kept in
        the same transaction. All or nothing: on any error the file is as before."""
        write = self._append_write(game, kind, command, events, state, at)
        with self._transaction():
            write(self.db)

    def append_grouped(
        self,
        game: int,
        kind: GameKind[Any, Any, Any, Any],
        command: object,
        events: Sequence[Any],
        state: Game[Any, Any],
    ) -> concurrent.futures.Future[None]:
        """The same write as `append`, committed by the store's writer thread together with the
        writes of other games that wait at the same time (`kiosk.group_commit`): the future is
        done once it is durable, and the caller announces nothing before."""
        return self._store.group.submit(self._append_write(game, kind, command, events, state, None))

    def _append_write(
        self,
        game: int,
        kind: GameKind[Any, Any, Any, Any],
        command: object,
        events: Sequence[Any],
        state: Game[Any, Any],
        at: str | None,
    ) -> Callable[[sqlite_utils.Database], None]:
        """What `append` writes, worked out now (on the caller's thread: the game is not
        thread-safe) and written by whichever thread runs the transaction."""
        at = at or now_iso()
        body, secret = kind.command_to_dict(command)
        body_text = json.dumps(body)
        outcome = state.outcome()
        shots = list(kind.shots(events))
        outbox = self._store.outbox

        def write(db: sqlite_utils.Database) -> None:
            seq = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM commands WHERE game=?", [game]
            ).fetchone()[0]
            insert(db, "commands", {"game": game, "seq": seq, "at": at, "body": body_text})
            if secret is not None:
                insert(db, "secrets", {"game": game, "seq": seq, "side": secret.side, "text": secret.text})
            for shot in shots:
                insert(
                    db,
                    "shots",
                    {
                        "game": game,
                        "at": at,
                        "side": shot.side,
                        "player": shot.player,
                        "number": shot.number,
                        "target": shot.target,
                        "result": shot.result,
                    },
                )
            db.execute(
                "UPDATE games SET status=?, winner=?, turns=?, finished=? WHERE id=?",
                [
                    "over" if outcome.over else "playing",
                    outcome.winner,
                    outcome.turns,
                    at if outcome.over else None,
                    game,
                ],
            )
            db.execute("DELETE FROM results WHERE game=?", [game])
            for r in outcome.results:
                insert(
                    db,
                    "results",
                    {
                        "game": game,
                        "side": r.side,
                        "player": r.player,
                        "shots": r.shots,
                        "hits": r.hits,
                        "sunk": r.sunk,
                        "turns": r.turns,
                        "won": int(r.won),
                    },
                )
            if outbox is not None:
                outbox.game_changed(game, outcome.over, db=db)

        return write

    def abandon(self, game: int) -> None:
        """The game ends without a winner (staff abandoned it): no longer resumed, and the
        statistics list it as abandoned."""
        with self._transaction():
            self.db.execute(
                "UPDATE games SET status='abandoned', finished=? WHERE id=? AND status='playing'",
                [now_iso(), game],
            )

    def unfinished(self, venue: str = "kiosk") -> int | None:
        """The game in play at this venue, if any."""
        row = self.db.execute(
            "SELECT id FROM games WHERE status='playing' AND venue=? ORDER BY id DESC LIMIT 1", [venue]
        ).fetchone()
        return int(row[0]) if row else None

    def last_game(self, venue: str = "kiosk") -> tuple[int, str, datetime | None] | None:
        """The newest game of this venue: its id, status and, once over, when it ended.

        Only the newest counts: a result older than an abandoned game is not the last game."""
        row = self.db.execute(
            "SELECT id, status, finished FROM games WHERE venue=? ORDER BY id DESC LIMIT 1", [venue]
        ).fetchone()
        if row is None:
            return None
        finished = datetime.fromisoformat(row[2]) if row[2] else None
        return int(row[0]), str(row[1]), finished

    def kind_of(self, game: int) -> GameKind[Any, Any, Any, Any]:
        from kiosk.kinds import kind_named

        return kind_named(self._row(game, "kind")["kind"])

    def setup(self, game: int) -> Any:
        return self._kind_and_setup(game)[1]

    def _kind_and_setup(self, game: int) -> tuple[GameKind[Any, Any, Any, Any], Any]:
        """The game's kind and its setup, from one read of its row."""
        from kiosk.kinds import kind_named

        row = self._row(game, "kind, setup")
        kind = kind_named(row["kind"])
        return kind, kind.setup_from_dict(json.loads(row["setup"]))

    def _row(self, game: int, columns: str) -> dict[str, Any]:
        row = next(self.db.table("games").rows_where("id = ?", [game], select=columns), None)
        if row is None:
            raise StoreError(_("no game {game} in the database").format(game=game))
        return row

    def secret(self, game: int, side: int) -> str | None:
        """PRIVATE: a side's latest secret (its fleet as written). Only that side's own views
        may call this."""
        row = self.db.execute(
            "SELECT text FROM secrets WHERE game=? AND side=? ORDER BY seq DESC LIMIT 1", [game, side]
        ).fetchone()
        return row[0] if row else None

    def commands(self, game: int) -> list[Any]:
        """The game's command log, rebuilt (secrets put back) for a replay."""
        return self._commands(game, *self._kind_and_setup(game))

    def _commands(self, game: int, kind: GameKind[Any, Any, Any, Any], setup: object) -> list[Any]:
        rows = self.db.execute(
            "SELECT c.seq, c.body, s.text FROM commands c LEFT JOIN secrets s "
            "ON s.game = c.game AND s.seq = c.seq WHERE c.game=? ORDER BY c.seq",
            [game],
        ).fetchall()
        commands = []
        for seq, body_text, secret in rows:
            try:
                commands.append(kind.command_from_dict(json.loads(body_text), setup, secret))
            except (ValueError, KeyError) as err:
                raise StoreError(
                    _("game {game}: command {seq} cannot be read back: {error}").format(
                        game=game, seq=seq, error=err
                    )
                ) from None
        return commands

    def load(self, game: int) -> Any:
        """Rebuild a stored game exactly by replaying its command log."""
        return self.restore(game)[1]

    def restore(self, game: int) -> tuple[GameKind[Any, Any, Any, Any], Any]:
        """A stored game's kind and the game rebuilt (its kind read once)."""
        from kiosk.game import ReplayError, replay

        kind, setup = self._kind_and_setup(game)
        try:
            return kind, replay(kind, setup, self._commands(game, kind, setup))
        except ReplayError as err:
            raise StoreError(
                _("game {game} cannot be rebuilt: {error}").format(game=game, error=err)
            ) from None


class Phones(_Part):
    """SECRET: the dart game's phone links (one per team of the game in play) and which phone
    (a device digest) holds each, so that a restart breaks neither."""

    def links(self, game: int) -> tuple[str, str] | None:
        """SECRET: the phone links' tokens of `game`, if they were kept."""
        row = self.db.execute("SELECT team0, team1 FROM links WHERE game=?", [game]).fetchone()
        return (row[0], row[1]) if row else None

    def keep_links(self, game: int, tokens: tuple[str, str], past: int = 0) -> None:
        """Keep `game`'s phone link tokens, and those of the `past` games before it (dead links:
        a phone reloading last game's page is no guesser, after a restart too); older ones are
        deleted, and so are the phones that held any but this game's."""
        with self._transaction():
            self._insert("links", {"game": game, "team0": tokens[0], "team1": tokens[1]}, replace=True)
            self.db.execute(
                "DELETE FROM links WHERE game NOT IN (SELECT game FROM links ORDER BY game = ? DESC, "
                "game DESC LIMIT ?)",
                [game, past + 1],
            )
            self.db.execute("DELETE FROM phones WHERE game != ?", [game])

    def recent_links(self, most: int) -> list[tuple[str, str]]:
        """SECRET: the links kept of the `most` latest games (the one in play's, if it has any,
        and the dead links before it), newest first."""
        rows = self.db.execute("SELECT team0, team1 FROM links ORDER BY game DESC LIMIT ?", [most]).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def devices(self, game: int) -> dict[int, str]:
        """SECRET: team -> the device digest of the phone holding that team's link."""
        rows = self.db.execute("SELECT team, device FROM phones WHERE game=?", [game]).fetchall()
        return {int(team): str(device) for team, device in rows}

    def keep_phone(self, game: int, team: int, device: str | None) -> None:
        """The phone (a device digest) that holds `team`'s link now; None: no phone does."""
        with self._transaction():
            self.db.execute("DELETE FROM phones WHERE game=? AND team=?", [game, team])
            if device is not None:
                self._insert("phones", {"game": game, "team": team, "device": device, "at": now_iso()})


class Rooms(_Part):
    """SECRET: classic's phone rooms (a link for a friend, the two devices it is bound to) and
    the names phones gave their won daily challenges.

    Each write is here once, as a function of a connection: on the store's own (`open_room`,
    in `_transaction`) or on the writer thread's (`open_room_grouped`: a future done once it is
    committed, so that the phones' routes never make the loop wait for the disk)."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self._refused: set[int] = set()  # rooms whose stored friend's name was refused (said once)

    def open_room(self, owner: str, token: str) -> RoomRow:
        """A new room of the device `owner` with this link; its older room is closed."""
        return self._now(_open_room(owner, token))

    def open_room_grouped(self, owner: str, token: str) -> concurrent.futures.Future[RoomRow]:
        return self._store.group.submit(_open_room(owner, token))

    def _room(self, where: str, value: object) -> RoomRow | None:
        row = self.db.execute(
            f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE {where}=? AND closed IS NULL ORDER BY id DESC LIMIT 1",
            [value],
        ).fetchone()
        return self._room_row(row) if row else None

    def _room_row(self, row: Sequence[Any]) -> RoomRow:
        """A stored room; its friend's name cleaned as any phone's name is (`kiosk.names`). A
        name that is none (not a text, nothing visible left: a row written by hand or damaged)
        is refused in words (once per room: the friend's page reads its room at every call) and
        dropped: the room, its friend and Ready stay (its duel names the friend by the default)."""
        stored = row[5]
        friend_name = names.clean_name(stored, names.PHONE_MAX_NAME)
        if stored is not None and friend_name is None and row[0] not in self._refused:
            self._refused.add(row[0])
            log.warning(
                "room %s: the friend's stored name %.40r is no name; the friend is named by the default",
                row[0],
                stored,
            )
        return RoomRow(int(row[0]), row[1], row[2], row[3], bool(row[4]), friend_name)

    def room_of(self, owner: str) -> RoomRow | None:
        """The open room of the device `owner`, if it has one."""
        return self._room("owner", owner)

    def room_by_token(self, token: str) -> RoomRow | None:
        """SECRET: the open room of this link (the caller compares tokens in constant time)."""
        return self._room("token", token)

    def keep_room(self, room: RoomRow) -> None:
        """The room's friend, Ready and the friend's name as they are now."""
        self._now(_keep_room(room))

    def keep_room_grouped(self, room: RoomRow) -> concurrent.futures.Future[None]:
        return self._store.group.submit(_keep_room(room))

    def close_room(self, room: int) -> None:
        """A closed room is gone: its row is deleted (its link answers 404 like any unknown
        one), so the table holds the open rooms only and the file stays bounded."""
        self._now(_close_room(room))

    def close_room_grouped(self, room: int) -> concurrent.futures.Future[None]:
        return self._store.group.submit(_close_room(room))

    def open_rooms(self) -> list[tuple[RoomRow, str]]:
        """Every open room with when it was opened (ISO time), oldest first (rooms closed by
        an older kiosk, kept with a `closed` time, are not: `forget_closed_grouped`)."""
        rows = self.db.execute(
            f"SELECT {_ROOM_COLUMNS}, created FROM rooms WHERE closed IS NULL ORDER BY id"
        ).fetchall()
        return [(self._room_row(r), str(r[6])) for r in rows]

    def forget_closed_grouped(self) -> concurrent.futures.Future[None]:
        """Delete the rooms an older kiosk closed by marking them (it kept their rows)."""

        def write(db: sqlite_utils.Database) -> None:
            db.execute("DELETE FROM rooms WHERE closed IS NOT NULL")

        return self._store.group.submit(write)

    def name_daily(self, game: int, name: str) -> None:
        """The name a phone gave its won daily challenge (once: the first name stands)."""
        self._now(_name_daily(game, name))

    def name_daily_grouped(self, game: int, name: str) -> concurrent.futures.Future[None]:
        return self._store.group.submit(_name_daily(game, name))

    def daily_name(self, game: int) -> str | None:
        row = self.db.execute("SELECT name FROM daily_names WHERE game=?", [game]).fetchone()
        return str(row[0]) if row else None

    def _now(self, write: Callable[[sqlite_utils.Database], T]) -> T:
        with self._transaction():
            return write(self.db)


_ROOM_COLUMNS = "id, token, owner, friend, ready, friend_name"


def _open_room(owner: str, token: str) -> Callable[[sqlite_utils.Database], RoomRow]:
    created = now_iso()

    def write(db: sqlite_utils.Database) -> RoomRow:
        db.execute("DELETE FROM rooms WHERE owner=?", [owner])
        row = {"token": token, "owner": owner, "friend": None, "ready": 0, "created": created, "closed": None}
        cursor = insert(db, "rooms", row)
        return RoomRow(int(cursor.lastrowid), token, owner, None, False)  # type: ignore[arg-type]

    return write


def _keep_room(room: RoomRow) -> Callable[[sqlite_utils.Database], None]:
    def write(db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE rooms SET friend=?, ready=?, friend_name=? WHERE id=?",
            [room.friend, int(room.ready), room.friend_name, room.id],
        )

    return write


def _close_room(room: int) -> Callable[[sqlite_utils.Database], None]:
    def write(db: sqlite_utils.Database) -> None:
        db.execute("DELETE FROM rooms WHERE id=?", [room])

    return write


def _name_daily(game: int, name: str) -> Callable[[sqlite_utils.Database], None]:
    at = now_iso()

    def write(db: sqlite_utils.Database) -> None:
        db.execute("INSERT OR IGNORE INTO daily_names (game, name, at) VALUES (?, ?, ?)", [game, name, at])

    return write


class Stats(_Part):
    """What the statistics read (public: never a secret): finished games, players' totals, the
    daily challenge's board."""

    def daily_board(self, day: str, phone_venues: str = "daily:") -> list[DailyResult]:
        """The won daily challenges of `day` (an ISO date), fewest shots first, ties to whoever
        finished first. A phone's challenge (its venue starts with `phone_venues`) counts once
        it is named; others (scripts) under their player's name."""
        rows = self.db.execute(
            """SELECT COALESCE(n.name, r.player), r.shots, g.id FROM games g
               JOIN results r ON r.game = g.id AND r.side = 0
               LEFT JOIN daily_names n ON n.game = g.id
               WHERE g.kind = 'classic' AND g.status = 'over'
                 AND json_extract(g.setup, '$.mode') = 'daily'
                 AND json_extract(g.setup, '$.date') = ?
                 AND (substr(g.venue, 1, ?) != ? OR n.name IS NOT NULL)
               ORDER BY r.shots, g.finished, g.id""",
            [day, len(phone_venues), phone_venues],
        ).fetchall()
        return [DailyResult(str(r[0]), int(r[1]), int(r[2])) for r in rows]

    def finished_games(self, kind: str, **setup: object) -> list[FinishedGame]:
        """The finished games of a kind whose stored setup has these values (`mode="daily",
        date="2026-11-30"`), in the order they finished, with their results."""
        where = "".join(f" AND json_extract(setup, '$.{key}') = ?" for key in setup)
        rows = self.db.execute(
            f"SELECT id, finished, setup FROM games WHERE status='over' AND kind=?{where} "
            "ORDER BY finished, id",
            [kind, *setup.values()],
        ).fetchall()
        games = []
        for gid, finished, setup_text in rows:
            results = tuple(
                PlayerResultRow(*r)
                for r in self.db.execute(
                    "SELECT side, player, shots, hits, sunk, turns, won FROM results WHERE game=? "
                    "ORDER BY side, player",
                    [gid],
                ).fetchall()
            )
            games.append(FinishedGame(gid, finished, json.loads(setup_text), results))
        return games

    def player_stats(
        self, limit: int = 50, kind: str = "darts", venue: str | None = None
    ) -> list[PlayerStats]:
        """`venue`: only the games played there (the kiosk's screen: "kiosk")."""
        rows = self.db.execute(
            """SELECT r.player, COUNT(DISTINCT r.game), SUM(r.won), SUM(r.shots), SUM(r.hits),
                      SUM(r.sunk)
               FROM results r JOIN games g ON g.id = r.game
               WHERE g.kind = ? AND (? IS NULL OR g.venue = ?)
               GROUP BY r.player
               ORDER BY SUM(r.won) DESC, CAST(SUM(r.hits) AS REAL) / MAX(SUM(r.shots), 1) DESC,
                        r.player
               LIMIT ?""",
            [kind, venue, venue, limit],
        ).fetchall()
        return [PlayerStats(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    def last_games(self, limit: int = 10, kind: str = "darts", venue: str | None = None) -> list[GameSummary]:
        rows = self.db.execute(
            """SELECT id, started, finished, setup, winner, turns, status FROM games
               WHERE status IN ('over', 'abandoned') AND kind=? AND (? IS NULL OR venue = ?)
               ORDER BY id DESC LIMIT ?""",
            [kind, venue, venue, limit],
        ).fetchall()
        games = []
        for gid, started, finished, setup_text, winner, turns, status in rows:
            setup = json.loads(setup_text)
            names = tuple(str(n) for n in setup.get("teams") or setup.get("players") or ())
            games.append(
                GameSummary(
                    gid,
                    started,
                    finished,
                    names,
                    names[winner] if winner is not None and winner < len(names) else None,
                    turns or 0,
                    status == "abandoned",
                )
            )
        return games


class Meta(_Part):
    """The schema's version and the kiosk's own small state across restarts (not a game's)."""

    def schema_version(self) -> int:
        row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        return int(row[0])

    def remember(self, key: str, value: str) -> None:
        """Keep a small piece of the kiosk's own state across restarts (not a game's)."""
        with self._transaction():
            self._insert("meta", {"key": f"kiosk.{key}", "value": value}, replace=True)

    def recall(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", [f"kiosk.{key}"]).fetchone()
        return str(row[0]) if row else None

    def probe(self) -> None:
        """A real write and commit, to see whether writing works again (after a full disk)."""
        with self._transaction():
            self._insert("meta", {"key": "probe", "value": now_iso()}, replace=True)


class DraftError(StoreError):
    """A kept draft that is not a JSON object (broken, or not written by a kiosk)."""


class Drafts(_Part):
    """What the players answered on the touchscreen before a game's play: a line-up with its
    swaps (`kiosk.express.lineup`), a team's fleet being placed (`kiosk.placing_drafts`), kept at
    every change so that a kill -9 loses none of it, and put away once the game starts or the
    draft is given up. Kept by name in the meta table, as JSON
    objects; what a draft holds is its game's business (this part names no game)."""

    _PREFIX = "draft."

    def keep(self, name: str, draft: Mapping[str, object]) -> None:
        """Keep `draft` (JSON-able) as `name`'s, over what was kept before."""
        with self._transaction():
            self._insert("meta", {"key": self._PREFIX + name, "value": json.dumps(draft)}, replace=True)

    def kept(self, name: str) -> dict[str, Any] | None:
        """`name`'s draft (None: nothing kept). DraftError says what is wrong with a broken one."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?", [self._PREFIX + name]).fetchone()
        if row is None:
            return None
        try:
            found = json.loads(row[0])
        except (TypeError, ValueError):
            raise DraftError(_("the kept draft is not readable")) from None
        if not isinstance(found, dict):
            raise DraftError(_("the kept draft is not readable"))
        return found

    def names(self) -> list[str]:
        rows = self.db.execute(
            "SELECT key FROM meta WHERE key LIKE ? ORDER BY key", [self._PREFIX + "%"]
        ).fetchall()
        return [str(row[0])[len(self._PREFIX) :] for row in rows]

    def put_away(self, name: str | None = None) -> None:
        """Forget `name`'s draft (None: every draft, as when any game starts)."""
        with self._transaction():
            if name is None:
                self.db.execute("DELETE FROM meta WHERE key LIKE ?", [self._PREFIX + "%"])
            else:
                self.db.execute("DELETE FROM meta WHERE key=?", [self._PREFIX + name])
