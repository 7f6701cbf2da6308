"""Stats: per game, the player leaderboard from the database and the last games (classic: today's
challenge; Express: its own columns, ui/touch/express/stats.py)."""

from __future__ import annotations

import functools
from datetime import date, datetime
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from kiosk.classic.match import COMPUTER as CLASSIC_COMPUTER
from kiosk.i18n import _
from ui.touch import theme
from ui.touch.controls import BigButton
from ui.touch.express import stats as express_stats
from ui.touch.games import offered
from ui.touch.screens.base import KioskApp, KioskScreen, heading
from ui.touch.table import Table, heading_row, percent, winner_cell

STATS_KINDS = ("darts", "classic", express_stats.KIND)  # the games whose results the Stats screen shows
DAILY_ROWS = 20


def _column(title: str, table: Table) -> BoxLayout:
    s = theme.sizes()
    column = BoxLayout(orientation="vertical", spacing=s(4))
    column.add_widget(heading(title, 26))
    scroll = ScrollView(do_scroll_x=False)
    scroll.add_widget(table)
    column.add_widget(scroll)
    return column


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
    """Per game (the games Home offers that keep statistics): the players' leaderboard and the
    last games; for classic, today's challenge instead of the last games."""

    def __init__(self, app: KioskApp, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        self.kind = "darts"
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
        self.kinds = BoxLayout(spacing=s(8), size_hint_y=None, height=s(48))
        page.add_widget(self.kinds)
        self.columns = BoxLayout(spacing=s(20))
        self.players = Table((2.4, 1.1, 1.1, 2.0), font_units=18)  # room for "Trefferquote"
        self.games = Table((1.4, 3.2, 2, 1), font_units=18)
        self.daily = Table((3.4, 1.2), font_units=18)
        self.players_column, self.games_column, self.daily_column = (
            _column(title, table) for title, table in (
                (_("Players"), self.players), (_("Last games"), self.games),
                (_("Today's challenge"), self.daily)))
        self.express_players, self.express_games = express_stats.tables()
        self.express_columns = (_column(_("Players"), self.express_players),
                                _column(_("Last games"), self.express_games))
        page.add_widget(self.columns)
        page.add_widget(BigButton(_("Back"), lambda: app.go("home"), colour=theme.PANEL_LIGHT))
        self.add_widget(page)

    def on_pre_enter(self, *args: Any) -> None:
        # The statistics of the game last played (or in play) first.
        kind = self.app.service.kind
        if kind is not None and kind.name in STATS_KINDS:
            self.kind = kind.name
        super().on_pre_enter(*args)

    def choose(self, kind: str) -> None:
        """Show this game's statistics (a kind of STATS_KINDS)."""
        self.kind = kind
        self.refresh()

    def refresh(self) -> None:
        s = theme.sizes()
        self.kinds.clear_widgets()
        for game in offered(self.manager.has_screen) if self.manager is not None else []:
            if game.kind in STATS_KINDS:
                self.kinds.add_widget(BigButton(
                    game.title(), functools.partial(self.choose, game.kind), font_units=20,
                    height=s(48), colour=theme.ACCENT if game.kind == self.kind
                    else theme.PANEL_LIGHT))
        store = self.app.kiosk.store
        self.columns.clear_widgets()
        if self.kind == express_stats.KIND:
            for column in self.express_columns:
                self.columns.add_widget(column)
            express_stats.fill(self.express_players, self.express_games, store, played_on)
            return
        self.players.clear_widgets()
        heading_row(self.players, [_("Player"), _("Games"), _("Wins"), _("Hit rate")])
        # The kiosk's own games: the phones' games have their result cards and the daily
        # challenge its leaderboard. The classic computer is no player of the bar's.
        stats = [row for row in store.stats.player_stats(kind=self.kind, venue="kiosk")
                 if not (self.kind == "classic" and row.name == CLASSIC_COMPUTER)]
        for row in stats:
            self.players.add_row([row.name, str(row.games), str(row.wins), percent(row.hit_rate)])
        if not stats:
            self.players.add_row([_("no games yet"), "", "", ""], colour=theme.TEXT_DIM, lines=2)
        self.columns.add_widget(self.players_column)
        if self.kind == "classic":
            self.columns.add_widget(self.daily_column)
            self._daily()
        else:
            self.columns.add_widget(self.games_column)
            self._last_games()

    def _last_games(self) -> None:
        store = self.app.kiosk.store
        self.games.clear_widgets()
        heading_row(self.games, [_("Date"), _("Teams"), _("Winner"), _("Visits")])
        for summary in store.stats.last_games(kind=self.kind, venue="kiosk"):
            winner, colour = winner_cell(summary)
            self.games.add_row([played_on(summary.started),
                                f"{summary.teams[0]} – {summary.teams[1]}", winner,
                                str(summary.turns)], colour=colour, fit=True)

    def _daily(self) -> None:
        """Classic: today's challenge (phones), best first."""
        rows = self.app.kiosk.store.stats.daily_board(date.today().isoformat())
        self.daily.clear_widgets()
        heading_row(self.daily, [_("Player"), _("Shots")])
        for rank, row in enumerate(rows[:DAILY_ROWS], start=1):
            self.daily.add_row([f"{rank}. {row.player}", str(row.shots)],
                               colour=theme.WARN if rank == 1 else theme.TEXT)
        if not rows:
            self.daily.add_row([_("nobody yet"), ""], colour=theme.TEXT_DIM, lines=2)
