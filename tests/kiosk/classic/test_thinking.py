"""The computer thinking in the shared worker processes (`kiosk.classic.thinking`): the same
face as the local computer, its answers legal, hard's pondering coming back ready, the radar
crossing to the worker whole, and a table's randomness carried across."""

from __future__ import annotations

import random

import pytest

from kiosk.classic import thinking
from kiosk.classic.fleet import random_fleet
from kiosk.classic.grid import SQUARES
from kiosk.classic.match import Fire, Level, Match, Mode, Place, Setup
from kiosk.classic.thinking import RemoteComputer, radar_of, radar_wire


def _radar_after(shots: int, seed: int = 4):
    rng = random.Random(seed)
    match = Match(Setup(Mode.DUEL, ("A", "B")))
    match.apply(Place(0, random_fleet(rng)))
    match.apply(Place(1, random_fleet(rng)))
    while match.shots(0) < shots and match.winner is None:
        if match.turn == 0:
            shot = match.radar(0).shots
            match.apply(Fire(0, rng.choice([s for s in SQUARES if s not in shot])))
        else:
            shot = match.radar(1).shots
            match.apply(Fire(1, rng.choice([s for s in SQUARES if s not in shot])))
    return match.radar(0)


def test_the_radar_crosses_to_the_worker_whole():
    radar = _radar_after(95)
    assert radar.sunk  # some ships sunk: their classes and squares must survive
    again = radar_of(radar_wire(radar))
    assert dict(again.shots) == dict(radar.shots) and again.sunk == radar.sunk


@pytest.mark.parametrize("level", list(Level))
def test_answers_are_squares_not_shot_yet_and_the_tables_randomness_moves_on(level):
    radar = _radar_after(25)
    rng = random.Random(7)
    computer = RemoteComputer(level, rng)
    before = rng.getstate()
    square = computer.choose(radar)
    assert square in SQUARES and square not in radar.shots
    assert rng.getstate() != before or level is Level.HARD


def test_hard_pondering_comes_back_ready_and_is_skipped_when_the_queue_is_full(monkeypatch):
    radar = _radar_after(10)
    computer = RemoteComputer(Level.HARD, random.Random(2))
    computer.ponder(radar)
    assert computer.answer_ready(radar)
    ready = computer._ready[radar_wire(radar)]
    assert computer.choose(radar).code == ready
    busy = RemoteComputer(Level.HARD, random.Random(3))
    monkeypatch.setattr(thinking, "_pondering", thinking.PONDER_QUEUE)
    busy.ponder(radar)
    assert not busy.answer_ready(radar)  # yielded: the answers' queue comes first
