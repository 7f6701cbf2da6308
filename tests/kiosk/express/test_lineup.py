"""A line-up of Battleship Express as kept before Start (`kiosk.express.lineup`): written and
read back the same, computers' lines not laid yet included; anything not written so is refused
with a reason."""

from __future__ import annotations

import pytest

from kiosk.express.lineup import Draft, Lineup, lineup_from_dict
from kiosk.express.rules import FLEET, Variant
from kiosk.game import RuleError

B, C, D, S, P = FLEET[0], FLEET[1], FLEET[2], FLEET[3], FLEET[4]


def _lineup() -> Lineup:
    draft = Draft(("Ann", "Bo", "Computer 3"), (None, None, "hard"), Variant.CAPTAIN, 3)
    return Lineup(draft, (tuple(reversed(FLEET)), tuple(FLEET), None))


def test_a_line_up_reads_back_as_it_was_written() -> None:
    lineup = _lineup()
    assert lineup_from_dict(lineup.to_dict()) == lineup
    laid = Lineup(lineup.draft, (*lineup.lines[:2], (P, S, D, C, B)))
    assert lineup_from_dict(laid.to_dict()) == laid


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": 2}, "not a line-up"),
        ({"players": "Ann"}, "missing"),
        ({"computers": [None]}, "one seat and one line"),
        ({"computers": [None, None, "genius"]}, "level"),
        ({"game": "bingo"}, "Admiral"),
        ({"points_to_win": "3"}, "no number"),
        ({"points_to_win": 99}, "points to win must be"),
        ({"lines": [None, ["Carrier"] * 5, None]}, "missing"),
        ({"lines": [["Carrier"] * 5, ["Carrier"] * 5, None]}, "five ships"),
        ({"lines": [["Yacht"] * 5, ["Carrier"] * 5, None]}, "not a ship"),
        ({"players": ["Ann", "ann", "Computer 3"]}, "same name"),
    ],
)
def test_a_foreign_or_broken_line_up_is_refused_with_a_reason(change: dict, words: str) -> None:
    data = {**_lineup().to_dict(), **change}
    with pytest.raises(RuleError, match=words):
        lineup_from_dict(data)
