"""Classic's phone pages as the server hosts them: every phone's own table, the daily
challenge, rooms for duels, and the team links of the kiosk's classic duel (`ClassicApi`)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.classic.computer import ShooterFactory, ShotPace
from kiosk.classic.room import computer
from kiosk.classic.rooms import PhoneRooms
from ui.handheld.classic.api import ClassicApi, StartLimits
from ui.handheld.rooms import PhoneContext, PhonePart
from ui.handheld.seats import Seats


@dataclass(frozen=True)
class ClassicPhones:
    """`pace`: the computer's pace in the phones' solo games (default: solo.shot_seconds);
    `limits`: how many games a phone may start (tests open them up)."""

    computer: ShooterFactory = computer
    pace: ShotPace | None = None
    limits: StartLimits | None = None

    def parts(self, seats: Seats, context: PhoneContext) -> Sequence[PhonePart]:
        service = context.service
        pace = self.pace or ShotPace(shot=0 if context.instant else context.settings.solo.shot_seconds)
        rooms = PhoneRooms(
            service.store,
            asyncio.get_running_loop(),
            self.computer,
            pace=pace,
            rng=random.Random(service.rng.getrandbits(64)),
        )
        api = ClassicApi(seats, rooms, limits=self.limits)
        context.on_caller.append(api.hear_tables)
        return (api,)


PHONES = ClassicPhones()
