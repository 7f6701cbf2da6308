"""Classic solo on the touchscreen: a team against the computer.

The big grid is the team's radar (tap a square to aim, tap it again, or Fire, to shoot); beside
it the team's own fleet, where the computer's shots land one by one at the pace of
`solo.shot_seconds`. Before the first shot that concerns it the fleet may be re-placed: pick a
ship, tap the square for its top or left end, Rotate; Done keeps it (`Fleet.moved`/`rotated`
say which ship breaks which rule).

Hidden information: the team's own fleet is drawn (this screen is the team's, in solo); the
computer's never is: the radar comes from `radar_of` (shots and sunk ships only).

A re-placing survives a kill -9: the fleet as it is being moved, and the ship picked, are kept
in the store's drafts at every change (`kiosk.placing_drafts`), and the kiosk started again comes
back to the re-placing as it was (the screen shows the team's own fleet throughout a solo game:
there is nobody to hand over to). It ends at Done, Cancel, the first shot, or another game.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from kiosk.classic.fleet import CLASSES, Fleet, PlacementError, ShipClass, parse_fleet
from kiosk.classic.grid import Square
from kiosk.classic.match import Fire, Match, Mode, Place, ShotFired
from kiosk.classic.wire import CLASSIC
from kiosk.game import RuleError
from kiosk.i18n import _
from kiosk.placing_drafts import DraftRefused, PlacingDrafts, not_kept, refused
from kiosk.service import MatchUpdate
from ui.touch import theme
from ui.touch.announcement import Announcement
from ui.touch.classic.grid import GridView
from ui.touch.classic.marks import fleet_of, radar_of
from ui.touch.classic.words import level_name, words_for
from ui.touch.controls import BigButton, Caption
from ui.touch.screens.base import KioskApp, KioskScreen

TEAM = 0  # the team is player 0; the computer player 1


def kept_replacing(fleet: Fleet, chosen: ShipClass) -> dict[str, object]:
    """A re-placing as the store keeps it over a restart."""
    return {"fleet": fleet.code, "chosen": chosen.value}


def replacing_from_kept(kept: Mapping[str, object]) -> tuple[Fleet, ShipClass]:
    """The re-placing `kept_replacing` wrote; RuleError in words that name no square."""
    code, chosen = kept.get("fleet"), kept.get("chosen")
    if not isinstance(code, str) or not isinstance(chosen, str):
        raise RuleError(_("its ships are missing"))
    try:
        fleet = parse_fleet(code)
    except PlacementError:
        raise RuleError(_("its ships are not this game's fleet")) from None
    kind = next((kind for kind in CLASSES if kind.value == chosen), None)
    if kind is None:
        raise RuleError(_("the ship chosen next is not one of this game's"))
    return fleet, kind


class ClassicScreen(KioskScreen):
    """What the classic play screens share: the match, the last shots, the announcement."""

    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        self.selected: Square | None = None
        self.last: dict[int, Square] = {}  # each side's last shot
        self.announcement = Announcement(size_hint=(None, None))

    @property
    def match(self) -> Match | None:
        return CLASSIC.in_play(self.app.service)

    def names(self, match: Match) -> list[str]:
        return [self.player_name(match, side) for side in (0, 1)]

    @staticmethod
    def player_name(match: Match, side: int) -> str:
        if side == match.setup.computer and len(match.setup.players) <= side:
            return _("Computer")
        return match.setup.name(side)

    def reset(self) -> None:
        self.selected = None
        self.last = {}
        self.announcement.clear()

    def on_update(self, update: MatchUpdate) -> None:
        match = self.match
        if match is not None:
            for event in update.events:
                if isinstance(event, ShotFired):
                    self.last[event.side] = event.square
            words = words_for(update.events, self.names(match))
            if words is not None:
                word, line, kind, shooter = words
                self.place_announcement(shooter)
                self.announcement.announce(word, line, kind)
        self.refresh()

    def place_announcement(self, shooter: int) -> None:
        """Over the grid the shot landed on (subclasses say which widget that is)."""

    def over(self, grid: GridView) -> None:
        self.announcement.size = (grid.width, grid.height * 0.6)
        self.announcement.pos = (grid.x, grid.y + grid.height * 0.2)

    def aim(self, side: int, square: Square) -> None:
        """A tap on `side`'s radar: the first tap aims, a second on the same square fires."""
        match = self.match
        if match is None or match.turn != side or match.winner is not None:
            return
        if square in match.radar(side).shots:
            self.app.toast(
                _("{square} has already been fired at: choose another square").format(square=square.code), 3
            )
            return
        if self.selected == square:
            self.fire(side)
            return
        self.selected = square
        self.refresh()

    def fire(self, side: int) -> None:
        square = self.selected
        if square is None:
            return
        self.selected = None
        self.submit(Fire(side, square))

    def submit(self, command: object) -> bool:
        try:
            self.app.service.submit(command)
        except RuleError as err:
            self.app.toast(str(err))
            self.refresh()
            return False
        return True


class ClassicSoloScreen(ClassicScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        self.draft: Fleet | None = None  # re-placing: the fleet as it is being moved
        self.chosen: ShipClass = CLASSES[0]
        self.kept = PlacingDrafts(app.service, "classic")
        self._looked = False  # the kept re-placing looked for, for this game
        layer = FloatLayout()
        page = BoxLayout(padding=s(8), spacing=s(12))
        self.big = GridView(size_hint_x=None)
        page.bind(height=lambda _w, h: setattr(self.big, "width", h - 2 * s(8)))
        self.big.bind(on_square=self._tapped)
        page.add_widget(self.big)
        self.side = BoxLayout(orientation="vertical", spacing=s(6))
        page.add_widget(self.side)
        # Playing: who plays, whose turn, the team's own fleet, the tally, the buttons.
        self.play_side = BoxLayout(orientation="vertical", spacing=s(6))
        # Two lines where one is too short ("Sharks tietokonetta vastaan (normaali)"), not "…".
        self.title = Caption(font_units=18, colour=theme.TEXT_DIM, size_hint_y=None, max_lines=2)
        self.prompt = Caption(font_units=24, bold=True, colour=theme.WARN, size_hint_y=None)
        self.small = GridView()
        self.status = Caption(font_units=18, size_hint_y=None)
        self.fire_button = BigButton("", lambda: self.fire(TEAM), colour=theme.GO, font_units=24)
        self.actions = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        self.replace_button = BigButton(
            _("Re-place fleet"), self._start_editing, colour=theme.PANEL_LIGHT, font_units=20
        )
        self.home_button = BigButton(
            _("Home"), lambda: app.go("home"), colour=theme.PANEL_LIGHT, font_units=20
        )
        for widget in (self.title, self.prompt, self.small, self.status):
            self.play_side.add_widget(widget)
        self.fire_slot = BoxLayout(size_hint_y=None, height=s.touch)
        self.play_side.add_widget(self.fire_slot)
        self.play_side.add_widget(self.actions)
        # Re-placing: the ships to pick, Rotate, Cancel, Done.
        self.edit_side = BoxLayout(orientation="vertical", spacing=s(8))
        self.edit_side.add_widget(
            Caption(_("Re-place your fleet"), font_units=26, bold=True, size_hint_y=None)
        )
        self.edit_side.add_widget(
            Caption(
                _("Pick a ship, tap the square for its top or left end. Rotate turns it."),
                font_units=17,
                colour=theme.TEXT_DIM,
                size_hint_y=None,
            )
        )
        self.ship_buttons: dict[ShipClass, BigButton] = {}
        ships = GridLayout(cols=2, spacing=s(6), size_hint_y=None)
        ships.bind(minimum_height=ships.setter("height"))
        for kind in CLASSES:
            button = BigButton(
                f"{kind.label} {kind.length}",
                functools.partial(self._choose, kind),
                colour=theme.PANEL_LIGHT,
                font_units=19,
            )
            self.ship_buttons[kind] = button
            ships.add_widget(button)
        self.edit_side.add_widget(ships)
        self.edit_side.add_widget(BoxLayout())
        row = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        row.add_widget(BigButton(_("Rotate"), self._rotate, colour=theme.PANEL_LIGHT))
        row.add_widget(BigButton(_("Cancel"), self._stop_editing, colour=theme.PANEL_LIGHT))
        row.add_widget(BigButton(_("Done"), self._done, colour=theme.GO))
        self.edit_side.add_widget(row)
        layer.add_widget(page)
        layer.add_widget(self.announcement)
        self.add_widget(layer)
        self.big.bind(pos=lambda *_a: self.over(self.big), size=lambda *_a: self.over(self.big))

    # -- the two views --

    def reset(self) -> None:
        super().reset()
        self.draft = None
        self._looked = False
        if self.match is None:
            self.kept.put_away()  # abandoned, or another game's start: the re-placing ends

    def toast_anchor(self) -> Widget | None:
        return self.big

    def place_announcement(self, shooter: int) -> None:
        self.over(self.big)  # the big grid: readable from across the bar, whoever shot

    def refresh(self) -> None:
        match = self.match
        if match is None:
            return
        if not self._looked:
            self._looked = True
            self._bring_back(match)
        if self.draft is not None and not match.may_place(TEAM):
            self.draft = None  # the shooting began (or the game is over) meanwhile
            self.kept.put_away()
        wanted = self.edit_side if self.draft is not None else self.play_side
        if wanted.parent is None:
            self.side.clear_widgets()
            self.side.add_widget(wanted)
        if self.draft is not None:
            self._show_draft()
        else:
            self._show_play(match)

    def _show_play(self, match: Match) -> None:
        names = self.names(match)
        self.title.text = _("{team} against the computer ({level})").format(
            team=names[TEAM], level=level_name(match.setup.level)
        )
        marks, sunk = radar_of(match, TEAM)
        mine = match.turn == TEAM and match.winner is None
        if self.selected is not None and (not mine or self.selected in match.radar(TEAM).shots):
            self.selected = None
        self.big.interactive = mine
        self.big.show(marks, sunk, last=self.last.get(TEAM), selected=self.selected)
        own_marks, ships, own_sunk = fleet_of(match, TEAM)
        self.small.show(own_marks, own_sunk, ships=ships, last=self.last.get(1))
        if match.winner is not None:
            self.prompt.text = _("Victory for {team}!").format(team=names[match.winner])
        elif match.setup.mode is Mode.DAILY:
            self.prompt.text = _("Sink the fleet: tap a square to aim, tap it again to fire")
        elif mine:
            self.prompt.text = (
                _("Tap {square} again to fire").format(square=self.selected.code)
                if self.selected is not None
                else _("Your turn: tap a square to aim, tap it again to fire")
            )
        else:
            self.prompt.text = _("The computer is aiming …")
        sunk_names = ", ".join(ship.kind.label for ship in match.radar(TEAM).sunk) or "–"
        self.status.text = _("shots: {shots} · hits: {hits} · sunk: {ships}").format(
            shots=match.shots(TEAM), hits=match.hits(TEAM), ships=sunk_names
        )
        self.fire_slot.clear_widgets()
        if self.selected is not None and mine:
            self.fire_button.text = _("Fire at {square}").format(square=self.selected.code)
            self.fire_slot.add_widget(self.fire_button)
        self.actions.clear_widgets()
        if match.may_place(TEAM) and match.setup.mode is not Mode.DAILY:
            self.actions.add_widget(self.replace_button)
        self.actions.add_widget(self.home_button)

    # -- playing --

    def _tapped(self, _view: object, square: Square) -> None:
        if self.draft is not None:
            self._move(square)
        else:
            self.aim(TEAM, square)

    # -- re-placing --

    def _start_editing(self) -> None:
        match = self.match
        if match is None or not match.may_place(TEAM):
            return
        self.draft = match.fleet(TEAM)
        self.selected = None
        self.big.interactive = True
        self._choose(CLASSES[0])

    def _stop_editing(self) -> None:
        self.draft = None
        self.kept.put_away()
        self.refresh()

    def _choose(self, kind: ShipClass) -> None:
        self.chosen = kind
        self._keep()
        self.refresh()

    def _keep(self) -> None:
        """The re-placing into the store, before the screen shows the change."""
        if self.draft is None:
            return
        reason = self.kept.keep(TEAM, kept_replacing(self.draft, self.chosen))
        if reason is not None:
            self.app.toast(not_kept(reason))

    def _bring_back(self, match: Match) -> None:
        """A re-placing kept before the kiosk stopped, as it was (a broken one is said, and
        dropped); the kept drafts of another game are put away."""
        name = self.player_name(match, TEAM)
        said = self.kept.sweep(lambda _team, body: replacing_from_kept(body), [name])
        if said:
            self.app.toast("\n".join(said), 6)
        if not match.may_place(TEAM) or match.setup.mode is Mode.DAILY:
            self.kept.put_away()
            return
        try:
            found = self.kept.kept(TEAM, replacing_from_kept, name)
        except DraftRefused as err:
            self.app.toast(refused(name, err), 6)
            return
        if found is not None:
            self.draft, self.chosen = found
            self.selected = None

    def _show_draft(self) -> None:
        assert self.draft is not None
        for kind, button in self.ship_buttons.items():
            button.set_colour(theme.SHIP_CHOSEN if kind is self.chosen else theme.PANEL_LIGHT)
        ships = [ship.cells for ship in self.draft.ships]
        self.big.interactive = True
        self.big.show({}, ships=ships, chosen=self.draft.ship(self.chosen).cells)

    def _move(self, square: Square) -> None:
        assert self.draft is not None
        owner = self.draft.ship_at(square)
        if owner is not None and owner.kind is not self.chosen:
            self._choose(owner.kind)  # a tap on another ship picks it up
            return
        ship = self.draft.ship(self.chosen)
        self._try(lambda fleet: fleet.moved(self.chosen, square, ship.horizontal))

    def _rotate(self) -> None:
        self._try(lambda fleet: fleet.rotated(self.chosen))

    def _try(self, change: Callable[[Fleet], Fleet]) -> None:
        if self.draft is None:
            return  # not re-placing (the shooting began meanwhile)
        try:
            self.draft = change(self.draft)
        except RuleError as err:
            self.app.toast(str(err), 3)  # the ship and the rule it breaks
        else:
            self._keep()
        self.refresh()

    def _done(self) -> None:
        fleet = self.draft
        if fleet is None:
            return
        self.draft = None
        self.kept.put_away()  # done, or refused (the shooting began): the re-placing ends
        if self.submit(Place(TEAM, fleet)):
            self.app.toast(_("Your fleet is where you put it"), 2)
        self.refresh()
