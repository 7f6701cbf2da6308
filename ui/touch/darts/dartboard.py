"""A drawn dartboard that shows marks on cells and turns taps and drags into cells.

What it shows is decided by its owner through `marks` (cell -> kind, see theme.MARKS) and
`outlines` (cells to outline, e.g. a sunk ship): the widget itself never looks at a match,
so it cannot show anything it was not given. Screens own the hidden-information rules.
"""

from __future__ import annotations

import math

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.input.motionevent import MotionEvent
from kivy.uix.widget import Widget

from kiosk.board import BULL, NUMBERS, Board, BullZone, Cell, Ring
from kiosk.geometry import (
    DOUBLE_OUTER_R,
    INNER_BULL_R,
    WEDGE_DEG,
    Sector,
    cell_sectors,
    landing,
    wedge_angles,
)
from ui.touch import theme

# The number ring sits outside the doubles; the widget fits this radius (mm) into itself.
NUMBER_R = 188.0
FIT_R = 204.0
ARC_STEP_DEG = 3.0
# The coach's shading is absolute: a cell is full HEAT colour from this chance of a ship on, so
# the empty board at the start looks lukewarm and the cells next to a hit glow.
HEAT_FULL = 0.6


class DartboardView(Widget):
    """Events: `on_cell(cell, zone)` for a tap, `on_drag(cells)` for a drag over several cells,
    `on_double_tap(cell)` for the second tap of a double tap on the cell just tapped (taken for
    a bounce of the finger: no `on_cell`)."""

    __events__ = ("on_cell", "on_drag", "on_double_tap")

    def __init__(self, board: Board, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.board = board
        self.marks: dict[Cell, str] = {}
        self.outlines: list[tuple[Cell, ...]] = []
        self.last: Cell | None = None
        # The coach's overlay and the kiosk's darts (points in mm, origin the bull, y up).
        self.heat: dict[Cell, float] = {}
        self.crosshair: tuple[float, float] | None = None
        self.scatter_mm = 0.0
        self.pins: list[tuple[float, float]] = []
        self.hidden = False  # the privacy cover: a board with nothing on it but a message
        self.interactive = True
        self._last_tap: Cell | None = None
        self.bind(pos=self.redraw, size=self.redraw)

    # -- what to show --

    def show(
        self, marks: dict[Cell, str], outlines: list[tuple[Cell, ...]] | None = None, last: Cell | None = None
    ) -> None:
        self.marks = dict(marks)
        self.outlines = list(outlines or [])
        self.last = last
        self.redraw()

    def overlay(
        self,
        heat: dict[Cell, float] | None = None,
        crosshair: tuple[float, float] | None = None,
        scatter_mm: float = 0.0,
        pins: list[tuple[float, float]] | None = None,
    ) -> None:
        """Shade unmarked cells by `heat`, draw the aim `crosshair` and landing `pins` (mm)."""
        self.heat = dict(heat or {})
        self.crosshair = crosshair
        self.scatter_mm = scatter_mm
        self.pins = list(pins or [])
        self.redraw()

    @property
    def centre(self) -> tuple[float, float]:
        """The board's centre in pixels, computed from `pos` and `size` every time.

        Not Kivy's `center`: that is a cached AliasProperty which starts watching `pos` and
        `size` only when first read, so inside a `size` callback bound earlier (our `redraw`)
        it still holds the previous value. The first drawing of a freshly laid-out board used
        it and landed half off-screen, while taps (read later) used the real geometry.
        """
        return (self.x + self.width / 2, self.y + self.height / 2)

    def mm_to_px(self, x: float, y: float) -> tuple[float, float]:
        cx, cy = self.centre
        return (cx + x * self.scale, cy + y * self.scale)

    def set_board(self, board: Board) -> None:
        self.board = board
        self.redraw()

    # -- geometry --

    @property
    def scale(self) -> float:
        """Pixels per millimetre."""
        return min(self.width, self.height) / (2 * FIT_R)

    def to_px(self, r_mm: float, angle_deg: float) -> tuple[float, float]:
        a = math.radians(angle_deg)
        cx, cy = self.centre
        return (cx + r_mm * self.scale * math.sin(a), cy + r_mm * self.scale * math.cos(a))

    def to_mm(self, x: float, y: float) -> tuple[float, float]:
        cx, cy = self.centre
        return ((x - cx) / self.scale, (y - cy) / self.scale)

    def cell_at(self, x: float, y: float) -> tuple[Cell, BullZone]:
        return landing(*self.to_mm(x, y), self.board)

    def point_of(self, cell: Cell) -> tuple[float, float]:
        """Screen point inside a cell (tests and the demo tap here)."""
        from kiosk.geometry import cell_centre

        return self.mm_to_px(*cell_centre(cell, self.board))

    # -- drawing --

    def _base_colour(self, cell: Cell) -> theme.RGBA:
        if cell.ring is Ring.BULL:
            return theme.BOARD_GREEN  # the outer bull; the inner one is drawn over it
        even = NUMBERS.index(cell.number) % 2 == 0
        if cell.ring in (Ring.DOUBLE, Ring.TRIPLE):
            return theme.BOARD_RED if even else theme.BOARD_GREEN
        return theme.BOARD_DARK if even else theme.BOARD_LIGHT

    def _sector(self, sector: Sector) -> None:
        if sector.end_deg - sector.start_deg >= 360:
            r = sector.r_outer * self.scale
            cx, cy = self.centre
            Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
            return
        steps = max(2, math.ceil((sector.end_deg - sector.start_deg) / ARC_STEP_DEG))
        vertices: list[float] = []
        for i in range(steps + 1):
            angle = sector.start_deg + (sector.end_deg - sector.start_deg) * i / steps
            for radius in (sector.r_inner, sector.r_outer):
                x, y = self.to_px(radius, angle)
                vertices += [x, y, 0.0, 0.0]
        Mesh(vertices=vertices, indices=list(range(len(vertices) // 4)), mode="triangle_strip")

    def _outline(self, sector: Sector, width: float) -> None:
        if sector.end_deg - sector.start_deg >= 360:
            Line(circle=(*self.centre, sector.r_outer * self.scale), width=width)
            return
        steps = max(2, math.ceil((sector.end_deg - sector.start_deg) / ARC_STEP_DEG))
        points: list[float] = []
        for i in range(steps + 1):
            points += self.to_px(
                sector.r_outer, sector.start_deg + (sector.end_deg - sector.start_deg) * i / steps
            )
        for i in range(steps, -1, -1):
            points += self.to_px(
                sector.r_inner, sector.start_deg + (sector.end_deg - sector.start_deg) * i / steps
            )
        Line(points=points, width=width, close=True)

    def redraw(self, *_args: object) -> None:
        self.canvas.clear()
        if self.width <= 1 or self.height <= 1:
            return
        s = theme.sizes()
        with self.canvas:
            Color(*theme.BOARD_LINE)
            r = DOUBLE_OUTER_R * self.scale * 1.02
            cx, cy = self.centre
            Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
            shading = bool(self.heat) and not self.hidden
            plain_bull = True
            for cell in self.board.cells:
                kind = None if self.hidden else self.marks.get(cell)
                if kind:
                    Color(*theme.MARKS[kind])
                elif shading and self.heat.get(cell, 0.0) > 0:
                    Color(*_mix(self._base_colour(cell), theme.HEAT, self.heat[cell] / HEAT_FULL))
                else:
                    Color(*self._base_colour(cell))
                if cell == BULL:
                    plain_bull = not kind and not (shading and self.heat.get(cell, 0.0) > 0)
                for sector in cell_sectors(cell, self.board):
                    self._sector(sector)
            self._inner_bull(plain_bull, max(1.0, s(1)))
            self._grid_lines(max(1.0, s(1)))
            if not self.hidden:
                Color(*theme.OUTLINE_SUNK)
                for ship in self.outlines:
                    for cell in ship:
                        for sector in cell_sectors(cell, self.board):
                            self._outline(sector, max(1.5, s(2.5)))
                if self.last is not None and self.last.on_board:
                    Color(*theme.OUTLINE_LAST)
                    for sector in cell_sectors(self.last, self.board):
                        self._outline(sector, max(1.5, s(2)))
                self._pins_and_crosshair(s)
            self._numbers()

    def _pins_and_crosshair(self, s: theme.Sizes) -> None:
        for index, (x, y) in enumerate(self.pins):
            px, py = self.mm_to_px(x, y)
            r = s(7) if index == len(self.pins) - 1 else s(5)
            Color(*theme.CROSSHAIR_SHADOW)
            Ellipse(pos=(px - r - s(2), py - r - s(2)), size=(2 * r + s(4), 2 * r + s(4)))
            Color(*(theme.PIN_LAST if index == len(self.pins) - 1 else theme.PIN))
            Ellipse(pos=(px - r, py - r), size=(2 * r, 2 * r))
        if self.crosshair is None:
            return
        px, py = self.mm_to_px(*self.crosshair)
        arm = s(16)
        for colour, width in (
            (theme.CROSSHAIR_SHADOW, max(2.0, s(3.5))),
            (theme.CROSSHAIR, max(1.0, s(1.5))),
        ):
            Color(*colour)
            Line(points=[px - arm, py, px + arm, py], width=width)
            Line(points=[px, py - arm, px, py + arm], width=width)
            Line(circle=(px, py, s(6)), width=width)
        if self.scatter_mm > 0:
            # Where about two darts in five land: the thrower's one-sigma circle.
            Color(*theme.CROSSHAIR[:3], 0.75)
            Line(circle=(px, py, self.scatter_mm * self.scale), width=max(1.0, s(1.5)))

    def _inner_bull(self, plain: bool, width: float) -> None:
        """Both bulls, as on the board (the bull-off tells them apart, a tap too): the inner one
        red on the outer's green; over a marked or shaded bull, only its edge."""
        r = INNER_BULL_R * self.scale
        cx, cy = self.centre
        if plain:
            Color(*theme.BOARD_RED)
            Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
        Color(*theme.BOARD_LINE)
        Line(circle=(cx, cy, r), width=width)

    def _grid_lines(self, width: float) -> None:
        Color(*theme.BOARD_LINE)
        from kiosk.geometry import OUTER_BULL_R

        for number in NUMBERS:
            start, _end = wedge_angles(number)
            Line(points=[*self.to_px(OUTER_BULL_R, start), *self.to_px(DOUBLE_OUTER_R, start)], width=width)

    def _numbers(self) -> None:
        size = max(10.0, self.scale * 15)
        for number in NUMBERS:
            label = CoreLabel(text=str(number), font_size=size, bold=True)
            label.refresh()
            texture = label.texture
            x, y = self.to_px(NUMBER_R, NUMBERS.index(number) * WEDGE_DEG)
            Color(*theme.TEXT)
            Rectangle(texture=texture, size=texture.size, pos=(x - texture.width / 2, y - texture.height / 2))

    # -- input --

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.interactive or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        touch.grab(self)
        cell, zone = self.cell_at(*touch.pos)
        touch.ud["dartboard_path"] = [cell] if cell.on_board else []
        touch.ud["dartboard_first"] = (cell, zone)
        return True

    def on_touch_move(self, touch: MotionEvent) -> bool:
        if touch.grab_current is not self:
            return super().on_touch_move(touch)
        cell, _zone = self.cell_at(*touch.pos)
        path: list[Cell] = touch.ud["dartboard_path"]
        if cell.on_board and (not path or path[-1] != cell):
            path.append(cell)
        return True

    def on_touch_up(self, touch: MotionEvent) -> bool:
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        path: list[Cell] = touch.ud.get("dartboard_path", [])
        distinct = list(dict.fromkeys(path))
        if len(distinct) >= 2:
            self.dispatch("on_drag", distinct)
        else:
            cell, zone = touch.ud["dartboard_first"]
            if touch.is_double_tap and self._last_tap == cell:
                # The second tap of a double tap on the same cell (Kivy's doubletap: within
                # 0.25 s) is a finger's bounce, not a second dart: it scored two darts.
                self.dispatch("on_double_tap", cell)
                return True
            self._last_tap = cell
            self.dispatch("on_cell", cell, zone)
        return True

    def on_cell(self, cell: Cell, zone: BullZone) -> None:
        pass

    def on_double_tap(self, cell: Cell) -> None:
        pass

    def on_drag(self, cells: list[Cell]) -> None:
        pass


def _mix(a: theme.RGBA, b: theme.RGBA, t: float) -> theme.RGBA:
    """From `a` towards `b` by `t` (clipped to 0..1)."""
    t = max(0.0, min(1.0, t))
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t, 1.0)
