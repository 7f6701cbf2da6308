"""The dart game's room: how the house hosts Battleship on a dartboard (`kiosk.rooms.Room`).

Its participants are the kiosk as a player (`SoloMode`), the takeout timer and the guard in
front of Next (`NextGuard`: a Next that comes twice ends one visit, not two); its line
protocol is `dartship referee`; its screens are in ui/touch/darts/, its phone routes in
ui/handheld/darts/.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kiosk.i18n import _
from kiosk.rooms import LineProtocol, Room, Seating

if TYPE_CHECKING:
    from kiosk.config import ConfigFile, Settings
    from kiosk.darts.kind import DartsKind
    from kiosk.service import ServiceListener

# A kiosk without a screen has no Next button unless the phones press it; the next visit then
# starts by itself after this long (unless rules.takeout_seconds is set in the config).
HEADLESS_TAKEOUT_SECONDS = 30


def takeout_seconds(config: ConfigFile, headless: bool) -> float:
    """The takeout timer in effect: the config's, or for a headless kiosk whose config leaves
    it unset, `HEADLESS_TAKEOUT_SECONDS` (phones-only play never waits for ever)."""
    seconds = config.settings.rules.takeout_seconds
    if headless and not seconds and not config.written("rules.takeout_seconds"):
        return HEADLESS_TAKEOUT_SECONDS
    return seconds


def _kind() -> DartsKind:
    from kiosk.darts.kind import DARTS

    return DARTS


def _participants(seating: Seating) -> Sequence[ServiceListener]:
    from kiosk.darts.double_next import NextGuard
    from kiosk.darts.solo import SoloMode, ThrowPace
    from kiosk.darts.takeout import TakeoutTimer

    settings = seating.config.settings
    pace = (
        ThrowPace(dart=0, takeout=0)
        if seating.instant
        else ThrowPace(dart=settings.solo.dart_seconds, takeout=settings.solo.takeout_seconds)
    )
    return (
        SoloMode(seating.service, seating.loop, pace=pace, rng=seating.rng),
        TakeoutTimer(seating.service, lambda: takeout_seconds(seating.config, seating.headless)),
        NextGuard(seating.service, lambda: seating.config.settings.rules.double_next_seconds),
    )


def _setting_checks() -> dict[str, Callable[[object], str | None]]:
    return {"rules.fleet": _fleet}


def _fleet(value: object) -> str | None:
    from kiosk.darts.fleet import PlacementError, parse_lengths

    try:
        parse_lengths(value)  # type: ignore[arg-type]  # whatever the TOML held: judged here
    except (PlacementError, TypeError) as err:
        return str(err)
    return None


def _settings_problems(settings: Settings, keys: frozenset[str]) -> list[tuple[str, str]]:
    """A fleet that cannot be played on the board's profile (more cells than the board has,
    or a random fleet that takes more than a second to draw)."""
    if not {"rules.fleet", "board.profile"} & keys:
        return []
    from kiosk.board import board_for
    from kiosk.darts.fleet import fleet_problem, parse_lengths

    problem = fleet_problem(board_for(settings.board.profile), parse_lengths(settings.rules.fleet))
    return [("rules.fleet", problem)] if problem else []


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help=_("keep the game in this SQLite file and resume it"))
    parser.add_argument("--config", help=_("config file for the house-rule defaults"))


def _referee(args: argparse.Namespace) -> int:
    from kiosk.darts.referee import main_stdio
    from kiosk.lines import read_config, with_store

    cfg = read_config(args.config)
    if cfg is None:
        return 2
    from kiosk.darts.match import house_rules

    rules = house_rules(cfg.settings)
    return with_store("referee", args.db, lambda store: main_stdio(store, rules))


ROOM = Room(
    name="darts",
    title=lambda: _("Dart game"),
    subtitle=lambda: _("Battleship on a dartboard"),
    kind=_kind,
    participants=_participants,
    setting_checks=_setting_checks,
    settings_problems=_settings_problems,
    line=LineProtocol("referee", lambda: _("the rules engine as a JSON line protocol"), _arguments, _referee),
    touch="ui.touch.darts.room:TOUCH",
    phones="ui.handheld.darts.room:PHONES",
)
