"""Where a toast goes: never over a button.

A toast (a refusal, a device's news) can come on any screen at any time, so its place is found
on the window as it is drawn then: every control a person may want to read or tap while it shows
(a button, a game tile, an Express ship, a text field, the docked keyboard) is an obstacle, and
the toast takes the lowest place clear of all of them, first inside the screen's own spot for it
(`toast_anchor()`: the drawn board, the big grid, the result table), then anywhere on the window.
It may lie over a board or a grid: those are the largest things on their screens, a toast covers a
band of one for a few seconds, and a tap on it still reaches the cell under it (a toast takes no
touches). Only where no place on the window is clear (none of the kiosk's screens, checked by
`dartship screenshots --check` in every language and size) does it fall back to the bottom.

`place` is the geometry alone (boxes in window pixels); `obstacles` reads them off the window.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kivy.uix.widget import Widget

# A toast is at least this tall (theme units): one line of its text and its margins. A screen
# with no room clear of its controls keeps a band this tall for one (Express's line-up, over
# its prompt).
LEAST_HEIGHT = 52


@dataclass(frozen=True)
class Box:
    """A rectangle in window pixels (x, y: its bottom-left corner)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    def overlaps(self, other: Box) -> bool:
        return self.x < other.right and other.x < self.right and self.y < other.top and other.y < self.top

    def grown(self, by: float) -> Box:
        return Box(self.x - by, self.y - by, self.width + 2 * by, self.height + 2 * by)

    def clipped(self, to: Box) -> Box | None:
        """The part of this box inside `to` (None: none)."""
        x, y = max(self.x, to.x), max(self.y, to.y)
        right, top = min(self.right, to.right), min(self.top, to.top)
        return Box(x, y, right - x, top - y) if right > x and top > y else None


def place(
    region: Box,
    obstacles: Sequence[Box],
    height_for: Callable[[float], float],
    *,
    least_width: float,
    step: float = 1.0,
) -> Box | None:
    """The toast's box inside `region` that overlaps no obstacle: the one whose top is lowest
    (it hides the least above it), the wider of two alike. Its width is the room between
    obstacles (or the region's edges), at least `least_width`, rounded down to `step` (not below
    `least_width`) and centred in that room; its height `height_for(width)`. None when no such box fits."""
    inside = [o for o in obstacles if o.overlaps(region)]
    lefts = {region.x} | {o.right for o in inside if region.x < o.right < region.right}
    rights = {region.right} | {o.x for o in inside if region.x < o.x < region.right}
    best: Box | None = None
    tried: set[tuple[float, float]] = set()
    for left in lefts:
        for right in rights:
            room = right - left
            if room < least_width or room <= 0:
                continue
            width = room if room >= region.width else max(least_width, (room // step) * step)
            x = left + (room - width) / 2
            if (x, width) in tried:
                continue
            tried.add((x, width))
            height = height_for(width)
            # Only what stands in this column can be in the way; the toast rests on the region's
            # floor or on the top of one of them.
            column = [o for o in inside if o.x < x + width and x < o.right]
            floors = sorted({region.y} | {o.top for o in column if region.y < o.top < region.top})
            for y in floors:
                if y + height > region.top or (best is not None and y + height > best.top):
                    break
                box = Box(x, y, width, height)
                if not any(box.overlaps(o) for o in column):
                    if best is None or (box.top, -box.width) < (best.top, -best.width):
                        best = box
                    break
    return best


def reaching_up(box: Box, region: Box, obstacles: Sequence[Box], most: float) -> Box:
    """`box` grown upwards to what lies above it (the lowest obstacle over its column, or the
    region's top) when that is at most `most` away: a toast over a band of text (Express's
    line-up prompt) covers the band whole, never leaving a sliver of the text showing above it."""
    ceiling = min(
        [region.top] + [o.y for o in obstacles if o.x < box.right and box.x < o.right and o.y >= box.top]
    )
    if 0 < ceiling - box.top <= most:
        return Box(box.x, box.y, box.width, ceiling - box.y)
    return box


def widget_box(widget: Widget) -> Box:
    """Where `widget` is drawn, in window pixels."""
    x, y = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.x + widget.width, widget.y + widget.height)
    return Box(min(x, right), min(y, top), abs(right - x), abs(top - y))


def _controls(root: Widget, clip: Box | None) -> Iterator[tuple[Widget, Box]]:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.textinput import TextInput

    stack: list[tuple[Widget, Box | None]] = [(root, clip)]
    while stack:
        widget, window = stack.pop()
        if widget.opacity <= 0 or widget.width <= 0 or widget.height <= 0:
            continue
        if isinstance(widget, ButtonBehavior | TextInput):
            box = widget_box(widget)
            shown = box.clipped(window) if window is not None else box
            if shown is not None:
                yield widget, shown
            continue
        inner = window
        if isinstance(widget, ScrollView):  # it shows only what lies in its own box
            own = widget_box(widget)
            inner = own.clipped(window) if window is not None else own
            if inner is None:
                continue
        stack.extend((child, inner) for child in widget.children)


def controls(skip: Widget | None = None) -> list[tuple[Widget, Box]]:
    """Every control that can be tapped on the window now (the screen and the chrome, or the
    popup open over them; not `skip`, the toast itself), and the box of it that shows; the
    docked keyboard as one box."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView
    from kivy.uix.vkeyboard import VKeyboard

    screen = Box(0.0, 0.0, float(Window.width), float(Window.height))
    found: list[tuple[Widget, Box]] = []
    for top in Window.children:  # the top one first
        if top is skip:
            continue
        if isinstance(top, VKeyboard):
            keys = Box(0.0, 0.0, float(top.width * top.scale), float(top.height * top.scale)).clipped(screen)
            found.extend([(top, keys)] if keys is not None else [])
            continue
        for widget, box in _controls(top, screen):
            if skip is None or not _inside(widget, skip):
                found.append((widget, box))
        if isinstance(top, ModalView):
            break  # a popup takes every touch: what lies under it cannot be tapped now
    return found


def _inside(widget: Widget, ancestor: Widget) -> bool:
    node: Widget | None = widget
    while node is not None:
        if node is ancestor:
            return True
        parent = node.parent
        node = parent if parent is not node else None
    return False


def covered(toast: Widget) -> list[str]:
    """The controls the shown `toast` lies over (their texts, or their kinds): none, always."""
    if toast.opacity <= 0:
        return []
    where = widget_box(toast)
    return [
        str(getattr(widget, "text", "") or type(widget).__name__)
        for widget, box in controls(skip=toast)
        if box.overlaps(where)
    ]
