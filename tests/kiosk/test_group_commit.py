"""Group commit (`kiosk.group_commit`): the phones' tables commit through one writer thread, many
games in one transaction, and a command is announced only once it is durable. Against the real
SQLite file: a second connection holding the write lock stands for a disk that is slow to say
"written"."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.classic.grid import parse_square
from kiosk.classic.match import ComputerLevel, Fire, Mode, Setup
from kiosk.classic.table import start
from kiosk.classic.wire import CLASSIC
from kiosk.service import GameService, GameStarted, MatchUpdate, Notice, NoticeKind, NotSaved, ServiceEvent
from kiosk.store import Store


@contextlib.contextmanager
def disk_held(path: Path) -> Iterator[None]:
    """Another connection holds the database's write lock: every commit waits until it ends."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def _insert(value: str):
    def write(db) -> str:
        db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", [value, value])
        return value

    return write


def test_writes_that_wait_together_are_committed_in_one_transaction(tmp_path):
    store = Store(tmp_path / "k.db")
    gate, running = threading.Event(), threading.Event()

    def first(db) -> str:
        running.set()
        gate.wait(5)  # the writer is busy: what comes meanwhile waits for the next group
        return _insert("first")(db)

    futures = [store.group.submit(first)]
    assert running.wait(5)
    futures += [store.group.submit(_insert(f"w{i}")) for i in range(5)]
    gate.set()
    assert [f.result(5) for f in futures] == ["first", "w0", "w1", "w2", "w3", "w4"]
    assert (store.group.groups, store.group.writes) == (2, 6)
    rows = store.db.execute("SELECT key FROM meta WHERE key LIKE 'w%' OR key='first'").fetchall()
    assert len(rows) == 6
    store.close()


def test_a_write_that_fails_fails_alone_and_leaves_nothing(tmp_path):
    store = Store(tmp_path / "k.db")
    gate = threading.Event()

    def held(db) -> str:
        gate.wait(5)
        return _insert("a")(db)

    def broken(db) -> None:
        db.execute("INSERT INTO meta (key, value) VALUES ('half', 'x')")
        raise ValueError("this write goes wrong half way")

    futures = [store.group.submit(held), store.group.submit(broken), store.group.submit(_insert("b"))]
    gate.set()
    assert futures[0].result(5) == "a" and futures[2].result(5) == "b"
    with pytest.raises(ValueError):
        futures[1].result(5)
    keys = {r[0] for r in store.db.execute("SELECT key FROM meta").fetchall()}
    assert {"a", "b"} <= keys and "half" not in keys
    store.close()


def test_a_write_is_done_only_once_committed(tmp_path):
    path = tmp_path / "k.db"
    store = Store(path)
    with disk_held(path):
        future = store.group.submit(_insert("late"))
        concurrent.futures.wait([future], timeout=0.3)
        assert not future.done()  # COMMIT has not returned: nobody may be told
        assert store.db.execute("SELECT 1 FROM meta WHERE key='late'").fetchone() is None
    assert future.result(5) == "late"
    assert store.db.execute("SELECT 1 FROM meta WHERE key='late'").fetchone() is not None
    store.close()


def test_close_commits_what_is_queued_and_refuses_what_comes_after(tmp_path):
    store = Store(tmp_path / "k.db")
    future = store.group.submit(_insert("kept"))
    group = store.group
    store.close()
    assert future.result(0) == "kept"
    with pytest.raises(sqlite3.Error):
        group.submit(_insert("too late")).result(1)
    again = Store(tmp_path / "k.db")
    assert again.db.execute("SELECT 1 FROM meta WHERE key='kept'").fetchone() is not None
    again.close()


def _solo(tmp_path: Path) -> tuple[GameService, Store, list[ServiceEvent]]:
    store = Store(tmp_path / "k.db")
    service = GameService(store, grouped=True, venue="phone:x")
    start(service, Setup(Mode.SOLO, ("Ann",), level=ComputerLevel.EASY), service.rng)
    heard: list[ServiceEvent] = []
    service.subscribe(heard.append)
    return service, store, heard


def _water(service: GameService) -> str:
    match = CLASSIC.in_play(service)
    assert match is not None
    fleet = match.fleet(1)
    assert fleet is not None
    return next(c for c in ("A1", "J10", "E5", "B2", "H8") if parse_square(c) not in fleet.cells)


async def test_a_grouped_command_is_announced_only_once_it_is_durable(tmp_path):
    service, store, heard = _solo(tmp_path)
    game = service.game
    cell = _water(service)
    with disk_held(tmp_path / "k.db"):
        playing = asyncio.ensure_future(service.play(Fire(0, parse_square(cell))))
        await asyncio.sleep(0.3)  # the loop runs on while the disk holds the commit
        assert service.committing and not playing.done()
        assert not any(isinstance(e, MatchUpdate) for e in heard)  # nothing told yet
        settled = asyncio.ensure_future(service.settled())
        await asyncio.sleep(0.05)
        assert not settled.done()  # a page of this table waits: it would show what is not stored
    await asyncio.wait_for(playing, 5)
    await settled
    assert not service.committing
    assert [type(e) for e in heard] == [MatchUpdate]
    stored = store.games.load(game)
    assert stored.shots(0) == 1 and stored.version == CLASSIC.in_play(service).version
    store.close()


async def test_a_group_commit_that_fails_is_not_done_and_the_game_is_the_stored_one(tmp_path, monkeypatch):
    service, store, heard = _solo(tmp_path)
    before = CLASSIC.in_play(service).version

    def full_disk(*_args: object) -> object:
        def write(_db: object) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        return write

    monkeypatch.setattr(store.games, "_append_write", full_disk)
    with pytest.raises(NotSaved):
        await service.play(Fire(0, parse_square(_water(service))))
    assert service.paused and CLASSIC.in_play(service).version == before  # rebuilt from the store
    assert CLASSIC.in_play(service).shots(0) == 0
    assert not any(isinstance(e, MatchUpdate) for e in heard)
    assert any(isinstance(e, Notice) and e.kind is NoticeKind.PAUSED for e in heard)
    assert any(isinstance(e, GameStarted) for e in heard)  # holders of the old game drop it
    monkeypatch.undo()
    service._cancel_retry()
    store.close()


async def test_a_grouped_new_game_is_heard_once_its_row_is_committed(tmp_path):
    store = Store(tmp_path / "k.db")
    service = GameService(store, grouped=True, venue="phone:y")
    heard: list[ServiceEvent] = []
    service.subscribe(heard.append)
    with disk_held(tmp_path / "k.db"):
        starting = asyncio.ensure_future(service.start_game(CLASSIC, Setup(Mode.SOLO, ("Bo",))))
        await asyncio.sleep(0.3)
        assert not starting.done() and service.match is None and heard == []
    game = await asyncio.wait_for(starting, 5)
    assert service.game == game and [type(e) for e in heard] == [GameStarted]
    assert store.games.unfinished("phone:y") == game
    store.close()


async def test_something_done_at_once_waits_for_the_command_on_its_way(tmp_path):
    """A new game over a command still being committed comes after it (never before: the old
    game's last shot would land on a game already abandoned)."""
    service, store, heard = _solo(tmp_path)
    old = service.game
    with disk_held(tmp_path / "k.db"):
        playing = asyncio.ensure_future(service.play(Fire(0, parse_square(_water(service)))))
        await asyncio.sleep(0.05)
        assert service.committing

    service.new_game(CLASSIC, Setup(Mode.SOLO, ("Ann",)))  # waits for the commit, then starts
    assert [type(e) for e in heard] == [MatchUpdate, GameStarted]
    await playing
    assert store.games.load(old).shots(0) == 1
    assert store.db.execute("SELECT status FROM games WHERE id=?", [old]).fetchone()[0] == "abandoned"
    store.close()
