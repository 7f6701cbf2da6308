"""A plain table of labels: header row, then rows; columns share the width by weights."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from kiosk.i18n import _
from kiosk.store import GameSummary
from ui.touch import theme
from ui.touch.controls import before_the_frame, fitting_font


class Table(GridLayout):
    def __init__(self, weights: Sequence[float], font_units: float = 20, **kwargs: object) -> None:
        super().__init__(cols=len(weights), size_hint_y=None, spacing=(theme.sizes()(6), 0), **kwargs)
        self.weights = list(weights)
        self.font_units = font_units
        self.bind(minimum_height=self.setter("height"), width=self._widths)

    def _widths(self, *_args: object) -> None:
        """The columns share the width by their weights, except that a column too narrow for
        its widest text takes what it lacks from columns with room to spare: "Aufnahmen" and
        "Osumaprosentti", the long heading of a narrow column of numbers, were drawn at 60 %
        (some 9 px at 800x480) beside a column of names with room for twice them."""
        total = sum(self.weights)
        usable = self.width - self.spacing[0] * (self.cols - 1)
        cells = list(reversed(self.children))
        needs = [0.0] * self.cols
        for i, child in enumerate(cells):
            needs[i % self.cols] = max(needs[i % self.cols], _need(child))
        widths = widened([usable * weight / total for weight in self.weights], needs)
        for i, child in enumerate(cells):
            child.width = widths[i % self.cols]

    def add_row(
        self,
        cells: Sequence[str],
        colour: theme.RGBA = theme.TEXT,
        bold: bool = False,
        font_units: float | None = None,
        lines: int = 1,
    ) -> None:
        """`font_units`: this row's own size (a heading row of long words, smaller); `lines`:
        the lines a cell may wrap to (a heading: "Treffer-/quote", "Osuma-/prosentti"); a text
        wider than its column gets a smaller font before it is shortened."""
        s = theme.sizes()
        units = font_units or self.font_units
        base, room = s(units), s(2)
        for i, text in enumerate(cells):
            label = Label(
                text=text,
                font_size=s(units),
                color=colour,
                bold=bold,
                size_hint=(None, None),
                height=s(units * (1.7 + 1.2 * (lines - 1))),
                halign="left" if i == 0 else "right",
                valign="middle",
                # Kivy shortens to one line: a cell of more lines wraps instead.
                shorten=lines == 1,
                shorten_from="right",
                max_lines=lines,
            )
            label.fit = (base, room, lines)  # how the cell is fitted: its width's need (`_need`)
            label.bind(size=lambda w, *_: setattr(w, "text_size", w.size))
            # A text wider than its column ("Trefferquote", "Aufnahmen") gets a smaller font
            # (`fitting_font`, to 60 %) before it would be shortened to "…".
            label.bind(width=before_the_frame(functools.partial(_fit_cell, label, base, room, lines)))
            self.add_widget(label)
        self._widths()


def widened(shares: Sequence[float], needs: Sequence[float]) -> list[float]:
    """Each column's width: its share, raised towards its need with what the columns wider
    than their need can spare (as much as they can: never below their own need)."""
    short = sum(max(0.0, need - share) for share, need in zip(shares, needs, strict=True))
    spare = sum(max(0.0, share - need) for share, need in zip(shares, needs, strict=True))
    if short <= 0 or spare <= 0:
        return list(shares)
    moved = min(short, spare)
    return [
        share + (need - share) * moved / short if need > share else share - (share - need) * moved / spare
        for share, need in zip(shares, needs, strict=True)
    ]


def _need(label: Label) -> float:
    """How wide a cell wants to be: its text at its own font on one line; where it may wrap to
    `lines` lines (a heading, the players of a game of four), its longest word and its
    `lines`-th part, whichever is wider (a column of long names, needing only its longest
    word, gave its width away to a column of dates and was drawn at 77 % of its font); and its
    room."""
    fit = getattr(label, "fit", None)
    text = str(label.text)
    if fit is None or not text.strip():
        return 0.0
    base, room, lines = fit
    bold, font = bool(label.bold), str(label.font_name)
    need = _text_width(text, base, bold, font)
    if lines > 1:
        need = max(need / lines, *(_text_width(word, base, bold, font) for word in text.split()))
    return need + room + 1


@functools.lru_cache(maxsize=4096)
def _text_width(text: str, font_size: float, bold: bool, font_name: str) -> float:
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(font_size=font_size, bold=bold, font_name=font_name)
    return float(core.get_extents(text)[0])


def _fit_cell(label: Label, base: float, room: float, lines: int) -> None:
    label.font_size = fitting_font(label, base, max(1.0, label.width - room), lines=lines, smallest=0.6)


def heading_row(table: Table, cells: Sequence[str]) -> None:
    """A table's heading: its words dimmed, smaller, on up to two lines (German and Finnish
    column names are long)."""
    table.add_row(cells, colour=theme.TEXT_DIM, font_units=table.font_units * 0.85, lines=2)


def percent(rate: float) -> str:
    return f"{rate * 100:.0f}%"


def winner_cell(game: GameSummary) -> tuple[str, theme.RGBA]:
    """A last game's winner as the Stats tables show it, and its row's colour: an abandoned
    game says so, dimmed."""
    if game.abandoned:
        return _("abandoned"), theme.TEXT_DIM
    return game.winner or "–", theme.TEXT
