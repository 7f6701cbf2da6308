"""The board of RULES.md section 1: cells, spellings, neighbours, geometry."""

import math

import pytest

from kiosk.board import (
    BULL,
    MISS,
    NUMBERS,
    BullZone,
    Cell,
    CellError,
    Profile,
    Ring,
    board_for,
    bull_zone,
)
from kiosk.geometry import (
    DOUBLE_OUTER_R,
    cell_at,
    cell_centre,
    cell_sectors,
    landing,
    number_at_angle,
)

FOUR = board_for(Profile.FOUR_RING)
THREE = board_for(Profile.THREE_RING)


def test_cell_counts():
    assert len(FOUR.cells) == 81
    assert len(THREE.cells) == 61
    assert len(set(FOUR.cells)) == 81


def test_twenty_and_five_are_neighbours_ring_wraps():
    assert NUMBERS[0] == 20 and NUMBERS[-1] == 5
    assert Cell(Ring.TRIPLE, 5) in FOUR.neighbours(Cell(Ring.TRIPLE, 20))


@pytest.mark.parametrize(("code", "count"), [("BULL", 20), ("T20", 4), ("D20", 3), ("L20", 4), ("S20", 4)])
def test_neighbour_counts_four_ring(code, count):
    assert len(FOUR.neighbours(FOUR.parse(code))) == count


@pytest.mark.parametrize(("code", "count"), [("BULL", 20), ("T20", 3), ("D20", 3), ("S20", 5)])
def test_neighbour_counts_three_ring(code, count):
    assert len(THREE.neighbours(THREE.parse(code))) == count


def test_neighbours_are_symmetric_and_never_diagonal():
    for board in (FOUR, THREE):
        for cell in board.cells:
            for other in board.neighbours(cell):
                assert cell in board.neighbours(other)
                if Ring.BULL not in (cell.ring, other.ring):
                    assert cell.ring == other.ring or cell.number == other.number


def test_t20_neighbours_exactly():
    assert {c.code for c in FOUR.neighbours(FOUR.parse("T20"))} == {"T1", "T5", "L20", "S20"}
    assert {c.code for c in FOUR.neighbours(FOUR.parse("D20"))} == {"D1", "D5", "L20"}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("T20", "T20"),
        ("t20", "T20"),
        (" d3 ", "D3"),
        ("L5", "L5"),
        ("O5", "L5"),
        ("S11", "S11"),
        ("I11", "S11"),
        ("BULL", "BULL"),
        ("b", "BULL"),
        ("SB", "BULL"),
        ("DB", "BULL"),
        ("OB", "BULL"),
        ("IB", "BULL"),
        ("25", "BULL"),
        ("50", "BULL"),
        ("bullseye", "BULL"),
        ("MISS", "MISS"),
        ("off", "MISS"),
        ("0", "MISS"),
        ("m", "MISS"),
    ],
)
def test_every_spelling(text, code):
    assert FOUR.parse(text).code == code


def test_three_ring_reads_both_singles_as_the_merged_single():
    for text in ("L20", "O20", "I20", "S20"):
        assert THREE.parse(text) == Cell(Ring.SMALL, 20)


@pytest.mark.parametrize("text", ["T21", "X20", "T", "", "T020", "20", "T-1", "T２0", "DD20", "T20x"])
def test_bad_tokens_are_named(text):
    with pytest.raises(CellError) as err:
        FOUR.parse(text)
    assert repr(text.strip()) in str(err.value) or text.strip() == ""


@pytest.mark.parametrize("text", ["", "   ", "\t"])
def test_nothing_typed_asks_for_a_cell(text):
    """Throw with an empty field: the host page said "'' is not a cell (try T20, ...)"."""
    with pytest.raises(CellError) as err:
        FOUR.parse(text)
    assert str(err.value) == "type a cell first (T20, L5, S11, D3, BULL or MISS)"


def test_miss_can_be_refused():
    with pytest.raises(CellError):
        FOUR.parse("MISS", allow_miss=False)
    assert not MISS.on_board and BULL.on_board


def test_bull_zone_from_raw_spelling():
    assert bull_zone("DB", BULL) is BullZone.INNER
    assert bull_zone("50", BULL) is BullZone.INNER
    assert bull_zone("25", BULL) is BullZone.OUTER
    assert bull_zone("BULL", BULL) is BullZone.BULL
    assert bull_zone("T20", FOUR.parse("T20")) is BullZone.OTHER
    assert bull_zone("MISS", MISS) is BullZone.MISS


def test_canonical_format_round_trips():
    for board in (FOUR, THREE):
        for cell in board.cells:
            assert board.parse(cell.code) == cell


def test_geometry_twenty_at_top_clockwise():
    assert number_at_angle(0) == 20
    assert number_at_angle(18) == 1
    assert number_at_angle(-18) == 5
    assert number_at_angle(90) == 6
    assert number_at_angle(180) == 3
    assert number_at_angle(270) == 11


@pytest.mark.parametrize(
    ("x", "y", "code", "zone"),
    [
        (0, 0, "BULL", BullZone.INNER),
        (0, 10, "BULL", BullZone.OUTER),
        (0, 103, "T20", BullZone.OTHER),
        (0, 166, "D20", BullZone.OTHER),
        (0, 130, "L20", BullZone.OTHER),
        (0, 50, "S20", BullZone.OTHER),
        (103, 0, "T6", BullZone.OTHER),
        (0, 175, "MISS", BullZone.MISS),
        (-166, 0, "D11", BullZone.OTHER),
    ],
)
def test_landing_on_real_geometry(x, y, code, zone):
    cell, got_zone = landing(x, y, FOUR)
    assert (cell.code, got_zone) == (code, zone)


def test_three_ring_large_area_is_the_merged_single():
    assert cell_at(0, 130, THREE).code == "S20"
    assert len(cell_sectors(THREE.parse("S20"), THREE)) == 2
    assert len(cell_sectors(FOUR.parse("S20"), FOUR)) == 1


def test_every_cell_centre_lands_in_its_cell():
    for board in (FOUR, THREE):
        for cell in board.cells:
            assert cell_at(*cell_centre(cell, board), board) == cell


def test_sector_areas_cover_the_board():
    total = sum(s.area for c in FOUR.cells for s in cell_sectors(c, FOUR))
    assert total == pytest.approx(math.pi * DOUBLE_OUTER_R**2)
