"""The computer's thinking for every classic table of the kiosk, out of the loop's process.

The computer (`kiosk.classic.ai.Computer`) is Python and numpy: in a thread it holds the GIL for
milliseconds at a time, and with many tables thinking at once the phones' requests queued
behind it (350 hard games: an honest phone's p99 203 ms). So the thinking runs in two worker
processes shared by all tables of the kiosk (the touchscreen's game and every phone's):

* **answers** (`choose`): processes at a lower priority than the kiosk (nice +5), so the loop
  that serves the phones and draws the screen always comes first: one per core but one (a Pi 4:
  three; two cores: one), one queue for all tables. The budget: an answer that waited in the
  queue longer than QUEUED_BUDGET (many tables at once) is worked out the cheaper way, hard as
  normal, which plays as well (docs/classic.md), so answers keep coming at the kiosk's pace.
* **pondering** (hard's thinking ahead, `ponder`): one process at the lowest priority (nice
  +19): it gets only what the answers and the loop leave, and it is skipped when
  `PONDER_QUEUE` ponders are already waiting (an answer worked out on demand is as good, only
  later). Its answers come back to the table's computer here, so `choose` finds them ready.

`RemoteComputer` has the `Computer`'s face (`choose`, `ponder`, `answer_ready`), so the seat
(`ComputerSeat`) and the referee use either; its calls block the thread that makes them (the
seat's executor threads), never the loop. What crosses to a worker is plain data: the level, the
state of the table's own random generator (which comes back advanced, so a table's computer
draws the same numbers as it would in the kiosk's process) and the radar as squares and results.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import random
import signal
import threading
import time
from typing import Any

from kiosk.classic.fleet import ShipClass, parse_ship
from kiosk.classic.grid import Square, parse_square
from kiosk.classic.match import ComputerLevel, Radar
from kiosk.game import Result

PONDER_QUEUE = 4  # ponders waiting at once; beyond this a table does not ponder this turn
QUEUED_BUDGET = 0.2  # seconds an answer may wait in the queue before hard thinks as normal
ANSWER_NICE, PONDER_NICE = 5, 19
PR_SET_PDEATHSIG = 1  # prctl(2)

RadarWire = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]
RandomState = tuple[Any, ...]

_pools: dict[str, concurrent.futures.ProcessPoolExecutor] = {}
_pools_lock = threading.Lock()
_pondering = 0  # ponders sent and not yet back (all tables)
_stopped = False  # `shutdown` was called: no worker starts again


def _worker_start(nice: int) -> None:
    """In each worker: a lower priority, and an end with the kiosk's process (a kiosk killed
    with SIGKILL must leave no worker behind: Linux's parent-death signal)."""
    # Where that is not allowed the worker still works, at the kiosk's priority.
    with contextlib.suppress(OSError):
        os.nice(nice)
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:  # the kiosk died before the signal was asked for
        os._exit(0)


def _pool(name: str, nice: int) -> concurrent.futures.ProcessPoolExecutor:
    with _pools_lock:
        if _stopped:
            # A table's thread that asks after the kiosk stopped would start a new worker that
            # nobody stops, and the interpreter would wait for it at exit.
            raise RuntimeError("the computer's workers are stopped")
        if name not in _pools:
            # Spawned, not forked: the kiosk's process has threads and a running loop.
            workers = _workers(name)
            if not _pools:
                atexit.register(shutdown, wait=True)  # before the interpreter tears down
            _pools[name] = concurrent.futures.ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(nice,),
            )
        return _pools[name]


def start_workers() -> None:
    """Start the worker processes now rather than at the first answer (a spawned worker takes a
    second or two to import the AI): the benches measure play, not the start."""
    for name, nice in (("answers", ANSWER_NICE), ("ponder", PONDER_NICE)):
        pool = _pool(name, nice)
        concurrent.futures.wait([pool.submit(_warm) for _ in range(_workers(name))])


def _warm() -> None:
    import kiosk.classic.ai  # noqa: F401  (what every answer imports: numpy with it)


def _workers(name: str) -> int:
    return max(1, (os.cpu_count() or 2) - 1) if name == "answers" else 1


def shutdown(*, wait: bool = False) -> None:
    """Stop the worker processes (the kiosk stops; a bench ends; the interpreter exits)."""
    global _stopped
    with _pools_lock:
        _stopped = True
        for pool in _pools.values():
            pool.shutdown(wait=wait, cancel_futures=True)
        _pools.clear()


def radar_wire(radar: Radar) -> RadarWire:
    return (
        tuple(sorted((s.code, r.value) for s, r in radar.shots.items())),
        tuple((ship.kind.value, ship.code) for ship in radar.sunk),  # in the order sunk
    )


def radar_of(wire: RadarWire) -> Radar:
    shots, sunk = wire
    return Radar(
        {parse_square(code): Result(value) for code, value in shots},
        tuple(parse_ship(code, ShipClass(kind)) for kind, code in sunk),
    )


# ---- in the worker processes -------------------------------------------------------------


def _choose(level: str, state: RandomState, wire: RadarWire, sent: float) -> tuple[str, RandomState]:
    from kiosk.classic.ai import Computer

    rng = random.Random()
    rng.setstate(state)
    chosen = ComputerLevel(level)
    if chosen is ComputerLevel.HARD and time.monotonic() - sent > QUEUED_BUDGET:
        # The queue is long (many tables at once): hard answers as normal does, a cheaper
        # estimate of the same heatmap that plays as well (docs/classic.md measures them level).
        chosen = ComputerLevel.NORMAL
    square = Computer(chosen, rng).choose(radar_of(wire))
    return square.code, rng.getstate()


def _ponder(state: RandomState, wire: RadarWire) -> list[tuple[RadarWire, str]]:
    from kiosk.classic.ai import Computer

    rng = random.Random()
    rng.setstate(state)
    computer = Computer(ComputerLevel.HARD, rng)
    return [(radar_wire(radar), square.code) for radar, square in computer.pondered(radar_of(wire))]


# ---- in the kiosk's process ------------------------------------------------------------


class RemoteComputer:
    """One table's computer (a level and its own randomness) thinking in the shared workers."""

    def __init__(self, level: ComputerLevel, rng: random.Random | None = None) -> None:
        self.level = level
        self.rng = rng or random.Random()
        self._ponder_rng = random.Random(self.rng.getrandbits(64))
        self._ready: dict[RadarWire, str] = {}
        self._lock = threading.Lock()

    def choose(self, radar: Radar) -> Square:
        wire = radar_wire(radar)
        with self._lock:
            ready = self._ready.pop(wire, None)
        if ready is not None and self.level is ComputerLevel.HARD:
            return parse_square(ready)
        code, state = (
            _pool("answers", ANSWER_NICE)
            .submit(_choose, self.level.value, self.rng.getstate(), wire, time.monotonic())
            .result()
        )
        self.rng.setstate(state)
        return parse_square(code)

    def answer_ready(self, radar: Radar) -> bool:
        with self._lock:
            return radar_wire(radar) in self._ready

    def ponder(self, radar: Radar) -> None:
        """Hard's thinking ahead, in the pondering worker; skipped when it is busy enough."""
        global _pondering
        if self.level is not ComputerLevel.HARD:
            return
        with _pools_lock:
            if _pondering >= PONDER_QUEUE:
                return
            _pondering += 1
        try:
            state = self._ponder_rng.getstate()
            self._ponder_rng.random()  # the next ponder draws other numbers
            answers = _pool("ponder", PONDER_NICE).submit(_ponder, state, radar_wire(radar)).result()
        finally:
            with _pools_lock:
                _pondering -= 1
        with self._lock:
            self._ready = dict(answers)
