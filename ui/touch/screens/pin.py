"""The PIN keypad in front of Settings (the PIN is the config's kiosk.pin).

Guessing is slowed down by `kiosk.pin.PinGuard`: after five wrong PINs in a row the keypad locks
(its keys greyed out, a countdown), then one more try a minute; the count is kept in the database,
so a restart does not reset it.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from kiosk.i18n import _
from kiosk.pin import PinGuard
from ui.touch import theme
from ui.touch.controls import BigButton, Caption
from ui.touch.screens.base import KioskApp, KioskScreen


class PinScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        self.entered = ""
        self.guard = PinGuard(app.kiosk.store)
        self._ticking: Any = None
        page = BoxLayout(padding=s(16), spacing=s(24))
        info = BoxLayout(orientation="vertical", spacing=s(8))
        info.add_widget(Caption(_("Settings are locked. Enter the PIN."), font_units=26, bold=True))
        self.dots = Label(
            font_size=s(48), font_name=theme.SYMBOL_FONT, color=theme.TEXT, size_hint_y=None, height=s(70)
        )
        info.add_widget(self.dots)
        self.message = Caption(font_units=20, colour=theme.DANGER)
        info.add_widget(self.message)
        info.add_widget(BigButton(_("Back"), lambda: app.go("home"), colour=theme.PANEL_LIGHT))
        page.add_widget(info)
        self.keys = GridLayout(cols=3, spacing=s(8), size_hint_x=None)
        self.keys.bind(height=lambda _w, h: setattr(self.keys, "width", h * 0.9))
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "OK"):
            self.keys.add_widget(
                BigButton(
                    key,
                    functools.partial(self.press, key),
                    size_hint_y=1,
                    font_units=30,
                    colour=theme.GO if key == "OK" else theme.PANEL_LIGHT,
                    font_name=theme.SYMBOL_FONT,
                )
            )
        page.add_widget(self.keys)
        self.add_widget(page)

    def refresh(self) -> None:
        self.entered = ""
        self.message.text = ""
        self._show()
        self._tick()

    def locked_for(self) -> float:
        """Seconds until the keypad takes a PIN again (0: it does now)."""
        return self.guard.locked_for()

    def _tick(self, _dt: float = 0.0) -> None:
        """Show the countdown while locked, the keys greyed out; stop ticking when free."""
        wait = self.locked_for()
        self._show_locked(wait > 0)
        if wait > 0:
            # A no-break space keeps "60 s" on one line.
            self.message.text = _("Too many wrong PINs. Try again in {wait}.").format(
                wait=f"{math.ceil(wait)}\u00a0s"
            )
            if self._ticking is None:
                self._ticking = Clock.schedule_interval(self._tick, 1.0)
        elif self._ticking is not None:
            self._ticking.cancel()
            self._ticking = None
            self.message.text = ""

    def _show(self) -> None:
        self.dots.text = "●" * len(self.entered) or "–"

    def _show_locked(self, locked: bool) -> None:
        """A locked keypad looks it: its keys are dimmed and take no tap (Back still works)."""
        for key in self.keys.children:
            key.disabled = locked
            key.opacity = 0.35 if locked else 1.0

    def press(self, key: str) -> None:
        if self.locked_for() > 0:
            self.entered = ""
            self._show()
            self._tick()
            return
        if key == "⌫":
            self.entered = self.entered[:-1]
        elif key == "OK":
            self.check()
            return
        elif len(self.entered) < 8:
            self.entered += key
        self.message.text = ""
        self._show()

    def check(self) -> None:
        entered, self.entered = self.entered, ""
        if self.guard.check(entered, self.app.settings.kiosk.pin):
            self.app.go("settings")
            return
        self.message.text = _("Wrong PIN. Try again.")
        self._show()
        if self.locked_for() > 0:
            self._tick()
