"""The classic 10x10 grid, drawn: squares, ships, hits, misses, sunk outlines, the square aimed at.

Like the dartboard widget, it shows only what its owner gives it (`show`): it never looks at a
match, so it cannot draw a ship it was not handed. A tap on a square dispatches
`on_square(square)` while the grid is `interactive`.

Drawn for 3 m: water dark blue, a miss a pale dot, a hit an orange disc, a sunk ship red with a
yellow outline, the last shot ringed in white, the square aimed at in the accent colour with a
crosshair.
"""

from __future__ import annotations

from collections.abc import Iterable

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.input.motionevent import MotionEvent
from kivy.uix.widget import Widget

from kiosk.classic.grid import COLUMNS, GRID, SIZE, Square
from ui.touch import theme

LABEL_SHARE = 0.6  # the row and column labels take this much of a square
GAP_SHARE = 0.08  # water between squares


class GridView(Widget):
    """Events: `on_square(square)` for a tap on a square (while `interactive`)."""

    __events__ = ("on_square",)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.marks: dict[Square, str] = {}  # "miss" | "hit" | "sunk"
        self.ships: list[tuple[Square, ...]] = []  # drawn as ships (the owner's own grid only)
        self.outlines: list[tuple[Square, ...]] = []  # sunk ships
        self.chosen: tuple[Square, ...] | None = None  # the ship being moved (re-placing)
        self.selected: Square | None = None
        self.last: Square | None = None
        self.interactive = False
        self.dimmed = False  # not this grid's turn: drawn quieter
        self.bind(pos=self.redraw, size=self.redraw)

    def show(
        self,
        marks: dict[Square, str] | None = None,
        outlines: Iterable[tuple[Square, ...]] = (),
        *,
        ships: Iterable[tuple[Square, ...]] = (),
        last: Square | None = None,
        selected: Square | None = None,
        chosen: tuple[Square, ...] | None = None,
    ) -> None:
        self.marks = dict(marks or {})
        self.outlines = list(outlines)
        self.ships = list(ships)
        self.last, self.selected, self.chosen = last, selected, chosen
        self.redraw()

    # -- geometry (from pos and size, never Kivy's cached `center`: see DartboardView.centre) --

    @property
    def step(self) -> float:
        """One square's size in pixels (its gap included)."""
        return min(self.width, self.height) / (SIZE + LABEL_SHARE)

    @property
    def origin(self) -> tuple[float, float]:
        """The grid's top-left corner of A1 (pixels), the grid centred in the widget."""
        side = self.step * (SIZE + LABEL_SHARE)
        left = self.x + (self.width - side) / 2 + self.step * LABEL_SHARE
        top = self.y + (self.height + side) / 2 - self.step * LABEL_SHARE
        return left, top

    def square_rect(self, square: Square) -> tuple[float, float, float, float]:
        """(x, y, w, h) of a square, its gap left out."""
        left, top = self.origin
        step = self.step
        gap = step * GAP_SHARE
        x = left + square.column * step + gap / 2
        y = top - square.row * step + gap / 2
        return x, y, step - gap, step - gap

    def point_of(self, square: Square) -> tuple[float, float]:
        """The middle of a square, in the widget's coordinates (tests and the tour tap here)."""
        x, y, w, h = self.square_rect(square)
        return x + w / 2, y + h / 2

    def square_at(self, x: float, y: float) -> Square | None:
        left, top = self.origin
        column = int((x - left) // self.step)
        row = int((top - y) // self.step) + 1
        square = Square(column, row)
        return square if square in GRID else None

    # -- drawing --

    def redraw(self, *_args: object) -> None:
        self.canvas.clear()
        if self.width <= 1 or self.height <= 1:
            return
        s = theme.sizes()
        fade = 0.55 if self.dimmed else 1.0
        with self.canvas:
            for square in GRID.squares:
                mark = self.marks.get(square)
                Color(*_faded(theme.SQUARE_SUNK if mark == "sunk" else theme.WATER, fade))
                x, y, w, h = self.square_rect(square)
                RoundedRectangle(pos=(x, y), size=(w, h), radius=[max(1.0, w * 0.12)])
            for ship in self.ships:
                colour = theme.SHIP_CHOSEN if ship == self.chosen else theme.SHIP
                self._ship(ship, _faded(colour, fade))
            for square, mark in self.marks.items():
                self._mark(square, mark, fade)
            Color(*_faded(theme.OUTLINE_SUNK, fade))
            for ship in self.outlines:
                self._outline(ship, max(2.0, s(3)))
            if self.last is not None:
                Color(*theme.OUTLINE_LAST)
                self._outline((self.last,), max(1.5, s(2)))
            if self.selected is not None:
                self._aim(self.selected, s)
            self._labels(fade)

    def _ship(self, cells: tuple[Square, ...], colour: theme.RGBA) -> None:
        x0, y0, w, h = self.square_rect(cells[0])
        x1, y1, _w, _h = self.square_rect(cells[-1])
        inset = w * 0.1
        left, bottom = min(x0, x1) + inset, min(y0, y1) + inset
        right, top = max(x0, x1) + w - inset, max(y0, y1) + h - inset
        Color(*colour)
        RoundedRectangle(pos=(left, bottom), size=(right - left, top - bottom), radius=[min(w, h) * 0.4])

    def _mark(self, square: Square, mark: str, fade: float) -> None:
        x, y, w, h = self.square_rect(square)
        cx, cy = x + w / 2, y + h / 2
        if mark == "miss":
            r = w * 0.16
            Color(*_faded(theme.MARKS["miss"], fade))
            Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
        elif mark in ("hit", "sunk"):
            r = w * 0.34
            Color(*_faded(theme.RESULT_COLOURS["hit"] if mark == "hit" else theme.MARK_SUNK, fade))
            Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
            r2 = w * 0.12
            Color(*_faded(theme.TEXT, fade))
            Ellipse(pos=(cx - r2, cy - r2), size=(2 * r2, 2 * r2))

    def _outline(self, cells: Iterable[Square], width: float) -> None:
        rects = [self.square_rect(c) for c in cells]
        left = min(r[0] for r in rects) - width / 2
        bottom = min(r[1] for r in rects) - width / 2
        right = max(r[0] + r[2] for r in rects) + width / 2
        top = max(r[1] + r[3] for r in rects) + width / 2
        Line(rounded_rectangle=(left, bottom, right - left, top - bottom, width * 1.5), width=width)

    def _aim(self, square: Square, s: theme.Sizes) -> None:
        x, y, w, h = self.square_rect(square)
        cx, cy = x + w / 2, y + h / 2
        Color(*theme.ACCENT)
        Line(rectangle=(x, y, w, h), width=max(2.0, s(3)))
        arm = w * 0.3
        Color(*theme.CROSSHAIR)
        Line(points=[cx - arm, cy, cx + arm, cy], width=max(1.0, s(1.5)))
        Line(points=[cx, cy - arm, cx, cy + arm], width=max(1.0, s(1.5)))

    def _labels(self, fade: float) -> None:
        left, top = self.origin
        step = self.step
        size = max(9.0, step * 0.42)
        Color(*_faded(theme.TEXT_DIM, fade))
        for index, letter in enumerate(COLUMNS):
            self._text(letter, size, left + (index + 0.5) * step, top + step * LABEL_SHARE / 2)
        for row in range(1, SIZE + 1):
            self._text(str(row), size, left - step * LABEL_SHARE / 2, top - (row - 0.5) * step)

    @staticmethod
    def _text(text: str, size: float, x: float, y: float) -> None:
        label = CoreLabel(text=text, font_size=size, bold=True)
        label.refresh()
        texture = label.texture
        Rectangle(texture=texture, size=texture.size, pos=(x - texture.width / 2, y - texture.height / 2))

    # -- input --

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.interactive or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        square = self.square_at(*touch.pos)
        if square is not None:
            self.dispatch("on_square", square)
        return True

    def on_square(self, square: Square) -> None:
        pass


def _faded(colour: theme.RGBA, fade: float) -> theme.RGBA:
    return (colour[0], colour[1], colour[2], colour[3] * fade)
