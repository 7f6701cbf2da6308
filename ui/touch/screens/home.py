"""Home: the big title, the game choice (ui/touch/games.py), Continue, Stats, Settings (PIN)
and the language."""

from __future__ import annotations

import functools

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.i18n import _, language
from ui.touch import theme
from ui.touch.controls import BigButton
from ui.touch.game_tile import GameTile
from ui.touch.games import offered
from ui.touch.screens.base import KioskApp, KioskScreen

LANGUAGE_NAMES = (("en", "English"), ("de", "Deutsch"), ("fi", "Suomi"))


class HomeScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        page = BoxLayout(orientation="vertical", padding=(s(48), s(14)), spacing=s(12))
        page.add_widget(
            Label(
                text="DARTSHIP",
                font_size=s(64),
                bold=True,
                color=theme.ACCENT,
                size_hint_y=None,
                height=s(70),
            )
        )
        page.add_widget(
            Label(
                text=_("Pick a game"), font_size=s(22), color=theme.TEXT_DIM, size_hint_y=None, height=s(28)
            )
        )
        self.games = BoxLayout(spacing=s(12), size_hint_y=None, height=s(96))
        page.add_widget(self.games)
        self.continue_row = BoxLayout(size_hint_y=None, height=s.touch)
        self.continue_button = BigButton(_("Continue game"), self._continue, colour=theme.GO, font_units=24)
        page.add_widget(self.continue_row)
        more = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        more.add_widget(BigButton(_("Stats"), lambda: app.go("stats"), colour=theme.PANEL_LIGHT))
        more.add_widget(BigButton(_("Settings"), lambda: app.go("pin"), colour=theme.PANEL_LIGHT))
        page.add_widget(more)
        languages = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        self.language_buttons = {}
        for code, name in LANGUAGE_NAMES:
            button = BigButton(
                name, functools.partial(app.choose_language, code), colour=theme.PANEL, font_units=20
            )
            self.language_buttons[code] = button
            languages.add_widget(button)
        page.add_widget(languages)
        page.add_widget(Label())
        self.add_widget(page)
        self.game_buttons: dict[str, GameTile] = {}

    def refresh(self) -> None:
        s = theme.sizes()
        manager = self.manager
        choices = offered(self.app.games, manager.has_screen) if manager is not None else []
        self.games.clear_widgets()
        self.game_buttons = {}
        for game in choices:
            button = GameTile(
                game.title(),
                game.subtitle(),
                functools.partial(self.app.go, game.start),
                game.touch.colour,
                height=s(96),
            )
            self.game_buttons[game.kind] = button
            self.games.add_widget(button)
        running = self.app.flow_screen()
        self.continue_row.clear_widgets()
        self.continue_row.height = 0  # no gap where there is nothing to continue
        if running is not None and not running.endswith("result"):
            self.continue_row.height = s.touch
            kind = self.app.service.kind
            title = next((g.title() for g in self.app.games if kind is not None and g.kind == kind.name), "")
            self.continue_button.text = _("Continue: {game}").format(game=title)
            self.continue_row.add_widget(self.continue_button)
        for code, button in self.language_buttons.items():
            button.set_colour(theme.ACCENT if code == language() else theme.PANEL)

    def _continue(self) -> None:
        target = self.app.flow_screen()
        self.app.go(target or "home")
