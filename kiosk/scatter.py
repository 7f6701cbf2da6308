"""How real darts land: a 2-D Gaussian scatter around the aim point, on the real geometry.

Used by the virtual thrower (simulator), the AI's aiming and the benchmarks. The randomness is
always passed in, so games stay reproducible.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from kiosk.board import Board, BullZone, Cell
from kiosk.geometry import landing
from kiosk.i18n import _


class Skill(enum.Enum):
    """How well a (virtual) thrower throws, weakest first; `sigma` is the one scatter table."""

    NOVICE = "novice"
    CASUAL = "casual"
    PUB = "pub"
    PRO = "pro"

    @property
    def sigma(self) -> float:
        """Standard deviation of the landing point per axis, in mm."""
        return _SIGMA[self]

    @classmethod
    def parse(cls, text: str) -> Skill:
        for skill in cls:
            if skill.value == str(text).strip().lower():
                return skill
        raise ValueError(
            _("unknown skill {skill!r}: use one of {names}").format(
                skill=text, names=", ".join(s.value for s in cls)
            )
        )


_SIGMA = {Skill.NOVICE: 80.0, Skill.CASUAL: 50.0, Skill.PUB: 30.0, Skill.PRO: 12.0}


def sigma_for(skill: Skill | str | float) -> float:
    """Scatter in mm of a skill (or its name), or a number of mm as it is."""
    if isinstance(skill, Skill):
        return skill.sigma
    if isinstance(skill, int | float):
        return float(skill)
    return Skill.parse(skill).sigma


@dataclass(frozen=True)
class Landing:
    x: float
    y: float
    cell: Cell
    zone: BullZone


def land(aim: tuple[float, float], sigma: float, rng: random.Random) -> tuple[float, float]:
    """Where a dart aimed at `aim` (mm) lands for a thrower with scatter `sigma` (mm)."""
    return (aim[0] + rng.gauss(0.0, sigma), aim[1] + rng.gauss(0.0, sigma))


def throw(board: Board, aim: tuple[float, float], sigma: float, rng: random.Random) -> Landing:
    """A whole virtual throw: the landing point and what the board registers there."""
    x, y = land(aim, sigma, rng)
    cell, zone = landing(x, y, board)
    return Landing(x, y, cell, zone)
