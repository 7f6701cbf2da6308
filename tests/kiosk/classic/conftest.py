import datetime

from kiosk.classic.fleet import parse_fleet
from kiosk.classic.match import Match, Mode, Place, Setup

ANN = "A1-A5 C3-F3 H2-H4 J7-J9 E9-F9"  # Carrier, Battleship, Cruiser, Submarine, Destroyer
BO = "B1-F1 J1-J4 A7-C7 D5-D7 H9-H10"
DAY = datetime.date(2026, 11, 30)


def duel(first: int = 0) -> Match:
    match = Match(Setup(Mode.DUEL, ("Ann", "Bo"), first))
    match.apply(Place(0, parse_fleet(ANN)))
    match.apply(Place(1, parse_fleet(BO)))
    return match
