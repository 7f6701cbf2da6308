"""A commit that cannot run ahead: when the store cannot save, the game in memory is rebuilt
from the store, the command is not done, everyone is told the game is paused and why, nothing
is announced that is not stored, and play resumes by itself once saving works again.

Here with an injected failing store; tests/system/ does it with a really full filesystem.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import BullOffMode, HouseRules, Match, Place, Setup, Team, Throw
from kiosk.inputs import DartInput
from kiosk.service import (
    GameService,
    GameStarted,
    MatchUpdate,
    Notice,
    NoticeKind,
    NotSaved,
    ServiceEvent,
)
from kiosk.store import Store

RULES = HouseRules(bull_off=BullOffMode.OFF)


class FailingStore(Store):
    """A store whose writes of a command and probes fail while `full` is set, as SQLite fails
    on a full disk."""

    full = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games.append = self._failing(self.games.append)  # type: ignore[method-assign]
        self.meta.probe = self._failing(self.meta.probe)  # type: ignore[method-assign]

    def _failing(self, write: Callable[..., None]) -> Callable[..., None]:
        def fails_while_full(*args: Any, **kwargs: Any) -> None:
            if self.full:
                raise sqlite3.OperationalError("database or disk is full")
            write(*args, **kwargs)

        return fails_while_full


def _playing(tmp_path) -> tuple[GameService, FailingStore, list[ServiceEvent]]:
    store = FailingStore(tmp_path / "k.db")
    service = GameService(store)
    heard: list[ServiceEvent] = []
    service.subscribe(heard.append)
    service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), RULES))
    for team in (0, 1):
        service.submit(Place(team, random_fleet(RULES.board, RULES.fleet, service.rng)))
    return service, store, heard


def _match(service: GameService) -> Match:
    match = DARTS.in_play(service)
    assert match is not None
    return match


def _announced_darts(heard: list[ServiceEvent]) -> list[Any]:
    from kiosk.darts.match import DartThrown

    return [e for u in heard if isinstance(u, MatchUpdate) for e in u.events if isinstance(e, DartThrown)]


def test_a_failed_commit_is_not_done_and_the_game_is_the_stored_one(tmp_path):
    service, store, heard = _playing(tmp_path)
    board = RULES.board
    service.submit(Throw(board.parse("T20")))
    before = _match(service).state()
    store.full = True
    heard.clear()
    with pytest.raises(NotSaved, match="disk is full"):
        service.submit(Throw(board.parse("T1")))
    # Not done: the game is the one in the store, rebuilt (a new object), and nothing announced.
    assert _match(service).state() == before == store.games.load(service.game).state()
    assert not [e for e in heard if isinstance(e, MatchUpdate)]
    notices = [e for e in heard if isinstance(e, Notice)]
    assert [n.kind for n in notices] == [NoticeKind.PAUSED]
    assert "cannot save" in notices[0].message and "disk is full" in notices[0].message
    assert any(isinstance(e, GameStarted) and e.resumed for e in heard)  # drop the old object
    assert service.paused is not None


def test_while_paused_every_input_is_refused_with_the_reason_and_nothing_changes(tmp_path):
    service, store, heard = _playing(tmp_path)
    board = RULES.board
    store.full = True
    with pytest.raises(NotSaved):
        service.submit(Throw(board.parse("T1")))
    state = _match(service).state()
    heard.clear()
    for code in ("T2", "T3", "D20"):  # darts from the board while the disk is full
        assert service.handle_input(DartInput(board.parse(code), code)) == []
    assert _match(service).state() == state
    refusals = [e for e in heard if isinstance(e, Notice)]
    assert len(refusals) == 3 and all("cannot save" in n.message for n in refusals)
    assert not _announced_darts(heard)


def test_play_resumes_once_saving_works_and_nothing_shown_is_lost(tmp_path):
    service, store, heard = _playing(tmp_path)
    board = RULES.board
    service.submit(Throw(board.parse("T20")))
    store.full = True
    with pytest.raises(NotSaved):
        service.submit(Throw(board.parse("T1")))
    store.full = False
    service.submit(Throw(board.parse("T18")))  # the next command finds saving works again
    assert service.paused is None
    assert [n.kind for n in heard if isinstance(n, Notice)] == [NoticeKind.PAUSED, NoticeKind.RESUMED]
    shown = [d.cell.code for d in _announced_darts(heard)]
    assert shown == ["T20", "T18"]
    # Everything announced is stored: a restart gives the same game.
    again = Store(tmp_path / "k.db").games.load(service.game)
    assert again.state() == _match(service).state()
    stored = [r[0] for r in store.db.execute("SELECT target FROM shots ORDER BY id").fetchall()]
    assert stored == shown


def test_a_paused_kiosk_resumes_by_itself(tmp_path):
    async def main() -> list[NoticeKind]:
        service, store, heard = _playing(tmp_path)
        store.full = True
        with pytest.raises(NotSaved):
            service.submit(Throw(RULES.board.parse("T1")))
        store.full = False  # space freed: nobody presses anything
        for _ in range(400):  # the service tries again every RETRY_SECONDS (2 s)
            if service.paused is None:
                break
            await asyncio.sleep(0.025)
        return [n.kind for n in heard if isinstance(n, Notice)]

    assert asyncio.run(main()) == [NoticeKind.PAUSED, NoticeKind.RESUMED]


def test_a_store_that_cannot_even_be_read_falls_back_to_the_committed_commands(tmp_path):
    service, store, _heard = _playing(tmp_path)
    board = RULES.board
    service.submit(Throw(board.parse("T20")))
    before = _match(service).state()

    def unreadable(game: int) -> Match:
        raise sqlite3.OperationalError("disk I/O error")

    store.full = True
    store.games.load = unreadable  # type: ignore[method-assign]
    with pytest.raises(NotSaved):
        service.submit(Throw(board.parse("T1")))
    assert _match(service).state() == before
