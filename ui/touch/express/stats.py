"""Battleship Express on the Stats screen: its players (games, wins, ships sunk and how many
attacks sank) and its last games, from the store's finished Express games."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.uix.widget import Widget

from kiosk.i18n import _
from kiosk.store import Store
from ui.touch import theme
from ui.touch.stats_page import column, played_on
from ui.touch.table import Table, heading_row, percent, winner_cell

KIND = "express"


def tables() -> tuple[Table, Table]:
    """The players' table and the last games' table, with Express's columns."""
    return (Table((2.2, 1.3, 1.1, 1.1, 1.6), font_units=18), Table((1.2, 3.2, 1.6, 1.2), font_units=18))


def fill(players: Table, games: Table, store: Store, played_on: Callable[[str], str]) -> None:
    """`played_on(started)`: the Stats screen's short date of a game."""
    players.clear_widgets()
    heading_row(players, [_("Player"), _("Games"), _("Wins"), _("Sunk"), _("Sink rate")])
    stats = store.stats.player_stats(kind=KIND)
    for row in stats:
        # The store's shots of an Express player are its attacks.
        players.add_row(
            [
                row.name,
                str(row.games),
                str(row.wins),
                str(row.sunk),
                percent(row.sunk / row.darts if row.darts else 0.0),
            ]
        )
    if not stats:
        players.add_row([_("no games yet"), "", "", "", ""], colour=theme.TEXT_DIM, lines=2)
    games.clear_widgets()
    heading_row(games, [_("Date"), _("Players"), _("Winner"), _("Turns")])
    for game in store.stats.last_games(kind=KIND):
        winner, colour = winner_cell(game)
        # Up to four names in a column a third of the page wide: two lines, not one cut to "…".
        games.add_row(
            [played_on(game.started), ", ".join(game.teams), winner, str(game.turns)], colour=colour, lines=2
        )


class ExpressStats:
    """Express's page on the Stats screen."""

    def __init__(self) -> None:
        self.players, self.games = tables()
        self._columns = (column(_("Players"), self.players), column(_("Last games"), self.games))

    def columns(self) -> Sequence[Widget]:
        return self._columns

    def fill(self, store: Store) -> None:
        fill(self.players, self.games, store, played_on)
