"""Stats: per game (each hosted game's Stats page, ui/touch/<game>/stats.py), its players'
leaderboard from the database and its last games or its own columns."""

from __future__ import annotations

import functools

from kivy.uix.boxlayout import BoxLayout

from kiosk.i18n import _
from ui.touch import league_stats, theme
from ui.touch.controls import BigButton
from ui.touch.games import StatsPage, offered
from ui.touch.screens.base import KioskApp, KioskScreen


class StatsScreen(KioskScreen):
    """Per game (the games Home offers that keep statistics): its Stats page."""

    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        self.pages: dict[str, StatsPage] = {
            game.kind: game.touch.stats() for game in app.games if game.touch.stats is not None
        }
        self.kind = next(iter(self.pages), "")
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
        self.kinds = BoxLayout(spacing=s(8), size_hint_y=None, height=s(48))
        page.add_widget(self.kinds)
        self.columns = BoxLayout(spacing=s(20))
        # The league's page, beside the games' own, on a kiosk that joined a league.
        self.league = league_stats.LeagueColumns()
        page.add_widget(self.columns)
        page.add_widget(BigButton(_("Back"), lambda: app.go("home"), colour=theme.PANEL_LIGHT))
        self.add_widget(page)

    def on_pre_enter(self, *args: object) -> None:
        # The statistics of the game last played (or in play) first.
        kind = self.app.service.kind
        if kind is not None and kind.name in self.pages:
            self.kind = kind.name
        super().on_pre_enter(*args)

    def choose(self, kind: str) -> None:
        """Show this game's statistics (one with a Stats page)."""
        self.kind = kind
        self.refresh()

    def refresh(self) -> None:
        s = theme.sizes()
        self.kinds.clear_widgets()
        for game in offered(self.app.games, self.manager.has_screen) if self.manager else []:
            if game.kind in self.pages:
                self.kinds.add_widget(
                    BigButton(
                        game.title(),
                        functools.partial(self.choose, game.kind),
                        font_units=20,
                        height=s(48),
                        colour=theme.ACCENT if game.kind == self.kind else theme.PANEL_LIGHT,
                    )
                )
        store = self.app.kiosk.store
        if league_stats.in_league(store, self.app.kiosk.settings.league.hub):
            self.kinds.add_widget(
                BigButton(
                    _("League"),
                    functools.partial(self.choose, league_stats.KIND),
                    font_units=20,
                    height=s(48),
                    colour=theme.ACCENT if self.kind == league_stats.KIND else theme.PANEL_LIGHT,
                )
            )
        self.columns.clear_widgets()
        page = self.league if self.kind == league_stats.KIND else self.pages.get(self.kind)
        if page is None:
            return
        for column in page.columns():
            self.columns.add_widget(column)
        page.fill(self.app.kiosk.store)
