"""Every dialect's table (PROTOCOLS.md 1), decoding, encoding, and a fuzz test that never raises."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.boardmap import demo_map, from_pairs
from hardware.dialects import (
    DIALECTS,
    MAX_LINE,
    decode,
    dialect,
    effective_profile,
    encode,
    hello,
    read_line,
)
from kiosk.board import BULL, BullZone, Cell, Profile, Ring, board_for
from kiosk.inputs import (
    BadLine,
    Button,
    ButtonInput,
    DartInput,
    Info,
    MissInput,
    UnmappedInput,
)

FOUR = board_for(Profile.FOUR_RING)
THREE = board_for(Profile.THREE_RING)
RC_MAP = from_pairs([("3,7", "T20"), ("0,0", "SB"), ("0,1", "DB"), ("9,9", "MISS")])
GRAN_MAP = from_pairs([("3.4@", "D20"), ("1.1@", "L5")])


def dart(code: str, zone: BullZone = BullZone.OTHER) -> tuple[str, str, BullZone]:
    return ("dart", code, zone)


def outcome(event: object) -> object:
    """What matters about an event, comparable in a table."""
    if event is None:
        return None
    if isinstance(event, DartInput):
        return dart(event.cell.code, event.zone)
    if isinstance(event, MissInput):
        return "miss"
    if isinstance(event, ButtonInput):
        return ("button", event.button)
    if isinstance(event, UnmappedInput):
        return ("unmapped", event.raw)
    if isinstance(event, BadLine):
        return "bad"
    if isinstance(event, Info):
        return "info"
    raise AssertionError(event)


TABLE = [
    # dialect, board, line, expected
    ("dartship", FOUR, "T20", dart("T20")),
    ("dartship", FOUR, "l5", dart("L5")),
    ("dartship", FOUR, "O5", dart("L5")),
    ("dartship", FOUR, "S11", dart("S11")),
    ("dartship", FOUR, "I11", dart("S11")),
    ("dartship", FOUR, "D3", dart("D3")),
    ("dartship", FOUR, "BULL", dart("BULL", BullZone.BULL)),
    ("dartship", FOUR, "SB", dart("BULL", BullZone.OUTER)),
    ("dartship", FOUR, "DB", dart("BULL", BullZone.INNER)),
    ("dartship", FOUR, "25", dart("BULL", BullZone.OUTER)),
    ("dartship", FOUR, "50", dart("BULL", BullZone.INNER)),
    ("dartship", THREE, "L20", dart("S20")),
    ("dartship", FOUR, "MISS", "miss"),
    ("dartship", FOUR, "RC 3 7", dart("T20")),
    ("dartship", FOUR, "RC 0 1", dart("BULL", BullZone.INNER)),
    ("dartship", FOUR, "RC 4 4", ("unmapped", "4,4")),
    ("dartship", FOUR, "BTN NEXT", ("button", Button.NEXT)),
    ("dartship", FOUR, "BTN UNDO", ("button", Button.UNDO)),
    ("dartship", FOUR, "BTN MISS", ("button", Button.MISS)),
    ("dartship", FOUR, "BTN FIRE", "bad"),
    ("dartship", FOUR, "# debug 1 2 3", None),
    ("dartship", FOUR, "", None),
    ("dartship", FOUR, "T21", "bad"),
    ("dartship", FOUR, "X20", "bad"),
    ("dartship", FOUR, "HELLO dartship/1 b1 four-ring", "info"),
    ("numeric", THREE, "320", dart("T20")),
    ("numeric", THREE, "220", dart("D20")),
    ("numeric", THREE, "120", dart("S20")),
    ("numeric", THREE, "105", dart("S5")),
    ("numeric", THREE, "125", dart("BULL", BullZone.OUTER)),
    ("numeric", THREE, "225", dart("BULL", BullZone.INNER)),
    ("numeric", THREE, "325", "bad"),
    ("numeric", THREE, "421", "bad"),
    ("numeric", THREE, "FEHLWURF", "miss"),
    ("numeric", THREE, "KNOPF", ("button", Button.NEXT)),
    ("numeric", FOUR, "120", "bad"),  # never guessed: a four-ring board has two singles
    ("numeric", THREE, "20", "bad"),
    ("x", FOUR, "20x3", dart("T20")),
    ("x", FOUR, "20x2", dart("D20")),
    ("x", FOUR, "20o", dart("L20")),
    ("x", FOUR, "20i", dart("S20")),
    ("x", FOUR, "Bullseye", dart("BULL", BullZone.OUTER)),
    ("x", FOUR, "Bullseyex2", dart("BULL", BullZone.INNER)),
    ("x", FOUR, "20x1", "bad"),
    ("x", THREE, "20x1", dart("S20")),
    ("x", FOUR, "21x3", "bad"),
    ("x", FOUR, "20x4", "bad"),
    ("semicolon", THREE, "20;3", dart("T20")),
    ("semicolon", THREE, "20;1", dart("S20")),
    ("semicolon", THREE, "7;2", dart("D7")),
    ("semicolon", THREE, "25;2", dart("BULL", BullZone.INNER)),
    ("semicolon", THREE, "25;1", dart("BULL", BullZone.OUTER)),
    ("semicolon", THREE, "20:3", "bad"),
    ("semicolon", THREE, "20;4", "bad"),
    ("colon", THREE, "20:T", dart("T20")),
    ("colon", THREE, "7:S", dart("S7")),
    ("colon", THREE, "7:d", dart("D7")),
    ("colon", THREE, "25:D", dart("BULL", BullZone.INNER)),
    ("colon", THREE, "25:S", dart("BULL", BullZone.OUTER)),
    ("colon", THREE, "25:T", "bad"),
    ("colon", THREE, "20;T", "bad"),
    ("rc", FOUR, "3,7", dart("T20")),
    ("rc", FOUR, "03, 07", dart("T20")),
    ("rc", FOUR, "0,0", dart("BULL", BullZone.OUTER)),
    ("rc", FOUR, "9,9", "miss"),
    ("rc", FOUR, "4,4", ("unmapped", "4,4")),
    ("rc", FOUR, "miss", "miss"),
    ("rc", FOUR, "next", ("button", Button.NEXT)),
    ("rc", FOUR, "undo", ("button", Button.UNDO)),
    ("rc", FOUR, "3;7", "bad"),
    ("granboard", FOUR, "3.4@", dart("D20")),
    ("granboard", FOUR, "1.1@", dart("L5")),
    ("granboard", FOUR, "2.2@", ("unmapped", "2.2@")),
    ("granboard", FOUR, "BTN@", ("button", Button.NEXT)),
    ("granboard", FOUR, "3.4", "bad"),
    ("granboard", FOUR, "OUT@", "miss"),
    # the firmwares' own words and unused spots (tests/hardware/firmwares/ has the sources)
    ("numeric", THREE, "0", None),
    ("numeric", THREE, "PFEILE", None),
    ("numeric", THREE, "m", "miss"),
    ("numeric", THREE, "b", ("button", Button.NEXT)),
    ("numeric", THREE, "u", None),
    ("numeric", THREE, "101", dart("S1")),
    ("x", FOUR, "_40", None),
    ("x", FOUR, "_18", None),
    ("semicolon", THREE, "0;1", "miss"),
    ("semicolon", THREE, "NULL", None),
    ("colon", THREE, "0:S", None),
    ("colon", THREE, "0:T", None),
    ("colon", THREE, "0:D", None),
    ("rc", FOUR, "OpenDarts", "info"),
    ("rc", FOUR, "missb", ("button", Button.MISS)),
    ("bracket", THREE, "<T20>", dart("T20")),
    ("bracket", THREE, "<S20>", dart("S20")),
    ("bracket", THREE, "<D5>", dart("D5")),
    ("bracket", THREE, "<SB>", dart("BULL", BullZone.OUTER)),
    ("bracket", THREE, "<DB>", dart("BULL", BullZone.INNER)),
    ("bracket", THREE, "<BTN>", ("button", Button.NEXT)),
    ("bracket", THREE, "<OUT>", "miss"),
    ("bracket", THREE, "<KO>", "info"),
    ("bracket", THREE, "<T21>", "bad"),
    ("bracket", THREE, "T20", "bad"),
]


GRAN_TABLE = [
    # the GranBoard's own codes, no map given (hardware/granboard.py)
    ("3.4@", dart("T20")),
    ("3.3@", dart("S20")),
    ("3.5@", dart("L20")),
    ("3.6@", dart("D20")),
    ("4.0@", dart("BULL", BullZone.INNER)),
    ("8.0@", dart("BULL", BullZone.OUTER)),
    ("4.6@", dart("D5")),
    ("11.0@", dart("S16")),
    ("9.0@", dart("T2")),
    ("12.0@", ("unmapped", "12.0@")),
    ("BTN@", ("button", Button.NEXT)),
]


@pytest.mark.parametrize(("line", "expected"), GRAN_TABLE)
def test_granboard_codes_without_a_map(line, expected):
    assert outcome(read_line(dialect("granboard"), line, FOUR, None)) == expected


def test_granboard_table_has_every_cell_once():
    from hardware.granboard import granboard_table

    for profile in Profile:
        table = granboard_table(profile)
        assert not table.missing()
        assert len(table.contacts) == 82
        cells = [t.cell for t in table.contacts.values()]
        if profile is Profile.FOUR_RING:
            assert len(set(cells)) == 81  # two codes for the bull (SB, DB)


@pytest.mark.parametrize(
    ("name", "board", "line", "expected"),
    TABLE,
    ids=[f"{t[0]}:{t[2] or 'empty'}:{t[1].profile.value}" for t in TABLE],
)
def test_dialect_table(name, board, line, expected):
    board_map = GRAN_MAP if name == "granboard" else RC_MAP
    assert outcome(read_line(dialect(name), line, board, board_map)) == expected


def test_every_dialect_has_table_rows():
    assert {row[0] for row in TABLE} == set(DIALECTS)


def test_raw_dialects_without_a_map_report_unmapped_not_guessed():
    assert read_line(dialect("rc"), "3,7", FOUR, None) == UnmappedInput("3,7")
    # the GranBoard's codes are its own and published: read with its table, not guessed
    assert read_line(dialect("granboard"), "12.9@", FOUR, None) == UnmappedInput("12.9@")


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("HELLO dartship/1 b1 four-ring", "connected"),
        ("HELLO dartship/2 b1 four-ring", "dartship/2"),
        ("HELLO dartship/1 b1 three-ring", "three-ring"),
        ("HELLO dartship/1 b1 five-ring", "five-ring"),
    ],
)
def test_hello_checks_version_and_profile(line, says):
    event = hello(line, FOUR)
    assert isinstance(event, Info)
    assert says in event.message


def test_broken_hello_is_a_bad_line():
    assert isinstance(hello("HELLO there", FOUR), BadLine)


@pytest.mark.parametrize("name", ["numeric", "semicolon", "colon"])
def test_three_ring_dialects_select_three_ring_and_say_so(name):
    profile, note = effective_profile(dialect(name), Profile.FOUR_RING)
    assert profile is Profile.THREE_RING
    assert isinstance(note, Info) and name in note.message


@pytest.mark.parametrize("name", ["dartship", "x", "rc", "granboard"])
def test_four_ring_dialects_keep_the_configured_profile(name):
    assert effective_profile(dialect(name), Profile.FOUR_RING) == (Profile.FOUR_RING, None)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"T20\n", "T20"),
        (b"T20\r\n", "T20"),
        (b"  D3  \n", "D3"),
        (b"\xffT20\n", None),
        (b"T2\x000\n", None),
        (b"A" * MAX_LINE + b"\n", None),
        (b"A" * (MAX_LINE - 1) + b"\n", "A" * (MAX_LINE - 1)),
    ],
)
def test_decode(raw, expected):
    text = decode(raw)
    if expected is None:
        assert isinstance(text, BadLine) and text.reason
    else:
        assert text == expected


def _all_cells(board):
    return [*board.cells, Cell(Ring.OFF)]


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_encode_then_read_gives_the_same_cell(name):
    chosen = dialect(name)
    board = board_for(chosen.profile or Profile.FOUR_RING)
    board_map = demo_map(board.profile, "granboard" if name == "granboard" else "rc")
    for cell in _all_cells(board):
        for zone in (BullZone.INNER, BullZone.OUTER) if cell == BULL else (BullZone.OTHER,):
            line = encode(chosen, cell, zone, board_map)
            event = read_line(chosen, line, board, board_map)
            if not cell.on_board:
                assert isinstance(event, MissInput), (name, line, event)
                continue
            assert isinstance(event, DartInput), (name, cell, line, event)
            assert event.cell == cell
            if cell == BULL:
                assert event.zone is zone


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=100),
    st.sampled_from(sorted(DIALECTS)),
    st.sampled_from([Profile.FOUR_RING, Profile.THREE_RING]),
)
def test_random_bytes_never_raise(raw, name, profile):
    text = decode(raw)
    if isinstance(text, BadLine):
        return
    # the dialect function itself, not read_line (whose safety net would hide a bug)
    event = dialect(name).read(text, board_for(profile), RC_MAP)
    assert event is None or hasattr(event, "to_json")


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=20),
    st.sampled_from(sorted(DIALECTS)),
)
def test_random_ascii_lines_never_raise(text, name):
    event = dialect(name).read(text.strip(), FOUR, RC_MAP)
    assert event is None or hasattr(event, "to_json")
