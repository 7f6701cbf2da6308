"""What the games' Stats pages share: a titled, scrolling column, the short date of a game, the
kiosk's players of a kind and its last games (each game's page: ui/touch/<game>/stats.py)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from kiosk.i18n import _
from kiosk.store import Store
from ui.touch import theme
from ui.touch.screens.base import heading
from ui.touch.table import Table, heading_row, percent


def column(title: str, table: Table) -> BoxLayout:
    s = theme.sizes()
    box = BoxLayout(orientation="vertical", spacing=s(4))
    box.add_widget(heading(title, 26))
    scroll = ScrollView(do_scroll_x=False)
    scroll.add_widget(table)
    box.add_widget(scroll)
    return box


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


class Players:
    """The kiosk's players of one kind of game: games, wins, hit rate (the kiosk's own games:
    the phones' games have their result cards and the daily challenge its leaderboard).
    `leave_out`: names that are no players of the bar's (a game's own computer player)."""

    def __init__(self, kind: str, leave_out: Collection[str] = ()) -> None:
        self.kind = kind
        self.leave_out = frozenset(leave_out)
        self.table = Table((2.4, 1.1, 1.1, 2.0), font_units=18)  # room for "Trefferquote"
        self.column = column(_("Players"), self.table)

    def fill(self, store: Store) -> None:
        self.table.clear_widgets()
        heading_row(self.table, [_("Player"), _("Games"), _("Wins"), _("Hit rate")])
        stats = [
            row
            for row in store.stats.player_stats(kind=self.kind, venue="kiosk")
            if row.name not in self.leave_out
        ]
        for row in stats:
            self.table.add_row([row.name, str(row.games), str(row.wins), percent(row.hit_rate)])
        if not stats:
            self.table.add_row([_("no games yet"), "", "", ""], colour=theme.TEXT_DIM, lines=2)
