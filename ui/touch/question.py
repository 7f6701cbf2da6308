"""The shell's one question: a dark veil over the screen, what is at stake, and two answers, the
safe one on the left (Stay, Keep playing) and the one that ends something on the right (Quit,
Start new game). Escape's "Quit Dartship?" (ui/touch/quit.py) and the question before a new
game over one in play (`DartshipApp.start_game`) are this widget."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from ui.touch import theme
from ui.touch.controls import BigButton, Caption, Panel


class Question(ModalView):
    """`title` and `detail` with the answers `stay` (closes, then calls `on_stay` if given) and
    `go` (closes, then calls `on_go`). It closes only by an answer: a tap beside it does nothing."""

    def __init__(
        self,
        title: str,
        detail: str,
        *,
        stay: str,
        go: str,
        on_go: Callable[[], None],
        on_stay: Callable[[], None] | None = None,
        go_colour: theme.RGBA = theme.DANGER,
        **kwargs: Any,
    ) -> None:
        super().__init__(size_hint=(0.7, 0.5), auto_dismiss=False, background_color=(0, 0, 0, 0.75), **kwargs)
        s = theme.sizes()
        body = Panel(orientation="vertical", radius=s(12), padding=s(14), spacing=s(10))
        body.add_widget(Caption(title, font_units=30, bold=True))
        body.add_widget(Caption(detail, font_units=20, colour=theme.TEXT_DIM))
        row = BoxLayout(spacing=s(10), size_hint_y=None, height=s.touch)
        self.stay_button = BigButton(stay, self._stay, colour=theme.PANEL_LIGHT)
        self.go_button = BigButton(go, self._go, colour=go_colour)
        row.add_widget(self.stay_button)
        row.add_widget(self.go_button)
        body.add_widget(row)
        self.add_widget(body)
        self._on_go, self._on_stay = on_go, on_stay

    def close(self) -> None:
        # At once, not faded out: the screen under it is live again the moment it is answered.
        self.dismiss(animation=False)

    def _stay(self) -> None:
        self.close()
        if self._on_stay is not None:
            self._on_stay()

    def _go(self) -> None:
        self.close()
        self._on_go()
