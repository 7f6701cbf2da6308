"""The throwers' skills (`kiosk.scatter.Skill`) by their names on screen: the simulator's in
Settings, the kiosk as a player and the coach in the dart game."""

from __future__ import annotations

from kiosk.i18n import _
from kiosk.scatter import Skill


def skill_name(skill: Skill) -> str:
    return {
        Skill.NOVICE: _("novice"),
        Skill.CASUAL: _("casual"),
        Skill.PUB: _("pub player"),
        Skill.PRO: _("pro"),
    }[skill]
