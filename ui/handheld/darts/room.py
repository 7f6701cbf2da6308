"""The dart game's phone pages as the server hosts them: the spectators' page and each team's
API (`DartsApi`) and, on a kiosk without a screen, the host's desk (`HostDesk`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.i18n import _
from kiosk.ports import Thrower
from ui.handheld.darts.api import DartsApi
from ui.handheld.darts.host import HostDesk
from ui.handheld.rooms import PhoneContext, PhonePart
from ui.handheld.seats import Seats


@dataclass(frozen=True)
class DartPhones:
    def parts(self, seats: Seats, context: PhoneContext) -> Sequence[PhonePart]:
        darts = DartsApi(seats)
        if not context.headless:
            return (darts,)
        # Headless (links printed), nobody has a screen: the host's desk hands out links and games.
        desk = HostDesk(darts)
        desk.team_url = lambda team: context.team_url(team)
        desk.spectator_url = lambda: context.spectator_url()

        def served() -> None:
            print(
                _("Host page (keep it to yourself): {url}").format(url=context.base_url + desk.path()),
                flush=True,
            )

        def thrower(board: Thrower | None) -> None:
            desk.thrower = board  # the host's throw pad, in simulator mode

        context.on_served.append(served)
        context.on_thrower.append(thrower)
        return darts, desk


PHONES = DartPhones()
