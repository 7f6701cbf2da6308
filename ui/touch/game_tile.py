"""Home's tile of one game: its title on one line at the top, its subtitle (up to two lines)
under it. Every tile's title sits at the same height whatever its subtitle's length (a text block
centred in a button put "Dart game", whose subtitle is one line, lower than the others)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.uix.behaviors import ButtonBehavior

from ui.touch import theme
from ui.touch.controls import FitLabel, Panel


class GameTile(ButtonBehavior, Panel):
    """A coloured touch target: `title` (bold, one line) over `subtitle`; a tap calls `on_tap`."""

    def __init__(
        self, title: str, subtitle: str, on_tap: Callable[[], object], colour: theme.RGBA, height: float
    ) -> None:
        s = theme.sizes()
        super().__init__(
            background=colour,
            orientation="vertical",
            size_hint_y=None,
            height=height,
            padding=(s(6), s(8)),
            spacing=s(2),
        )
        self.colour = colour
        self.title = FitLabel(
            title,
            26,
            lines=1,
            bold=True,
            color=theme.TEXT,
            halign="center",
            valign="top",
            size_hint_y=None,
            height=s(34),
        )
        self.subtitle = FitLabel(subtitle, 16, lines=2, color=theme.TEXT, halign="center", valign="top")
        for label in (self.title, self.subtitle):
            label.bind(size=lambda w, *_a: setattr(w, "text_size", w.size))
            self.add_widget(label)
        self.bind(on_release=lambda *_a: on_tap(), state=self._pressed)

    @property
    def text(self) -> str:
        """What the tile says (the tour and the text checks find it by its title)."""
        return self.title.text

    def _pressed(self, *_args: object) -> None:
        r, g, b, a = self.colour
        shade = 0.7 if self.state == "down" else 1.0
        self.background = [r * shade, g * shade, b * shade, a]
