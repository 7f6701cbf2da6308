"""The computer at classic 10x10 Battleship: targeting on the grid and the three levels.

The grid, the ships and the rules live in `kiosk.classic` (the AI depends on the rules, never the
other way). The computer sees only a `kiosk.classic.match.Radar`: its own shots and the ships it
has sunk. It is never given a fleet, so it cannot read the human's.

Levels (measured means in docs/classic.md, `bench/classic.py`):

* `easy`: hunt/target: random squares until a hit, then the open neighbours of the unsunk hits.
* `normal`: the heatmap: the square most likely to hold a ship under the posterior over whole
  fleets (`kiosk.ai.posterior`), with the kiosk's usual sample size.
* `hard`: the same policy on a sharper posterior (twice the samples, exact enumeration up to
  20 000 fleets), and it `ponder`s while the human thinks: the computer's radar does not change
  until its own next shot, so the answers of its next turn are worked out before they are asked
  for (with 20 times the samples) and are then ready at once. Sharper heat is all that there is
  to have here: the lookaheads and rollouts that fit a budget do not beat greedy (docs/ai.md),
  and hard measures level with normal (docs/classic.md).
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Hashable, Iterator, Mapping, Sequence

import numpy as np

from kiosk.ai.posterior import Estimate, Method, Space
from kiosk.ai.record import Record
from kiosk.ai.strategies import HuntTarget
from kiosk.ai.targeting import estimate, pick
from kiosk.classic.fleet import LENGTHS, Ship
from kiosk.classic.grid import GRID, SQUARES, Square
from kiosk.classic.match import ComputerLevel, Radar
from kiosk.game import Result

CLASSIC_FLEET: tuple[int, ...] = LENGTHS

# hard: samples and exact enumeration per decision on its own, and when pondering.
HARD_SAMPLES, HARD_EXACT = 3_000, 20_000
PONDER_SAMPLES, PONDER_EXACT = 30_000, 300_000
PONDER_DEPTH = 3  # answers worked out ahead: the first of a turn and two after hits


def neighbours(square: Hashable) -> tuple[Square, ...]:
    assert isinstance(square, Square)
    return GRID.neighbours(square)


# The engine indexes cells of any game: a Mapping of Hashable keys (Mapping is invariant in them).
_INDEX: Mapping[Hashable, int] = dict(GRID.index.items())


def record_of(radar: Radar) -> Record:
    """The targeting engine's record of a radar."""
    return Record(radar.shots, radar.sunk)


@functools.cache
def space() -> Space:
    index = GRID.index
    return Space(
        len(SQUARES),
        {n: tuple(tuple(index[s] for s in cells) for cells in GRID.placements(n)) for n in range(2, 6)},
    )


def grid_estimate(
    record: Record,
    lengths: Sequence[int] = CLASSIC_FLEET,
    rng: random.Random | None = None,
    *,
    samples: int | None = None,
    method: Method | None = None,
    exact_limit: int | None = None,
) -> Estimate:
    return estimate(
        space(),
        _INDEX,
        record,
        lengths,
        rng or random.Random(),
        samples=samples,
        method=method,
        exact_limit=exact_limit,
    )


def heatmap(
    record: Record,
    lengths: Sequence[int] = CLASSIC_FLEET,
    rng: random.Random | None = None,
    *,
    samples: int | None = None,
    method: Method | None = None,
) -> dict[Square, float]:
    """Per square, the probability that a shot there hits an unsunk ship (0 on shot squares)."""
    est = grid_estimate(record, lengths, rng, samples=samples, method=method)
    return dict(zip(SQUARES, (float(p) for p in est.probabilities), strict=True))


def choose_target(
    record: Record,
    lengths: Sequence[int] = CLASSIC_FLEET,
    rng: random.Random | None = None,
    heat: dict[Square, float] | None = None,
) -> Square:
    """The unshot square with the most heat."""
    rng = rng or random.Random()
    if heat is None:
        heat = heatmap(record, lengths, rng)
    square = pick(SQUARES, np.array([heat[s] for s in SQUARES]), record, rng)
    assert isinstance(square, Square)
    return square


def _sharp_target(record: Record, rng: random.Random, samples: int, exact: int) -> Square:
    est = grid_estimate(record, CLASSIC_FLEET, rng, samples=samples, exact_limit=exact)
    square = pick(SQUARES, np.asarray(est.probabilities), record, rng)
    assert isinstance(square, Square)
    return square


RadarKey = tuple[frozenset[tuple[Square, Result]], tuple[Ship, ...]]


def _key(radar: Radar) -> RadarKey:
    return frozenset(radar.shots.items()), radar.sunk


class Computer:
    """The computer's shooting at one level. `choose(radar)` is synchronous and pure but for the
    computer's own randomness (`rng`); the kiosk runs it in an executor
    (`await loop.run_in_executor(None, computer.choose, radar)`) so the screen never waits.

    `ponder(radar)` (hard only; a no-op otherwise): work out ahead the answers the computer will
    be asked for in its next turn. Call it in an executor when its turn has just ended: its radar
    stays the same until then, so the first answer is ready when asked for, and so are the next
    `PONDER_DEPTH - 1` along the line of hits (a miss ends the turn, so after each shot there is
    one way the turn goes on, short of a sinking). `choose` never waits for `ponder`: an answer
    not ready yet is worked out on the spot. Thread-safe.
    """

    def __init__(self, level: ComputerLevel, rng: random.Random | None = None) -> None:
        self.level = level
        self.rng = rng or random.Random()
        # Pondering runs in another thread: its own randomness keeps the computer repeatable.
        self._ponder_rng = random.Random(self.rng.getrandbits(64))
        self._hunt = HuntTarget(SQUARES, neighbours)
        self._ready: dict[RadarKey, Square] = {}
        self._lock = threading.Lock()

    def choose(self, radar: Radar) -> Square:
        """The square to fire at next (never one already fired at)."""
        if not isinstance(radar, Radar):
            raise TypeError("the computer shoots from its own Radar only")
        with self._lock:
            ready = self._ready.pop(_key(radar), None)
        record = record_of(radar)
        if self.level is ComputerLevel.EASY:
            square = self._hunt(record, self.rng)
        elif self.level is ComputerLevel.NORMAL:
            square = choose_target(record, CLASSIC_FLEET, self.rng)
        elif ready is not None:
            square = ready
        else:
            square = _sharp_target(record, self.rng, HARD_SAMPLES, HARD_EXACT)
        assert isinstance(square, Square)
        return square

    def answer_ready(self, radar: Radar) -> bool:
        """Whether `choose(radar)` will answer at once from what `ponder` worked out."""
        with self._lock:
            return _key(radar) in self._ready

    def ponder(self, radar: Radar) -> None:
        if self.level is not ComputerLevel.HARD or not isinstance(radar, Radar):
            return
        with self._lock:
            self._ready = {}
        for ahead, square in self.pondered(radar):
            with self._lock:
                self._ready[_key(ahead)] = square  # usable at once, before the rest is done

    def pondered(self, radar: Radar) -> Iterator[tuple[Radar, Square]]:
        """Hard's answers worked out ahead, one by one: for this radar, then for the radars
        after each answer hits (what `ponder` keeps; `kiosk.classic.thinking` sends them back
        from its worker)."""
        for _depth in range(PONDER_DEPTH):
            square = _sharp_target(record_of(radar), self._ponder_rng, PONDER_SAMPLES, PONDER_EXACT)
            yield radar, square
            radar = Radar({**radar.shots, square: Result.HIT}, radar.sunk)
