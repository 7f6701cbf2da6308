"""Every game on disk: SQLite through sqlite-utils, WAL with synchronous=FULL.

A command is committed before its answer is announced, so whatever the players saw survives a
power cut; an unfinished game is resumed by replaying its command log. Placements live in
their own table and are read only through `placement(game, team)`: nothing public (stats, last
games) ever touches them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from kiosk.darts.fleet import parse_fleet
from kiosk.darts.match import Command, DartThrown, Event, Match, Phase, Place, Setup
from kiosk.darts.wire import command_from_dict, command_to_dict, setup_from_dict, setup_to_dict
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
    teams: tuple[str, str]
    winner: str | None
    visits: int


def _migrate_1(db: sqlite_utils.Database) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["games"].create({"id": int, "started": str, "finished": str, "setup": str,
                        "status": str, "winner": int, "visits": int}, pk="id")
    db["commands"].create({"game": int, "seq": int, "at": str, "body": str},
                          pk=("game", "seq"), foreign_keys=[("game", "games", "id")])
    db["placements"].create({"game": int, "team": int, "fleet": str, "at": str},
                            pk=("game", "team"), foreign_keys=[("game", "games", "id")])
    db["darts"].create({"id": int, "game": int, "at": str, "team": int, "player": str,
                        "dart": int, "cell": str, "result": str}, pk="id",
                       foreign_keys=[("game", "games", "id")])
    db["results"].create({"game": int, "team": int, "player": str, "darts": int, "hits": int,
                          "sunk": int, "visits": int, "won": int},
                         pk=("game", "team", "player"), foreign_keys=[("game", "games", "id")])


def _migrate_2(db: sqlite_utils.Database) -> None:
    db["darts"].create_index(["game"], if_not_exists=True)
    db["results"].create_index(["player"], if_not_exists=True)
    db["games"].create_index(["status"], if_not_exists=True)


def _migrate_3(db: sqlite_utils.Database) -> None:
    # The secret phone links of the game in play, so that a restart does not break them.
    db["links"].create({"game": int, "team0": str, "team1": str}, pk="game",
                       foreign_keys=[("game", "games", "id")])


MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (_migrate_1, _migrate_2,
                                                                   _migrate_3)
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
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def schema_version(self) -> int:
        row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        return int(row[0])

    # -- games --

    def new_game(self, setup: Setup, at: str | None = None) -> int:
        with self._transaction():
            # Only one game runs on a kiosk: an unfinished older one is abandoned.
            self.db.execute("UPDATE games SET status='abandoned' WHERE status='playing'")
            cursor = self._insert("games", {"started": at or now_iso(), "finished": None,
                                            "setup": json.dumps(setup_to_dict(setup)),
                                            "status": "playing", "winner": None, "visits": 0})
            return int(cursor.lastrowid)  # type: ignore[arg-type]

    def append(self, game: int, command: Command, events: list[Event], match: Match,
               at: str | None = None) -> None:
        """Commit one accepted command (and what it caused) before anyone is told about it."""
        at = at or now_iso()
        with self._transaction():
            seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM commands WHERE game=?",
                                  [game]).fetchone()[0]
            body = command_to_dict(command)
            if isinstance(command, Place):
                self._insert("placements", {"game": game, "team": command.team,
                                            "fleet": command.fleet.code, "at": at}, replace=True)
                body = {"cmd": "place", "team": command.team}  # the fleet stays in placements
            self._insert("commands", {"game": game, "seq": seq, "at": at,
                                      "body": json.dumps(body)})
            for e in events:
                if isinstance(e, DartThrown):
                    self._insert("darts", {"game": game, "at": at, "team": e.team,
                                           "player": e.player, "dart": e.dart,
                                           "cell": e.cell.code, "result": e.result.value})
            self._write_outcome(game, match, at)

    def _write_outcome(self, game: int, match: Match, at: str) -> None:
        over = match.phase is Phase.OVER
        self.db.execute("UPDATE games SET status=?, winner=?, visits=?, finished=? WHERE id=?",
                        ["over" if over else "playing", match.winner, match.visits,
                         at if over else None, game])
        self.db.execute("DELETE FROM results WHERE game=?", [game])
        if not over:
            return
        for team in (0, 1):
            for player, tally in match.player_tallies(team).items():
                self._insert("results", {"game": game, "team": team, "player": player,
                                         "darts": tally.darts, "hits": tally.hits,
                                         "sunk": tally.sunk, "visits": tally.visits,
                                         "won": int(match.winner == team)})

    def _insert(self, table: str, row: dict, replace: bool = False) -> sqlite3.Cursor:
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

    def unfinished(self) -> int | None:
        row = self.db.execute(
            "SELECT id FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1").fetchone()
        return int(row[0]) if row else None

    def setup(self, game: int) -> Setup:
        row = self.db.execute("SELECT setup FROM games WHERE id=?", [game]).fetchone()
        if row is None:
            raise StoreError(_("no game {game} in the database").format(game=game))
        return setup_from_dict(json.loads(row[0]))

    def placement(self, game: int, team: int) -> str | None:
        """PRIVATE: a team's fleet as written. Only that team's own views may call this."""
        row = self.db.execute("SELECT fleet FROM placements WHERE game=? AND team=?",
                              [game, team]).fetchone()
        return row[0] if row else None

    def links(self, game: int) -> tuple[str, str] | None:
        """SECRET: the phone links' tokens of `game`, if they were kept."""
        row = self.db.execute("SELECT team0, team1 FROM links WHERE game=?", [game]).fetchone()
        return (row[0], row[1]) if row else None

    def keep_links(self, game: int, tokens: tuple[str, str]) -> None:
        """Keep `game`'s phone link tokens; those of every other game are deleted (dead anyway)."""
        with self._transaction():
            self.db.execute("DELETE FROM links")
            self._insert("links", {"game": game, "team0": tokens[0], "team1": tokens[1]})

    def load(self, game: int) -> Match:
        """Rebuild a stored game exactly by replaying its command log."""
        setup = self.setup(game)
        commands: list[Command] = []
        for (body_text,) in self.db.execute(
                "SELECT body FROM commands WHERE game=? ORDER BY seq", [game]).fetchall():
            body = json.loads(body_text)
            if body.get("cmd") == "place":
                fleet = self.placement(game, body["team"])
                if fleet is None:
                    raise StoreError(_("game {game}: a placement is missing").format(game=game))
                commands.append(Place(body["team"], parse_fleet(fleet, setup.rules.board,
                                                                setup.rules.fleet)))
            else:
                commands.append(command_from_dict(body, setup.rules))
        return Match.replay(setup, commands)

    def command_times(self, game: int) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT at FROM commands WHERE game=? ORDER BY seq", [game]).fetchall()]

    # -- statistics (public: never reads placements) --

    def player_stats(self, limit: int = 50) -> list[PlayerStats]:
        rows = self.db.execute(
            """SELECT player, COUNT(DISTINCT game), SUM(won), SUM(darts), SUM(hits), SUM(sunk)
               FROM results GROUP BY player
               ORDER BY SUM(won) DESC, CAST(SUM(hits) AS REAL) / MAX(SUM(darts), 1) DESC, player
               LIMIT ?""", [limit]).fetchall()
        return [PlayerStats(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    def last_games(self, limit: int = 10) -> list[GameSummary]:
        rows = self.db.execute(
            """SELECT id, started, finished, setup, winner, visits FROM games
               WHERE status='over' ORDER BY id DESC LIMIT ?""", [limit]).fetchall()
        games = []
        for gid, started, finished, setup_text, winner, visits in rows:
            teams = tuple(json.loads(setup_text)["teams"])
            games.append(GameSummary(gid, started, finished, (teams[0], teams[1]),
                                     teams[winner] if winner is not None else None, visits))
        return games
