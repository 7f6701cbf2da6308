"""The sounds the kiosk makes: one name per announcement, shared by the buzzer and the screen."""

import enum


class Sound(enum.Enum):
    HIT = "hit"
    MISS = "miss"
    SUNK = "sunk"
    WIN = "win"
    REPEAT = "repeat"
    ERROR = "error"
