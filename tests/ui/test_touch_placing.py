"""Placing a fleet by taps and drags: the logic behind the placement screen (no Kivy)."""

from __future__ import annotations

import json
import random

import pytest

from kiosk.board import BULL, Cell, Ring, board_for
from kiosk.darts.fleet import PlacementError
from kiosk.game import RuleError
from ui.touch.darts.placing import FleetDraft

BOARD = board_for()
D = lambda n: Cell(Ring.DOUBLE, n)  # noqa: E731
T = lambda n: Cell(Ring.TRIPLE, n)  # noqa: E731
S = lambda n: Cell(Ring.SMALL, n)  # noqa: E731


def test_a_tap_places_the_longest_ship_left_from_that_cell() -> None:
    draft = FleetDraft(BOARD, (2, 3, 4, 5))
    assert draft.tap(D(20)) is None
    assert draft.ships[0].length == 5
    assert D(20) in draft.ships[0].cells
    assert draft.remaining() == [4, 3, 2]


def test_turn_walks_through_every_way_the_ship_fits_from_its_cell() -> None:
    draft = FleetDraft(BOARD, (2, 3))
    draft.tap(T(20))
    seen = {draft.ships[0].code}
    for _ in range(5):
        assert draft.turn() is None
        seen.add(draft.ships[0].code)
        assert T(20) in (draft.ships[0].cells[0], draft.ships[0].cells[-1])
    assert len(seen) >= 3  # clockwise, anticlockwise, along the spoke


def test_tapping_a_ship_picks_it_up_and_it_goes_next() -> None:
    draft = FleetDraft(BOARD, (2, 3))
    draft.tap(D(1))
    draft.tap(D(1))
    assert draft.ships == []
    assert draft.next_length == 3


def test_a_drag_lays_exactly_the_cells_crossed() -> None:
    draft = FleetDraft(BOARD, (2, 3))
    assert draft.drag([T(19), S(19), BULL]) is None
    assert draft.ships[0].code == "T19-S19-BULL"


@pytest.mark.parametrize(
    ("cells", "words"),
    [
        ([T(20), T(18)], "gap"),
        ([S(20), BULL, S(3)], "Bull is never part of a circular ship"),
        ([D(20), D(1), D(18), D(4)], "no ship of 4"),
    ],
)
def test_an_illegal_drag_says_why_and_keeps_nothing(cells: list[Cell], words: str) -> None:
    draft = FleetDraft(BOARD, (2, 3))
    message = draft.drag(cells)
    assert message is not None and words in message
    assert draft.ships == []


def test_overlap_is_refused_with_both_ships_named() -> None:
    draft = FleetDraft(BOARD, (2, 3))
    draft.drag([T(20), T(1), T(18)])
    message = draft.drag([T(1), S(1)])
    assert message is not None and "T20-T1-T18" in message


def test_a_tap_off_the_board_says_so() -> None:
    draft = FleetDraft(BOARD, (2, 3))
    assert draft.tap(Cell(Ring.OFF)) is not None
    assert draft.ships == []


def test_random_fleet_is_complete_and_locks_in() -> None:
    draft = FleetDraft(BOARD, (2, 3, 4, 5))
    draft.randomise(random.Random(3))
    assert draft.complete
    assert sorted(draft.fleet().lengths) == [2, 3, 4, 5]


def test_lock_in_before_the_fleet_is_complete_names_what_is_missing() -> None:
    draft = FleetDraft(BOARD, (2, 3))
    draft.tap(D(5))
    with pytest.raises(PlacementError, match="still to place: 2"):
        draft.fleet()


def test_a_drag_on_a_complete_fleet_says_all_are_placed() -> None:
    draft = FleetDraft(BOARD, (2, 3))
    draft.drag([T(20), T(1), T(18)])
    draft.drag([D(5), D(20)])
    message = draft.drag([S(3), S(19)])
    assert message == "all ships are placed: lock in, or tap a ship to move it"
    assert "none" not in message and len(draft.ships) == 2


# -- kept over a restart (kiosk.placing_drafts keeps `kept()` in the store) --


def test_a_draft_kept_comes_back_as_it_was_and_turns_on_from_the_same_cell() -> None:
    draft = FleetDraft(BOARD, (2, 3, 4, 5))
    draft.tap(D(20))
    draft.tap(T(3))
    draft.turn()
    draft.choose(2)
    again = FleetDraft.from_kept(json.loads(json.dumps(draft.kept())), BOARD, (2, 3, 4, 5))
    assert again.ships == draft.ships and again.next_length == 2 and again.last == draft.ships[1]
    assert draft.turn() is None and again.turn() is None and again.ships == draft.ships


def test_a_draft_without_a_last_ship_comes_back_without_one() -> None:
    draft = FleetDraft(BOARD, (2, 3))
    draft.randomise(random.Random(4))
    again = FleetDraft.from_kept(draft.kept(), BOARD, (2, 3))
    assert again.complete and again.last is None and again.turn() is not None
    assert again.fleet() == draft.fleet()


@pytest.mark.parametrize(
    ("kept", "words"),
    [
        ({}, "its ships are missing"),
        ({"ships": "T20-T1"}, "its ships are missing"),
        ({"ships": ["T20-X1"]}, "not ships of this board"),
        ({"ships": ["T20-T18"]}, "not ships of this board"),  # a gap
        ({"ships": ["T20-T1", "D20-D1"]}, "not this game's fleet"),  # two of 2 in a fleet of 2, 3
        ({"ships": ["T20-T1-T18", "T1-S1"]}, "not this game's fleet"),  # crossing
        ({"ships": ["T20-T1"], "chosen": 4}, "chosen next"),
        ({"ships": ["T20-T1"], "chosen": True}, "chosen next"),
        ({"ships": ["T20-T1"], "last": 1, "anchor": "T20"}, "last ship"),
        ({"ships": ["T20-T1"], "last": 0, "anchor": "D3"}, "last ship"),
        ({"ships": ["T20-T1"], "last": 0, "anchor": "Z9"}, "last ship"),
    ],
)
def test_a_kept_draft_that_is_not_ours_is_refused_in_words_naming_no_cell(kept: dict, words: str) -> None:
    with pytest.raises(RuleError, match=words) as refused:
        FleetDraft.from_kept(kept, BOARD, (2, 3))
    assert not any(code in str(refused.value) for code in ("T20", "T1", "X1", "D20", "S1", "D3", "Z9"))
