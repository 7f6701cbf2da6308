"""Laying out the lines, face up, before the first roll: each person orders their five ships
(the front, on the left, is what the others can shoot at first); the computer seats lay out
their own. Tap a ship, then another of the same line: they swap. Start begins the game.

The computer's lines (the hard level's is worked out from the exact odds) and the tables every
computer decision needs (`kiosk.express.ai.prepare`, about a second) are made in a worker while
the people arrange theirs; Start waits for them.

What the players answered here survives a kill -9: the line-up (`kiosk.express.lineup`) is kept
in the store's drafts at every change (laid out, a swap, Shuffle, the computers' lines once
laid), and a kiosk started again opens it here as it was (`resume_draft`, from the shell). Back
puts it away; so does any game's start (the shell puts every draft away on GameStarted).
"""

from __future__ import annotations

import concurrent.futures
import logging
import random
import sqlite3
from collections.abc import Sequence
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout

from kiosk.express.lineup import DRAFT, Draft, Lineup, lines_of, lineup_from_dict
from kiosk.express.match import Setup
from kiosk.express.rules import FLEET, Rules, Ship, Variant
from kiosk.express.wire import EXPRESS
from kiosk.game import RuleError
from kiosk.i18n import _
from kiosk.store import StoreError
from ui.touch import theme
from ui.touch.controls import BigButton, Prompt, button_row
from ui.touch.express.lines import LineRow
from ui.touch.express.look import dice_and_rolls, seat_name
from ui.touch.screens.base import KioskApp, KioskScreen
from ui.touch.toast import LEAST_HEIGHT

log = logging.getLogger(__name__)
_pool: concurrent.futures.ThreadPoolExecutor | None = None


def computer_lines(
    variant: Variant, levels: Sequence[str | None], seed: int, points_to_win: int | None = None
) -> list[tuple[Ship, ...] | None]:
    """In a worker: each computer seat's line (None for a person's), and the exact tables its
    decisions will need."""
    from kiosk.express.ai import Computer, Strategy, prepare

    prepare(variant, players=len(levels), points_to_win=points_to_win)
    rng = random.Random(seed)
    return [
        None
        if level is None
        else Computer(Strategy(level), rng.getrandbits(64)).line(
            variant, players=len(levels), points_to_win=points_to_win
        )
        for level in levels
    ]


class ExpressLineupScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        page = BoxLayout(orientation="vertical", padding=(s(12), s(8)), spacing=s(6))
        self.prompt = Prompt(
            _(
                "Lay out your lines: the front (left) can be shot at first. "
                "Tap a ship, then another: they swap."
            ),
            font_units=19,
            # Four lines of tiles and the buttons leave a toast no room (a long one went to the
            # name column at 60 %): the prompt keeps a band a toast's height tall, where one
            # lies over it, full width and read (the prompt is known by then; no control is).
            least_height=s(LEAST_HEIGHT),
        )
        page.add_widget(self.prompt)
        self._band = s(LEAST_HEIGHT)
        self.rows_box = BoxLayout(orientation="vertical", spacing=s(6))
        page.add_widget(self.rows_box)
        self.start_button = BigButton(_("Start"), self.start, colour=theme.GO)
        page.add_widget(
            button_row(
                BigButton(_("Back"), self.back, colour=theme.PANEL_LIGHT),
                BigButton(_("Shuffle"), self.shuffle, colour=theme.PANEL_LIGHT),
                self.start_button,
            )
        )
        self.add_widget(page)
        self.draft: Draft | None = None
        self.lines: list[list[Ship] | None] = []
        self.rows: list[LineRow] = []
        self.picked: tuple[int, Ship] | None = None
        self._asked = 0  # which draft the worker's answer belongs to
        self.rng = random.Random()
        self.seed: int | None = None  # None: a secret seed per game (the screenshots fix one)

    def toast_room(self, height: float) -> bool:
        """A toast of three lines (or more) needs more than the prompt's band: the band takes
        its height while it shows (the rows a little lower: four lines of tiles give up some
        5 px each), at most twice the band (a toast taller still keeps its smaller font)."""
        wanted = min(height, 2 * self._band)
        if wanted <= self.prompt.least_height:
            return False
        self.prompt.least_height = wanted
        self.prompt._fit()
        return True

    def toast_gone(self) -> None:
        if self.prompt.least_height != self._band:
            self.prompt.least_height = self._band
            self.prompt._fit()

    def open(self, draft: Draft) -> None:
        """Lay out `draft`'s lines: people's shuffled, the computers' asked of the worker."""
        self._lay_out(draft, [None if level is not None else self._shuffled() for level in draft.computers])

    def resume_draft(self) -> bool:
        """The line-up kept before the kiosk stopped, laid out again as it was (the computers'
        lines not laid yet are asked of the worker again). False when none is kept; a broken
        or foreign one is said in words and put away, and nothing else changes."""
        store = self.app.service.store
        if store is None:
            return False
        try:
            kept = store.drafts.kept(DRAFT)
            lineup = lineup_from_dict(kept) if kept is not None else None
        except (RuleError, StoreError, sqlite3.Error) as err:
            log.warning("the line-up kept before the restart is refused: %s", err)
            message = _("The line-up kept before the restart could not be laid out again: {reason}").format(
                reason=err
            )
            Clock.schedule_once(lambda _dt: self.app.toast(message, 6))
            self._put_away()
            return False
        if lineup is None:
            return False
        self._lay_out(lineup.draft, [None if line is None else list(line) for line in lineup.lines])
        return True

    def _lay_out(self, draft: Draft, lines: list[list[Ship] | None]) -> None:
        global _pool
        self.draft, self.picked, self.lines = draft, None, lines
        self.rows_box.clear_widgets()
        self.rows = [LineRow(p, self.tap) for p in range(len(draft.names))]
        for row in self.rows:
            self.rows_box.add_widget(row)
        self._asked += 1
        asked = self._asked
        if any(line is None for line in lines):
            if _pool is None:
                _pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="express-lines")
            future = _pool.submit(
                computer_lines, draft.variant, draft.computers, self.rng.getrandbits(64), draft.points_to_win
            )
            future.add_done_callback(lambda f: Clock.schedule_once(lambda _dt: self._laid_out(asked, f)))
        self._keep()
        self.refresh()

    def _keep(self) -> None:
        """The line-up as it stands into the store's drafts, before anything else is shown."""
        store, draft = self.app.service.store, self.draft
        if store is None or draft is None:
            return
        try:
            store.drafts.keep(DRAFT, Lineup(draft, lines_of(self.lines)).to_dict())
        except (sqlite3.Error, OSError, StoreError) as err:
            log.warning("the line-up could not be kept (%s)", err)
            self.app.toast(_("The line-up cannot be kept over a restart: {reason}").format(reason=err))

    def _put_away(self) -> None:
        store = self.app.service.store
        if store is None:
            return
        try:
            store.drafts.put_away(DRAFT)
        except (sqlite3.Error, OSError, StoreError) as err:
            log.warning("the line-up kept could not be put away (%s)", err)

    def back(self) -> None:
        """Back to the setup: this line-up is given up (the setup keeps its names)."""
        self._asked += 1  # a computer's line still being laid is not wanted (nor kept) any more
        self._put_away()
        self.app.go("express_setup")

    def _shuffled(self) -> list[Ship]:
        ships = list(FLEET)
        self.rng.shuffle(ships)
        return ships

    def _laid_out(self, asked: int, future: concurrent.futures.Future[list[Any]]) -> None:
        if asked != self._asked:
            return  # another setup since
        try:
            found = future.result()
        except Exception as err:  # a line for the computer: never worth a broken screen
            self.app.toast(_("The computer could not lay out its line: {error}").format(error=err))
            found = [None] * len(self.lines)
        self.lines = [
            line if line is not None else list(computed or self._shuffled())
            for line, computed in zip(self.lines, found, strict=True)
        ]
        self._keep()
        self.refresh()

    @property
    def ready(self) -> bool:
        return self.draft is not None and all(line is not None for line in self.lines)

    def refresh(self) -> None:
        draft = self.draft
        if draft is None:
            return
        rules = Rules()
        for player, row in enumerate(self.rows):
            line = self.lines[player]
            level = draft.computers[player]
            row.arrange(line or list(FLEET), animate=False)
            row.show_player(
                draft.names[player],
                0,
                draft.points_to_win,
                seat_name(level) if level else "",
                on_turn=False,
                out=False,
            )
            row.points.text = ""  # no points before the game
            if level is not None and line is None:
                row.seat.text = _("lays out its line …")
            for ship, tile in row.tiles.items():
                ship_rules = rules.ship(draft.variant, ship)
                tile.show(
                    ship_rules.defense,
                    dice_and_rolls(ship_rules.dice, ship_rules.rolls),
                    chosen=self.picked == (player, ship),
                    dim=line is None,
                )
        self.start_button.disabled = not self.ready
        self.start_button.opacity = 1 if self.ready else 0.45

    def tap(self, player: int, ship: Ship) -> None:
        draft = self.draft
        line = self.lines[player] if draft is not None else None
        if draft is None or line is None:
            return
        if draft.computers[player] is not None:
            self.app.toast(_("the computer lays out its own line"), 3)
            return
        picked = self.picked
        if picked is not None and picked[0] == player and picked[1] is not ship:
            a, b = line.index(picked[1]), line.index(ship)
            line[a], line[b] = line[b], line[a]
            self.picked = None
            self._keep()
        else:
            self.picked = None if picked == (player, ship) else (player, ship)
        self.refresh()

    def shuffle(self) -> None:
        """Every person's line at random (the computers keep theirs)."""
        if self.draft is None:
            return
        self.lines = [
            line if level is not None else self._shuffled()
            for line, level in zip(self.lines, self.draft.computers, strict=True)
        ]
        self.picked = None
        self._keep()
        self.refresh()

    def setup(self) -> Setup:
        draft = self.draft
        assert draft is not None and self.ready
        return Setup.create(
            draft.names,
            variant=draft.variant,
            points_to_win=draft.points_to_win,
            lines=[tuple(line or ()) for line in self.lines],
            computers=draft.computers,
            seed=self.seed,
        )

    def start(self) -> None:
        """The lines as laid out, asked first over a game in play (the shell's `start_game`)."""
        if not self.ready:
            return
        try:
            setup = self.setup()
        except RuleError as err:
            self.app.toast(str(err))
            return
        self.app.start_game(lambda: self._start(setup))

    def _start(self, setup: Setup) -> None:
        try:
            self.app.service.new_game(EXPRESS, setup)
        except (RuleError, StoreError) as err:
            self.app.toast(str(err))
