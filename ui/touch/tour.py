"""A scripted walk through every screen by touch, on a kiosk the composition root built.

`dartship screenshots` photographs the walk; the tests use `Tour.start` and the same fingers
to play whole games. The script may look at fleets to aim (it plays both sides); the screens
never do. The kiosk comes from `kiosk.app.root.build_offline` (a simulator kiosk on a loop the
tour drives by hand, beside Kivy's frames): darts go through the simulator's sink and the
service's queue exactly as in `dartship run`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.board import BULL, Cell, Ring
from kiosk.darts.kind import match_of
from kiosk.darts.match import Match
from kiosk.house import Kiosk
from ui.touch.app import make_app


@dataclass
class Tour:
    app: Any
    kiosk: Kiosk
    # Kivy's frames are driven by hand here, so the asyncio loop the kiosk's computer player
    # lives on is too (`pump`); in `dartship run` both share one loop.
    loop: asyncio.AbstractEventLoop

    @classmethod
    def start(cls, kiosk: Kiosk, loop: asyncio.AbstractEventLoop, *, seed: int = 7) -> Tour:
        """The app as `dartship run` makes it, its window sized by the kiosk's display settings
        (SDL's offscreen window: no display needed)."""
        app = make_app(kiosk, headless=True)
        app.rng = random.Random(seed)
        app.result_delay = 0
        app._run_prepare()  # build and show without entering Kivy's own loop
        from ui.touch.fingers import frames

        frames(3)
        tour = cls(app, kiosk, loop)
        tour.drain()
        return tour

    @property
    def express(self) -> ExpressTour:
        return ExpressTour(self)

    def close(self) -> None:
        self.app.stop()
        self.loop.run_until_complete(self.kiosk.stop())
        self.loop.close()

    @property
    def match(self) -> Match:
        match = match_of(self.kiosk.service)
        assert match is not None, "no dart game in play"
        return match

    def drain(self, rounds: int = 200) -> None:
        """Let the service take every input waiting on its queue (a tap, a typed or virtual
        dart reach it there, as a board's darts do), then draw."""
        from ui.touch.fingers import frames

        queue = self.kiosk.service.queue
        for _ in range(rounds):
            self.loop.run_until_complete(asyncio.sleep(0))
            if queue.empty():
                self.loop.run_until_complete(asyncio.sleep(0))
                break
        frames(1)

    def pump(self, until: Callable[[], bool] | None = None, seconds: float = 10.0) -> bool:
        """Run the kiosk's loop one iteration at a time until `until()` holds (or, without one,
        until the computer player is idle); then draw. One iteration at a time, so no two steps
        of the computer player (each needs a decision from the executor) pass unseen however
        slow the machine is. Bounded: returns whether it got there."""
        import time

        from ui.touch.fingers import frames

        done = until or (lambda: self.kiosk.solo.player is None or self.kiosk.solo.player.idle)
        reached = False
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            # Exactly one iteration of the loop (`run_until_complete(sleep(0))` runs two or
            # three, enough for a fast executor to let two kiosk darts pass between checks).
            self.loop.call_soon(self.loop.stop)
            self.loop.run_forever()
            if done():
                reached = True
                break
            time.sleep(0.0005)  # the executor's thread works meanwhile
        frames(2)
        return reached

    def frames_until(self, until: Callable[[], bool], count: int = 60) -> bool:
        """Kivy frames (its clock's callbacks: the result card after the last shot) until
        `until()` holds; bounded."""
        from ui.touch.fingers import frames

        for _ in range(count):
            if until():
                return True
            frames(1)
        return until()

    def wait_for_coach(self, rounds: int = 2000) -> bool:
        """Frames until the coach's answer is on the radar (it comes from a worker thread)."""
        import time

        from ui.touch.fingers import frames

        screen = self.app.screen("game")
        for _ in range(rounds):
            if screen.coach is not None:
                frames(1)
                return True
            time.sleep(0.002)
            frames(1)
        return False

    # -- looking --

    @property
    def root(self) -> Any:
        return self.app.root

    def screen(self) -> Any:
        return self.app.sm.current_screen

    def save(self, path: Path) -> Path:
        """The window as a PNG, after the frames that settle layout and drawing."""
        from ui.touch.fingers import frames, photograph

        frames(3)
        return Path(photograph(path))

    # -- doing --

    def press(self, text: str) -> None:
        from ui.touch.fingers import press

        press(None, text)
        self.drain()

    def tap_cell(self, view: Any, cell: Any) -> None:
        """Tap a cell of the drawn board, or a square of a classic grid (`view.point_of`)."""
        from ui.touch.fingers import tap_at

        x, y = view.to_window(*view.point_of(cell))
        tap_at(x, y)
        self.drain()

    def choose_game(self, kind: str) -> None:
        """Home: tap a game's button (ui/touch/games.py)."""
        from ui.touch.fingers import tap

        self.app.go("home")
        tap(self.app.screen("home").game_buttons[kind])
        self.drain()

    def new_game(self, names: tuple[str, str] = ("Sharks", "Jets"),
                 players: tuple[str, str] = ("Anna, Ben", "Cleo")) -> None:
        self.app.go("new_game")
        screen = self.screen()
        if screen.solo.value:
            self.press(_label("Solo vs kiosk"))
        for index in (0, 1):
            screen.names[index].text = names[index]
            screen.players[index].text = players[index]
        self.press(_label("Place fleets"))

    def to_bull_off(self) -> None:
        """A new game whose two fleets are placed at random and locked in, by touch."""
        self.new_game()
        for team in ("Sharks", "Jets"):
            self.press(_label("{team}: place on this screen").format(team=team))
            self.press(_label("Random fleet"))
            self.press(_label("Lock in"))

    def place_by_taps(self, team_name: str) -> None:
        """Open the placement for a team and put every ship down by tapping cells."""
        self.press(_label("{team}: place on this screen").format(team=team_name))
        screen = self.screen()
        anchors = [Cell(Ring.DOUBLE, 20), Cell(Ring.TRIPLE, 6), Cell(Ring.LARGE, 3), Cell(Ring.SMALL, 11),
                   Cell(Ring.DOUBLE, 8)]
        for cell in anchors:
            if screen.draft.complete:
                break
            self.tap_cell(screen.board_view, cell)

    def enemy_cells(self, team: int) -> list[Cell]:
        """The script's cheat sheet: where `team`'s target ships are (never shown)."""
        fleet = self.match.fleet(1 - team)
        assert fleet is not None
        return [c for ship in fleet.ships for c in ship.cells]

    def throw_tap(self, cell: Cell) -> None:
        self.tap_cell(self.screen().radar, cell)

    def throw_typed(self, code: str) -> None:
        from ui.touch.fingers import frames

        screen = self.screen()
        screen.cell_field.text = code
        screen.cell_field.dispatch("on_text_validate")
        frames(1)
        self.drain()

    # -- the walk for the screenshots --

    def run_all(self, out: Path, suffix: str) -> Iterator[str]:
        def shot(name: str) -> str:
            self.app._hide_toast()  # the clock barely moves here: a start's notice would stay
            self.save(out / f"{name}{suffix}.png")
            return name

        yield shot("home")
        self.app.go("new_game")
        screen = self.screen()
        screen.names[0].text, screen.players[0].text = "Sharks", "Anna, Ben"
        screen.names[1].text, screen.players[1].text = "Jets", "Cleo, Dev"
        yield shot("new_game")
        self.press(_label("Place fleets"))
        yield shot("placement_handover")
        self.place_by_taps("Sharks")
        screen = self.screen()
        screen._say(screen.draft.drag([Cell(Ring.TRIPLE, 20), Cell(Ring.TRIPLE, 5)]))
        yield shot("placement")
        self.press(_label("Random fleet"))
        self.press(_label("Lock in"))
        self.press(_label("{team}: place on this screen").format(team="Jets"))
        self.press(_label("Random fleet"))
        self.press(_label("Lock in"))
        bull = self.screen()
        yield shot("bull_off")  # as it first appears: nothing since may have redrawn it
        self.tap_cell(bull.board_view, Cell(Ring.SMALL, 20))
        self.tap_cell(bull.board_view, Cell(Ring.SMALL, 3))
        yield shot("bull_off_closer")
        self.press("Sharks")
        targets = self.enemy_cells(0)
        self.throw_tap(Cell(Ring.DOUBLE, 1) if Cell(Ring.DOUBLE, 1) not in targets else BULL)
        self.throw_typed(targets[0].code)
        yield shot("game")
        self.throw_tap(targets[1])
        yield shot("game_takeout")
        self.press(_label("Correct"))
        yield shot("correct")
        self.screen().picker.dismiss()
        self._play_to_the_end()
        yield shot("result")
        self.app.go("stats")
        yield shot("stats")
        self.app.go("pin")
        for key in "12":
            self.press(key)
        yield shot("pin")
        for key in ("3", "4", "OK"):
            self.press(key)
        yield shot("settings")
        self.press(_label("Learn board"))
        yield shot("learn")
        yield from self.solo_walk(shot)
        from ui.touch.classic.walk import ClassicWalk

        walk = ClassicWalk(self)
        yield from walk.run(shot)
        yield from walk.stats(shot)
        yield from self.express.walk(shot)

    # -- solo: the players against the kiosk --

    def start_solo(self, name: str = "Sharks", players: str = "Anna, Ben") -> None:
        """New game screen: one team of players, team 2 is the kiosk (skill as left there)."""
        self.app.go("new_game")
        screen = self.screen()
        screen.names[0].text, screen.players[0].text = name, players
        if not screen.solo.value:
            self.press(_label("Two teams"))

    def kiosk_turn(self) -> bool:
        match = self.match
        seat = self.kiosk.solo.seat()
        return seat is not None and match.turn == seat.team

    def solo_walk(self, shot: Callable[[str], str]) -> Iterator[str]:
        from kiosk.darts.match import Phase

        self.start_solo()
        yield shot("new_game_solo")
        self.press(_label("Place fleets"))
        self.pump()  # the kiosk locks in its fleet at once
        yield shot("placement_solo")
        self.press(_label("{team}: place on this screen").format(team="Sharks"))
        self.press(_label("Random fleet"))
        self.press(_label("Lock in"))
        self.pump()  # its bull-off dart
        yield shot("bull_off_solo")
        self.tap_cell(self.screen().board_view, Cell(Ring.SMALL, 20))
        if self.match.bull_off_undecided:
            self.press("Sharks")
        if self.kiosk_turn():
            self.pump(lambda: not self.kiosk_turn())
        self.press(_label("Coach"))
        self.wait_for_coach()
        self.throw_typed(self.enemy_cells(0)[1].code)  # a hit: the coach's heat gathers round it
        self.wait_for_coach()
        self.screen().announcement.clear()
        yield shot("game_coach")
        for code in ("S19", "miss"):
            self.throw_typed(code)
        self.press(_label("Next"))
        self.pump(lambda: self.match.phase is not Phase.THROWING
                  or self.match.dart_in_visit >= 2)
        yield shot("game_kiosk")
        self.press(_label("Undo"))
        self.screen().announcement.clear()  # let the picture show what is under the word
        self.app._hide_toast()
        yield shot("game_kiosk_hold")
        self.press(_label("Let the kiosk throw"))
        self.pump(lambda: not self.kiosk_turn())
        self.press(_label("Coach"))

    def _play_to_the_end(self) -> None:
        """Both teams throw at the enemy fleet (with a miss in every visit) until one wins."""
        from kiosk.darts.match import Phase

        for _visit in range(200):
            match = self.match
            if match.phase is Phase.OVER:
                break
            if match.phase is Phase.TAKEOUT:
                self.press(_label("Next"))
                continue
            team = match.up_next()[0]
            assert team is not None
            open_cells = [c for c in self.enemy_cells(team) if c not in match.shots(team)]
            if match.dart_in_visit == 0 and team == 1:
                self.throw_typed("MISS")
            else:
                self.throw_tap(open_cells[0])
        from ui.touch.fingers import frames

        frames(2)


class ExpressTour:
    """Battleship Express by touch, for the tests and the screenshots: set up players, lay out
    lines, tap ships and targets, roll, type real dice. Everything goes through the screens'
    widgets with simulated fingers, as a person would."""

    def __init__(self, tour: Tour) -> None:
        self.tour = tour

    @property
    def app(self) -> Any:
        return self.tour.app

    @property
    def match(self) -> Any:
        from kiosk.express.seats import express_match

        match = express_match(self.tour.kiosk.service)
        assert match is not None, "no Express game in play"
        return match

    @property
    def table(self) -> Any:
        return self.app.screen("express")

    def set_up(self, players: list[tuple[str, str | None]], *, variant: Any = None,
               points: int | None = None) -> None:
        """From Home: the players (name, None or a computer level), the game, the points."""
        from ui.touch.fingers import tap

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

    def lay_out(self, lines: list[list[Any]] | None = None, seed: int | None = 11,
                start: bool = True) -> None:
        """"Lay out the lines" (unless they are shown), wait for the computers' lines, arrange
        the people's by swaps (tapping two ships of a line), Start. `seed` fixes the game's
        dice (None: secret)."""
        if self.app.sm.current != "express_lineup":
            self.tour.press(_label("Lay out the lines"))
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
            self.tour.press(_label("Start"))

    def tap_tile(self, row: Any, ship: Any) -> None:
        from ui.touch.fingers import tap

        tap(row.tiles[ship])
        self.tour.drain()

    def tap_ship(self, player: int, ship: Any) -> None:
        self.tap_tile(self.table.rows[player], ship)

    def roll(self) -> None:
        from ui.touch.fingers import tap

        tap(self.table.roll_button)
        self.tour.drain()

    def attack(self, ship: Any, target: Any | None = None) -> None:
        """The player on turn attacks: taps the ship, the target (if any), then Roll."""
        me = self.match.turn
        self.tap_ship(me, ship)
        if target is not None:
            self.tap_ship(target.player, target.ship)
        self.roll()

    def play_a_turn(self, rng: Any) -> None:
        """The person on turn attacks by taps: a ship of their line at random and one of its
        legal targets at random (the Carrier: it rolls, then a target is tapped)."""
        from kiosk.express.match import Phase

        match = self.match
        if match.phase is Phase.TARGET:
            target = rng.choice(match.targets(match.pending.ship))
            self.tap_ship(target.player, target.ship)
            self.roll()
            return
        ship = rng.choice(match.line(match.turn))
        if match.setup.ship(ship).roll_first:
            self.attack(ship)
            return
        self.attack(ship, rng.choice(match.targets(ship)))

    def sinking_seed(self, attacker: Any, target: Any, rolls: int = 3) -> int:
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

        b, d, c, s, p = (Ship.BATTLESHIP, Ship.DESTROYER, Ship.CARRIER, Ship.SUBMARINE,
                         Ship.PATROL_BOAT)
        self.set_up([("Ann", None), ("Bo", None), ("Kiosk", "normal")])
        yield shot("express_setup")
        self.tour.press(_label("Lay out the lines"))
        lineup = self.tour.screen()
        assert self.wait(lambda: lineup.ready), "the computer's line never came"
        for player, line in enumerate(([b, c, d, s, p], [p, d, b, c, s])):
            lineup.lines[player] = list(line)
        lineup.picked = (0, c)
        lineup.refresh()
        yield shot("express_lineup")
        seed = self.sinking_seed(b, Target(1, d))
        self.tour.press(_label("Start"))
        table = self.table
        self.tap_ship(0, b)
        self.tap_ship(1, d)
        self.settle_slides()
        self.app._hide_toast()
        yield shot("express_turn")
        self.tour.press(_label("Coach"))
        assert self.wait(lambda: table.chances is not None), "the coach never answered"
        yield shot("express_coach")
        self.tour.press(_label("Coach"))
        # The attack, held beat by beat: photographed as the second roll lands, and at SUNK!.
        table.pace_override, table.playback.held = Pace(), True
        self.roll()
        steps = 0
        while table.playback.advance():
            steps += 1
            if steps == 6:  # move; tumble, land, aside; tumble, land: the second roll lies
                yield shot("express_rolling")
            if table.announcement.kind == "sunk" and table.announcement.opacity > 0:
                self.settle_slides()
                yield shot("express_sunk")
                break
        table.playback.held, table.pace_override = False, None
        table.playback.finish()
        assert seed and self.match.points()[0] == 1
        # Real dice: Ann's next attack asks for the faces.
        table.announcement.clear()  # the clock barely moves here: SUNK! would stay
        self.tour.press(_label("Real dice"))
        self.attack(p, Target(1, p))
        self.type_faces([Face.PATROL_BOAT, Face.BURST])
        yield shot("express_real_dice")
        self.type_faces([Face.CARRIER, Face.DESTROYER, Face.SUBMARINE])
        while self.table.entry is not None:
            self.type_faces([Face.SUBMARINE] * self.table.entry.wanted)
        self.tour.press(_label("Real dice"))
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

    def settle_slides(self) -> None:
        """Frames until the ships have slid to their places (Kivy's animations, real time)."""
        import time

        from ui.touch.express.lines import SLIDE_SECONDS
        from ui.touch.fingers import frames

        end = time.monotonic() + SLIDE_SECONDS + 0.2
        while time.monotonic() < end:
            frames(1)
            time.sleep(0.01)

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

        from ui.touch.fingers import frames

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.tour.loop.call_soon(self.tour.loop.stop)
            self.tour.loop.run_forever()
            frames(1)
            if until():
                return True
            time.sleep(0.002)
        return False

    def computers_play(self, seconds: float = 60.0) -> bool:
        """Let the computer seats act until a person is up (or the game is over)."""
        from kiosk.express.match import Phase

        seats = self.tour.kiosk.express_seats

        def person_up() -> bool:
            match = self.match
            return match.phase is Phase.OVER or (
                not seats.plays(match.turn) and seats.idle and not self.table.playback.busy)
        return self.wait(person_up, seconds=seconds)


def _label(text: str) -> str:
    from kiosk.i18n import _

    return _(text)
