"""The dart game's board page: the board as a square on the left, as tall as the page."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.board import board_for
from kiosk.darts.kind import DARTS
from kiosk.i18n import _
from ui.touch import theme
from ui.touch.controls import BigButton
from ui.touch.darts.dartboard import DartboardView
from ui.touch.screens.base import KioskApp


def home_button(app: KioskApp, height: float | None = None, font_units: float = 18) -> BigButton:
    """Home from a running game (`height` in px, 40 units by default): the game stays as it is
    (Home offers Continue; Settings, behind the PIN, can abandon it)."""
    s = theme.sizes()
    return BigButton(
        _("Home"),
        lambda: app.go("home"),
        colour=theme.PANEL_LIGHT,
        font_units=font_units,
        size_hint=(None, None),
        height=height if height is not None else s(40),
    ).fit_width(s(84))


def with_home(app: KioskApp, top: Any) -> BoxLayout:
    """A side column's top line: `top` (its heading) and Home at its right."""
    s = theme.sizes()
    row = BoxLayout(spacing=s(8), size_hint_y=None, height=max(top.height, s(40)))
    top.size_hint_y = 1
    row.add_widget(top)
    button = home_button(app)
    row.add_widget(button)
    row.bind(height=lambda _w, h: setattr(button, "height", min(h, s(44))))
    return row


def board_page(app: KioskApp, spacing: float) -> tuple[BoxLayout, DartboardView]:
    """A page with the game's board (the default board before any game) as a square on its
    left, as tall as the page; the caller adds the side column."""
    s = theme.sizes()
    page = BoxLayout(padding=s(8), spacing=s(spacing))
    match = DARTS.in_play(app.service)
    view = DartboardView(match.board if match else board_for(), size_hint_x=None)
    page.bind(height=lambda _w, h: setattr(view, "width", h - 2 * s(8)))
    page.add_widget(view)
    return page, view
