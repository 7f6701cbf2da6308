"""The kiosk's building blocks: big buttons, captions, coloured panels, choice buttons."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.properties import ListProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.utils import escape_markup

from ui.touch import theme
from ui.touch.fitting import marks_kept, plain_text, rows, whole

if TYPE_CHECKING:
    from kivy.uix.textinput import TextInput

# Signs Roboto (Kivy's font, the kiosk's) lacks; DejaVu Sans, shipped with Kivy, has them.
SYMBOLS = "✓⌫●→"


def with_symbols(text: str) -> str:
    """`text` as markup for a label with markup=True: in the label's own font, but for the
    signs Roboto lacks, which are drawn in DejaVu Sans. (A whole label in DejaVu Sans for one
    tick looked like another program's.) Names with [ or ] stay as typed."""
    marked = escape_markup(text)
    for sign in SYMBOLS:
        marked = marked.replace(sign, f"[font={theme.SYMBOL_FONT}]{sign}[/font]")
    return marked


class Backdrop:
    """Mixin: a filled background that follows the widget (canvas.before)."""

    background = ListProperty(theme.PANEL)

    def _init_backdrop(self, radius: float = 0) -> None:
        with self.canvas.before:  # type: ignore[attr-defined]
            self._bg_colour = Color(*self.background)
            if radius:
                self._bg_shape = RoundedRectangle(radius=[radius])
            else:
                self._bg_shape = Rectangle()
        self.bind(  # type: ignore[attr-defined]
            pos=self._sync_backdrop,
            size=self._sync_backdrop,
            background=self._sync_backdrop,
        )

    def _sync_backdrop(self, *_args: object) -> None:
        self._bg_colour.rgba = self.background
        self._bg_shape.pos = self.pos  # type: ignore[attr-defined]
        self._bg_shape.size = self.size  # type: ignore[attr-defined]


class Panel(Backdrop, BoxLayout):
    def __init__(self, background: theme.RGBA = theme.PANEL, radius: float = 0, **kwargs: object) -> None:
        kwargs.setdefault("spacing", theme.sizes().gap)
        kwargs.setdefault("padding", theme.sizes().gap)
        super().__init__(**kwargs)
        self.background = list(background)
        self._init_backdrop(radius)


class BigButton(Button):
    """A touch target at least 56 units high, flat and coloured."""

    def __init__(
        self,
        text: str,
        on_press: Callable[[], Any] | None = None,
        colour: theme.RGBA = theme.ACCENT,
        font_units: float = 22,
        **kwargs: object,
    ) -> None:
        s = theme.sizes()
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", s.touch)
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "middle")
        super().__init__(
            text=text,
            font_size=s(font_units),
            background_normal="",
            background_down="",
            background_color=colour,
            color=theme.TEXT,
            **kwargs,
        )
        self.base_colour = colour
        self.base_font = s(font_units)
        self._refit = before_the_frame(self.refit)
        self.bind(size=self._wrap, text=self._wrap, state=self._pressed)
        if on_press is not None:
            self.bind(on_release=lambda *_a: on_press())

    def _wrap(self, *_args: object) -> None:
        self.text_size = (self.width - theme.sizes()(8), None)
        self._refit()

    def refit(self) -> None:
        """A word wider than the button, or lines taller than it, make the font smaller (to
        70 %). Done before the next frame (`before_the_frame`), not at each size a layout
        passes through, so it is measured once, at the size drawn."""
        room = self.width - theme.sizes()(8)
        self.font_size = fitting_font(self, self.base_font, room, height=self.height, smallest=0.7)

    def fit_width(self, least: float) -> BigButton:
        """A button of its own size (size_hint_x None): as wide as its one-line text needs, at
        least `least` px ("Valmentaja" is wider than "Coach")."""
        probe = CoreLabel(text=self.text, font_size=self.base_font, font_name=self.font_name, bold=self.bold)
        probe.refresh()
        self.width = max(least, probe.texture.size[0] + theme.sizes()(16))
        return self

    def _pressed(self, *_args: object) -> None:
        r, g, b, a = self.base_colour
        shade = 0.7 if self.state == "down" else 1.0
        self.background_color = (r * shade, g * shade, b * shade, a)

    def set_colour(self, colour: theme.RGBA) -> None:
        self.base_colour = colour
        self._pressed()


class Caption(Label):
    """Text that wraps to its width and grows to its height (for flowing layouts), at least
    `least_height` px tall while it has a text."""

    def __init__(
        self,
        text: str = "",
        font_units: float = 20,
        colour: theme.RGBA = theme.TEXT,
        grow: bool = True,
        least_height: float = 0.0,
        **kwargs: object,
    ) -> None:
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "middle")
        super().__init__(text=text, font_size=theme.sizes()(font_units), color=colour, **kwargs)
        self.grow = grow
        self.least_height = least_height
        self.bind(width=self._wrap, texture_size=self._fit, text=self._fit)
        self.bind(text=self._keep_marks)
        self._keep_marks(self, self.text)
        self._fit()

    def _keep_marks(self, _caption: object, text: str) -> None:
        # A wrapped text keeps its marks with their words (the shared rule: `marks_kept`).
        # Bound after the Label's own observers: the text set here reaches the core label
        # last (an `on_text` runs first, and the Label then lays out the text as it came).
        kept = marks_kept(text)
        if kept != text:
            self.text = kept

    def _wrap(self, *_args: object) -> None:
        self.text_size = (self.width, None)

    def _fit(self, *_args: object) -> None:
        # An empty caption takes no room (Kivy's default height of 100 would push layouts over).
        if self.grow and self.size_hint_y is None:
            self.height = max(self.texture_size[1], self.least_height) if self.text else 0


def before_the_frame(fit: Callable[[], None]) -> Callable[..., None]:
    """A handler for size and text changes that fits once, before the next frame is drawn: a
    layout moves a widget through several sizes (Kivy's default 100x100 first), and measuring
    text at each of them cost the kiosk's start a good part of its time."""
    trigger = Clock.create_trigger(lambda _dt: fit(), -1)
    return lambda *_args: trigger()


def fitting_font(
    label: Label,
    base_font: float,
    width: float,
    *,
    height: float | None = None,
    lines: int | None = None,
    smallest: float = 0.6,
) -> float:
    """THE rule for a text in a box of its own (a button, a heading, a table's cell, a tile):
    the largest font size, at most `base_font` and at least `smallest` of it, at which
    `label`'s text, wrapped to `width` px, keeps every word whole ("Rückgängig", never
    "Rückgängi" / "g"), takes at most `lines` lines and is no taller than `height` px. It is
    measured as Kivy lays the text out, again at each size tried: a font's widths do not shrink
    in proportion (hinting, whole-pixel sizes), so a size scaled once by width/need can still
    leave a word a pixel too wide. Past `smallest` the text stays at that size (and may break)."""
    text = str(label.text)
    if width <= 1 or not text.strip():
        return base_font
    return _fitting_font(
        text,
        base_font,
        width,
        height,
        lines,
        smallest,
        (label.font_name, bool(label.bold), bool(label.markup), bool(label.shorten), str(label.valign)),
    )


def text_height(label: Label, width: float) -> float:
    """How tall `label`'s text is, wrapped to `width` px at its font and kept to its
    `max_lines`: what a box of that width must give it (a label with a height of its own draws
    no more than that height of it)."""
    probe = CoreLabel(
        text=str(label.text),
        font_size=label.font_size,
        font_name=label.font_name,
        bold=bool(label.bold),
        text_size=(width, None),
        max_lines=int(label.max_lines),
    )
    probe.refresh()
    return rows(probe)[1]


@functools.lru_cache(maxsize=4096)
def _fitting_font(
    text: str,
    base_font: float,
    width: float,
    height: float | None,
    lines: int | None,
    smallest: float,
    font: tuple[str, bool, bool, bool, str],
) -> float:
    font_name, bold, markup, shorten, valign = font
    if not markup and "\n" not in text:
        # Most texts fit on one line: the font's metrics say so without laying anything out.
        metrics = CoreLabel(font_size=base_font, font_name=font_name, bold=bold)
        metrics.resolve_font_name()
        wide, high = metrics.get_extents(text)
        if wide <= width - 1 and (height is None or high <= height):
            return base_font

    def laid(size: float, box: float | None) -> tuple[list[str], float]:
        probe = (MarkupLabel if markup else CoreLabel)(
            text=text,
            font_size=size,
            font_name=font_name,
            bold=bold,
            text_size=(width, box),
            valign=valign,
            shorten=shorten,  # Kivy shortens a line that only just fits: measured as it will
        )
        probe.refresh()
        return rows(probe)

    def fits(size: float) -> bool:
        words, tall = laid(size, None)
        if not (
            whole(plain_text(text, markup), words)
            and (lines is None or len(words) <= lines)
            and (height is None or tall <= height)
        ):
            return False
        # In the box, as the label lays it out: a label centred in its height drops a last line
        # that just fits when laid out from the top ("... or place" without "here" under a
        # 32-letter team name).
        return height is None or whole(plain_text(text, markup), laid(size, height)[0])

    least = base_font * smallest
    if width < least:
        return least  # narrower than one letter: a layout passing through (Kivy's first sizes)
    if fits(base_font):
        return base_font
    if not fits(least):
        return least  # a box too small for it even so (or a layout passing through a tiny size)
    # The largest size that fits, between the smallest (fits) and the full one (does not), to
    # within 2 % of it: a font's widths grow nearly, but not exactly, with its size (what is
    # returned has fitted).
    low, high = least, base_font
    while high - low > base_font * 0.02:
        middle = (low + high) / 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


class FitLabel(Label):
    """A label that wraps to its width and fits its box (`fitting_font`): a word wider than the
    label (German "Patrouillenboot") or words that do not fit its height (a long team name, a
    long language) make the font smaller, down to `smallest` (60 %). Words wrap between words,
    never inside one. `lines`: at most this many lines (1: a one-line label; with
    `shorten=True` a text still too long past `smallest` ends in "…" rather than overflow)."""

    def __init__(
        self,
        text: str = "",
        font_units: float = 30,
        *,
        smallest: float = 0.6,
        lines: int | None = None,
        **kwargs: object,
    ) -> None:
        self.base_font: float = theme.sizes()(font_units)
        self.smallest, self.lines = smallest, lines
        super().__init__(text=text, font_size=self.base_font, **kwargs)
        self.bind(size=before_the_frame(self.refit), text=before_the_frame(self.refit))

    def refit(self) -> None:
        """Fit the font to the label's box now (it is done before each frame after a change)."""
        if self.width <= 1 or self.height <= 1:
            return
        self.font_size = fitting_font(
            self, self.base_font, self.width, height=self.height, lines=self.lines, smallest=self.smallest
        )
        self.text_size = (self.width, self.height)


class Prompt(Caption):
    """What the player is to do now: bold, amber, centred (the darts and the dice alike)."""

    def __init__(self, text: str = "", font_units: float = 22, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        super().__init__(text, font_units=font_units, colour=theme.WARN, bold=True, halign="center", **kwargs)


def button_row(*buttons: BigButton, spacing: float = 12) -> BoxLayout:
    """A row of big buttons sharing its width (Back, then what comes next)."""
    s = theme.sizes()
    row = BoxLayout(spacing=s(spacing), size_hint_y=None, height=s.touch)
    for button in buttons:
        row.add_widget(button)
    return row


class ChoiceButton(BigButton):
    """Tap to step through a closed set of choices (touch-friendlier than a dropdown)."""

    def __init__(
        self,
        choices: Sequence[Any],
        value: Any,
        label: Callable[[Any], str] = str,
        on_change: Callable[[Any], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.choices = list(choices)
        self.label = label
        self.on_change = on_change
        self.value = value if value in self.choices else self.choices[0]
        super().__init__(self.label(self.value), self._step, colour=theme.PANEL_LIGHT, **kwargs)

    def _step(self) -> None:
        index = (self.choices.index(self.value) + 1) % len(self.choices)
        self.set_value(self.choices[index])

    def set_value(self, value: Any) -> None:
        self.value = value
        self.text = self.label(value)
        if self.on_change is not None:
            self.on_change(value)


def text_field(text: str = "", hint: str = "", **kwargs: object) -> TextInput:
    """A one-line text field sized for fingers. Kivy's TextInput is imported here, where a field
    is built, not at the top: importing `kivy.uix.textinput` opens Kivy's window (at whatever
    size Kivy is configured for by then, its default 800x600 before the app configures it), so a
    screen's module imported early, by a test or a tool, must not import it."""
    from kivy.uix.textinput import TextInput

    s = theme.sizes()
    kwargs.setdefault("size_hint_y", None)
    kwargs.setdefault("height", s.touch)
    return TextInput(
        text=text,
        hint_text=hint,
        multiline=False,
        font_size=s(22),
        padding=[s(8), (s.touch - s(22) * 1.25) / 2],
        write_tab=False,
        background_color=theme.rgb("e8eef3"),
        **kwargs,
    )
