"""The dice: eight on the table, rolled, landed, and the hits set aside above them.

A `Die` is a coloured square with its face's sign (the ship's colour and initial, the Burst a
red star on white). The `DiceTray` lays out the dice in play in a row and the dice set aside
smaller in a row above, with the hits counted against the target's defense; the screen's beats
drive it: `tumble`, `land`, `set_aside` (kiosk/express/pace.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, Line, PopMatrix, PushMatrix, Rotate, RoundedRectangle
from kivy.properties import NumericProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label

from kiosk.express.rules import FACES, Face
from kiosk.i18n import _
from ui.touch import theme
from ui.touch.express.look import BURST_INK, face_colour, face_letter

DICE = 8  # the most dice any ship rolls (the Battleship's eight)
SPIN_SECONDS = 0.08  # a tumbling die shows another face this often


class Die(Label):
    angle = NumericProperty(0.0)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(bold=True, halign="center", valign="middle", size_hint=(None, None), **kwargs)
        self.face: Face | None = None
        self.counting = False
        with self.canvas.before:
            PushMatrix()
            self._turn = Rotate(angle=0)
            self._fill = Color(*theme.PANEL_LIGHT)
            self._square = RoundedRectangle()
            self._ring_colour = Color(0, 0, 0, 0)
            self._ring = Line(width=2)
        with self.canvas.after:
            PopMatrix()
        self.bind(pos=self._draw, size=self._draw, angle=self._draw)

    def _draw(self, *_args: object) -> None:
        radius = self.width * 0.18
        self._square.pos, self._square.size = self.pos, self.size
        self._square.radius = [radius]
        self._ring.rounded_rectangle = (self.x - 3, self.y - 3, self.width + 6, self.height + 6, radius)
        self._ring.width = max(1.5, self.width * 0.06)
        self._turn.origin = (self.x + self.width / 2, self.y + self.height / 2)
        self._turn.angle = self.angle
        self.font_size = self.height * 0.62

    def show(self, face: Face, counting: bool = False, dim: bool = False) -> None:
        self.face, self.counting = face, counting
        self.text = face_letter(face)
        self.font_name = theme.SYMBOL_FONT if face is Face.BURST else "Roboto"
        fill = face_colour(face)
        if dim:
            fill = (fill[0] * 0.45, fill[1] * 0.45, fill[2] * 0.45, 1)
        self._fill.rgba = fill
        self.color = BURST_INK if face is Face.BURST else theme.rgb("101820")
        # A die that counts against the target wears a bright ring: seen from the back of a bar.
        self._ring_colour.rgba = theme.RESULT_COLOURS["win"] if counting else (0, 0, 0, 0)
        self.opacity = 1


class DiceTray(FloatLayout):
    """Eight places for the dice in play (two rows of four) and a strip of eight above for the
    dice set aside, with the count of hits against the target's defense beside it."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        s = theme.sizes()
        self.rng = random.Random()
        self.rolling = [Die() for _n in range(DICE)]
        self.kept = [Die() for _n in range(DICE)]
        for die in (*self.rolling, *self.kept):
            die.opacity = 0
            self.add_widget(die)
        self.count = Label(
            font_size=s(26),
            bold=True,
            color=theme.TEXT,
            size_hint=(None, None),
            halign="right",
            valign="middle",
        )
        self.count.bind(size=lambda w, *_: setattr(w, "text_size", w.size))
        self.add_widget(self.count)
        self.caption = Label(
            text=_("set aside:"),
            font_size=s(15),
            color=theme.TEXT_DIM,
            size_hint=(None, None),
            halign="left",
            valign="middle",
        )
        self.caption.bind(size=lambda w, *_: setattr(w, "text_size", w.size))
        self.add_widget(self.caption)
        self.in_play = 0  # dice in the tray now
        self.aside = 0  # dice set aside in this attack
        self._spinning = False
        self.bind(pos=self._layout, size=self._layout)

    # -- where things go --

    def _sizes(self) -> tuple[float, float, float]:
        """(die, small die, gap): the dice in play in one row along the bottom, the dice set
        aside smaller in a row above them."""
        gap = self.width * 0.012
        die = min((self.width - 7 * gap) / DICE, self.height * 0.6)
        small = min(self.height * 0.3, die * 0.6)
        return die, small, gap

    def tray_slot(self, index: int) -> tuple[float, float]:
        die, _small, gap = self._sizes()
        return self.x + index * (die + gap), self.y

    def aside_slot(self, index: int) -> tuple[float, float]:
        _die, small, gap = self._sizes()
        left = self.x + self.caption.width
        return left + index * (small + gap), self.y + self.height - small

    def _layout(self, *_args: object) -> None:
        die, small, gap = self._sizes()
        self.caption.texture_update()
        self.caption.size = (self.caption.texture_size[0] + gap * 2, small)
        self.caption.pos = (self.x, self.y + self.height - small)
        for index, d in enumerate(self.rolling):
            Animation.cancel_all(d)
            d.size = (die, die)
            d.pos = self.tray_slot(index)
        for index, d in enumerate(self.kept):
            Animation.cancel_all(d)
            d.size = (small, small)
            d.pos = self.aside_slot(index)
        strip = self.caption.width + DICE * (small + gap)
        self.count.size = (self.width - strip, small * 1.3)
        self.count.pos = (self.x + strip, self.y + self.height - small * 1.15)

    # -- what the beats do --

    def clear(self) -> None:
        self._stop_spinning()
        for d in (*self.rolling, *self.kept):
            Animation.cancel_all(d)
            d.opacity = 0
            d.face = None
        self.in_play = self.aside = 0
        self.count.text = ""
        self.caption.opacity = 0
        self._layout()

    def tumble(self, dice: int) -> None:
        """`dice` dice roll in the tray (the faces change until they land)."""
        self._layout_kept()
        self.caption.opacity = 1
        self.in_play = dice
        for index, d in enumerate(self.rolling):
            Animation.cancel_all(d)
            d.size = (self._sizes()[0],) * 2
            d.pos = self.tray_slot(index)
            d.opacity = 1 if index < dice else 0
        self._spin()
        if not self._spinning:
            self._spinning = True
            Clock.schedule_interval(self._spin, SPIN_SECONDS)

    def _spin(self, *_args: object) -> None:
        for d in self.rolling[: self.in_play]:
            d.show(self.rng.choice(FACES))
            d.angle = self.rng.uniform(-25, 25)

    def _stop_spinning(self) -> None:
        if self._spinning:
            Clock.unschedule(self._spin)
            self._spinning = False

    def land(self, faces: Sequence[Face], counting: Sequence[bool]) -> None:
        """The dice lie still on `faces`; those that count against the target are ringed."""
        self._stop_spinning()
        self.caption.opacity = 1
        self.in_play = len(faces)
        for index, d in enumerate(self.rolling):
            Animation.cancel_all(d)
            d.size = (self._sizes()[0],) * 2
            d.pos = self.tray_slot(index)
            d.angle = 0
            if index < len(faces):
                d.show(faces[index], counting=counting[index])
            else:
                d.opacity = 0

    def set_aside(self, counting: Sequence[bool], seconds: float) -> None:
        """The counting dice move up into the strip (animated over `seconds`); the others are
        dimmed: they are rolled again."""
        _die, small, _gap = self._sizes()
        for index, d in enumerate(self.rolling[: self.in_play]):
            if d.face is None:
                continue
            if counting[index] and self.aside < DICE:
                slot = self.kept[self.aside]
                slot.show(d.face)
                slot.opacity = 0
                x, y = self.aside_slot(self.aside)
                self.aside += 1
                if seconds > 0:
                    flight = Animation(x=x, y=y, width=small, height=small, d=seconds * 0.8, t="out_quad")
                    flight.bind(on_complete=lambda *_a, k=slot, r=d: _arrive(k, r))
                    flight.start(d)
                else:
                    _arrive(slot, d)
            else:
                d.show(d.face, dim=True)

    def _layout_kept(self) -> None:
        for index, d in enumerate(self.kept):
            d.opacity = 1 if index < self.aside else 0

    def set_count(self, total: int | None, defense: int | None) -> None:
        if total is None or defense is None:
            self.count.text = ""
        else:
            self.count.text = _("{hits}/{defense} hits").format(hits=total, defense=defense)
            self.count.color = theme.RESULT_COLOURS["sunk"] if total >= defense else theme.TEXT

    def show_still(self, kept: Sequence[Face], faces: Sequence[Face], counting: Sequence[bool]) -> None:
        """A finished state at once (a restart, a screen entered mid-game): `kept` in the strip,
        the last roll's `faces` in the tray, those counting ringed."""
        self.clear()
        for index, face in enumerate(kept[:DICE]):
            self.kept[index].show(face)
        self.aside = min(len(kept), DICE)
        self.land(faces, counting)


def _arrive(kept: Die, rolled: Die) -> None:
    """A die set aside reaches its place in the strip: the strip shows it, the tray no more."""
    kept.opacity = 1
    rolled.opacity = 0
