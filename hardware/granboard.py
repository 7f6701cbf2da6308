"""The GranBoard's own contact codes (`3.4@`): which cell each one is, no learn needed.

A GranBoard reports a dart as a short ASCII code, `<row>.<col>@`, over Bluetooth (and the
ESP32 bridges pass them on). The codes are the board's, published by the public GranBoard
clients (SoftCyD/ESP32-GranBoard-Client, src/boardled.cpp: a table of 82 codes, plus `BTN@`
and `OUT@`). That table names both singles of a number `S`; its four codes per number run in
the order inner single, triple, outer single, double (the order of the rings from the bull
out), which is how we tell the inner single from the outer one. `BTN@` is the board's button,
`OUT@` a dart that hit the board outside the scoring area.
"""

from __future__ import annotations

from functools import cache

from hardware.boardmap import BoardMap, from_pairs
from kiosk.board import Profile

# number: the codes of its inner single, triple, outer single and double.
_CODES: dict[int, tuple[str, str, str, str]] = {
    20: ("3.3", "3.4", "3.5", "3.6"),
    1: ("2.3", "2.4", "2.5", "2.6"),
    18: ("1.2", "1.4", "1.5", "1.6"),
    4: ("0.1", "0.3", "0.5", "0.6"),
    13: ("0.0", "0.2", "0.4", "4.5"),
    6: ("1.0", "1.1", "1.3", "4.4"),
    10: ("2.0", "2.1", "2.2", "4.3"),
    15: ("3.0", "3.1", "3.2", "4.2"),
    2: ("9.1", "9.0", "9.2", "8.2"),
    17: ("10.1", "10.0", "10.2", "8.3"),
    3: ("7.1", "7.0", "7.2", "8.4"),
    19: ("6.1", "6.0", "6.3", "8.5"),
    7: ("11.1", "11.2", "11.4", "8.6"),
    16: ("11.0", "11.3", "11.5", "11.6"),
    8: ("6.2", "6.4", "6.5", "6.6"),
    11: ("7.3", "7.4", "7.5", "7.6"),
    14: ("10.3", "10.4", "10.5", "10.6"),
    9: ("9.3", "9.4", "9.5", "9.6"),
    12: ("5.0", "5.3", "5.5", "5.6"),
    5: ("5.1", "5.2", "5.4", "4.6"),
}
INNER_BULL, OUTER_BULL = "4.0", "8.0"
BUTTON, OUTSIDE = "BTN@", "OUT@"


def code_pairs(profile: Profile) -> list[tuple[str, str]]:
    """(code, cell spelling) for every scoring code of the board."""
    inner, outer = ("S", "L") if profile is Profile.FOUR_RING else ("S", "S")
    pairs = [(f"{INNER_BULL}@", "DB"), (f"{OUTER_BULL}@", "SB")]
    for number, (small, triple, large, double) in _CODES.items():
        pairs += [
            (f"{small}@", f"{inner}{number}"),
            (f"{triple}@", f"T{number}"),
            (f"{large}@", f"{outer}{number}"),
            (f"{double}@", f"D{number}"),
        ]
    return pairs


@cache
def granboard_table(profile: Profile = Profile.FOUR_RING) -> BoardMap:
    """The GranBoard's codes as a board map of `profile`."""
    return from_pairs(code_pairs(profile), profile, "granboard")
