"""The Correct picker: replace the last dart's cell. A misread is nearly always a neighbour,
so the neighbours come first; any other cell can be typed."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView

from kiosk.board import MISS, RADIAL_ORDER, Board, Cell, CellError
from kiosk.i18n import _
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, Panel, text_field


def choices_for(cell: Cell, board: Board) -> list[Cell]:
    """The neighbours of `cell` (spoke order, then ring order), then MISS; for MISS only MISS."""
    if not cell.on_board:
        return []
    near = sorted(board.neighbours(cell), key=lambda c: (RADIAL_ORDER.index(c.ring), c.number))
    return [*near, MISS]


class CorrectPicker(ModalView):
    def __init__(self, cell: Cell, board: Board, on_pick: Callable[[Cell], Any], **kwargs: object) -> None:
        super().__init__(size_hint=(0.9, 0.9), auto_dismiss=False, background_color=(0, 0, 0, 0.7), **kwargs)
        s = theme.sizes()
        self.board = board
        self.on_pick = on_pick
        body = Panel(orientation="vertical", radius=s(12), padding=s(12), spacing=s(8))
        body.add_widget(
            Caption(
                _("The last dart was {cell}. What did it really hit?").format(cell=cell.code),
                font_units=24,
                bold=True,
                size_hint_y=None,
            )
        )
        choices = choices_for(cell, board)
        # A cell has at most four neighbours; the Bull has twenty (every small single).
        grid = GridLayout(cols=4 if len(choices) <= 8 else 7, spacing=s(8))
        self.buttons = {}
        for choice in choices:
            button = BigButton(
                choice.code, functools.partial(self._pick, choice), font_units=24, size_hint_y=1
            )
            self.buttons[choice.code] = button
            grid.add_widget(button)
        body.add_widget(grid)
        typed = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        self.field = text_field(hint=_("another cell, e.g. T20"))
        self.field.bind(on_text_validate=lambda *_a: self._typed())
        typed.add_widget(self.field)
        typed.add_widget(BigButton(_("OK"), self._typed, size_hint_x=0.3))
        body.add_widget(typed)
        self.message = Caption(font_units=18, colour=theme.DANGER, size_hint_y=None)
        body.add_widget(self.message)
        body.add_widget(BigButton(_("Cancel"), self.dismiss, colour=theme.PANEL_LIGHT))
        self.add_widget(body)

    def _typed(self) -> None:
        try:
            cell = self.board.parse(self.field.text)
        except CellError as err:
            self.message.text = str(err)
            return
        self._pick(cell)

    def _pick(self, cell: Cell) -> None:
        self.dismiss()
        self.on_pick(cell)
