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


def win_chances(runners: Sequence[Racer], mover: int, again: bool = True) -> tuple[float, ...]:
    """Each player's chance to win, `mover` on turn (its current turn is its first)."""
    count = len(runners)
    order = [(mover + k) % count for k in range(count)]
    curves = [finished_by(r.needs, r.first, r.later, again) if r.afloat and r.needs > 0 else
              ((1.0,) * (HORIZON + 1) if r.needs <= 0 else (0.0,) * (HORIZON + 1))
              for r in runners]
    wins = [0.0] * count
    for turn in range(1, HORIZON + 1):
        if all(curve[turn - 1] > 1 - 1e-9 or curve[turn - 1] == curve[-1] for curve in curves):
            break  # nobody's chances change any more
        for place, player in enumerate(order):
            now = curves[player][turn] - curves[player][turn - 1]
            if now == 0.0:
                continue
            for other_place, other in enumerate(order):
                if other != player:
                    now *= 1 - curves[other][turn if other_place < place else turn - 1]
            wins[player] += now
    total = sum(wins)
    if total <= 1e-12:
        return tuple(1 / count for _p in range(count))
    return tuple(w / total for w in wins)
