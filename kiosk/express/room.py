"""Battleship Express's room (`kiosk.rooms.Room`): its computer seats (which keep the table's
pace), `dartship express`, the screens in ui/touch/express/.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kiosk.i18n import _
from kiosk.rooms import LineProtocol, Room, Seating

if TYPE_CHECKING:
    from kiosk.express.wire import ExpressKind
    from kiosk.service import ServiceListener


def _kind() -> ExpressKind:
    from kiosk.express.wire import EXPRESS

    return EXPRESS


def _participants(seating: Seating) -> Sequence[ServiceListener]:
    from kiosk.express.pace import Pace
    from kiosk.express.seats import ComputerSeats

    return (
        ComputerSeats(
            seating.service, seating.loop, pace=Pace.instant() if seating.instant else None, rng=seating.rng
        ),
    )


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help=_("keep the games in this SQLite file and resume them"))


def _referee(args: argparse.Namespace) -> int:
    from kiosk.express.referee import main_stdio
    from kiosk.lines import scripted

    return scripted(args.db, "express", main_stdio)


ROOM = Room(
    name="express",
    title=lambda: _("Battleship Express"),
    subtitle=lambda: _("the dice game: no dartboard needed"),
    kind=_kind,
    participants=_participants,
    line=LineProtocol(
        "express", lambda: _("Battleship Express as a JSON line protocol"), _arguments, _referee
    ),
    touch="ui.touch.express.room:TOUCH",
)
