"""Colours and sizes. Sizes scale with the window so 800x480 and 1920x1080 look alike.

Everything is measured in "units": one unit is one pixel on the Pi's 800x480 display, 2.25
pixels on a 1080p screen. A touch target is at least 56 units (>= 48 px at the smallest size).
"""

from __future__ import annotations

from dataclasses import dataclass

RGBA = tuple[float, float, float, float]

# Roboto (Kivy's default) has no ✓ ⌫ ● →: labels that show them use DejaVu Sans, shipped with Kivy.
SYMBOL_FONT = "DejaVuSans"


def rgb(hex_code: str, alpha: float = 1.0) -> RGBA:
    h = hex_code.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, alpha)


BACKGROUND = rgb("101820")
PANEL = rgb("1c2a38")
PANEL_LIGHT = rgb("2a3e52")
TEXT = rgb("f2f2f2")
TEXT_DIM = rgb("a9b8c6")
ACCENT = rgb("2f9bd8")
GO = rgb("2ea043")
DANGER = rgb("d1422c")
WARN = rgb("e3a21a")
TEAM_COLOURS = (rgb("2f9bd8"), rgb("e36f1a"))

# What a player needs to tell apart at 3 m: each result its own colour.
RESULT_COLOURS = {
    "hit": rgb("ff7a1a"),
    "miss": rgb("6f8aa6"),
    "sunk": rgb("e5262b"),
    "repeat": rgb("b48ae8"),
    "win": rgb("f5c518"),
}

# The drawn board: a dimmed classic board so that marks stand out.
BOARD_DARK = rgb("20262c")
BOARD_LIGHT = rgb("4a4f55")
BOARD_RED = rgb("5a2528")
BOARD_GREEN = rgb("1f4a30")
BOARD_LINE = rgb("0b0f13")
MARKS = {
    "ship": rgb("3fb0ff"),
    "preview": rgb("8fd3ff"),
    "hit": RESULT_COLOURS["hit"],
    "miss": rgb("a9b8c6"),
    "sunk": RESULT_COLOURS["sunk"],
    "damaged": RESULT_COLOURS["hit"],
    "bull_dart": rgb("f5c518"),
    # A bull-off dart outside the bull, in its team's colour.
    "dart0": TEAM_COLOURS[0],
    "dart1": TEAM_COLOURS[1],
}
OUTLINE_SUNK = rgb("ffe14d")
# The coach: unshot cells shade from the board's own colour towards HEAT by their chance of a
# ship; the aim point is a crosshair with the thrower's one-sigma scatter ring. Kiosk darts are
# dots where they landed.
HEAT = rgb("4fe3c1")
CROSSHAIR = rgb("ffffff")
CROSSHAIR_SHADOW = rgb("000000", 0.7)
PIN = rgb("ffffff")
PIN_LAST = rgb("ffe14d")
OUTLINE_LAST = rgb("ffffff")
# The classic grid: dark water, ships in the team's blue (the one being moved in gold), a sunk
# ship's squares dark red under its red marks and yellow outline.
WATER = rgb("1b3a57")
SQUARE_SUNK = rgb("7a1f24")
SHIP = rgb("3d8bfd", 0.85)
SHIP_CHOSEN = rgb("f0b429", 0.9)
MARK_SUNK = RESULT_COLOURS["sunk"]


@dataclass(frozen=True)
class Sizes:
    unit: float

    @classmethod
    def for_window(cls, width: float, height: float) -> Sizes:
        return cls(max(1.0, min(width / 800, height / 480)))

    def __call__(self, units: float) -> float:
        return units * self.unit

    @property
    def touch(self) -> float:
        return self(56)

    @property
    def gap(self) -> float:
        return self(8)

    @property
    def body(self) -> float:
        return self(20)

    @property
    def small(self) -> float:
        return self(16)

    @property
    def heading(self) -> float:
        return self(30)

    @property
    def title(self) -> float:
        return self(64)


_current = Sizes(1.0)


def set_window(width: float, height: float) -> Sizes:
    """Fix the unit for this window; screens are built after this."""
    global _current
    _current = Sizes.for_window(width, height)
    return _current


def sizes() -> Sizes:
    return _current
