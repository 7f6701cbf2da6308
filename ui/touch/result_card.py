"""The result card's page, the same for every game: the winner in big gold letters, a line on
how long the game was, a table of the players (scrolling when long), a note, and the buttons
(Home, New game, Rematch)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from ui.touch import theme
from ui.touch.controls import BigButton, Caption, FitLabel, button_row
from ui.touch.table import Table


class ResultPage(NamedTuple):
    page: BoxLayout
    winner: Label
    length: Label
    table: Table


def result_page(
    columns: Sequence[float], buttons: Sequence[BigButton], *, font_units: float = 20, note: str = ""
) -> ResultPage:
    s = theme.sizes()
    page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
    # A winner's name may be 32 letters long: the line gets a smaller font rather than run off
    # both sides of the screen.
    winner = FitLabel(
        font_units=48,
        bold=True,
        color=theme.RESULT_COLOURS["win"],
        halign="center",
        valign="middle",
        size_hint_y=None,
        height=s(64),
    )
    length = Label(font_size=s(20), color=theme.TEXT_DIM, size_hint_y=None, height=s(28))
    page.add_widget(winner)
    page.add_widget(length)
    scroll = ScrollView(do_scroll_x=False)
    table = Table(columns, font_units=font_units)
    scroll.add_widget(table)
    page.add_widget(scroll)
    if note:
        page.add_widget(Caption(note, font_units=15, colour=theme.TEXT_DIM, size_hint_y=None))
    page.add_widget(button_row(*buttons))
    return ResultPage(page, winner, length, table)
