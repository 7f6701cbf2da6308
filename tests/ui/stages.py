"""The touchscreen tests' states, each built from nothing: `tour.at("bull_off")` starts a new
game in the kiosk's service and replays a command script into it (what the players would have
done by touch), so the app stands on that game's screen whatever ran before. The other games'
stages (`"solo"`, `"classic_solo"`, `"express_turn"`, ...: see `at`) replay what their players
would have done the same way, by command or, where the screen itself starts the game, by touch.

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

from kiosk.app.tour.driver import Tour, label
from kiosk.board import MISS, BullZone, Cell, Ring
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import (
    BullOffCloser,
    BullOffDart,
    Command,
    KioskSeat,
    Match,
    Next,
    Phase,
    Place,
    Setup,
    Team,
    Throw,
    house_rules,
)
from kiosk.darts.solo import kiosk_team
from kiosk.express.rules import Variant
from kiosk.scatter import Skill
from kiosk.service import Source
from tests.waits import PATIENCE

TEAMS = (Team("Sharks", ("Anna", "Ben")), Team("Jets", ("Cleo",)))
FLEET_SEEDS = (11, 12)  # every staged game hides the same fleets
# The stages of a dart game, in the order a game passes them.
STAGES = ("home", "placement", "bull_off", "game", "visit", "over")
# The other games' stages (each from nothing, see StagedTour.at).
SOLO = "solo"  # a solo dart game (the kiosk plays the Jets at pub skill): the players are up
CLASSIC = ("classic_solo", "classic_fired")
EXPRESS = ("express_setup", "express_turn", "express_played")


@dataclass
class StagedTour(Tour):
    _settings: Any = None  # the settings as the kiosk started, put back before each stage

    def pump(self, until: Callable[[], bool] | None = None, seconds: float = PATIENCE) -> bool:
        """The tour's pump with the tests' patience (its own 10 s are short on a loaded CI
        machine; it ends as soon as `until()` holds)."""
        return super().pump(until, seconds)

    def wait_for_coach(self, rounds: int = 0) -> bool:
        """Frames until the coach's answer is on the radar (from a worker thread): bounded by
        time, not by a count of frames a loaded machine may pass through before the worker ran."""
        import time

        from ui.touch.fingers import frames

        screen = self.app.screen("game")
        deadline = time.monotonic() + PATIENCE
        while screen.coach is None and time.monotonic() < deadline:
            time.sleep(0.002)
            frames(1)
        frames(1)
        return screen.coach is not None

    def keep_settings(self) -> StagedTour:
        config = self.kiosk.config
        self._settings = (config._from_file, config._written, config.path)
        return self

    def reset(self, lang: str = "en") -> None:
        """English (or `lang`), the settings the kiosk started with (nothing saved), no banner,
        toast, question or popup (open or closing), Home on screen."""
        from kiosk.i18n import language, set_language

        if language() != lang:
            set_language(lang)
            self.app.rebuild("home")
        config = self.kiosk.config
        config.save_path().unlink(missing_ok=True)
        config._from_file, config._written, config.path = self._settings
        self.kiosk.service.board_connected = None  # the simulator: no board reports
        self.app._hide_toast()
        if self.app.asking is not None:  # a new-game question a test left open
            self.app.asking.close()
        _close_popups()
        # The toggles a screen keeps from game to game: the coaches off, real dice off, the
        # dart coach at the simulator's skill.
        game = self.app.screen("game")
        game.coach_on = False
        game.skill_button.set_value(self.kiosk.settings.simulator.skill)
        express = self.app.screen("express")
        express.coach_on = False
        express.use_real_dice(False)
        self.app.screen("express_setup").variant.set_value(Variant.ADMIRAL)
        self.app.go("home")
        self.drain()

    def at(self, stage: str, lang: str = "en", teams: tuple[Team, Team] = TEAMS) -> StagedTour:
        """The kiosk at `stage` of a new game, its screens in `lang`: a dart game's (see
        STAGES; "home": no new game; `teams`: the dart game's teams), a solo dart game's
        (SOLO), classic's (CLASSIC) or Battleship Express's (EXPRESS)."""
        assert stage in (*STAGES, SOLO, *CLASSIC, *EXPRESS), stage
        self.reset(lang)
        if stage == SOLO:
            return self._solo()
        if stage in CLASSIC:
            return self._classic(CLASSIC.index(stage))
        if stage in EXPRESS:
            return self._express(EXPRESS.index(stage))
        if stage == "home":
            return self
        service = self.kiosk.service
        service.new_game(DARTS, Setup(teams, house_rules(self.kiosk.settings)))
        _play(self.match, STAGES.index(stage), lambda command: service.submit(command, Source.TOUCH))
        self.drain()
        if stage == "over":
            assert self.frames_until(lambda: self.app.sm.current == "result")
        return self

    def _solo(self) -> StagedTour:
        """Sharks against the kiosk (team 2, "Kiosk", pub skill): both fleets in, the bull-off thrown
        (the Sharks closer, unless the kiosk's dart is in the bull), the kiosk's first visit
        played if it won it; the Sharks are up with their first dart."""
        service = self.kiosk.service
        setup = Setup(
            (TEAMS[0], kiosk_team("Kiosk")), house_rules(self.kiosk.settings), KioskSeat(1, Skill.PUB)
        )
        service.new_game(DARTS, setup)
        match = self.match
        assert self.pump(lambda: match.state().placed[1])  # the kiosk hides its fleet itself
        fleet = random_fleet(setup.rules.board, setup.rules.fleet, random.Random(FLEET_SEEDS[0]))
        service.submit(Place(0, fleet), Source.TOUCH)
        assert self.pump(lambda: match.bull_off_zones()[1] is not None)  # the kiosk's bull-off dart
        service.submit(BullOffDart(0, BullZone.OTHER, Cell(Ring.SMALL, 20)), Source.TOUCH)
        if match.bull_off_undecided:
            service.submit(BullOffCloser(0), Source.TOUCH)
        assert self.pump(lambda: match.phase is Phase.THROWING and match.turn == 0)
        self.drain()
        assert self.app.sm.current == "game" and match.dart_in_visit == 0
        return self

    def _classic(self, stage: int) -> StagedTour:
        """Classic solo by touch (Home, Classic 10x10, the computer at easy, Play solo): the
        Sharks' random fleet stands and nothing is fired ("classic_solo"); then one shot into
        the water and the computer's answer ("classic_fired")."""
        from kiosk.app.tour.classic import ClassicWalk
        from kiosk.classic.match import ComputerLevel

        walk = ClassicWalk(self)
        self.choose_game("classic")
        self.app.screen("classic_new").level.set_value(ComputerLevel.EASY)
        walk.start_solo("Sharks")
        assert self.app.sm.current == "classic_solo"
        if stage >= CLASSIC.index("classic_fired"):
            walk.fire(self.screen().big, walk.water(0)[0])
            assert walk.match.shots(0) == 1 and walk.computer_done()
        return self

    def _express(self, stage: int) -> StagedTour:
        """Battleship Express by touch: Ann, Bo and the kiosk (hard) to 3 points on the setup
        screen ("express_setup"); their lines laid out, dice that sink Bo's Destroyer on the
        second roll, and Ann's Battleship's attack on it rolled ("express_turn"); then the
        computer's turns until a person is up ("express_played")."""
        from kiosk.app.tour.express import ExpressTour
        from kiosk.express.match import Target
        from kiosk.express.rules import Ship

        x = ExpressTour(self)
        x.set_up([("Ann", None), ("Bo", None), ("Kiosk", "hard")], points=3)
        if stage >= EXPRESS.index("express_turn"):
            b, d, c, s, p = Ship.BATTLESHIP, Ship.DESTROYER, Ship.CARRIER, Ship.SUBMARINE, Ship.PATROL_BOAT
            x.lay_out([[b, c, d, s, p], [p, d, b, c, s]], start=False)
            self.screen().seed = x.sinking_seed(b, Target(1, d), rolls=2)
            self.press_start(label("Start"))
            x.attack(b, Target(1, d))
        if stage >= EXPRESS.index("express_played"):
            assert x.computers_play()
        return self


def _close_popups() -> None:
    """Every popup on the window gone, at once: one a test left open, and one it closed that is
    still fading out. Kivy's popup (ModalView) leaves the window only when its closing
    animation ends, 0.1 s of the clock later, and until then it takes every touch. The Phones
    popup's Close at the end of one test, then a quick start of the next (a warm session gets
    from one to the other within 0.1 s), and that test's "Place fleets" tap fell on the fading
    popup: the game was never started (test_touch_phones.py, shuffled with seed 4242). The
    tour's own press now waits for a popup it closes to leave (`ui.touch.fingers.popups_leave`);
    this is for one a test closed otherwise, or left open."""
    from kivy.animation import Animation
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for top in list(Window.children):
        if isinstance(top, ModalView):
            Animation.cancel_all(top)
            top.dismiss(animation=False)


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
