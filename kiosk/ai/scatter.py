"""Skill presets and the Gaussian landing of a dart, for the AI and the simulators.

The model itself lives in `kiosk.darts.scatter` (the hardware simulator's virtual thrower uses it
too); this module names it where the AI's users look for it, so there is one model, not two.
"""

from __future__ import annotations

from kiosk.darts.scatter import SKILLS, Landing, land, throw

__all__ = ["SKILLS", "Landing", "land", "sigma_for", "throw"]


def sigma_for(skill: str) -> float:
    """The scatter (mm, per axis) of a skill preset: pro, pub, casual or novice."""
    try:
        return SKILLS[skill.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown skill {skill!r}: use one of {', '.join(SKILLS)}") from None
