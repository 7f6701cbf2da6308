"""The computer's seat as a service listener: it fires when it is to move and only then, from
its own radar only, off the loop (its decision in an executor, hard's pondering in another),
and a game resumed in its turn goes on by itself."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import threading

from kiosk.classic.computer import ComputerSeat, ShotPace
from kiosk.classic.fleet import parse_fleet
from kiosk.classic.grid import GRID, Square
from kiosk.classic.match import ComputerLevel, Fire, Mode, Place, Radar, Setup
from kiosk.classic.table import ensure_fleets, start
from kiosk.classic.wire import CLASSIC
from kiosk.service import GameService, MatchUpdate, Source
from kiosk.store import Store
from tests.kiosk.classic.conftest import ANN, BO


class Recorder:
    """A shooter that says where it was asked and what it was given: the first square of the
    grid not yet fired at."""

    def __init__(self, level: ComputerLevel, rng: random.Random) -> None:
        self.level = level
        self.given: list[object] = []
        self.threads: list[str] = []
        self.pondered: list[str] = []

    def choose(self, radar: Radar) -> Square:
        self.given.append(radar)
        self.threads.append(threading.current_thread().name)
        return next(s for s in GRID.squares if s not in radar.shots)

    def ponder(self, radar: Radar) -> None:
        self.pondered.append(threading.current_thread().name)


def _seat(service: GameService, made: list[Recorder], **pools) -> ComputerSeat:
    def make(level: ComputerLevel, rng: random.Random) -> Recorder:
        made.append(Recorder(level, rng))
        return made[-1]

    return ComputerSeat(
        service, asyncio.get_running_loop(), make, pace=ShotPace(shot=0), rng=random.Random(1), **pools
    ).attach()


async def _settle(seat: ComputerSeat) -> None:
    for _ in range(2000):
        if seat.idle:
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the computer never settled")


def _solo(service: GameService, level: ComputerLevel = ComputerLevel.NORMAL, first: int = 0) -> None:
    """Ann (ANN's fleet) against the computer (BO's), placed as `kiosk.classic.table.start`
    would, with fleets the test knows."""
    service.new_game(CLASSIC, Setup(Mode.SOLO, ("Ann",), first=first, level=level))
    service.submit(Place(1, parse_fleet(BO)), Source.COMPUTER)
    service.submit(Place(0, parse_fleet(ANN)))


async def test_the_computer_fires_in_its_turn_only_from_its_own_radar_off_the_loop(tmp_path):
    service = GameService(Store(tmp_path / "k.db"))
    made: list[Recorder] = []
    choose = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="test-choose")
    seat = _seat(service, made, executor=choose)
    _solo(service)
    match = CLASSIC.in_play(service)
    assert match is not None
    await _settle(seat)
    assert match.shots(1) == 0  # the team fires first: the computer waits
    service.submit(Fire(0, Square(9, 10)))  # J10: water in BO's fleet, a miss
    await _settle(seat)
    assert match.turn == 0 and match.shots(1) >= 1
    shooter = made[-1]
    assert all(isinstance(r, Radar) for r in shooter.given)  # nothing but its radar
    assert all(name.startswith("test-choose") for name in shooter.threads)
    # Its radar holds its own shots and the ships those sank: nothing of the team's fleet
    # that it has not fired at.
    for radar in shooter.given:
        assert set(radar.shots) <= set(match.radar(1).shots)
        assert {s for ship in radar.sunk for s in ship.cells} <= set(radar.shots)
    seat.close()


async def test_hard_ponders_in_its_own_executor_while_the_team_thinks(tmp_path):
    service = GameService(Store(tmp_path / "k.db"))
    made: list[Recorder] = []
    ponder = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="test-ponder")
    choose = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="test-choose")
    seat = _seat(service, made, executor=choose, ponder_executor=ponder)
    _solo(service, ComputerLevel.HARD)
    await _settle(seat)
    for _ in range(200):
        if made[-1].pondered:
            break
        await asyncio.sleep(0.005)
    assert made[-1].pondered and all(n.startswith("test-ponder") for n in made[-1].pondered)
    service.submit(Fire(0, Square(9, 10)))
    await _settle(seat)
    assert all(n.startswith("test-choose") for n in made[-1].threads)
    seat.close()


async def test_no_computer_in_a_duel_or_a_daily_challenge(tmp_path):
    service = GameService(Store(tmp_path / "k.db"))
    made: list[Recorder] = []
    seat = _seat(service, made)
    start(service, Setup(Mode.DUEL, ("Ann", "Bo")), random.Random(2))
    service.submit(Fire(0, Square(0, 1)))
    await _settle(seat)
    assert made == []
    import datetime

    start(service, Setup(Mode.DAILY, ("Ann",), date=datetime.date(2026, 11, 30)), random.Random(2))
    await _settle(seat)
    assert made == []
    seat.close()


async def test_a_game_resumed_in_the_computers_turn_goes_on_by_itself(tmp_path):
    db = tmp_path / "k.db"
    service = GameService(Store(db))
    _solo(service, ComputerLevel.EASY)
    service.submit(Fire(0, Square(9, 10)))  # the power goes now: the computer's turn
    assert CLASSIC.in_play(service).computer_to_move
    service.store.close()

    again = GameService(Store(db))
    made: list[Recorder] = []
    seat = _seat(again, made)
    assert again.resume(finished_within=None)
    await _settle(seat)
    match = CLASSIC.in_play(again)
    assert match is not None and match.shots(1) >= 1 and match.turn == 0
    seat.close()


async def test_a_new_game_drops_a_decision_on_its_way(tmp_path):
    service = GameService(Store(tmp_path / "k.db"))
    made: list[Recorder] = []
    gate = threading.Event()

    class Slow(Recorder):
        def choose(self, radar: Radar) -> Square:
            gate.wait(5)
            return super().choose(radar)

    def make(level: ComputerLevel, rng: random.Random) -> Recorder:
        made.append(Slow(level, rng))
        return made[-1]

    seat = ComputerSeat(service, asyncio.get_running_loop(), make, pace=ShotPace(shot=0)).attach()
    _solo(service, first=1)  # the computer opens: its decision is on its way
    await asyncio.sleep(0.01)
    assert not seat.idle
    old = CLASSIC.in_play(service)
    _solo(service)  # a new game before the answer
    gate.set()
    await _settle(seat)
    assert old is not None and old.shots(1) == 0  # the old game got no shot
    seat.close()


async def test_every_fleet_stands_at_start_and_after_a_half_placed_resume(tmp_path):
    service = GameService(Store(tmp_path / "k.db"))
    start(service, Setup(Mode.SOLO, ("Ann",)), random.Random(4))
    assert CLASSIC.in_play(service).public_view()["placed"] == [True, True]
    service.new_game(CLASSIC, Setup(Mode.DUEL, ("Ann", "Bo")))  # a power cut right after this
    service.store.close()
    again = GameService(Store(tmp_path / "k.db"))
    heard: list[MatchUpdate] = []
    again.subscribe(lambda e: heard.append(e) if isinstance(e, MatchUpdate) else None)
    assert again.resume(finished_within=None)
    ensure_fleets(again, random.Random(5))
    assert CLASSIC.in_play(again).public_view()["placed"] == [True, True]
    assert len(heard) == 2
