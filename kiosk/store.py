"""Every game of every kind on disk: SQLite through sqlite-utils, WAL with synchronous=FULL.

Written for any game (`kiosk/game.py`): a game row (its kind, venue, setup and outcome), its
command log, its shots and per-player results for the statistics. A command is committed before
its answer is announced, so whatever the players saw survives a power cut; a game is resumed by
replaying its command log. A command's secret part (a fleet) lives in the `secrets` table and is
read only to replay and through `secret(game, side)`: nothing public (stats, last games, the
command log) ever holds it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from kiosk.game import Game, GameKind
from kiosk.i18n import _

APPLICATION_ID = 0x44415254  # "DART": marks the file as ours in the SQLite header
SQLITE_HEADER = b"SQLite format 3\x00"


class StoreError(RuntimeError):
    """The database file cannot be used; the message says why and what to do."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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


def _migrate_1(db: sqlite_utils.Database) -> None:
    db.table("meta").create({"key": str, "value": str}, pk="key")
    db.table("games").create({"id": int, "started": str, "finished": str, "setup": str,
                        "status": str, "winner": int, "visits": int}, pk="id")
    db.table("commands").create({"game": int, "seq": int, "at": str, "body": str},
                          pk=("game", "seq"), foreign_keys=[("game", "games", "id")])
    db.table("placements").create({"game": int, "team": int, "fleet": str, "at": str},
                            pk=("game", "team"), foreign_keys=[("game", "games", "id")])
    db.table("darts").create({"id": int, "game": int, "at": str, "team": int, "player": str,
                        "dart": int, "cell": str, "result": str}, pk="id",
                       foreign_keys=[("game", "games", "id")])
    db.table("results").create({"game": int, "team": int, "player": str, "darts": int, "hits": int,
                          "sunk": int, "visits": int, "won": int},
                         pk=("game", "team", "player"), foreign_keys=[("game", "games", "id")])


def _migrate_2(db: sqlite_utils.Database) -> None:
    db.table("darts").create_index(["game"], if_not_exists=True)
    db.table("results").create_index(["player"], if_not_exists=True)
    db.table("games").create_index(["status"], if_not_exists=True)


def _migrate_3(db: sqlite_utils.Database) -> None:
    # The secret phone links of the game in play, so that a restart does not break them.
    db.table("links").create({"game": int, "team0": str, "team1": str}, pk="game",
                       foreign_keys=[("game", "games", "id")])


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
    db.table("secrets").create({"game": int, "seq": int, "side": int, "text": str},
                         pk=("game", "seq"), foreign_keys=[("game", "games", "id")])
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
    db.table("phones").create({"game": int, "team": int, "device": str, "at": str},
                              pk=("game", "team"), foreign_keys=[("game", "games", "id")])


MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (
    _migrate_1, _migrate_2, _migrate_3, _migrate_4, _migrate_5)
SCHEMA_VERSION = len(MIGRATIONS)


class Store:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._check_file()
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            raise StoreError(_("{path}: cannot open the database: {error}").format(
                path=self.path, error=err)) from None
        self.db = sqlite_utils.Database(conn)
        try:
            self._check_ours()
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as err:
            conn.close()
            raise StoreError(_("{path} is damaged ({error}); it was left untouched. Move it away "
                               "to start a new database.").format(path=self.path, error=err)) from None
        except StoreError:
            conn.close()
            raise

    def close(self) -> None:
        self.db.conn.close()

    # -- opening safely --

    def _check_file(self) -> None:
        if not self.path.exists():
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise StoreError(_("{path}: cannot create its folder: {error}").format(
                    path=self.path, error=err)) from None
            return
        if self.path.is_dir():
            raise StoreError(_("{path} is a folder, not a database file").format(path=self.path))
        try:
            with open(self.path, "rb") as f:
                header = f.read(100)
        except OSError as err:
            raise StoreError(_("{path}: cannot read: {error}").format(
                path=self.path, error=err)) from None
        if header and not header.startswith(SQLITE_HEADER):
            raise StoreError(_("{path} is not a Dartship database (not SQLite at all); it was left "
                               "untouched").format(path=self.path))
        if len(header) >= 72 and int.from_bytes(header[68:72], "big") not in (0, APPLICATION_ID):
            raise StoreError(_("{path} is an SQLite database of another program; it was left "
                               "untouched").format(path=self.path))

    def _check_ours(self) -> None:
        """Refuse a foreign or damaged file before writing anything to it."""
        app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
        tables = set(self.db.table_names())
        if app_id == 0 and tables:
            raise StoreError(_("{path} is an SQLite database of another program; it was left "
                               "untouched").format(path=self.path))
        if app_id == APPLICATION_ID:
            check = self.db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(_("{path} is damaged ({error}); it was left untouched").format(
                    path=self.path, error=check))

    def _migrate(self) -> None:
        version = 0
        if "meta" in self.db.table_names():
            row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            version = int(row[0]) if row else 0
        if version > SCHEMA_VERSION:
            raise StoreError(_("{path} was written by a newer Dartship (schema {found}, this one "
                               "knows {known}); it was left untouched").format(
                path=self.path, found=version, known=SCHEMA_VERSION))
        for number in range(version, SCHEMA_VERSION):
            with self._transaction():
                MIGRATIONS[number](self.db)
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self._insert("meta", {"key": "schema_version", "value": str(number + 1)},
                             replace=True)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """All or nothing: a failure anywhere, COMMIT included (a full disk fails there), rolls
        the whole transaction back, so the file holds what it held before and stays usable."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.conn.in_transaction:
                self.db.execute("ROLLBACK")
            raise

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

    # -- games --

    def new_game(self, kind: GameKind[Any, Any, Any, Any], setup: Any, *, venue: str = "kiosk",
                 at: str | None = None) -> int:
        """A new game of this kind at this venue; an unfinished older one there is abandoned
        (one game at a time runs at a venue: the kiosk's screen, one phone room)."""
        with self._transaction():
            self.db.execute("UPDATE games SET status='abandoned' WHERE status='playing' AND venue=?",
                            [venue])
            cursor = self._insert("games", {"kind": kind.name, "venue": venue,
                                            "started": at or now_iso(), "finished": None,
                                            "setup": json.dumps(kind.setup_to_dict(setup)),
                                            "status": "playing", "winner": None, "turns": 0})
            return int(cursor.lastrowid)  # type: ignore[arg-type]

    def append(self, game: int, kind: GameKind[Any, Any, Any, Any], command: Any,
               events: Sequence[Any], state: Game[Any, Any], at: str | None = None) -> None:
        """Commit one accepted command (and what it caused) before anyone is told about it.

        `state` is the game after the command: its outcome (over, winner, results) is kept in
        the same transaction. All or nothing: on any error the file is as before."""
        at = at or now_iso()
        body, secret = kind.command_to_dict(command)
        outcome = state.outcome()
        with self._transaction():
            seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM commands WHERE game=?",
                                  [game]).fetchone()[0]
            self._insert("commands", {"game": game, "seq": seq, "at": at, "body": json.dumps(body)})
            if secret is not None:
                self._insert("secrets", {"game": game, "seq": seq, "side": secret.side,
                                         "text": secret.text})
            for shot in kind.shots(events):
                self._insert("shots", {"game": game, "at": at, "side": shot.side,
                                       "player": shot.player, "number": shot.number,
                                       "target": shot.target, "result": shot.result})
            self.db.execute("UPDATE games SET status=?, winner=?, turns=?, finished=? WHERE id=?",
                            ["over" if outcome.over else "playing", outcome.winner, outcome.turns,
                             at if outcome.over else None, game])
            self.db.execute("DELETE FROM results WHERE game=?", [game])
            for r in outcome.results:
                self._insert("results", {"game": game, "side": r.side, "player": r.player,
                                         "shots": r.shots, "hits": r.hits, "sunk": r.sunk,
                                         "turns": r.turns, "won": int(r.won)})

    def _insert(self, table: str, row: dict[str, Any], replace: bool = False) -> sqlite3.Cursor:
        # Plain SQL: sqlite-utils' insert helpers commit on their own, which would end our
        # explicit transaction half way.
        verb = "INSERT OR REPLACE" if replace else "INSERT"
        names = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        return self.db.execute(f"{verb} INTO {table} ({names}) VALUES ({marks})", list(row.values()))

    def abandon(self, game: int) -> None:
        with self._transaction():
            self.db.execute("UPDATE games SET status='abandoned' WHERE id=? AND status='playing'",
                            [game])

    def unfinished(self, venue: str = "kiosk") -> int | None:
        """The game in play at this venue, if any."""
        row = self.db.execute(
            "SELECT id FROM games WHERE status='playing' AND venue=? ORDER BY id DESC LIMIT 1",
            [venue]).fetchone()
        return int(row[0]) if row else None

    def kind_of(self, game: int) -> GameKind[Any, Any, Any, Any]:
        from kiosk.kinds import kind_named

        row = self.db.execute("SELECT kind FROM games WHERE id=?", [game]).fetchone()
        if row is None:
            raise StoreError(_("no game {game} in the database").format(game=game))
        return kind_named(row[0])

    def setup(self, game: int) -> Any:
        row = self.db.execute("SELECT setup FROM games WHERE id=?", [game]).fetchone()
        if row is None:
            raise StoreError(_("no game {game} in the database").format(game=game))
        return self.kind_of(game).setup_from_dict(json.loads(row[0]))

    def secret(self, game: int, side: int) -> str | None:
        """PRIVATE: a side's latest secret (its fleet as written). Only that side's own views
        may call this."""
        row = self.db.execute("SELECT text FROM secrets WHERE game=? AND side=? "
                              "ORDER BY seq DESC LIMIT 1", [game, side]).fetchone()
        return row[0] if row else None

    def links(self, game: int) -> tuple[str, str] | None:
        """SECRET: the phone links' tokens of `game`, if they were kept."""
        row = self.db.execute("SELECT team0, team1 FROM links WHERE game=?", [game]).fetchone()
        return (row[0], row[1]) if row else None

    def keep_links(self, game: int, tokens: tuple[str, str]) -> None:
        """Keep `game`'s phone link tokens; those of every other game are deleted (dead anyway),
        and so are the phones that held them."""
        with self._transaction():
            self.db.execute("DELETE FROM links")
            self.db.execute("DELETE FROM phones WHERE game != ?", [game])
            self._insert("links", {"game": game, "team0": tokens[0], "team1": tokens[1]})

    def phones(self, game: int) -> dict[int, str]:
        """SECRET: team -> the device digest of the phone holding that team's link."""
        rows = self.db.execute("SELECT team, device FROM phones WHERE game=?", [game]).fetchall()
        return {int(team): str(device) for team, device in rows}

    def keep_phone(self, game: int, team: int, device: str | None) -> None:
        """The phone (a device digest) that holds `team`'s link now; None: no phone does."""
        with self._transaction():
            self.db.execute("DELETE FROM phones WHERE game=? AND team=?", [game, team])
            if device is not None:
                self._insert("phones", {"game": game, "team": team, "device": device,
                                        "at": now_iso()})

    def commands(self, game: int) -> list[Any]:
        """The game's command log, rebuilt (secrets put back) for a replay."""
        kind = self.kind_of(game)
        setup = self.setup(game)
        rows = self.db.execute(
            "SELECT c.seq, c.body, s.text FROM commands c LEFT JOIN secrets s "
            "ON s.game = c.game AND s.seq = c.seq WHERE c.game=? ORDER BY c.seq", [game]).fetchall()
        commands = []
        for seq, body_text, secret in rows:
            try:
                commands.append(kind.command_from_dict(json.loads(body_text), setup, secret))
            except (ValueError, KeyError) as err:
                raise StoreError(_("game {game}: command {seq} cannot be read back: {error}")
                                 .format(game=game, seq=seq, error=err)) from None
        return commands

    def load(self, game: int) -> Any:
        """Rebuild a stored game exactly by replaying its command log."""
        from kiosk.game import ReplayError, replay

        kind = self.kind_of(game)
        try:
            return replay(kind, self.setup(game), self.commands(game))
        except ReplayError as err:
            raise StoreError(_("game {game} cannot be rebuilt: {error}").format(
                game=game, error=err)) from None

    def command_times(self, game: int) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT at FROM commands WHERE game=? ORDER BY seq", [game]).fetchall()]

    # -- statistics (public: never reads secrets) --

    def player_stats(self, limit: int = 50, kind: str = "darts") -> list[PlayerStats]:
        rows = self.db.execute(
            """SELECT r.player, COUNT(DISTINCT r.game), SUM(r.won), SUM(r.shots), SUM(r.hits),
                      SUM(r.sunk)
               FROM results r JOIN games g ON g.id = r.game WHERE g.kind = ?
               GROUP BY r.player
               ORDER BY SUM(r.won) DESC, CAST(SUM(r.hits) AS REAL) / MAX(SUM(r.shots), 1) DESC,
                        r.player
               LIMIT ?""", [kind, limit]).fetchall()
        return [PlayerStats(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    def last_games(self, limit: int = 10, kind: str = "darts") -> list[GameSummary]:
        rows = self.db.execute(
            """SELECT id, started, finished, setup, winner, turns FROM games
               WHERE status='over' AND kind=? ORDER BY id DESC LIMIT ?""", [kind, limit]).fetchall()
        games = []
        for gid, started, finished, setup_text, winner, turns in rows:
            setup = json.loads(setup_text)
            names = tuple(str(n) for n in setup.get("teams") or setup.get("players") or ())
            games.append(GameSummary(gid, started, finished, names,
                                     names[winner] if winner is not None and winner < len(names)
                                     else None, turns))
        return games
