"""Storage: durable commands, exact resume, refusing files that are not ours, statistics."""

import json
import sqlite3
import time
from dataclasses import replace
from pathlib import Path

import pytest

from kiosk.board import Profile, board_for
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Next, Throw
from kiosk.store import SCHEMA_VERSION, Store, StoreError
from tests.kiosk.conftest import make_match, snapshot
from tests.line_game import LineGame

FOUR = board_for(Profile.FOUR_RING)


def _stored_game(store: Store):
    """A game with both fleets placed, every command committed as the kiosk does."""
    template = make_match(start=None)
    match = type(template)(template.setup)
    game = store.games.new_game(DARTS, match.setup)
    for command in template.log:
        store.games.append(game, DARTS, command, match.apply(command), match)
    return game, match


def _apply(store, game, match, command):
    events = match.apply(command)
    store.games.append(game, DARTS, command, events, match)
    return events


def _old_database(path: Path, version: int) -> None:
    """A database as Dartship wrote it at schema `version` (its migrations only)."""
    import sqlite_utils

    from kiosk.store import APPLICATION_ID, MIGRATIONS

    db = sqlite_utils.Database(sqlite3.connect(path, isolation_level=None))
    for migrate in MIGRATIONS[:version]:
        migrate(db)
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", [str(version)])
    db.conn.close()


def test_resume_replays_exactly(tmp_path):
    store = Store(tmp_path / "d.db")
    game, match = _stored_game(store)
    from kiosk.darts.match import Start

    _apply(store, game, match, Start(1))
    for code in ("D3", "D19", "T5"):
        _apply(store, game, match, Throw(FOUR.parse(code)))
    _apply(store, game, match, Next())
    store.close()
    again = Store(tmp_path / "d.db")
    assert again.games.unfinished() == game
    assert snapshot(again.games.load(game)) == snapshot(match)


def test_wal_and_full_sync(tmp_path):
    store = Store(tmp_path / "d.db")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store.meta.schema_version() == SCHEMA_VERSION


def test_placements_stay_out_of_the_public_tables(tmp_path):
    store = Store(tmp_path / "d.db")
    game, match = _stored_game(store)
    fleet_cells = {c.code for c in match.fleet(0).cells} | {c.code for c in match.fleet(1).cells}
    for (body,) in store.db.execute("SELECT body FROM commands").fetchall():
        assert "fleet" not in json.loads(body)
        assert not any(code in body for code in fleet_cells), body
    setup_text = store.db.execute("SELECT setup FROM games").fetchone()[0]
    assert not any(code in setup_text for code in fleet_cells)
    assert store.games.secret(game, 0) == match.fleet(0).code


def test_junk_file_refused_and_untouched(tmp_path):
    junk = tmp_path / "notes.db"
    junk.write_bytes(b"this is not a database at all\n" * 50)
    before = junk.read_bytes()
    with pytest.raises(StoreError, match="not a Dartship database"):
        Store(junk)
    assert junk.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


def test_foreign_sqlite_refused_and_untouched(tmp_path):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE customers (name TEXT)")
    conn.execute("INSERT INTO customers VALUES ('Ann')")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        Store(other)
    assert other.read_bytes() == before


def test_damaged_file_refused(tmp_path):
    path = tmp_path / "d.db"
    store = Store(path)
    _stored_game(store)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(path.read_bytes())
    for i in range(1024, len(data), 7):  # scribble over every page after the first
        data[i] = 0xFF
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"damaged .*left untouched\. Keep it"):
        Store(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.db"]  # no -wal, no -shm either


def test_newer_schema_refused(tmp_path):
    path = tmp_path / "d.db"
    store = Store(path)
    store.db.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    store.close()
    with pytest.raises(StoreError, match="newer"):
        Store(path)


def test_migration_from_version_1(tmp_path):
    path = tmp_path / "d.db"
    _old_database(path, 1)
    store = Store(path)
    assert store.meta.schema_version() == SCHEMA_VERSION
    assert "idx_darts_game" in {i.name for i in store.db["shots"].indexes}
    assert "placements" not in store.db.table_names()


def test_a_dart_game_of_schema_3_resumes_exactly_after_the_migration(tmp_path):
    """Schema 4 moved fleets from `placements` (the latest per team) to `secrets` (per command)
    and gave games a kind: a game stored before must come back the same."""
    from kiosk.darts.match import Start, Unplace
    from kiosk.darts.wire import command_to_dict, setup_to_dict

    path = tmp_path / "d.db"
    _old_database(path, 3)
    template = make_match(start=None)
    match = type(template)(template.setup)
    commands = [
        template.log[0],
        Unplace(0),
        template.log[0],
        template.log[1],
        Start(0),
        Throw(FOUR.parse("T20")),
        Throw(FOUR.parse("D3")),
    ]
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "INSERT INTO games (id, started, setup, status, visits) VALUES (1, 'then', ?, 'playing', 1)",
        [json.dumps(setup_to_dict(match.setup))],
    )
    for seq, command in enumerate(commands, start=1):
        match.apply(command)
        body = command_to_dict(command)
        if body["cmd"] == "place":
            body = {"cmd": "place", "team": command.side}
            conn.execute(
                "INSERT OR REPLACE INTO placements VALUES (1, ?, ?, 'then')",
                [command.side, command.fleet.code],
            )
        conn.execute("INSERT INTO commands VALUES (1, ?, 'then', ?)", [seq, json.dumps(body)])
    conn.close()
    store = Store(path)
    assert store.games.unfinished() == 1 and store.games.kind_of(1) is DARTS
    assert snapshot(store.games.load(1)) == snapshot(match)
    assert store.games.secret(1, 1) == match.fleet(1).code


def test_stats_after_a_finished_game(tmp_path):
    from kiosk.darts.fleet import parse_fleet
    from kiosk.darts.match import HouseRules, Match, Place, Setup, Start, Team

    store = Store(tmp_path / "d.db")
    setup = Setup((Team("Sharks", ("Ann", "Bo")), Team("Jets", ("Cy",))), HouseRules(fleet=(2,)))
    match = Match(setup)
    game = store.games.new_game(DARTS, setup)
    for command in (
        Place(0, parse_fleet("T20-T1", FOUR, (2,))),
        Place(1, parse_fleet("D3-D19", FOUR, (2,))),
        Start(0),
        Throw(FOUR.parse("D3")),
        Throw(FOUR.parse("T5")),
        Throw(FOUR.parse("T6")),
        Next(),
        Throw(FOUR.parse("T20")),
        Next(),
        Throw(FOUR.parse("D19")),
    ):
        _apply(store, game, match, command)
    assert match.winner == 0
    stats = {s.name: s for s in store.stats.player_stats()}
    assert stats["Bo"].wins == 1 and stats["Bo"].hits == 1 and stats["Bo"].darts == 1
    assert stats["Ann"].darts == 3 and stats["Ann"].hits == 1 and stats["Ann"].games == 1
    assert stats["Cy"].wins == 0 and stats["Cy"].hits == 1
    last = store.stats.last_games()
    assert last[0].winner == "Sharks" and last[0].teams == ("Sharks", "Jets")
    assert store.games.unfinished() is None
    # an undo of the winning dart puts the game back in play and takes the result back
    from kiosk.darts.match import Undo

    _apply(store, game, match, Undo())
    assert store.games.unfinished() == game and store.stats.player_stats() == []


def test_sigkill_mid_game_then_resume_loses_nothing(tmp_path):
    db = tmp_path / "game.db"
    ref = LineGame("referee", db)
    ref.send({"cmd": "new", "teams": ["Sharks", "Jets"], "players": [["Ann", "Bo"], ["Cy"]]})
    ref.send({"cmd": "place", "team": 0, "fleet": "D20-L20-T20-S20-BULL T1-T18-T4-T13 L6-L10-L15 D3-D19"})
    ref.send({"cmd": "random_fleet", "team": 1, "seed": 7})
    ref.send({"cmd": "start", "first": 1})
    assert [a["event"] for a in ref.read(4)] == ["new", "placed", "placed", "visit"]
    ref.send({"cmd": "throw", "cell": "D3"})
    ref.send({"cmd": "throw", "cell": "D19"})
    answers = ref.read(2)
    assert answers[1]["result"] == "sunk"
    state_before = ref.ask({"cmd": "state"})[0]
    ref.kill()
    time.sleep(0.05)
    ref = LineGame("referee", db)
    assert ref.ask({"cmd": "state"})[0] == state_before
    answers = ref.ask({"cmd": "throw", "cell": "T5"}, answers=2)
    assert answers[0]["dart"] == 3 and answers[1] == {"event": "takeout", "team": 1}
    assert ref.end()[0] == 0


def test_phone_links_are_kept_for_the_game_in_play_only(tmp_path):
    store = Store(tmp_path / "d.db")
    first, _ = _stored_game(store)
    assert store.phones.links(first) is None
    store.phones.keep_links(first, ("aaa", "bbb"))
    store.close()
    store = Store(tmp_path / "d.db")
    assert store.phones.links(first) == ("aaa", "bbb")
    second, _ = _stored_game(store)
    store.phones.keep_links(second, ("ccc", "ddd"))
    assert store.phones.links(first) is None and store.phones.links(second) == ("ccc", "ddd")
    assert store.db.execute("SELECT COUNT(*) FROM links").fetchone()[0] == 1


def test_migration_from_version_2_adds_the_links_table(tmp_path):
    path = tmp_path / "d.db"
    _old_database(path, 2)
    store = Store(path)
    assert store.meta.schema_version() == SCHEMA_VERSION
    game, _ = _stored_game(store)
    assert store.phones.links(game) is None
    store.phones.keep_links(game, ("x", "y"))
    assert store.phones.links(game) == ("x", "y")


def test_migration_from_version_5_adds_the_phones_rooms_and_daily_names(tmp_path):
    path = tmp_path / "d.db"
    _old_database(path, 5)
    store = Store(path)
    assert store.meta.schema_version() == SCHEMA_VERSION >= 6
    assert {"rooms", "daily_names"} <= set(store.db.table_names())
    room = store.rooms.open_room("device-a", "token-a")
    assert store.rooms.room_of("device-a") == room and store.rooms.room_by_token("token-a") == room
    store.rooms.keep_room(replace(room, friend="device-b", ready=True))
    assert store.rooms.room_by_token("token-a").friend == "device-b"
    again = store.rooms.open_room("device-a", "token-b")  # a device has one open room: the old dies
    assert store.rooms.room_by_token("token-a") is None and store.rooms.room_of("device-a") == again
    store.rooms.close_room(again.id)
    assert store.rooms.room_of("device-a") is None and store.rooms.room_by_token("token-b") is None


def test_a_rooms_friend_name_is_kept_read_back_and_goes_with_the_room(tmp_path):
    store = Store(tmp_path / "d.db")
    room = store.rooms.open_room("device-a", "token-a")
    assert room.friend_name is None
    store.rooms.keep_room(replace(room, friend="device-b", ready=True, friend_name="Ann"))
    store.close()
    again = Store(tmp_path / "d.db")  # a restart
    kept = again.rooms.room_by_token("token-a")
    assert kept is not None and (kept.friend, kept.ready, kept.friend_name) == ("device-b", True, "Ann")
    assert again.rooms.room_of("device-a") == kept and again.rooms.open_rooms()[0][0] == kept
    again.rooms.close_room(kept.id)
    assert again.db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 0


def test_an_older_database_without_the_friends_name_opens_with_its_rooms(tmp_path):
    path = tmp_path / "d.db"
    _old_database(path, SCHEMA_VERSION - 1)
    db = sqlite3.connect(path)
    assert "friend_name" not in {row[1] for row in db.execute("PRAGMA table_info(rooms)")}
    db.execute(
        "INSERT INTO rooms (token, owner, friend, ready, created) VALUES ('t', 'own', 'fr', 1, '2026-12-02')"
    )
    db.commit()
    db.close()
    store = Store(path)
    assert store.meta.schema_version() == SCHEMA_VERSION
    room = store.rooms.room_by_token("t")
    assert room is not None and (room.owner, room.friend, room.ready, room.friend_name) == (
        "own",
        "fr",
        True,
        None,
    )
    store.rooms.keep_room(replace(room, friend_name="Bo"))
    assert store.rooms.room_of("own").friend_name == "Bo"


@pytest.mark.parametrize(
    ("stored", "read"),
    [("  Ann\u0007  Lee ", "Ann Lee"), ("x" * 40, "x" * 20), ("\u200b\u200b", None), (b"Ann", None)],
)
def test_a_stored_friends_name_is_cleaned_and_a_broken_one_refused_in_words(tmp_path, caplog, stored, read):
    store = Store(tmp_path / "d.db")
    room = store.rooms.open_room("device-a", "token-a")
    store.rooms.keep_room(replace(room, friend="device-b", ready=True))
    store.db.execute("UPDATE rooms SET friend_name=? WHERE id=?", [stored, room.id])
    with caplog.at_level("WARNING", logger="dartship.store"):
        found = store.rooms.room_by_token("token-a")
        assert store.rooms.room_of("device-a") == found  # read again: said once
    assert found is not None and (found.friend, found.ready, found.friend_name) == ("device-b", True, read)
    refused = [r.getMessage() for r in caplog.records if "is no name" in r.getMessage()]
    assert len(refused) == (read is None)


def test_the_daily_board_ranks_won_challenges_and_phones_once_named(tmp_path):
    import datetime
    import random

    from kiosk.classic.grid import GRID
    from kiosk.classic.match import Fire, Mode, Setup, daily_fleet
    from kiosk.classic.table import start
    from kiosk.secret import kiosk_secret
    from kiosk.service import GameService

    store = Store(tmp_path / "d.db")
    day = datetime.date(2026, 11, 30)
    targets = [s for ship in daily_fleet(kiosk_secret(store), day).ships for s in ship.cells]
    water = [s for s in GRID.squares if s not in targets]

    def play(venue: str, name: str | None, wasted: int) -> int:
        service = GameService(store, venue=venue)
        start(service, Setup(Mode.DAILY, (name,) if name else (), date=day), random.Random(1))
        for square in [*water[:wasted], *targets]:
            service.submit(Fire(0, square))
        assert service.game is not None
        return service.game

    play("kiosk", "Script", 5)  # a script's challenge counts under its player's name
    phone = play("daily:abc", None, 0)  # a phone's counts once named
    play("daily:def", None, 1)  # never named: not on the board
    unfinished = GameService(store, venue="daily:ghi")
    start(unfinished, Setup(Mode.DAILY, ("Slow",), date=day), random.Random(1))
    assert [(r.player, r.shots) for r in store.stats.daily_board(day.isoformat())] == [("Script", 22)]
    store.rooms.name_daily(phone, "Ann")
    store.rooms.name_daily(phone, "Not Ann")  # the first name stands
    assert [(r.player, r.shots) for r in store.stats.daily_board(day.isoformat())] == [
        ("Ann", 17),
        ("Script", 22),
    ]
    assert store.stats.daily_board("2026-12-01") == []
