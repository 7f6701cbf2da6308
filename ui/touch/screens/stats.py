"""Stats: the player leaderboard from the database and the last games."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from kiosk.i18n import _
from ui.touch import theme
from ui.touch.controls import BigButton, ChoiceButton
from ui.touch.express import stats as express_stats
from ui.touch.screens.base import KioskApp, KioskScreen, heading
from ui.touch.table import Table, percent


def played_on(started: str, today: date | None = None) -> str:
    """When a game was played, short enough for its column at any size: the time for today's
    games, the day and month before (the year only for an older year), in local time."""
    try:
        when = datetime.fromisoformat(started).astimezone()
    except ValueError:
        return started[:10]
    today = today or datetime.now().astimezone().date()
    if when.date() == today:
        return when.strftime("%H:%M")
    if when.year == today.year:
        return _("{day}/{month}").format(day=when.day, month=when.month)
    return _("{day}/{month}/{year}").format(day=when.day, month=when.month, year=when.year)


class StatsScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
        columns = BoxLayout(spacing=s(20))
        self.players = Table((3, 1.2, 1.2, 1.5), font_units=18)
        self.games = Table((1.4, 3.2, 2, 1), font_units=18)
        self.express = express_stats.tables()  # the dice game's own columns
        self.scrolls: list[ScrollView] = []
        for title, table in ((_("Players"), self.players), (_("Last games"), self.games)):
            column = BoxLayout(orientation="vertical", spacing=s(4))
            column.add_widget(heading(title, 26))
            scroll = ScrollView(do_scroll_x=False)
            scroll.add_widget(table)
            self.scrolls.append(scroll)
            column.add_widget(scroll)
            columns.add_widget(column)
        page.add_widget(columns)
        bottom = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        bottom.add_widget(BigButton(_("Back"), lambda: app.go("home"), colour=theme.PANEL_LIGHT))
        self.game = ChoiceButton(["darts", express_stats.KIND], "darts", label=lambda kind: (
            _("Battleship Express") if kind == express_stats.KIND else _("Dart game")),
            on_change=lambda _kind: self.refresh())
        bottom.add_widget(self.game)
        page.add_widget(bottom)
        self.add_widget(page)

    def _show_tables(self, players: Table, games: Table) -> None:
        for scroll, table in zip(self.scrolls, (players, games), strict=True):
            if table.parent is not scroll:
                scroll.clear_widgets()
                scroll.add_widget(table)

    def refresh(self) -> None:
        if not hasattr(self, "game"):
            return
        store = self.app.kiosk.store
        if self.game.value == express_stats.KIND:
            self._show_tables(*self.express)
            express_stats.fill(*self.express, store, played_on)
            return
        self._show_tables(self.players, self.games)
        self.players.clear_widgets()
        self.players.add_row([_("Player"), _("Games"), _("Wins"), _("Hit rate")], colour=theme.TEXT_DIM)
        stats = store.player_stats()
        for row in stats:
            self.players.add_row([row.name, str(row.games), str(row.wins), percent(row.hit_rate)])
        if not stats:
            self.players.add_row([_("no games yet"), "", "", ""], colour=theme.TEXT_DIM)
        self.games.clear_widgets()
        self.games.add_row([_("Date"), _("Teams"), _("Winner"), _("Visits")], colour=theme.TEXT_DIM)
        for game in store.last_games():
            self.games.add_row([played_on(game.started), f"{game.teams[0]} – {game.teams[1]}",
                                game.winner or "–", str(game.turns)])
