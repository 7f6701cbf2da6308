"""The computer at classic 10x10: targeting on the rules' grid, the three levels, its input."""

from __future__ import annotations

import inspect
import random
import typing

import pytest

from kiosk.ai import Method, Record
from kiosk.ai.selfplay import play
from kiosk.ai.strategies import HuntTarget, RandomShots, grid_parity
from kiosk.classic import ai as classic
from kiosk.classic.ai import Computer
from kiosk.classic.fleet import LENGTHS, random_fleet
from kiosk.classic.grid import GRID, SQUARES, parse_square
from kiosk.classic.match import ComputerLevel, Fire, Match, Mode, Phase, Place, Radar, Setup
from kiosk.game import Result


def _record_after(fleet, squares) -> Record:
    """What a shooter knows after firing at these squares of this fleet (a solo match's radar)."""
    shots: dict = {}
    sunk = []
    for square in squares:
        ship = fleet.ship_at(square)
        if ship is None:
            shots[square] = Result.MISS
        elif all(s == square or s in shots for s in ship.cells):
            shots[square] = Result.SUNK
            sunk.append(ship)
        else:
            shots[square] = Result.HIT
    return Record(shots, tuple(sunk))


def test_the_ai_uses_the_rules_grid():
    assert classic.CLASSIC_FLEET == LENGTHS == (5, 4, 3, 3, 2)
    assert len(classic.space().placements[3]) == len(GRID.placements(3)) == 160
    assert set(classic.neighbours(parse_square("A1"))) == {parse_square("B1"), parse_square("A2")}


def test_grid_heat_invariants():
    rng = random.Random(6)
    fleet = random_fleet(rng)
    record = _record_after(fleet, rng.sample(SQUARES, 40))
    heat = classic.heatmap(record, LENGTHS, rng)
    sunk = {c for s in record.sunk for c in s.cells}
    hits = [c for c, r in record.shots.items() if r.scores and c not in sunk]
    left = sum(LENGTHS) - len(sunk) - len(hits)
    assert sum(heat.values()) == pytest.approx(left)
    target = classic.choose_target(record, LENGTHS, rng, heat=heat)
    assert target not in record.shots and heat[target] > 0


def test_a_corner_walled_in_by_misses_is_empty():
    a1 = parse_square("A1")
    shots = {parse_square(c): Result.MISS for c in ("B1", "A2")}
    for method in (Method.EXACT, Method.SAMPLED):
        heat = classic.heatmap(Record(shots), (2,), random.Random(1), method=method)
        assert heat[a1] == 0
        assert sum(heat.values()) == pytest.approx(2)


def test_games_finish_for_every_shooter():
    rng = random.Random(8)
    shooters = [
        lambda r, g: classic.choose_target(r, LENGTHS, g),
        RandomShots(SQUARES),
        HuntTarget(SQUARES, classic.neighbours, grid_parity),
    ]
    for shooter in shooters:
        fleet = random_fleet(rng)
        darts = play(fleet.ships, frozenset(SQUARES), shooter, rng)
        assert 17 <= darts <= 100


def _solo_game(level: ComputerLevel, seed: int) -> Match:
    """A whole solo game: the human fires at random, the computer at its level, through the
    match's commands only."""
    rng = random.Random(seed)
    match = Match(Setup(Mode.SOLO, ("Ann",), level=level))
    match.apply(Place(0, random_fleet(rng)))
    match.apply(Place(1, random_fleet(rng)))
    computer = Computer(level, random.Random(seed))
    human = list(SQUARES)
    rng.shuffle(human)
    pondered = -1
    while match.phase is not Phase.OVER:
        if match.turn == 0:
            if pondered != match.shots(1):  # once a human turn, as the kiosk lets it
                computer.ponder(match.radar(1))
                pondered = match.shots(1)
            match.apply(Fire(0, human.pop()))
        else:
            radar = match.radar(1)
            square = computer.choose(radar)
            assert square in GRID and square not in radar.shots
            match.apply(Fire(1, square))
    return match


@pytest.mark.parametrize("level", list(ComputerLevel))
def test_every_level_plays_legal_games_to_the_end(level, monkeypatch):
    monkeypatch.setattr(classic, "PONDER_SAMPLES", 500)  # the same code, quicker
    for seed in range(25):
        match = _solo_game(level, seed)
        assert match.winner in (0, 1)
        assert 17 <= match.shots(1) <= 100


def test_the_computer_is_given_its_radar_only():
    hints = typing.get_type_hints(Computer.choose)
    assert hints["radar"] is Radar
    assert set(inspect.signature(Computer.choose).parameters) == {"self", "radar"}
    assert {f for f in Radar.__dataclass_fields__} == {"shots", "sunk"}
    with pytest.raises(TypeError):
        Computer(ComputerLevel.NORMAL).choose(random_fleet(random.Random(1)))  # type: ignore[arg-type]


@pytest.mark.parametrize("level", list(ComputerLevel))
def test_the_computer_cannot_tell_two_human_fleets_apart(level):
    """Same radar, different hidden fleets: the same choices (it has no way to read them)."""
    choices = []
    for fleet_seed in (1, 2):
        match = Match(Setup(Mode.SOLO, ("Ann",), first=1, level=level))
        match.apply(Place(0, random_fleet(random.Random(fleet_seed))))
        match.apply(Place(1, random_fleet(random.Random(9))))
        choices.append(Computer(level, random.Random(4)).choose(match.radar(1)))
    assert choices[0] == choices[1]


def test_hard_ponders_its_next_turn_along_the_line_of_hits():
    computer = Computer(ComputerLevel.HARD, random.Random(3))
    radar = Radar({parse_square("E5"): Result.MISS})
    assert not computer.answer_ready(radar)
    computer.ponder(radar)
    assert computer.answer_ready(radar)
    first = computer.choose(radar)
    assert not computer.answer_ready(radar)  # each answer is used once
    after_hit = Radar({**radar.shots, first: Result.HIT})
    assert computer.answer_ready(after_hit)
    assert computer.choose(after_hit) not in after_hit.shots
    assert not computer.answer_ready(Radar({**radar.shots, first: Result.MISS}))


def test_pondering_keeps_a_seeded_computer_repeatable():
    radar = Radar({parse_square("E5"): Result.MISS})
    answers = []
    for _ in range(2):
        computer = Computer(ComputerLevel.HARD, random.Random(8))
        computer.ponder(radar)
        answers.append((computer.choose(radar), computer.choose(radar)))
    assert answers[0] == answers[1]


@pytest.mark.parametrize("level", [ComputerLevel.EASY, ComputerLevel.NORMAL])
def test_only_hard_ponders(level):
    computer = Computer(level, random.Random(3))
    computer.ponder(Radar())
    assert not computer.answer_ready(Radar())
