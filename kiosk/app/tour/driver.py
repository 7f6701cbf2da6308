"""The tour's fingers: the touchscreen app on a kiosk the composition root built, driven by
simulated touches (`kiosk.app.tour.walk` photographs every screen with them for `dartship
screenshots`; the touchscreen tests play whole games with them).

The script may look at fleets to aim (it plays both sides); the screens never do. The kiosk
comes from `kiosk.app.root.build_offline` (a simulator kiosk on a loop the tour drives by hand,
beside Kivy's frames): darts go through the simulator's sink and the service's queue exactly as
in `dartship run`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.board import Cell, Ring
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Match
from kiosk.darts.solo import SoloMode
from kiosk.house import Kiosk
from ui.touch.app import make_app

# What a serial board at the wrong baud rate prints (printable, as the reader passes it on).
GARBLED_LINE = "x~3?|F0:8e;^^ TRPL 2O HIT?? 0xff 0x1c g#"

if TYPE_CHECKING:
    from kivy.uix.screenmanager import Screen
    from kivy.uix.widget import Widget


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

    def close(self) -> None:
        self.app.stop()
        self.loop.run_until_complete(self.kiosk.stop())
        self.loop.close()

    @property
    def solo(self) -> SoloMode:
        """The kiosk as a player (the dart game's participant)."""
        return self.kiosk.participant(SoloMode)

    @property
    def match(self) -> Match:
        match = DARTS.in_play(self.kiosk.service)
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

        from ui.touch.fingers import frames, popups_leave

        done = until or (lambda: self.solo.player is None or self.solo.player.idle)
        reached = False
        deadline = time.monotonic() + seconds
        with popups_leave():  # one the kiosk closes meanwhile is gone before the next touch
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
    def root(self) -> Widget:
        return self.app.root

    def screen(self) -> Screen:
        return self.app.sm.current_screen

    def save(self, path: Path) -> Path:
        """The window as a PNG, after the frames that settle layout and drawing."""
        from ui.touch.fingers import frames, photograph

        frames(3)
        return Path(photograph(path))

    # -- doing --

    def press(self, text: str) -> None:
        """Press the button with this text (`touch`)."""
        from ui.touch.fingers import button

        self.tap(button(None, text))

    def tap(self, widget: Widget) -> None:
        """Tap the middle of a widget, wherever it is drawn (`touch`)."""
        self.touch(lambda: widget.to_window(*widget.center))

    def tap_at(self, x: float, y: float) -> None:
        """Tap at (x, y) in the window (`touch`)."""
        self.touch(lambda: (x, y))

    def touch(self, where: Callable[[], tuple[float, float]]) -> None:
        """Every touch of the tour: a tap where `where()` says once the window is laid out as
        drawn, then the service takes what it set off. A popup that the tap or its consequences
        close is off the window when this returns (`ui.touch.fingers.popups_leave`): Kivy's
        popup takes every touch while it fades out, so the next touch, wherever it is meant,
        meets the screen, not the popup."""
        from ui.touch.fingers import frames, popups_leave
        from ui.touch.fingers import tap_at as finger

        with popups_leave():
            frames(1)  # laid out as drawn: the widget stands where the finger goes
            finger(*where())
            self.drain()

    def press_start(self, text: str) -> None:
        """Press a game's start button; over a game in play the kiosk asks first, and the tour
        answers "Start new game" (a tour begins where it wants, whatever was in play)."""
        self.press(text)
        if getattr(self.app, "asking", None) is not None:
            self.press(label("Start new game"))

    def tap_cell(self, view: Widget, cell: object) -> None:
        """Tap a cell of the drawn board, or a square of a classic grid (`view.point_of`)."""
        self.touch(lambda: view.to_window(*view.point_of(cell)))

    def choose_game(self, kind: str) -> None:
        """Home: tap a game's button (ui/touch/games.py)."""
        self.app.go("home")
        self.tap(self.app.screen("home").game_buttons[kind])

    def new_game(
        self, names: tuple[str, str] = ("Sharks", "Jets"), players: tuple[str, str] = ("Anna, Ben", "Cleo")
    ) -> None:
        self.app.go("new_game")
        screen = self.screen()
        if screen.solo.value:
            self.press(label("Solo vs kiosk"))
        for index in (0, 1):
            screen.names[index].text = names[index]
            screen.players[index].text = players[index]
        self.press_start(label("Place fleets"))

    def place_by_taps(self, team_name: str) -> None:
        """Open the placement for a team and put every ship down by tapping cells."""
        self.press(label("{team}: place on this screen").format(team=team_name))
        screen = self.screen()
        anchors = [
            Cell(Ring.DOUBLE, 20),
            Cell(Ring.TRIPLE, 6),
            Cell(Ring.LARGE, 3),
            Cell(Ring.SMALL, 11),
            Cell(Ring.DOUBLE, 8),
        ]
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

    def garbled_line(self) -> None:
        """A line the board sent that no dialect reads (a serial board at the wrong speed): the
        kiosk's notice of it is a long toast, as it comes in a bar."""
        from kiosk.i18n import _
        from kiosk.inputs import BadLine

        self.kiosk.service.queue.put_nowait(BadLine(GARBLED_LINE, _("no dialect reads this line")))
        self.drain()

    def throw_typed(self, code: str) -> None:
        from ui.touch.fingers import frames

        screen = self.screen()
        screen.cell_field.text = code
        screen.cell_field.dispatch("on_text_validate")
        frames(1)
        self.drain()

    # -- solo: the players against the kiosk --

    def start_solo(self, name: str = "Sharks", players: str = "Anna, Ben") -> None:
        """New game screen: one team of players, team 2 is the kiosk (skill as left there)."""
        self.app.go("new_game")
        screen = self.screen()
        screen.names[0].text, screen.players[0].text = name, players
        if not screen.solo.value:
            self.press(label("Two teams"))

    def kiosk_turn(self) -> bool:
        match = self.match
        seat = self.solo.seat()
        return seat is not None and match.turn == seat.side

    def play_to_the_end(self) -> None:
        """Both teams throw at the enemy fleet (with a miss in every visit) until one wins."""
        from kiosk.darts.match import Phase

        for _visit in range(200):
            match = self.match
            if match.phase is Phase.OVER:
                break
            if match.phase is Phase.TAKEOUT:
                self.press(label("Next"))
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


def label(text: str) -> str:
    """A button's text in the kiosk's language (the fingers press what a person reads)."""
    from kiosk.i18n import _

    return _(text)
