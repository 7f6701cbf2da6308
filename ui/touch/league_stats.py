"""The league on the Stats screen: the league's table and its daily challenge board, as the hub
last gave them (kept in the kiosk's store by the sync task), and how old they are: the screen
works the same with the network away, and says so."""

from __future__ import annotations

from datetime import UTC, datetime

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from kiosk.i18n import _
from kiosk.league import membership
from kiosk.store import Store
from ui.touch import theme
from ui.touch.screens.base import heading
from ui.touch.table import Table

KIND = "league"
ROWS = 20
STALE_SECONDS = 3600  # older boards are marked: the hub has not been reached for an hour


def age_text(seconds: float, ago: bool = False) -> str:
    """How old the boards are ("updated 3 h ago"; `ago`: "3 h ago"), in the largest unit that fits."""
    if seconds < 90:
        return _("just now") if ago else _("updated just now")
    if seconds < 90 * 60:
        n = round(seconds / 60)
        return (_("{n} min ago") if ago else _("updated {n} min ago")).format(n=n)
    if seconds < 36 * 3600:
        n = round(seconds / 3600)
        return (_("{n} h ago") if ago else _("updated {n} h ago")).format(n=n)
    n = round(seconds / 86400)
    return (_("{n} days ago") if ago else _("updated {n} days ago")).format(n=n)


class LeagueColumns:
    """The league's page (a `ui.touch.games.StatsPage`): two columns, brought up to date from
    the store by `fill`."""

    def __init__(self) -> None:
        s = theme.sizes()
        self.table = Table((2.6, 1.5, 1.1, 1.4), font_units=18)
        self.daily = Table((2.6, 2.2, 1.1), font_units=18)
        self.table_title = heading(_("League table"), 26)
        self.daily_title = heading(_("League daily challenge"), 26)
        for title in (self.table_title, self.daily_title):
            title.shorten = True
        # How old the boards are, under the table's title (the network may be away for days).
        self.age = Label(
            text="",
            font_size=s(17),
            color=theme.TEXT_DIM,
            size_hint_y=None,
            height=s(24),
            halign="left",
            valign="middle",
        )
        self.age.bind(size=lambda w, *_: setattr(w, "text_size", w.size))
        self._columns = (
            self._column(self.table_title, self.table, self.age),
            self._column(self.daily_title, self.daily, Label(size_hint_y=None, height=s(24))),
        )

    @staticmethod
    def _column(title: Label, table: Table, under: Label) -> BoxLayout:
        s = theme.sizes()
        column = BoxLayout(orientation="vertical", spacing=s(4))
        column.add_widget(title)
        column.add_widget(under)
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(table)
        column.add_widget(scroll)
        return column

    def columns(self) -> tuple[BoxLayout, ...]:
        return self._columns

    def fill(self, store: Store, now: datetime | None = None) -> None:
        kept = membership.boards(store.meta)
        self.table.clear_widgets()
        self.daily.clear_widgets()
        if kept is None:
            self.table_title.text = _("League table")
            self.daily_title.text = _("League daily challenge")
            self.age.text = ""
            self.table.add_row([_("not fetched from the hub yet"), "", "", ""], colour=theme.TEXT_DIM)
            return
        age = kept.age_seconds(now or datetime.now(UTC))
        self.age.text = age_text(age)
        self.age.color = theme.WARN if age > STALE_SECONDS else theme.TEXT_DIM
        self.table_title.text = _("{league} {season}").format(
            league=kept.table.get("name", ""), season=kept.table.get("season", "")
        )
        self.daily_title.text = _("Daily challenge {date}").format(date=kept.daily.get("date", ""))
        self.table.add_row([_("Player"), _("Games"), _("Wins"), _("Points")], colour=theme.TEXT_DIM)
        rows = kept.table.get("rows", [])
        for row in rows[:ROWS]:
            self.table.add_row(
                [f"{row['rank']}. {row['player']}", str(row["games"]), str(row["wins"]), str(row["points"])]
            )
        if not rows:
            # Games against the kiosk's computer go to the league but are not in its table: the
            # owner who just played one should not read "no games" as "nothing was sent".
            self.table.add_row([_("no games between people yet"), "", "", ""], colour=theme.TEXT_DIM, lines=2)
        self.daily.add_row([_("Player"), _("Bar"), _("Shots")], colour=theme.TEXT_DIM)
        daily = kept.daily.get("rows", [])
        for row in daily[:ROWS]:
            self.daily.add_row(
                [f"{row['rank']}. {row['player']}", str(row["venue"]), str(row["shots"])],
                colour=theme.WARN if row["rank"] == 1 else theme.TEXT,
            )
        if not daily:
            self.daily.add_row([_("nobody yet"), "", ""], colour=theme.TEXT_DIM)


def in_league(store: Store, hub: str) -> bool:
    """The Stats screen offers the league's page on a kiosk that joined a league."""
    return bool(hub) and membership.membership(store.meta, hub) is not None
