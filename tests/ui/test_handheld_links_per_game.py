"""Phone links only for a game a phone plays (the audit, point 3): the dart game and a classic
duel get them; Battleship Express and classic solo (every side on the touchscreen or the
kiosk's) get none, and the last game's links die when such a game starts. The phone rooms say
which games those are (`PhoneSides`); the phone seats name no game."""

from __future__ import annotations

import asyncio
import logging
import random

from kiosk.classic.computer import ShotPace
from kiosk.classic.match import Mode
from kiosk.classic.match import Setup as ClassicSetup
from kiosk.classic.room import computer as classic_computer
from kiosk.classic.rooms import PhoneRooms
from kiosk.classic.table import start
from kiosk.express.match import Setup as ExpressSetup
from kiosk.express.wire import EXPRESS
from kiosk.service import GameService
from kiosk.store import Store
from ui.handheld.classic.api import ClassicApi
from ui.handheld.darts.api import DartsApi
from ui.handheld.seats import Seats
from ui.handheld.throttle import GuessThrottle

from .conftest_handheld import new_game


async def test_links_only_for_the_games_phones_play(tmp_path, caplog):
    service = GameService(Store(tmp_path / "links.db"))
    seats = Seats(service, GuessThrottle())
    darts = DartsApi(seats)
    rooms = PhoneRooms(service.store, asyncio.get_running_loop(), classic_computer, pace=ShotPace(shot=0))
    classic = ClassicApi(seats, rooms)
    unsubscribe = service.subscribe(seats.on_service_event)
    try:
        with caplog.at_level(logging.INFO, "dartship.handheld"):
            dart_game = new_game(service)
            assert seats.tokens is not None and seats.tokens.game == dart_game
            issued = [r.getMessage() for r in caplog.records if "new phone links issued" in r.getMessage()]
            assert issued == [f"game {dart_game}: new phone links issued"]
            caplog.clear()

            express = service.new_game(EXPRESS, ExpressSetup.create(("Ann", "Bo"), seed=1))
            assert seats.tokens is None and not seats.has_links()
            assert not any("phone links issued" in r.getMessage() for r in caplog.records)
            assert service.store.phones.links(express) is None  # nothing kept for it either
            assert service.store.phones.links(dart_game) is not None  # the dart game's stay stored

            solo = start(service, ClassicSetup(Mode.SOLO, ("Ann",)), random.Random(1))
            assert seats.tokens is None and service.store.phones.links(solo) is None
            assert not any("phone links issued" in r.getMessage() for r in caplog.records)

            duel = start(service, ClassicSetup(Mode.DUEL, ("Ann", "Bo")), random.Random(2))
            assert seats.tokens is not None and seats.tokens.game == duel
            assert any(r.getMessage() == f"game {duel}: new phone links issued" for r in caplog.records)
    finally:
        unsubscribe()
        await classic.close()
        await darts.close()
