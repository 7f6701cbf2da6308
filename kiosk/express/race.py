"""Who is closest to winning: a race between the players, each scoring at a rate of their own.

A player's turn is a run of attacks: each sinks with the player's rate `r` and a sink goes
again, so a turn scores j points with chance r^j (1 - r) (or at most one point where the house
rule lets the dice pass after a sink). Only a player's *next* attack is judged by what is
exposed now; every later one by its *sustained* rate (what its fleet does against the enemy
fleets whatever their order), because a line's front changes with every attack and every sink
while a sunk ship is gone for good. Each player's chance to have finished by its t-th turn is
independent of the others' in this model, so the chance to win is exact for it: finish at your
t-th turn while those before you in turn order have not finished by their t-th and those after
you not by their (t-1)-th.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

HORIZON = 40  # turns each; a race still open after that is shared in proportion


@dataclass(frozen=True)
class Racer:
    """One player in the race."""

    needs: int  # points still needed (0: has won; no ships: never scores)
    first: float  # chance of its next attack
    later: float  # chance of every attack after that
    afloat: bool = True


@lru_cache(maxsize=65536)
def finished_by(needs: int, first: float, later: float, again: bool) -> tuple[float, ...]:
    """Chance to have scored `needs` points within t own turns, t = 0..HORIZON."""
    if needs <= 0:
        return (1.0,) * (HORIZON + 1)
    still = [0.0] * (needs + 1)  # still[k]: k points still needed
    still[needs] = 1.0
    done = [0.0]
    for turn in range(HORIZON):
        opening = first if turn == 0 else later  # the first attack of this turn
        after = [0.0] * (needs + 1)
        for k in range(1, needs + 1):
            share = still[k]
            if share == 0.0:
                continue
            after[k] += share * (1 - opening)
            most = k if again else 1  # the turn ends at the win, or after one sink
            reach = share * opening  # chance to have sunk `points` ships this turn so far
            for points in range(1, most):
                after[k - points] += reach * (1 - later)
                reach *= later
            after[k - most] += reach
        finished = done[-1] + after[0]
        after[0] = 0.0
        still = after
        done.append(finished)
    return tuple(done)


@lru_cache(maxsize=65536)
def _curve(needs: int, first: float, later: float, again: bool, afloat: bool) -> np.ndarray:
    if needs <= 0:
        return np.ones(HORIZON + 1)
    if not afloat:
        return np.zeros(HORIZON + 1)
    return np.array(finished_by(needs, first, later, again))


def win_chances(runners: Sequence[Racer], mover: int, again: bool = True) -> tuple[float, ...]:
    """Each player's chance to win (`_win_chances`), kept for the racers seen last: one
    decision meets the same racers again and again."""
    return _win_chances(tuple(runners), mover, again)


@lru_cache(maxsize=8192)
def _win_chances(runners: tuple[Racer, ...], mover: int, again: bool) -> tuple[float, ...]:
    """Each player's chance to win, `mover` on turn (its current turn is its first): for each
    player and turn, the chance to finish then while those before it in turn order have not
    finished by this turn and those after it not by the last."""
    count = len(runners)
    order = [(mover + k) % count for k in range(count)]
    curves = np.stack(
        [
            _curve(runners[p].needs, runners[p].first, runners[p].later, again, runners[p].afloat)
            for p in order
        ]
    )
    now = curves[:, 1:] - curves[:, :-1]  # finishing at each own turn
    left_now, left_before = 1 - curves[:, 1:], 1 - curves[:, :-1]
    before = np.ones_like(now)  # nobody earlier in the order has finished by this turn
    before[1:] = np.cumprod(left_now[:-1], axis=0)
    after = np.ones_like(now)  # nobody later has finished by the turn before
    after[:-1] = np.cumprod(left_before[:0:-1], axis=0)[::-1]
    placed = (now * before * after).sum(axis=1)
    total = float(placed.sum())
    if total <= 1e-12:
        return tuple(1 / count for _p in range(count))
    wins = [0.0] * count
    for place, player in enumerate(order):
        wins[player] = float(placed[place]) / total
    return tuple(wins)
