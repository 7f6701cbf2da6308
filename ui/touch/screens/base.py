"""What every kiosk screen shares: a dark background, a header and a way back to the app."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from kivy.graphics import Color, Rectangle
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from ui.touch import theme
from ui.touch.controls import FitLabel

if TYPE_CHECKING:
    from kiosk.config import Settings
    from kiosk.house import Kiosk
    from kiosk.service import GameService, MatchUpdate
    from ui.touch.games import Game


class KioskApp(Protocol):
    """The app as its screens use it (ui/touch/app.py builds the screens and hands itself in)."""

    kiosk: Kiosk
    rng: random.Random
    games: tuple[Game, ...]  # the hosted games with screens, in the order Home offers them

    @property
    def service(self) -> GameService: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def simulator(self) -> bool: ...

    def go(self, name: str) -> None: ...

    def flow_screen(self) -> str | None: ...

    def screen(self, name: str) -> Any: ...

    def toast(self, message: str, seconds: float = 4.0) -> None: ...

    def start_game(self, start: Callable[[], None]) -> None: ...

    def set_language(self, language: str) -> None: ...

    def choose_language(self, language: str) -> None: ...


class KioskScreen(Screen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.app = app
        with self.canvas.before:
            Color(*theme.BACKGROUND)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._sync_bg, size=self._sync_bg)

    def _sync_bg(self, *_args: object) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size

    def refresh(self) -> None:
        """Show the current state (called when the screen is entered and after updates)."""

    def on_update(self, update: MatchUpdate) -> None:
        """A batch of match events, heard while this screen is shown."""
        self.refresh()

    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()

    def toast_anchor(self) -> Widget | None:
        """The widget short messages lie over on this screen (None: across the bottom)."""
        return None

    def toast_room(self, height: float) -> bool:
        """Make room `height` px tall for a toast that finds no place where it is read (80 %
        of the font, the whole window's width) among this screen's controls; True when the
        layout changes for it (the toast is placed again once the controls have moved).
        Most screens have room enough and change nothing."""
        return False

    def toast_gone(self) -> None:
        """The toast the screen made room for has gone: the layout as it was."""


def heading(text: str, units: float = 30, **kwargs: Any) -> Label:
    """A screen's title: one line at `units`, or two in a smaller font where it does not fit (a
    title with a team's name in it, "The Extraordinarily Long Named D: place your fleet", was cut
    at its top and bottom)."""
    s = theme.sizes()
    return FitLabel(
        text,
        font_units=units,
        bold=True,
        color=theme.TEXT,
        size_hint_y=None,
        height=s(units * 1.6),
        halign="left",
        valign="middle",
        **kwargs,
    )
