"""Kivy's docked on-screen keyboard, as the screens with text fields see it.

In kiosk mode a text field brings up Kivy's docked keyboard (`ui.touch.kivy_setup`): it lies over
the bottom of the window, as wide as the window and 2/7 of its width tall (more than half of a
16:9 window). Kivy's own `Window.softinput_mode` does not make room for it ("resize" reads a
height the docked keyboard never reports), so a screen that must stay usable while typing lays
itself out above `covered()`.
"""

from __future__ import annotations


def covered() -> float:
    """How many pixels at the bottom of the window the docked keyboard covers now (0: none)."""
    from kivy.core.window import Window
    from kivy.uix.vkeyboard import VKeyboard

    return max(
        (float(w.height * w.scale) for w in Window.children if isinstance(w, VKeyboard) and w.docked),
        default=0.0,
    )
