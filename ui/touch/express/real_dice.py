"""Real dice: the players roll their own dice and tap what each one shows.

The panel lies over the lines while the faces are asked for: a big button per face (the ship's
colour and name, the Burst), the faces tapped so far as dice, Undo and Cancel. The screen says
how many dice this roll has (`kiosk.express.rolls.typed`: the rules decide, roll by roll) and
does the rest; the panel only collects taps.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from kiosk.express.rules import FACES, Face
from kiosk.i18n import _
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, Panel, Prompt, button_row
from ui.touch.express.dice import DICE, Die
from ui.touch.express.look import face_colour, face_name


class RealDicePanel(Panel):
    def __init__(
        self,
        on_face: Callable[[Face], Any],
        on_undo: Callable[[], Any],
        on_cancel: Callable[[], Any],
        **kwargs: object,
    ) -> None:
        s = theme.sizes()
        super().__init__(
            orientation="vertical",
            background=theme.rgb("0b1118"),
            radius=s(12),
            padding=s(10),
            spacing=s(6),
            **kwargs,
        )
        self.title = Prompt()
        self.add_widget(self.title)
        self.note = Caption(font_units=17, colour=theme.TEXT_DIM, size_hint_y=None, halign="center")
        self.add_widget(self.note)
        self.entered = BoxLayout(spacing=s(6), size_hint_y=None, height=s(40))
        self.dice = [Die(size=(s(40), s(40))) for _n in range(DICE)]
        self.add_widget(self.entered)
        faces = GridLayout(cols=3, spacing=s(8))
        for face in FACES:
            button = BigButton(
                face_name(face), functools.partial(on_face, face), colour=face_colour(face), font_units=20
            )
            button.color = theme.rgb("101820")
            button.bold = True
            button.size_hint_y = 1
            faces.add_widget(button)
        self.add_widget(faces)
        self.add_widget(
            button_row(
                BigButton(_("Undo die"), on_undo, colour=theme.PANEL_LIGHT),
                BigButton(_("Cancel"), on_cancel, colour=theme.PANEL_LIGHT),
                spacing=8,
            )
        )

    def ask(self, dice: int, roll: int, entered: Sequence[Face], note: str) -> None:
        """Roll `roll` of the attack throws `dice` dice; `entered` of them are tapped in."""
        self.title.text = _("Roll {dice} dice, then tap what each shows ({done} of {dice})").format(
            dice=dice, done=len(entered)
        )
        self.note.text = note or _("roll {number} of this attack").format(number=roll)
        self.entered.clear_widgets()
        for index, face in enumerate(entered[:DICE]):
            die = self.dice[index]
            die.show(face)
            self.entered.add_widget(die)
        self.entered.add_widget(Label())
