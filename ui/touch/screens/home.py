"""Home: the big title, Start game, Stats, Settings (PIN) and the language."""

from __future__ import annotations

import functools
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.i18n import _, language
from ui.touch import theme
from ui.touch.controls import BigButton
from ui.touch.screens.base import KioskApp, KioskScreen

LANGUAGE_NAMES = (("en", "English"), ("de", "Deutsch"), ("fi", "Suomi"))


class HomeScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        page = BoxLayout(orientation="vertical", padding=(s(60), s(24)), spacing=s(12))
        page.add_widget(Label(text="DARTSHIP", font_size=s(72), bold=True, color=theme.ACCENT,
                              size_hint_y=None, height=s(90)))
        page.add_widget(Label(text=_("Battleship on a dartboard"), font_size=s(24),
                              color=theme.TEXT_DIM, size_hint_y=None, height=s(32)))
        self.continue_button = BigButton(_("Continue game"), self._continue, colour=theme.GO,
                                         height=s(64), font_units=26)
        self.start_button = BigButton(_("Start game"), lambda: app.go("new_game"),
                                      height=s(64), font_units=26)
        self.buttons = BoxLayout(spacing=s(12), size_hint_y=None, height=s(64))
        page.add_widget(self.buttons)
        # The dice game: no dartboard needed (its setup screen, ui/touch/express).
        self.express_button = BigButton(_("Battleship Express: the dice game"),
                                        lambda: app.go("express_setup"), colour=theme.PANEL_LIGHT,
                                        height=s(56), font_units=22)
        page.add_widget(self.express_button)
        more = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        more.add_widget(BigButton(_("Stats"), lambda: app.go("stats"), colour=theme.PANEL_LIGHT))
        more.add_widget(BigButton(_("Settings"), lambda: app.go("pin"), colour=theme.PANEL_LIGHT))
        page.add_widget(more)
        languages = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        self.language_buttons = {}
        for code, name in LANGUAGE_NAMES:
            button = BigButton(name, functools.partial(app.set_language, code), colour=theme.PANEL,
                               font_units=20)
            self.language_buttons[code] = button
            languages.add_widget(button)
        page.add_widget(languages)
        page.add_widget(Label())
        self.add_widget(page)

    def refresh(self) -> None:
        running = self.app.flow_screen() not in (None, "result", "express_result")
        self.buttons.clear_widgets()
        if running:
            self.buttons.add_widget(self.continue_button)
        self.buttons.add_widget(self.start_button)
        self.start_button.text = _("New game") if running else _("Start game")
        for code, button in self.language_buttons.items():
            button.set_colour(theme.ACCENT if code == language() else theme.PANEL)

    def _continue(self) -> None:
        target = self.app.flow_screen()
        self.app.go(target or "new_game")
