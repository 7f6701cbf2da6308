"""Classic 10x10 Battleship's room (`kiosk.rooms.Room`): its computer seat for the kiosk's solo
games, `dartship classic`, the screens in ui/touch/classic/, the phone pages in
ui/handheld/classic/.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kiosk.i18n import _
from kiosk.rooms import LineProtocol, Room, Seating

if TYPE_CHECKING:
    from kiosk.classic.match import ComputerLevel
    from kiosk.classic.referee import Shooter
    from kiosk.classic.thinking import RemoteComputer
    from kiosk.classic.wire import ClassicKind
    from kiosk.service import GameService, ServiceListener


def computer(level: ComputerLevel, rng: random.Random) -> RemoteComputer:
    """The classic computer of a level for the kiosk's tables, thinking in the worker
    processes all of them share (`kiosk.classic.thinking`: the AI and numpy live there,
    started when it first plays, never in the loop's process)."""
    from kiosk.classic.thinking import RemoteComputer

    return RemoteComputer(level, rng)


def _kind() -> ClassicKind:
    from kiosk.classic.wire import CLASSIC

    return CLASSIC


def _participants(seating: Seating) -> Sequence[ServiceListener]:
    from kiosk.classic.computer import ComputerSeat, ShotPace, pool

    pace = ShotPace(shot=0 if seating.instant else seating.config.settings.solo.shot_seconds)
    return (
        ComputerSeat(
            seating.service,
            seating.loop,
            computer,
            pace=pace,
            rng=seating.rng,
            executor=pool("choose", 2),
            ponder_executor=pool("ponder", 1),
        ),
    )


def _resumed(service: GameService, rng: random.Random) -> None:
    from kiosk.classic.table import ensure_fleets

    ensure_fleets(service, rng)  # a classic game a power cut left half placed


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help=_("keep the games in this SQLite file and resume them"))


def _computer(level: ComputerLevel, rng: random.Random) -> Shooter:
    """The solo computer of `dartship classic`, its AI (and numpy) imported when a solo game
    first needs it: the protocol's first answer does not wait for them."""
    from kiosk.classic.ai import Computer

    return Computer(level, rng)


def _referee(args: argparse.Namespace) -> int:
    from kiosk.classic.referee import main_stdio
    from kiosk.lines import scripted
    from kiosk.secret import kiosk_secret

    return scripted(
        args.db,
        "classic",
        lambda service: main_stdio(_computer, service, daily_key=kiosk_secret(service.store)),
    )


ROOM = Room(
    name="classic",
    title=lambda: _("Classic 10×10"),
    subtitle=lambda: _("Battleship on the screen and on phones"),
    kind=_kind,
    participants=_participants,
    resumed=_resumed,
    line=LineProtocol(
        "classic", lambda: _("classic 10x10 Battleship as a JSON line protocol"), _arguments, _referee
    ),
    touch="ui.touch.classic.room:TOUCH",
    phones="ui.handheld.classic.room:PHONES",
)
