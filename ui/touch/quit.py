"""Escape on the kiosk's keyboard: asked first, never a silent stop.

Kivy stops an app at Escape by default; in a bar that is one stray key press (a keyboard left
on the shelf, a cat) and the screen is gone without a word. In kiosk mode Escape does nothing
(and is logged); in desktop mode it asks "Quit Dartship?", and a stop is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from kiosk.i18n import _
from ui.touch.question import Question

log = logging.getLogger("dartship.touch")

ESCAPE = 27


class QuitQuestion(Question):
    """ "Quit Dartship?" with Stay and Quit; Quit calls `stop` (once)."""

    def __init__(self, stop: Callable[[], None]) -> None:
        super().__init__(
            _("Quit Dartship?"),
            _("The game in play is kept and goes on at the next start."),
            stay=_("Stay"),
            go=_("Quit"),
            on_go=self._quit,
        )
        self._stop = stop

    def _quit(self) -> None:
        log.warning("the kiosk was stopped with Escape on its keyboard")
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
