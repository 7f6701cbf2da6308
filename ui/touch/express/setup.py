"""Setting up a game of Battleship Express: 2 to 4 players, each a person or the computer at a
level, the Admiral's or the Captain's game, and the points to win. Next come the lines.

Names are typed on the on-screen keyboard; what is wrong (no name, the same name twice) is
said by the rules' own setup check (`Setup`), before the lines are laid out.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from kivy.uix.boxlayout import BoxLayout

from kiosk.express.lineup import Draft
from kiosk.express.match import COMPUTER_LEVELS, Setup, SetupError
from kiosk.express.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, Variant, max_points
from kiosk.express.wire import EXPRESS
from kiosk.i18n import _, ngettext
from kiosk.names import clean_name
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, ChoiceButton, button_row, text_field
from ui.touch.express.look import player_colour, seat_name
from ui.touch.screens.base import KioskApp, KioskScreen, heading

if TYPE_CHECKING:
    from kivy.uix.textinput import TextInput

SEATS: tuple[str | None, ...] = (None, *COMPUTER_LEVELS)


def variant_name(variant: Variant) -> str:
    if variant is Variant.ADMIRAL:
        return _("Admiral's game: with the powers")
    return _("Captain's game: no powers")


def default_name(index: int, level: str | None) -> str:
    if level is None:
        return _("Player {n}").format(n=index + 1)
    return _("Computer {n}").format(n=index + 1)


class ExpressSetupScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        self.rules = Rules()
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
        page.add_widget(heading(_("Battleship Express: the dice game"), 28))
        self.names: list[TextInput] = []
        self.seats: list[ChoiceButton] = []
        self.rows: list[BoxLayout] = []
        for index in range(MAX_PLAYERS):
            row = BoxLayout(spacing=s(10), size_hint_y=None, height=s.touch)
            row.add_widget(
                Caption(
                    str(index + 1),
                    font_units=26,
                    bold=True,
                    colour=player_colour(index),
                    size_hint_x=None,
                    width=s(26),
                )
            )
            field = text_field(hint=_("name"))
            self.names.append(field)
            row.add_widget(field)
            seat = ChoiceButton(
                list(SEATS),
                None,
                label=seat_name,
                on_change=functools.partial(self._seat_changed, index),
                size_hint_x=0.8,
                font_units=20,
            )
            self.seats.append(seat)
            row.add_widget(seat)
            self.rows.append(row)
        self.players_box = BoxLayout(orientation="vertical", spacing=s(6), size_hint_y=None)
        page.add_widget(self.players_box)
        options = BoxLayout(spacing=s(10), size_hint_y=None, height=s.touch)
        self.count = ChoiceButton(
            list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
            2,
            label=lambda n: ngettext("{n} player", "{n} players", n).format(n=n),
            on_change=self._count_changed,
            size_hint_x=0.6,
            font_units=20,
        )
        self.variant = ChoiceButton(list(Variant), Variant.ADMIRAL, label=variant_name, font_units=18)
        self.points = ChoiceButton(
            [5],
            5,
            label=lambda n: ngettext("{n} point to win", "{n} points to win", n).format(n=n),
            size_hint_x=0.7,
            font_units=20,
        )
        for widget in (self.count, self.variant, self.points):
            options.add_widget(widget)
        page.add_widget(options)
        page.add_widget(BoxLayout())
        page.add_widget(
            button_row(
                BigButton(_("Back"), lambda: app.go("home"), colour=theme.PANEL_LIGHT),
                BigButton(_("Lay out the lines"), self.next, colour=theme.GO),
            )
        )
        self.add_widget(page)
        self.prefill()

    def prefill(self) -> None:
        """The last Express game's players and choices (the next game is often a rematch)."""
        match = EXPRESS.in_play(self.app.service)
        setup = match.setup if match is not None else None
        count = len(setup.players) if setup else 2
        for index in range(MAX_PLAYERS):
            level = setup.computer(index) if setup and index < count else None
            self.seats[index].value = level
            self.seats[index].text = seat_name(level)
            self.names[index].text = (
                setup.players[index] if setup and index < count else default_name(index, level)
            )
        if setup is not None:
            self.variant.set_value(setup.variant)
        self.count.set_value(count)
        if setup is not None:
            self.points.set_value(setup.points_to_win)

    def _count_changed(self, count: int) -> None:
        if not hasattr(self, "points"):
            return
        s = theme.sizes()
        self.players_box.clear_widgets()
        for row in self.rows[:count]:
            self.players_box.add_widget(row)
        self.players_box.height = count * s.touch + (count - 1) * s(6)
        self.points.choices = list(range(1, max_points(count) + 1))
        self.points.set_value(self.rules.default_points(count))

    def _seat_changed(self, index: int, level: str | None) -> None:
        """A seat that changes hands keeps a typed name, and gets a fitting default name."""
        field = self.names[index]
        defaults = {default_name(index, other) for other in SEATS}
        if not field.text.strip() or field.text in defaults:
            field.text = default_name(index, level)

    def draft(self) -> Draft:
        """The game as set up; SetupError (the rules' words) for what makes no game."""
        count = self.count.value
        # Kept as the dart game keeps a team's name: what draws as text, at most 32 letters.
        names = tuple(clean_name(field.text) or "" for field in self.names[:count])
        computers = tuple(seat.value for seat in self.seats[:count])
        draft = Draft(names, computers, self.variant.value, self.points.value)
        # The rules check players, names and points (lines come next: any will do here).
        Setup.create(
            names, variant=draft.variant, points_to_win=draft.points_to_win, computers=computers, seed=0
        )
        return draft

    def next(self) -> None:
        try:
            draft = self.draft()
        except SetupError as err:
            self.app.toast(str(err))
            return
        self.app.screen("express_lineup").open(draft)
        self.app.go("express_lineup")
