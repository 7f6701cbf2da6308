"""Each player's line, face up: a row per player, the front ship on the left.

A `ShipTile` is one ship: its colour, its name, its defense as a big number, and a small note
(its dice and rolls, or the coach's chance). A `LineRow` holds a player's name, points and seat
and their five tiles: the ships afloat in line order, then the wrecks of the ships they lost.
Tiles belong to ships, not places, so a ship that attacks slides to the front and the others
slide back (animated), and a sunk ship slides to the end as a wreck.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.animation import Animation
from kivy.graphics import Color, Line, RoundedRectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label

from kiosk.express.rules import FLEET, Ship
from kiosk.i18n import _
from ui.touch import theme
from ui.touch.controls import Backdrop, FitLabel, fitting_font, text_height
from ui.touch.express.look import CHOSEN, SHIP_COLOURS, TARGET, player_colour, shade

SLIDE_SECONDS = 0.45  # a ship moving in its line (the Pace's move beat is a little longer)
# A tile's note ("8 dice · 4 rolls"): its font, and the smallest it takes to stand on one line
# inside the tile's frame (German's "8 Würfel · 4 Würfe" in a tile of 87 px at 800x480).
NOTE_FONT, NOTE_SMALLEST = 12.5, 9.0
# The frame a chosen or targeted tile wears: this far in from the tile's edge, this wide.
FRAME_INSET, FRAME_WIDTH = 2.0, 4.0


# The frame of the row on turn: this far in from the row's edge, this wide (Kivy draws a line
# `width` to each side of its path), so it reaches beyond the row (`beyond_the_row`).
TURN_INSET, TURN_WIDTH = 1.5, 3.0


def beyond_the_row() -> float:
    """How far the frame of the row on turn is drawn outside the row: what lies over the rows
    (the real dice's panel) covers that too."""
    s = theme.sizes()
    return s(max(0.0, TURN_WIDTH - TURN_INSET))


def frame_room() -> float:
    """How far a tile's note keeps from its edges: clear of the frame it wears when chosen
    or targeted (the note once ran under it, and a hair from the edge of an unframed tile),
    with a pixel's air."""
    s = theme.sizes()
    return s(FRAME_INSET + FRAME_WIDTH + 1)


class ShipTile(ButtonBehavior, FloatLayout):
    """One ship of one line; tapped, it calls `on_tap(player, ship)`."""

    def __init__(
        self, player: int, ship: Ship, on_tap: Callable[[int, Ship], Any] | None, **kwargs: object
    ) -> None:
        super().__init__(size_hint=(None, None), **kwargs)
        self.player, self.ship = player, ship
        self.on_tap = on_tap
        self.wreck = False
        s = theme.sizes()
        with self.canvas.before:
            self._fill = Color(*shade(SHIP_COLOURS[ship], 0.62))
            self._body = RoundedRectangle(radius=[s(8)])
            self._frame_colour = Color(0, 0, 0, 0)
            self._frame = Line(width=s(3))
        with self.canvas.after:
            self._cross_colour = Color(0, 0, 0, 0)
            self._cross = Line(width=s(3))
        self.name = FitLabel(
            ship.label,
            font_units=17,
            smallest=0.5,
            bold=True,
            color=theme.TEXT,
            halign="center",
            valign="middle",
            size_hint=(None, None),
        )
        self.defense = Label(
            font_size=s(34),
            bold=True,
            color=theme.TEXT,
            size_hint=(None, None),
            halign="center",
            valign="middle",
        )
        self._note_font = s(NOTE_FONT)
        self.note = Label(
            font_size=self._note_font,
            color=theme.TEXT,
            size_hint=(None, None),
            halign="center",
            valign="middle",
            max_lines=2,
        )
        for label in (self.name, self.defense, self.note):
            self.add_widget(label)
        self.bind(pos=self._layout, size=self._layout)

    def _layout(self, *_args: object) -> None:
        s = theme.sizes()
        x, y, w, h = self.x, self.y, self.width, self.height
        self._body.pos, self._body.size = (x, y), (w, h)
        inset = s(FRAME_INSET)
        self._frame.rounded_rectangle = (x + inset, y + inset, w - 2 * inset, h - 2 * inset, s(8))
        self._cross.points = [
            x + w * 0.2,
            y + h * 0.2,
            x + w * 0.8,
            y + h * 0.8,
            x + w * 0.5,
            y + h * 0.5,
            x + w * 0.2,
            y + h * 0.8,
            x + w * 0.8,
            y + h * 0.2,
        ]
        pad = s(6)  # inside the frame a chosen tile wears
        self.name.size = (w - 2 * pad, h * 0.32)
        self.name.pos = (x + pad, y + h - pad * 0.6 - h * 0.32)
        # The note gets the room of two lines below the defense: German's and Finnish dice and
        # rolls take two in a tile of 87 px (800x480), at a font read at arm's length.
        self.defense.size = (w, h * 0.3)
        self.defense.font_size = min(s(40), h * 0.29)
        room = frame_room()  # inside the frame a chosen or targeted tile wears
        self.note.width = w - 2 * room
        self.note.pos = (x + room, y + room)
        self._fit_note()

    def _fit_note(self) -> None:
        # "8 Würfel · 4 Würfe" gets a smaller font rather than "8 Würfel · 4 W…"; where one line
        # would make it much smaller (a small tile), it takes two.
        base, note = self._note_font, self.note
        room, h = frame_room(), self.height
        band = h * 0.35 - room  # the note's own band, below the defense
        smallest = NOTE_SMALLEST / NOTE_FONT
        one = fitting_font(note, base, note.width, lines=1, smallest=smallest)
        if one < base * 0.85:
            two = fitting_font(note, base, note.width, lines=2, height=band, smallest=smallest)
            one = max(one, two)
        note.font_size = one
        # Two lines at the smallest font can still be taller than the band (Finnish with four
        # players at 800x480: 22 px in 18): the band grows up into the defense's, whose digit is
        # far shorter than its band, at most a tenth of the tile.
        lift = min(max(0.0, text_height(note, note.width) - band), h * 0.1) if note.text else 0.0
        note.height = band + lift
        note.text_size = note.size
        self.defense.pos = (self.x, self.y + h * 0.35 + lift * 0.5)

    def show(
        self,
        defense: int,
        note: str,
        *,
        chosen: bool = False,
        target: bool = False,
        dim: bool = False,
        wreck: bool = False,
        emphasis: bool = False,
    ) -> None:
        """`note`: dice and rolls, or the coach's chance (`emphasis`: bigger and bold)."""
        s = theme.sizes()
        self.wreck = wreck
        self.defense.text = "" if wreck else str(defense)
        self.note.text = "" if wreck else note
        self._note_font = s(18) if emphasis else s(NOTE_FONT)
        self.note.bold = emphasis
        self._fit_note()
        self.note.color = theme.RESULT_COLOURS["win"] if emphasis else theme.TEXT
        colour = SHIP_COLOURS[self.ship]
        self._fill.rgba = shade(colour, 0.22) if wreck else shade(colour, 0.62)
        self.name.color = theme.TEXT_DIM if wreck else theme.TEXT
        frame = TARGET if target else CHOSEN if chosen else None
        self._frame_colour.rgba = frame if frame else (0, 0, 0, 0)
        self._frame.width = s(FRAME_WIDTH) if frame else s(3)
        self._cross_colour.rgba = theme.RESULT_COLOURS["sunk"] if wreck else (0, 0, 0, 0)
        self.opacity = 0.3 if dim else 1.0

    def on_release(self) -> None:
        if self.on_tap is not None:
            self.on_tap(self.player, self.ship)


class LineRow(Backdrop, FloatLayout):
    """A player's row: name, points and seat on the left, then the line, front first."""

    def __init__(
        self, player: int, on_tap: Callable[[int, Ship], Any] | None = None, **kwargs: object
    ) -> None:
        super().__init__(**kwargs)
        s = theme.sizes()
        self.player = player
        self.background = list(theme.PANEL)
        self._init_backdrop(s(10))
        with self.canvas.before:
            self._turn_colour = Color(0, 0, 0, 0)
            self._turn_frame = Line(width=s(TURN_WIDTH))
            self._stripe_colour = Color(*player_colour(player))
            self._stripe = RoundedRectangle(radius=[s(3)])
        self.name = FitLabel(
            "",
            font_units=22,
            smallest=0.5,
            bold=True,
            color=player_colour(player),
            halign="left",
            valign="top",
            size_hint=(None, None),
        )
        self.points = Label(
            font_size=s(28),
            bold=True,
            color=theme.TEXT,
            size_hint=(None, None),
            halign="left",
            valign="middle",
            markup=True,
        )
        self.seat = Label(
            font_size=s(12.5),
            color=theme.TEXT_DIM,
            size_hint=(None, None),
            halign="left",
            valign="bottom",
            max_lines=2,
        )
        for label in (self.name, self.points, self.seat):
            self.add_widget(label)
        self.tiles = {ship: ShipTile(player, ship, on_tap) for ship in FLEET}
        for tile in self.tiles.values():
            self.add_widget(tile)
        self.order: list[Ship] = list(FLEET)  # the ships afloat, front first, then the wrecks
        self.bind(pos=self._layout, size=self._layout)

    @property
    def panel_width(self) -> float:
        return max(theme.sizes()(118), self.width * 0.2)

    def slot(self, index: int) -> tuple[float, float, float, float]:
        """(x, y, width, height) of place `index` of the line (0: the front)."""
        s = theme.sizes()
        gap = s(5)
        left = self.x + self.panel_width
        width = (self.x + self.width - s(6) - left - 4 * gap) / 5
        height = self.height - 2 * s(6)
        return left + index * (width + gap), self.y + s(6), width, height

    def _layout(self, *_args: object) -> None:
        s = theme.sizes()
        x, y, w, h = self.x, self.y, self.width, self.height
        inset = s(TURN_INSET)
        self._turn_frame.rounded_rectangle = (x + inset, y + inset, w - 2 * inset, h - 2 * inset, s(10))
        self._stripe.pos, self._stripe.size = (x + s(4), y + s(6)), (s(6), h - s(12))
        inner = self.panel_width - s(22)
        # The name gets what is above the points (a name of 32 letters takes three lines of the
        # panel: it lost its third), the computer's level what is below them.
        self.name.size = (inner, h * 0.43 - s(6))
        self.name.pos = (x + s(16), y + h * 0.57)
        self.points.size = (inner, h * 0.27)
        self.points.pos = (x + s(16), y + h * 0.3)
        self.points.font_size = min(s(28), h * 0.23)  # a line is some 1.17 times its font
        self.points.text_size = self.points.size
        self.seat.size = (inner, h * 0.3)
        self.seat.pos = (x + s(16), y + s(4))
        self.seat.text_size = self.seat.size
        self._fit_seat()
        self.arrange(self.order, animate=False)

    def _fit_seat(self) -> None:
        """The computer's level whole in the room below the points: a smaller font where its
        words would take a line more than that room holds (in a game of four at 800x480,
        "Computer: normal" lost "Computer:")."""
        self.seat.font_size = fitting_font(
            self.seat, theme.sizes()(12.5), self.seat.width, height=self.seat.height, smallest=0.7
        )

    @property
    def settled(self) -> bool:
        """Whether every ship's tile stands at its place in the line (no slide under way)."""
        for index, ship in enumerate(self.order):
            x, y, _w, _h = self.slot(index)
            tile = self.tiles[ship]
            if abs(tile.x - x) > 0.5 or abs(tile.y - y) > 0.5:
                return False
        return True

    def arrange(self, order: Sequence[Ship], animate: bool = True) -> None:
        """Put each ship's tile at its place in `order` (sliding there when `animate`)."""
        self.order = list(order)
        for index, ship in enumerate(self.order):
            tile = self.tiles[ship]
            x, y, w, h = self.slot(index)
            Animation.cancel_all(tile)
            tile.size = (w, h)
            if animate and tile.y == y and abs(tile.x - x) > 1:
                if x < tile.x:  # the ship going to the front passes over the others
                    self.remove_widget(tile)
                    self.add_widget(tile)
                Animation(x=x, d=SLIDE_SECONDS, t="out_cubic").start(tile)
            else:
                tile.pos = (x, y)

    def show_player(
        self, name: str, points: int, points_to_win: int, seat: str, *, on_turn: bool, out: bool
    ) -> None:
        self.name.text = name
        small = int(theme.sizes()(18))
        self.points.text = f"{points}[size={small}] / {points_to_win}[/size]"
        self.seat.text = _("out: no ships left") if out else seat
        self._fit_seat()
        self.background = list(theme.PANEL_LIGHT if on_turn else theme.PANEL)
        self._turn_colour.rgba = player_colour(self.player) if on_turn else (0, 0, 0, 0)
        self.opacity = 0.55 if out else 1.0
