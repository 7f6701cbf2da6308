"""The touchscreen tests' states, each built from nothing: `tour.at("bull_off")` starts a new
game in the kiosk's service and replays a command script into it (what the players would have
done by touch), so the app stands on that game's screen whatever ran before.

Kivy opens one window per process, so the tests share one app, one kiosk and one service; `at`
first puts back what a test may have changed around the game (the language, saved settings,
the board's banner, a toast, the screen), then builds the game. Nothing is carried from one
test to the next: each test passes alone and in any order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.app.tour.driver import Tour
from kiosk.board import MISS, BullZone, Cell, Ring
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import (
    BullOffCloser,
    BullOffDart,
    Command,
    Match,
    Next,
    Phase,
    Place,
    Setup,
    Team,
    Throw,
    house_rules,
)
from kiosk.service import Source

TEAMS = (Team("Sharks", ("Anna", "Ben")), Team("Jets", ("Cleo",)))
FLEET_SEEDS = (11, 12)  # every staged game hides the same fleets
# The stages of a dart game, in the order a game passes them.
STAGES = ("home", "placement", "bull_off", "game", "visit", "over")


@dataclass
class StagedTour(Tour):
    _settings: Any = None  # the settings as the kiosk started, put back before each stage

    def keep_settings(self) -> StagedTour:
        config = self.kiosk.config
        self._settings = (config._from_file, config._written, config.path)
        return self

    def reset(self, lang: str = "en") -> None:
        """English (or `lang`), the settings the kiosk started with (nothing saved), no banner
        or toast, Home on screen."""
        from kiosk.i18n import language, set_language

        if language() != lang:
            set_language(lang)
            self.app.rebuild("home")
        config = self.kiosk.config
        config.save_path().unlink(missing_ok=True)
        config._from_file, config._written, config.path = self._settings
        self.kiosk.service.board_connected = None  # the simulator: no board reports
        self.app._hide_toast()
        self.app.go("home")
        self.drain()

    def at(self, stage: str, lang: str = "en") -> StagedTour:
        """The kiosk at `stage` of a new dart game (see STAGES; "home": no new game), its
        screens in `lang`."""
        assert stage in STAGES, stage
        self.reset(lang)
        if stage == "home":
            return self
        service = self.kiosk.service
        service.new_game(DARTS, Setup(TEAMS, house_rules(self.kiosk.settings)))
        _play(self.match, STAGES.index(stage), lambda command: service.submit(command, Source.TOUCH))
        self.drain()
        if stage == "over":
            assert self.frames_until(lambda: self.app.sm.current == "result")
        return self


def _play(match: Match, stage: int, submit: Callable[[Command], object]) -> None:
    """The command script that brings a new game to stage number `stage`, submitted one command
    at a time (each made for the game as it then stands, as a player would)."""
    rules = match.setup.rules
    fleets = [random_fleet(rules.board, rules.fleet, random.Random(seed)) for seed in FLEET_SEEDS]
    targets = [c for ship in fleets[1].ships for c in ship.cells]  # the Sharks' targets
    if stage >= STAGES.index("bull_off"):
        submit(Place(0, fleets[0]))
        submit(Place(1, fleets[1]))  # both in: the service starts the game (the bull-off)
    if stage >= STAGES.index("game") and match.phase is Phase.BULL_OFF:
        # Both darts off the bull: the players tell who was closer (Sharks).
        submit(BullOffDart(0, BullZone.OTHER, Cell(Ring.SMALL, 20)))
        submit(BullOffDart(1, BullZone.OTHER, Cell(Ring.SMALL, 3)))
        if match.bull_off_undecided:
            submit(BullOffCloser(0))
    if stage >= STAGES.index("visit"):
        # Anna's first two darts: water, then a hit.
        submit(Throw(next(c for c in rules.board.cells if c.on_board and c not in targets)))
        submit(Throw(targets[0]))
    while stage >= STAGES.index("over") and match.phase is not Phase.OVER:
        # The Sharks sink the Jets' fleet; the Jets miss every dart.
        if match.phase is Phase.TAKEOUT:
            submit(Next())
        elif match.up_next()[0] == 0:
            submit(Throw(next(c for c in targets if c not in match.shots(0))))
        else:
            submit(Throw(MISS))
