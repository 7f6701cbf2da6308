"""Escape on the kiosk's keyboard: asked first, never a silent stop.

Kivy stops an app at Escape by default; in a bar that is one stray key press (a keyboard left
on the shelf, a cat) and the screen is gone without a word. In kiosk mode Escape does nothing
(and is logged); in desktop mode it asks "Quit Dartship?", and a stop is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from kiosk.i18n import _
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, Panel

log = logging.getLogger("dartship.touch")

ESCAPE = 27


class QuitQuestion(ModalView):
    """ "Quit Dartship?" with Quit and Stay; Quit calls `stop` (once)."""

    def __init__(self, stop: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(size_hint=(0.7, 0.5), auto_dismiss=False, background_color=(0, 0, 0, 0.75), **kwargs)
        s = theme.sizes()
        body = Panel(orientation="vertical", radius=s(12), padding=s(14), spacing=s(10))
        body.add_widget(Caption(_("Quit Dartship?"), font_units=30, bold=True))
        body.add_widget(
            Caption(
                _("The game in play is kept and goes on at the next start."),
                font_units=20,
                colour=theme.TEXT_DIM,
            )
        )
        row = BoxLayout(spacing=s(10), size_hint_y=None, height=s.touch)
        row.add_widget(BigButton(_("Stay"), self.dismiss, colour=theme.PANEL_LIGHT))
        row.add_widget(BigButton(_("Quit"), self._quit, colour=theme.DANGER))
        body.add_widget(row)
        self.add_widget(body)
        self._stop = stop

    def _quit(self) -> None:
        log.warning("the kiosk was stopped with Escape on its keyboard")
        self.dismiss()
        self._stop()


class EscapeKey:
    """What Escape does: nothing in kiosk mode, else the question (one at a time)."""

    def __init__(self, kiosk_mode: Callable[[], bool], stop: Callable[[], None]) -> None:
        self._kiosk_mode = kiosk_mode
        self._stop = stop
        self.asking: QuitQuestion | None = None

    def pressed(self, key: int) -> bool:
        """True: the key is handled (it goes nowhere else)."""
        if key != ESCAPE:
            return False
        if self._kiosk_mode():
            log.info("Escape ignored (display.kiosk_mode is on)")
            return True
        if self.asking is None:
            self.asking = QuitQuestion(self._stop)
            self.asking.bind(on_dismiss=lambda *_a: setattr(self, "asking", None))
            self.asking.open()
        return True
