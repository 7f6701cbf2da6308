"""The Express table: every player's line face up, the player on turn highlighted, the dice.

A turn by touch: tap one of your ships (it slides to the front), tap a legal target (the others
are dimmed; a tapped one says why not, in the rules' words: `Match.refusal`), then Roll. The
Admiral's Carrier rolls first and its target is tapped after. Nothing is decided here: every
command goes to the service, and what it did comes back as an update, which is shown beat by
beat (`kiosk.express.pace.script`): the dice tumble and land, the hits move aside, the rest are
rolled again, SUNK! with the buzzer, the points, the next player. The lines, points and turn on
screen are those of the beat being shown (`shown`), not the game's latest state: a ship is not
gone before the dice that sink it have landed.

The coach toggle puts the exact chance to sink on every legal attacker and target; real dice
make Roll ask for the faces (`RealDicePanel`), roll by roll as the rules throw them, and queue
them before the attack (`QueueDice`). Computer seats play by themselves through the service
(`kiosk.express.seats`); the screen only shows them, at the same pace.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from kiosk.express.match import (
    Attack,
    AttackerError,
    Declare,
    Match,
    Phase,
    QueueDice,
    Rolled,
    Sunk,
    Target,
    TurnPassed,
    Won,
)
from kiosk.express.pace import Beat, Pace, Step, script
from kiosk.express.rolls import last_attack, typed
from kiosk.express.rules import Face, Ship
from kiosk.express.seats import ComputerSeats
from kiosk.express.wire import EXPRESS
from kiosk.game import RuleError
from kiosk.i18n import _
from kiosk.service import MatchUpdate, Source
from ui.touch import theme
from ui.touch.announcement import Announcement
from ui.touch.controls import BigButton, Caption, ChoiceButton, Prompt
from ui.touch.express import coach, typed_dice
from ui.touch.express.dice import DiceTray
from ui.touch.express.lines import LineRow, beyond_the_row
from ui.touch.express.look import dice_and_rolls, level_name, percent, seat_name
from ui.touch.express.playback import Playback
from ui.touch.express.real_dice import RealDicePanel
from ui.touch.express.show import caption, caption_of, counting, defense_of, still
from ui.touch.screens.base import KioskApp, KioskScreen


@dataclass
class Entry:
    """Real dice being typed in for one command, roll by roll."""

    command: Attack | Declare
    entered: list[Face] = field(default_factory=list)
    rolls: list[Rolled] = field(default_factory=list)  # the whole rolls typed in so far
    wanted: int = 0  # dice of the roll being typed in

    @property
    def current(self) -> int:
        """Faces typed in for the roll being typed in."""
        return len(self.entered) - sum(len(r.faces) for r in self.rolls)


class ExpressScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        layer = FloatLayout()
        page = BoxLayout(padding=s(8), spacing=s(8))
        table = BoxLayout(orientation="vertical", spacing=s(8))
        self.rows_box = BoxLayout(orientation="vertical", spacing=s(6))
        self.rows: list[LineRow] = []
        table.add_widget(self.rows_box)
        # The dice lie along the bottom, under the lines they are rolled at.
        self.tray = DiceTray(size_hint_y=None, height=s(96))
        table.add_widget(self.tray)
        page.add_widget(table)
        side = BoxLayout(orientation="vertical", size_hint_x=None, width=s(196), spacing=s(6))
        self.prompt = Prompt(font_units=21)
        side.add_widget(self.prompt)
        self.attack_caption = Caption(font_units=16, colour=theme.TEXT_DIM, size_hint_y=None, halign="center")
        side.add_widget(self.attack_caption)
        side.add_widget(BoxLayout())
        self.move_slot = BoxLayout(size_hint_y=None, height=0)
        self.move_choice = ChoiceButton(
            [False, True],
            False,
            label=lambda on: _("Carrier: move to the front") if on else _("Carrier: attack from here"),
            on_change=self._move_changed,
            font_units=17,
        )
        side.add_widget(self.move_slot)
        self.roll_button = BigButton(_("Roll"), self.roll, colour=theme.GO, font_units=26, height=s(64))
        side.add_widget(self.roll_button)
        toggles = BoxLayout(spacing=s(6), size_hint_y=None, height=s(48))
        self.coach_button = BigButton(
            _("Coach"), self._toggle_coach, colour=theme.PANEL_LIGHT, font_units=17, height=s(48)
        )
        self.real_button = BigButton(
            _("Real dice"), self._toggle_real, colour=theme.PANEL_LIGHT, font_units=17, height=s(48)
        )
        toggles.add_widget(self.coach_button)
        toggles.add_widget(self.real_button)
        side.add_widget(toggles)
        side.add_widget(
            BigButton(_("Home"), lambda: app.go("home"), colour=theme.PANEL, font_units=17, height=s(44))
        )
        page.add_widget(side)
        layer.add_widget(page)
        self.real_panel = RealDicePanel(
            self._typed_face, self._undo_face, self._cancel_entry, size_hint=(None, None)
        )
        self.announcement = Announcement(size_hint=(None, None))
        layer.add_widget(self.announcement)
        self.rows_box.bind(pos=self._place_overlays, size=self._place_overlays)
        self.add_widget(layer)
        self.layer = layer
        self.rows_box.bind(height=self._row_heights)
        self.playback = Playback(self._shown_all)
        self.pace_override: Pace | None = None  # the screenshots hold an attack mid-roll
        self.coach_on = False
        self.real_on = typed_dice.real_on(app.service.store)  # the table's own dice, kept
        self.chances: coach.Chances | None = None
        self._coach_key: tuple[int | None, int] | None = None
        self._result_event: Any = None
        self.reset()

    # -- the state --

    def reset(self) -> None:
        """Forget the game shown (a new game, or the same one rebuilt from the store)."""
        self.playback.clear()
        self.announcement.clear()
        self.match: Match | None = None
        self.shown: dict[str, Any] = {}
        self.after: dict[str, Any] = {}
        self.attacker: Ship | None = None
        self.move = False
        self.target: Target | None = None
        self.showing: Rolled | None = None  # the roll whose attack is on the table
        self.entry: Entry | None = None
        self.chances, self._coach_key = None, None
        if self.real_panel.parent is not None:
            self.layer.remove_widget(self.real_panel)
        if self._result_event is not None:
            self._result_event.cancel()
            self._result_event = None

    @property
    def pace(self) -> Pace:
        return self.pace_override or self.app.kiosk.participant(ComputerSeats).pace

    def toast_anchor(self) -> Widget | None:
        return self.tray  # over the dice: the lines stay readable while it shows

    def _place_overlays(self, *_args: object) -> None:
        box = self.rows_box
        self.announcement.size = (box.width, box.height * 0.86)
        self.announcement.pos = (box.x, box.y + box.height * 0.07)
        # Over the rows and the frame of the row on turn, which reaches beyond its row: its
        # sides showed as two thin lines beside the panel.
        out = beyond_the_row() + theme.sizes()(1)
        self.real_panel.size = (box.width + 2 * out, box.height + 2 * out)
        self.real_panel.pos = (box.x - out, box.y - out)

    def _take(self, match: Match) -> None:
        """Start showing `match` as it stands: its lines, and the dice of its last attack as
        they fell (after a restart: the same faces, a Carrier still waiting for its target)."""
        self.reset()
        self.match = match
        view = match.public_view()
        self.after, self.shown = view, copy.deepcopy(view)
        self.rows_box.clear_widgets()
        self.rows = [LineRow(p, self.tap) for p in range(len(match.players))]
        # Two players' rows need not be half the screen high (tiles stay tile-shaped): what
        # is left over is shared above and below the lines.
        self.rows_box.add_widget(BoxLayout())
        for row in self.rows:
            row.size_hint_y = None
            self.rows_box.add_widget(row)
        self.rows_box.add_widget(BoxLayout())
        self._row_heights()
        self._lay_still(match)

    def _lay_still(self, match: Match) -> None:
        """The dice of the last attack as they fell (rebuilt from the game: the same faces)."""
        lying = still(last_attack(match), match.setup)
        self.tray.show_still(lying.kept, lying.faces, lying.counting)
        if lying.last is not None:
            self.showing = lying.last
            self.attack_caption.text = caption_of(lying.last, match.setup)
            self.tray.set_count(lying.last.total, defense_of(lying.last, match.setup))
        else:
            self.tray.clear()
            self.attack_caption.text = ""

    def _row_heights(self, *_args: object) -> None:
        s = theme.sizes()
        spacing = self.rows_box.spacing * (len(self.rows) + 1)
        height = min(s(150), (self.rows_box.height - spacing) / max(len(self.rows), 1))
        for row in self.rows:
            row.height = height

    def refresh(self) -> None:
        match = EXPRESS.in_play(self.app.service)
        if match is None:
            return
        took = match is not self.match
        if took:
            self._take(match)
        elif not self.playback.busy and self.after.get("version") != match.version:
            self._lay_still(match)  # played on while another screen was shown
        if not self.playback.busy:
            self.after = match.public_view()
            self.shown = copy.deepcopy(self.after)
        self.draw()
        if not self.playback.busy:
            self._ask_coach()
            self._maybe_result()
        if took:
            self._recall_entry()

    # -- drawing --

    def human_turn(self) -> bool:
        """A person is up and may tap: the game goes on, no dice roll, not a computer's seat."""
        match = self.match
        return (
            match is not None
            and match.phase is not Phase.OVER
            and not self.playback.busy
            and match.setup.computer(match.turn) is None
        )

    def preview_line(self, player: int) -> list[Ship]:
        """The line as it will be once the chosen attacker has moved (it slides there now)."""
        line = [Ship(name) for name in self.shown["lines"][player]]
        if not self.human_turn() or player != self.shown["turn"] or self.attacker not in line:
            return line
        assert self.match is not None and self.attacker is not None
        if self.match.setup.ship(self.attacker).stays and not self.move:
            return line
        return [self.attacker, *(ship for ship in line if ship is not self.attacker)]

    def draw(self, animate: bool = True) -> None:
        match = self.match
        if match is None or not self.shown:
            return
        setup, shown = match.setup, self.shown
        turn, over = shown["turn"], shown["phase"] == Phase.OVER.value
        for player, row in enumerate(self.rows):
            line = self.preview_line(player)
            lost = [Ship(name) for name in shown["sunk"][player]]
            row.arrange(line + lost, animate=animate)
            level = setup.computer(player)
            row.show_player(
                setup.players[player],
                shown["points"][player],
                setup.points_to_win,
                seat_name(level) if level else "",
                on_turn=player == turn and not over,
                out=not line,
            )
            for ship, tile in row.tiles.items():
                self._show_tile(tile, player, ship, ship in lost)
        self._show_controls()

    def _legal(self) -> set[Target] | None:
        """The targets a tap may choose now (None: no target is being chosen)."""
        match = self.match
        if match is None or not self.human_turn():
            return None
        if match.phase is Phase.TARGET and match.pending is not None:
            return set(match.targets(match.pending.ship))
        if self.attacker is not None and not match.setup.ship(self.attacker).roll_first:
            return set(match.targets(self.attacker))
        return None

    def _show_tile(self, tile: Widget, player: int, ship: Ship, wreck: bool) -> None:
        match = self.match
        assert match is not None
        rules = match.setup.ship(ship)
        note = dice_and_rolls(rules.dice, rules.rolls)
        target = Target(player, ship)
        turn = self.shown["turn"]
        legal = self._legal()
        chance = self._chance(player, ship) if self.coach_on and self.human_turn() else None
        pending = match.pending if match.phase is Phase.TARGET else None
        chosen = (
            player == turn
            and not wreck
            and (
                ship is self.attacker
                or (pending is not None and ship is pending.ship)
                or (
                    self.playback.busy
                    and self.showing is not None
                    and self.showing.side == player
                    and self.showing.ship is ship
                )
            )
        )
        aimed = target == self.target or (
            self.playback.busy and self.showing is not None and self.showing.target == target
        )
        dim = legal is not None and player != turn and target not in legal
        tile.show(
            rules.defense,
            percent(chance) if chance is not None else note,
            chosen=chosen,
            target=aimed and not wreck,
            dim=dim,
            wreck=wreck,
            emphasis=chance is not None,
        )

    def _chance(self, player: int, ship: Ship) -> float | None:
        """What the coach says on this tile now (None: nothing)."""
        chances, match = self.chances, self.match
        if chances is None or match is None or chances.version != match.version:
            return None
        target = Target(player, ship)
        if player == match.turn:
            return chances.attackers.get(ship) if match.phase is Phase.ATTACK else None
        if match.phase is Phase.TARGET:
            return chances.declared.get(target)
        if self.attacker is not None:
            return chances.pairs.get((self.attacker, target))
        return chances.best.get(target)

    def _show_controls(self) -> None:
        match = self.match
        assert match is not None
        setup = match.setup
        name = setup.players[match.turn]
        command = self.command()
        ready = command is not None and self.human_turn() and self.entry is None
        self.roll_button.disabled = not ready
        self.roll_button.opacity = 1 if ready else 0.45
        dice = self._roll_dice(command)
        self.roll_button.text = _("Roll {dice} dice").format(dice=dice) if dice else _("Roll")
        self.coach_button.set_colour(theme.ACCENT if self.coach_on else theme.PANEL_LIGHT)
        self.real_button.set_colour(theme.ACCENT if self.real_on else theme.PANEL_LIGHT)
        carrier_choice = (
            self.human_turn()
            and match.phase is Phase.ATTACK
            and self.attacker is not None
            and setup.ship(self.attacker).stays
            and match.line(match.turn)[0] is not self.attacker
        )
        self._fill_move_slot(carrier_choice)
        level = setup.computer(match.turn)
        if match.phase is Phase.OVER and match.winner is not None and not self.playback.busy:
            self.prompt.text = _("{name} wins!").format(name=setup.players[match.winner])
        elif self.playback.busy:
            self.prompt.text = _("{name} attacks …").format(name=setup.players[self.shown["turn"]])
        elif level is not None:
            self.prompt.text = _("{name} ({level}) is thinking …").format(name=name, level=level_name(level))
        elif self.entry is not None:
            # The real dice's panel asks for the faces: "roll!" beside it read as a tap of Roll.
            self.prompt.text = _("{name}: roll the real dice, then tap what each one shows").format(name=name)
        elif match.phase is Phase.TARGET:
            self.prompt.text = _("{name}: tap the ship your Carrier attacks").format(name=name)
        elif self.attacker is None and self._sank_and_goes_again():
            self.prompt.text = _("{name} sank it and attacks again: tap one of your ships").format(name=name)
        elif self.attacker is None:
            self.prompt.text = _("{name}: tap one of your ships to attack with").format(name=name)
        elif setup.ship(self.attacker).roll_first:
            self.prompt.text = _("{name}: the Carrier rolls first, then you pick its target").format(
                name=name
            )
        elif self.target is None:
            self.prompt.text = _("{name}: tap the ship to attack").format(name=name)
        else:
            self.prompt.text = _("{name}: roll!").format(name=name)
        if ready and isinstance(command, Attack):  # the attack about to be rolled
            self.attack_caption.text = caption(setup, match.turn, command.ship, command.target)

    def _sank_and_goes_again(self) -> bool:
        """The last attack shown sank its target and its attacker is up again."""
        last, match = self.showing, self.match
        if last is None or last.target is None or match is None or last.side != match.turn:
            return False
        return last.target.ship.value not in self.shown["lines"][last.target.side]

    def _fill_move_slot(self, show: bool) -> None:
        s = theme.sizes()
        if show and self.move_choice.parent is None:
            self.move_slot.add_widget(self.move_choice)
            self.move_slot.height = s.touch
        elif not show and self.move_choice.parent is not None:
            self.move_slot.remove_widget(self.move_choice)
            self.move_slot.height = 0

    def _roll_dice(self, command: Attack | Declare | None) -> int:
        match = self.match
        if match is None or command is None or isinstance(command, Declare):
            return 0
        return match.setup.ship(command.ship).dice

    # -- taps --

    def tap(self, player: int, ship: Ship) -> None:
        """A ship's tile was tapped: choose the attacker or its target, or say why not."""
        match = self.match
        if match is None or match.phase is Phase.OVER:
            return
        if self.playback.busy:
            self.app.toast(_("wait until the dice have landed"), 2)
            return
        if self.entry is not None:
            return
        turn = match.turn
        if match.setup.computer(turn) is not None:
            self.app.toast(
                _("{name} is the computer: it plays by itself").format(name=match.players[turn]), 3
            )
            return
        if match.phase is Phase.TARGET:
            if player == turn:
                self.app.toast(_("your Carrier has rolled: tap the ship it attacks"), 3)
            else:
                self._aim(Declare(Target(player, ship), side=turn))
            return
        if player == turn:
            refusal = match.refusal(Attack(ship, side=turn))
            if isinstance(refusal, AttackerError):
                self.app.toast(str(refusal), 3)
                return
            self.attacker, self.target, self.move = ship, None, False
            self.move_choice.value = False
            self.move_choice.text = self.move_choice.label(False)
            self.draw()
            self._ask_coach()
            return
        if self.attacker is None:
            self.app.toast(_("first tap one of your ships: it attacks"), 3)
            return
        self._aim(Attack(self.attacker, Target(player, ship), side=turn))

    def _aim(self, command: Attack | Declare) -> None:
        assert self.match is not None
        refusal = self.match.refusal(command)
        if refusal is not None:
            self.app.toast(str(refusal), 4)
            return
        self.target = command.target
        self.draw()

    def _move_changed(self, on: bool) -> None:
        if hasattr(self, "playback"):
            self.move = on
            self.draw()

    def command(self) -> Attack | Declare | None:
        """The command Roll sends now, or None while a choice is missing."""
        match = self.match
        if match is None:
            return None
        turn = match.turn
        if match.phase is Phase.TARGET:
            return None if self.target is None else Declare(self.target, side=turn)
        if match.phase is not Phase.ATTACK or self.attacker is None:
            return None
        if match.setup.ship(self.attacker).roll_first:
            return Attack(self.attacker, move=self.move, side=turn)
        if self.target is None:
            return None
        return Attack(self.attacker, self.target, side=turn)

    def roll(self) -> None:
        command = self.command()
        if command is None or not self.human_turn() or self.entry is not None:
            return
        if self.real_on:
            self._start_entry(command)
        else:
            self._send(command)

    def _send(self, *commands: Attack | Declare | QueueDice) -> bool:
        """Submit in order; a refusal is shown and the choice kept."""
        kept = (self.attacker, self.target, self.move)
        self.attacker, self.target, self.move = None, None, False
        try:
            for command in commands:
                self.app.service.submit(command, Source.TOUCH)
        except RuleError as err:
            self.attacker, self.target, self.move = kept
            self.app.toast(str(err))
            self.draw()
            return False
        return True

    # -- real dice --

    def _toggle_real(self) -> None:
        if self.entry is not None:
            # Turned off halfway, the panel stayed open under a toggle that said off, and the
            # faces went on counting: the faces typed are the table's until sent or cancelled.
            self.app.toast(_("Real dice stay on while their faces are typed in: finish them, or Cancel"), 4)
            return
        self.use_real_dice(not self.real_on)
        self.draw()

    def use_real_dice(self, on: bool) -> None:
        """Real dice on or off, kept over a restart (the table keeps its dice in hand)."""
        self.real_on = on
        typed_dice.keep_real_on(self.app.service.store, on)

    def _start_entry(self, command: Attack | Declare) -> None:
        match = self.match
        assert match is not None
        try:
            _rolls, wanted = typed(match, command, ())
        except RuleError as err:
            self.app.toast(str(err))
            return
        if wanted is None:  # the Carrier's first roll, counted now, decides it
            self._send(command)
            return
        self.entry = Entry(command, wanted=wanted)
        self._keep_entry()
        self._open_entry()

    def _open_entry(self) -> None:
        assert self.entry is not None
        if isinstance(self.entry.command, Attack):
            self.tray.clear()  # a new attack: the last one's dice are picked up
        if self.real_panel.parent is None:
            self.layer.add_widget(self.real_panel)
        self._ask_faces()
        self.draw()

    def _keep_entry(self) -> None:
        """Every face tapped is kept before the next is asked for (a power cut loses none)."""
        entry, match, game = self.entry, self.match, self.app.service.game
        typed = None
        if entry is not None and match is not None and game is not None:
            typed = typed_dice.Typed(game, match.version, entry.command, tuple(entry.entered))
        typed_dice.keep(self.app.service.store, typed)

    def _recall_entry(self) -> None:
        """A kiosk started again halfway through typing real dice in asks for the next face
        where it stopped: the attack chosen, the rolls typed in, the faces of this roll."""
        match = self.match
        if match is None or self.entry is not None or not self.human_turn():
            return
        kept = typed_dice.recall(self.app.service.store, self.app.service.game, match.version)
        if kept is None:
            return
        try:
            _rolls, wanted = typed(match, kept.command, ())
        except RuleError:
            return
        if wanted is None:
            return
        entry = Entry(kept.command, wanted=wanted)
        for face in kept.faces:
            entry.entered.append(face)
            if entry.current < entry.wanted:
                continue
            try:
                rolls, wanted = typed(match, kept.command, entry.entered)
            except RuleError:
                return
            if wanted is None:
                return  # these faces decide the attack: it is the players' to send, not ours
            entry.rolls, entry.wanted = rolls, wanted
        command = kept.command
        if isinstance(command, Attack):
            self.attacker, self.target, self.move = command.ship, command.target, command.move
            self.attack_caption.text = caption(match.setup, match.turn, command.ship, command.target)
        else:
            self.target = command.target
        self.entry = entry
        self.use_real_dice(True)
        self._open_entry()

    def _ask_faces(self) -> None:
        entry, match = self.entry, self.match
        assert entry is not None and match is not None
        note = ""
        if entry.rolls:
            last = entry.rolls[-1]
            note = _("{hits} of {defense} hits so far: roll the other {dice} dice").format(
                hits=last.total, defense=defense_of(last, match.setup), dice=entry.wanted
            )
        done = len(entry.entered) - entry.current
        self.real_panel.ask(entry.wanted, len(entry.rolls) + 1, entry.entered[done:], note)

    def _typed_face(self, face: Face) -> None:
        entry, match = self.entry, self.match
        if entry is None or match is None:
            return
        entry.entered.append(face)
        if entry.current < entry.wanted:
            self._keep_entry()
            self._ask_faces()
            return
        try:
            rolls, wanted = typed(match, entry.command, entry.entered)
        except RuleError as err:
            self.app.toast(str(err))
            self._cancel_entry()
            return
        if wanted is not None:
            entry.rolls, entry.wanted = rolls, wanted
            self._keep_entry()
            self._ask_faces()
            return
        self._close_entry(forget=False)
        self._send(QueueDice(tuple(entry.entered)), entry.command)
        # Forgotten once sent: a power cut in between finds the game moved on (another
        # version), and what was kept no longer counts.
        typed_dice.keep(self.app.service.store, None)

    def _undo_face(self) -> None:
        entry = self.entry
        if entry is None:
            return
        if not entry.entered:
            self.app.toast(_("No die typed in yet: nothing to undo"), 3)
            return
        if entry.current == 0 and entry.rolls:
            entry.wanted = len(entry.rolls.pop().faces)
        entry.entered.pop()
        self._keep_entry()
        self._ask_faces()

    def _cancel_entry(self) -> None:
        self._close_entry()
        self.draw()

    def _close_entry(self, forget: bool = True) -> None:
        self.entry = None
        if forget:
            typed_dice.keep(self.app.service.store, None)
        if self.real_panel.parent is not None:
            self.layer.remove_widget(self.real_panel)

    # -- the coach --

    def _toggle_coach(self) -> None:
        self.coach_on = not self.coach_on
        self._ask_coach()
        self.draw()

    def _ask_coach(self) -> None:
        match = self.match
        if not self.coach_on or match is None or not self.human_turn():
            return
        key = (self.app.service.game, match.version)
        if key == self._coach_key:
            return
        self._coach_key = key
        self.chances = None
        coach.ask(
            match.public_view(),
            lambda found: Clock.schedule_once(lambda _dt: self._coach_answered(key, found)),
        )

    def _coach_answered(self, key: tuple[int | None, int], found: coach.Chances | None) -> None:
        if key != self._coach_key:
            return  # the game moved on meanwhile
        if found is None:
            self.app.toast(_("The coach has no advice now"))
            return
        self.chances = found
        self.draw()

    # -- what the service says --

    def on_update(self, update: MatchUpdate) -> None:
        match = EXPRESS.in_play(self.app.service)
        if match is None or match is not self.match:
            self.refresh()
            return
        after = match.public_view()
        for beat in script(update.events, self.pace):
            self.playback.add(functools.partial(self._play, beat, after), beat.seconds)
        self.playback.add(functools.partial(self._settle, after), 0)
        self.after = after
        self.playback.start()

    def _play(self, beat: Beat, after: dict[str, Any]) -> None:
        match = self.match
        if match is None:
            return
        setup, event, shown = match.setup, beat.event, self.shown
        if isinstance(event, Rolled):
            marks = counting(event, setup)
            if beat.step is Step.MOVE:
                self.showing = event
                shown["turn"] = event.side
                shown["lines"][event.side] = list(after["lines"][event.side])
                self.tray.clear()
                self.attack_caption.text = caption_of(event, setup)
                self.draw()
            elif beat.step is Step.TUMBLE:
                self.tray.tumble(len(event.faces))
            elif beat.step is Step.LAND:
                self.tray.land(event.faces, marks)
            elif beat.step is Step.ASIDE:
                if event.recount:  # the Carrier's target is declared: its dice count now
                    self.showing = event
                    self.attack_caption.text = caption_of(event, setup)
                    self.tray.land(event.faces, marks)
                    self.draw()
                self.tray.set_aside(marks, beat.seconds)
                self.tray.set_count(event.total, defense_of(event, setup))
        elif isinstance(event, Sunk):
            shown["lines"][event.side] = [n for n in shown["lines"][event.side] if n != event.ship.value]
            shown["sunk"][event.side] = [*shown["sunk"][event.side], event.ship.value]
            shown["points"] = list(event.points)
            self.announcement.announce(
                _("SUNK!"),
                _("{name}'s {ship}").format(name=setup.players[event.side], ship=event.ship.label),
                "sunk",
            )
            self.draw()
        elif isinstance(event, Won):
            self.announcement.announce(
                _("SUNK!"), _("{name} wins!").format(name=setup.players[event.side]), "win"
            )
        elif isinstance(event, TurnPassed) and beat.seconds > 0 and self.showing is not None:
            # An attack that sank nothing: said once, as the dice come to rest.
            self.announcement.announce(
                _("MISS"),
                _("{ship} holds").format(ship=self.showing.target.ship.label if self.showing.target else ""),
                "miss",
            )
            shown["turn"] = event.side
            self.draw()
        elif isinstance(event, TurnPassed):
            shown["turn"] = event.side
            self.draw()

    def _settle(self, after: dict[str, Any]) -> None:
        self.shown = copy.deepcopy(after)

    def _shown_all(self) -> None:
        """The last beat has been shown: the table is the game again, and may be played."""
        match = self.match
        if match is None:
            return
        self.shown = copy.deepcopy(match.public_view())
        self.draw()
        self._ask_coach()
        self._maybe_result()

    def _maybe_result(self) -> None:
        match = self.match
        if match is None or match.phase is not Phase.OVER or self._result_event is not None:
            return
        self._result_event = Clock.schedule_once(self._show_result, getattr(self.app, "result_delay", 3.0))

    def _show_result(self, *_args: object) -> None:
        self._result_event = None
        if self.manager is not None and self.manager.current == self.name:
            self.app.go("express_result")
