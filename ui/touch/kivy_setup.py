"""Kivy's kiosk configuration, applied before Kivy's window exists.

Kivy reads its `Config` when `kivy.core.window` is first imported, so `configure` must run
first; afterwards only some of it can still change (the cursor, Escape).

Touch input: exactly ONE input provider. Kivy's stock Linux config has both `mouse` and a
`probesysfs` entry; on the Pi SDL2 already turns the touchscreen into pointer events (under
X11, Wayland and KMSDRM alike), and probesysfs opens the same /dev/input/event device a second
time, so every tap arrives twice (two darts thrown with one tap). We keep only `mouse`:
it sees every touchscreen SDL sees, single-touch resistive panels included, and single touch
is all the kiosk needs. `DARTSHIP_TOUCH=hidinput` swaps it for Kivy's own evdev reader
(for a console without a pointer driver); it is then the only provider, never a second one.
"""

from __future__ import annotations

import logging
import os

from kiosk.config import Settings

# What Kivy logs at every start of a kiosk, with a traceback, about things the kiosk never uses:
# the mtdev input provider (we use `mouse`, or `hidinput` when asked) and X11's cut buffer
# (middle-click paste, through the xclip or xsel programs). An owner reading the journal took
# them for crashes; they stay in the log as one quiet line.
KNOWN_NOISE = ("Input: MTDev is not supported", "Cutbuffer: Unable to find any valuable Cutbuffer provider")


class QuietKnownNoise(logging.Filter):
    """Turns Kivy's known harmless start-up complaints into one DEBUG line, no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if message.startswith(KNOWN_NOISE):
            record.msg, record.args = message.split(".", 1)[0].split(" Please")[0], ()
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


# Providers that may be chosen with DARTSHIP_TOUCH; each is the only one configured.
TOUCH_PROVIDERS = {
    "mouse": "mouse,disable_multitouch",
    "hidinput": "probesysfs,provider=hidinput",
    "mtdev": "probesysfs,provider=mtdev",
}


def configure(settings: Settings, *, headless: bool = False) -> None:
    """Set Kivy's window, input and kiosk behaviour from the Dartship config.

    `headless` renders off-screen with SDL's offscreen driver, for machines without a display
    (screenshots, tests); the window's size is the config's either way.
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # our own argv is not Kivy's
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    # Kivy's records reach our own log handler (stdout, the journal): its console copy would
    # print every line twice.
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    # Images (the QR codes, the icon) through SDL2's own loader: Kivy would otherwise load
    # Pillow, which imports numpy (~0.2 s and ~15 MB at every start on the Pi).
    os.environ.setdefault("KIVY_IMAGE", "sdl2")
    if headless:
        os.environ.setdefault("KIVY_WINDOW", "sdl2")
        os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    # The clipboard through SDL, which is there wherever the window is (Kivy would try the xsel
    # and xclip programs first and log a traceback for each one missing).
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
    from kivy.config import Config
    from kivy.logger import Logger

    if not any(isinstance(f, QuietKnownNoise) for f in Logger.filters):
        Logger.addFilter(QuietKnownNoise())
    # Emoji in names ("🎯 Jets") in Noto Emoji where Roboto has none, before any text is drawn.
    from ui.touch import emoji

    emoji.install()

    display = settings.display
    kiosk_mode = display.kiosk_mode
    graphics = {
        "rotation": str(display.rotation),
        "show_cursor": "0" if kiosk_mode else "1",
        "resizable": "0" if kiosk_mode else "1",
        "multisamples": "0",  # the Pi's GPU gains nothing from MSAA but loses frames
    }
    if display.fullscreen:
        graphics.update(fullscreen="auto")
    else:
        graphics.update(fullscreen="0", width=str(display.width), height=str(display.height))
    for key, value in graphics.items():
        Config.set("graphics", key, value)
    # Escape quits a Kivy app by default: in a bar that is one stray key press. The app asks
    # first instead (ui/touch/quit.py), and in kiosk mode ignores it.
    Config.set("kivy", "exit_on_escape", "0")
    # No physical keyboard on the kiosk: text fields bring up Kivy's docked keyboard.
    Config.set("kivy", "keyboard_mode", "systemanddock" if kiosk_mode and not headless else "system")
    Config.set("kivy", "log_level", "warning")
    for name in list(Config.options("input")):
        Config.remove_option("input", name)
    provider = os.environ.get("DARTSHIP_TOUCH", "mouse")
    Config.set("input", "touch", TOUCH_PROVIDERS.get(provider, TOUCH_PROVIDERS["mouse"]))
    # Tap and drag on a board are told apart by how far the finger moved; the defaults make
    # a tap that wobbles a little a scroll in ScrollViews, which is fine, keep them.


def apply_to_window(settings: Settings) -> None:
    """What must be set again once the window exists (SDL may show the cursor on creation)."""
    from kivy.core.window import Window

    if settings.display.kiosk_mode:
        Window.show_cursor = False
