"""Battleship Express by touch: the tour's fingers on the Express screens, for the tests and the
screenshots (`kiosk.app.tour.walk`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from kiosk.app.tour.driver import Tour, label

if TYPE_CHECKING:
    from kivy.app import App
    from kivy.uix.widget import Widget

    from kiosk.express.match import Match, Target
    from kiosk.express.rules import Ship, Variant
    from ui.touch.express.table import ExpressScreen


class ExpressTour:
    """Battleship Express by touch, for the tests and the screenshots: set up players, lay out
    lines, tap ships and targets, roll, type real dice. Everything goes through the screens'
    widgets with simulated fingers, as a person would."""

    def __init__(self, tour: Tour) -> None:
        self.tour = tour

    @property
    def app(self) -> App:
        return self.tour.app

    @property
    def match(self) -> Match:
        from kiosk.express.wire import EXPRESS

        match = EXPRESS.in_play(self.tour.kiosk.service)
        assert match is not None, "no Express game in play"
        return match

    @property
    def table(self) -> ExpressScreen:
        screen: ExpressScreen = self.app.screen("express")
        return screen

    def set_up(
        self,
        players: list[tuple[str, str | None]],
        *,
        variant: Variant | None = None,
        points: int | None = None,
    ) -> None:
        """From Home: the players (name, None or a computer level), the game, the points."""
        tap = self.tour.tap
        self.tour.choose_game("express")
        screen = self.tour.screen()
        while screen.count.value != len(players):
            tap(screen.count)
        for index, (name, level) in enumerate(players):
            while screen.seats[index].value != level:
                tap(screen.seats[index])
            screen.names[index].text = name
        while variant is not None and screen.variant.value is not variant:
            tap(screen.variant)
        while points is not None and screen.points.value != points:
            tap(screen.points)
        self.tour.drain()

    def lay_out(
        self, lines: list[list[Any]] | None = None, seed: int | None = 11, start: bool = True
    ) -> None:
        """ "Lay out the lines" (unless they are shown), wait for the computers' lines, arrange
        the people's by swaps (tapping two ships of a line), Start. `seed` fixes the game's
        dice (None: secret)."""
        if self.app.sm.current != "express_lineup":
            self.tour.press(label("Lay out the lines"))
        screen = self.tour.screen()
        assert self.wait(lambda: screen.ready), "the computers' lines never came"
        screen.seed = seed
        for player, wanted in enumerate(lines or []):
            if wanted is None:
                continue
            for place, ship in enumerate(wanted):
                line = screen.lines[player]
                if line[place] is not ship:
                    self.tap_tile(screen.rows[player], line[place])
                    self.tap_tile(screen.rows[player], ship)
            assert screen.lines[player] == list(wanted)
        if start:
            self.tour.press_start(label("Start"))

    def tap_tile(self, row: Widget, ship: Ship) -> None:
        self.tour.tap(row.tiles[ship])

    def tap_ship(self, player: int, ship: Ship) -> None:
        self.tap_tile(self.table.rows[player], ship)

    def roll(self) -> None:
        self.tour.tap(self.table.roll_button)

    def attack(self, ship: Ship, target: Target | None = None) -> None:
        """The player on turn attacks: taps the ship, the target (if any), then Roll."""
        me = self.match.turn
        self.tap_ship(me, ship)
        if target is not None:
            self.tap_ship(target.side, target.ship)
        self.roll()

    def play_a_turn(self, rng: random.Random) -> None:
        """The person on turn attacks by taps: a ship of their line at random and one of its
        legal targets at random (the Carrier: it rolls, then a target is tapped)."""
        from kiosk.express.match import Phase

        match = self.match
        if match.phase is Phase.TARGET:
            assert match.pending is not None
            target = rng.choice(match.targets(match.pending.ship))
            self.tap_ship(target.side, target.ship)
            self.roll()
            return
        ship = rng.choice(match.line(match.turn))
        if match.setup.ship(ship).roll_first:
            self.attack(ship)
            return
        self.attack(ship, rng.choice(match.targets(ship)))

    def sinking_seed(self, attacker: Ship, target: Target, rolls: int = 3) -> int:
        """A seed whose dice make this first attack sink its target on roll `rolls` (the
        screenshots show an attack mid-roll and its SUNK!; the script may look at the dice)."""
        from kiosk.express.match import Attack, Match, Rolled, Sunk

        lineup = self.app.screen("express_lineup")
        for seed in range(1, 10_000):
            lineup.seed = seed
            events = Match(lineup.setup()).apply(Attack(attacker, target))
            thrown = [e for e in events if isinstance(e, Rolled)]
            if any(isinstance(e, Sunk) for e in events) and len(thrown) == rolls:
                return seed
        raise AssertionError("no seed sinks that attack")

    def walk(self, shot: Callable[[str], str]) -> Iterator[str]:
        """The screenshots of Battleship Express: setup, lines, a turn before the roll (and
        with the coach), mid-roll, SUNK!, real dice, the result card, its stats."""
        from kiosk.express.match import Phase, Target
        from kiosk.express.pace import Pace
        from kiosk.express.rules import Face, Ship

        b, d, c, s, p = (Ship.BATTLESHIP, Ship.DESTROYER, Ship.CARRIER, Ship.SUBMARINE, Ship.PATROL_BOAT)
        self.set_up([("Ann", None), ("Bo", None), ("Kiosk", "normal")])
        yield shot("express_setup")
        # The computer's line drawn from a fixed seed too: the same pictures at every run.
        self.app.screen("express_lineup").rng = random.Random(11)
        self.tour.press(label("Lay out the lines"))
        lineup = self.tour.screen()
        assert self.wait(lambda: lineup.ready), "the computer's line never came"
        for player, line in enumerate(([b, c, d, s, p], [p, d, b, c, s])):
            lineup.lines[player] = list(line)
        lineup.picked = (0, c)
        lineup.refresh()
        yield shot("express_lineup")
        seed = self.sinking_seed(b, Target(1, d))
        self.tour.press_start(label("Start"))
        table = self.table
        self.tap_ship(0, b)
        self.tap_ship(1, d)
        assert self.settle_slides(), "the ships never stood still"
        self.app._hide_toast()
        yield shot("express_turn")
        self.tour.press(label("Coach"))
        assert self.wait(lambda: table.chances is not None), "the coach never answered"
        yield shot("express_coach")
        self.tour.press(label("Coach"))
        # The attack, held beat by beat: photographed as the second roll lands, and at SUNK!.
        table.pace_override, table.playback.held = Pace(), True
        self.roll()
        steps = 0
        while table.playback.advance():
            steps += 1
            if steps == 6:  # move; tumble, land, aside; tumble, land: the second roll lies
                yield shot("express_rolling")
            if table.announcement.kind == "sunk" and table.announcement.opacity > 0:
                assert self.settle_slides(), "the ships never stood still"
                yield shot("express_sunk")
                break
        table.playback.held, table.pace_override = False, None
        table.playback.finish()
        assert seed and self.match.points()[0] == 1
        # Real dice: Ann's next attack asks for the faces.
        table.announcement.clear()  # the clock barely moves here: SUNK! would stay
        self.tour.press(label("Real dice"))
        self.attack(p, Target(1, p))
        self.type_faces([Face.PATROL_BOAT, Face.BURST])
        yield shot("express_real_dice")
        self.type_faces([Face.CARRIER, Face.DESTROYER, Face.SUBMARINE])
        while self.table.entry is not None:
            self.type_faces([Face.SUBMARINE] * self.table.entry.wanted)
        self.tour.press(label("Real dice"))
        rng = random.Random(5)
        for _turn in range(300):
            assert self.computers_play(), "a computer seat never played"
            if self.match.phase is Phase.OVER:
                break
            self.play_a_turn(rng)
        assert self.wait(lambda: self.app.sm.current == "express_result", 30)
        yield shot("express_result")
        self.app.go("stats")
        stats = self.tour.screen()
        stats.choose("express")
        yield shot("stats_express")
        stats.choose("darts")

    def settle_slides(self, seconds: float = 10.0) -> bool:
        """Frames until every ship's tile stands at its place in its line (Kivy's animations
        run on real time: the frames go on until the slides are over, not for a time guessed);
        bounded: returns whether they got there."""
        import time

        from ui.touch.fingers import frames

        deadline = time.monotonic() + seconds
        while not all(row.settled for row in self.table.rows):
            if time.monotonic() > deadline:
                return False
            frames(1)
            time.sleep(0.005)  # the animations' clock is the wall's
        frames(1)
        return True

    def type_faces(self, faces: list[Any]) -> None:
        """Real dice: tap each face on the panel."""
        from kiosk.express.rules import Face
        from ui.touch.express.look import face_name

        for face in faces:
            assert isinstance(face, Face)
            self.tour.press(face_name(face))

    def wait(self, until: Callable[[], bool], seconds: float = 60.0) -> bool:
        """Run the kiosk's loop and Kivy's frames (answers from workers arrive on Kivy's
        clock) until `until()` holds; bounded: returns whether it got there."""
        import time

        from ui.touch.fingers import frames, popups_leave

        deadline = time.monotonic() + seconds
        with popups_leave():  # one the kiosk closes meanwhile is gone before the next touch
            while time.monotonic() < deadline:
                self.tour.loop.call_soon(self.tour.loop.stop)
                self.tour.loop.run_forever()
                frames(1)
                if until():
                    return True
                time.sleep(0.002)  # the executor's thread works meanwhile
        return False

    def computers_play(self, seconds: float = 60.0) -> bool:
        """Let the computer seats act until a person is up (or the game is over)."""
        from kiosk.express.match import Phase
        from kiosk.express.seats import ComputerSeats

        seats = self.tour.kiosk.participant(ComputerSeats)

        def person_up() -> bool:
            match = self.match
            return match.phase is Phase.OVER or (
                not seats.plays(match.turn) and seats.idle and not self.table.playback.busy
            )

        return self.wait(person_up, seconds=seconds)
