"""The huge HIT / MISS / SUNK / REPEAT word, readable from 3 m.

`announce` sets text, colour and full opacity synchronously, so the very next frame shows it;
the animation (a pop from larger, then a fade) only decorates what is already visible.
"""

from __future__ import annotations

from kivy.animation import Animation
from kivy.graphics import Color, PopMatrix, PushMatrix, RoundedRectangle, Scale
from kivy.properties import NumericProperty
from kivy.uix.label import Label
from kivy.utils import escape_markup

from ui.touch import theme

HOLD_SECONDS = 1.8
POP_ZOOM = 1.35  # the pop's start, where there is room for it


class Announcement(Label):
    zoom = NumericProperty(1.0)

    def __init__(self, **kwargs: object) -> None:
        s = theme.sizes()
        super().__init__(
            font_size=s(120),
            bold=True,
            halign="center",
            valign="middle",
            color=theme.TEXT,
            markup=True,
            opacity=0,
            **kwargs,
        )
        with self.canvas.before:
            PushMatrix()
            self._scale = Scale(1, 1, 1)
            self._box_colour = Color(0, 0, 0, 0)
            self._box = RoundedRectangle(radius=[s(24)])
        with self.canvas.after:
            PopMatrix()
        self.bind(pos=self._layout, size=self._layout, zoom=self._layout, texture_size=self._layout)
        self.kind = ""

    def _layout(self, *_args: object) -> None:
        # From pos and size, not Kivy's cached `center` (stale inside a size callback, see
        # DartboardView.centre).
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        self._scale.origin = (cx, cy)
        self._scale.x = self._scale.y = self.zoom
        s = theme.sizes()
        w = min(self.width, self.texture_size[0] + s(80))
        h = min(self.height, self.texture_size[1] + s(40))
        self._box.pos = (cx - w / 2, cy - h / 2)
        self._box.size = (w, h)

    def announce(self, word: str, line: str, kind: str) -> None:
        Animation.cancel_all(self)
        s = theme.sizes()
        self.font_size = s(120)
        colour = theme.RESULT_COLOURS[kind]
        self.kind = kind
        # The words are plain text: a name typed as "[size=400]Bo" is shown as typed, not read
        # as the label's markup (the line is the one place markup is ours).
        word, line = escape_markup(word), escape_markup(line)
        # As big as fits its place (over the board): "VERSENKT!" is wider than "SUNK!".
        for attempt in range(2):
            small = int(self.font_size / 3)
            self.text = f"{word}\n[size={small}]{line}[/size]" if line else word
            self.texture_update()
            room = self.width - s(100)  # the card's padding (s(80)) stays inside its place
            if attempt or self.texture_size[0] <= room or room <= 0:
                break
            self.font_size = max(s(36), self.font_size * room / self.texture_size[0])
        self._box_colour.rgba = (colour[0] * 0.25, colour[1] * 0.25, colour[2] * 0.25, 0.92)
        self.color = colour
        self.opacity = 1
        # The pop starts larger, but never beyond its place (over the board): it would cover
        # the scoreboard and Undo beside the board, and cut the line at the screen's edge.
        self._layout()
        room = min(self.width / max(1.0, self._box.size[0]), self.height * 1.25 / max(1.0, self._box.size[1]))
        self.zoom = max(1.0, min(POP_ZOOM, room))
        pop = Animation(zoom=1.0, duration=0.25, t="out_back")
        fade = Animation(duration=HOLD_SECONDS) + Animation(opacity=0, duration=0.5)
        pop.start(self)
        if kind != "win":  # the winning word stays until the result card takes over
            fade.start(self)

    def clear(self) -> None:
        Animation.cancel_all(self)
        self.opacity = 0
        self.text = ""
