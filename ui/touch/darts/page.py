"""The dart game's board page: the board as a square on the left, as tall as the page."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from kiosk.board import board_for
from ui.touch import theme
from ui.touch.darts.dartboard import DartboardView
from ui.touch.screens.base import KioskApp


def board_page(app: KioskApp, spacing: float) -> tuple[BoxLayout, DartboardView]:
    """A page with the game's board (the default board before any game) as a square on its
    left, as tall as the page; the caller adds the side column."""
    s = theme.sizes()
    page = BoxLayout(padding=s(8), spacing=s(spacing))
    match = app.match
    view = DartboardView(match.board if match else board_for(), size_hint_x=None)
    page.bind(height=lambda _w, h: setattr(view, "width", h - 2 * s(8)))
    page.add_widget(view)
    return page, view
