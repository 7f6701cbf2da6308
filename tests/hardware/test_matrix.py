"""The matrix scanner on gpiozero's MockFactory: chatter, two contacts at once, held contacts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.boardmap import demo_map
from hardware.matrix import ContactDebouncer, Held, MatrixScanner, MockMatrixWiring, Press, Several
from hardware.sink import MultipleContacts
from kiosk.inputs import Connected, DartInput, Disconnected, StuckInput, UnmappedInput

ROWS = [5, 6, 13, 19, 26, 16, 20]
COLS = [4, 17, 27, 22, 10, 9, 11, 0, 1, 7]
MS = 0.001


@pytest.fixture
def rig(mock_factory, inbox):
    wiring = MockMatrixWiring(mock_factory, ROWS, COLS)
    scanner = MatrixScanner(
        ROWS, COLS, inbox, board_map=demo_map(), debounce_scans=3, lockout_ms=20, pin_factory=mock_factory
    )
    assert scanner.open()
    clock = {"t": 100.0}

    def scans(n: int, step: float = MS) -> None:
        for _ in range(n):
            clock["t"] += step
            scanner.scan_once(clock["t"])

    yield wiring, scanner, scans
    scanner.stop()


def cell_of(contact):
    return demo_map().lookup(f"{contact[0]},{contact[1]}").cell


def test_a_clean_press_is_one_dart(rig, inbox):
    wiring, _scanner, scans = rig
    wiring.press((2, 3))
    scans(10)
    wiring.release()
    scans(10)
    events = inbox.drain()
    assert events == [DartInput(cell_of((2, 3)), "2,3")]


def test_rows_are_scanned_with_pullups(rig):
    wiring, scanner, _scans = rig
    assert scanner.read_closed() == []
    wiring.press((6, 9), (0, 0))
    assert sorted(scanner.read_closed()) == [(0, 0), (6, 9)]


def test_only_the_scanned_row_is_driven_the_others_float(rig):
    wiring, scanner, _scans = rig
    driven: list[list[int]] = []
    original = wiring._settle

    def watch() -> None:  # every change of a row pin: which rows drive the matrix now
        driven.append([r for r, pin in enumerate(wiring.rows) if pin.function == "output"])
        original()

    wiring._settle = watch
    wiring.press((2, 4), (5, 4))  # two contacts in one column: idle-high rows would short
    assert sorted(scanner.read_closed()) == [(2, 4), (5, 4)]
    assert driven and all(len(rows) <= 1 for rows in driven)
    assert {rows[0] for rows in driven if rows} == set(range(len(ROWS)))
    assert all(pin.function == "input" for pin in wiring.rows)


def test_chatter_shorter_than_the_debounce_is_no_dart(rig, inbox):
    wiring, _scanner, scans = rig
    for _ in range(20):  # closed one scan, open one scan: a vibrating wire
        wiring.press((1, 1))
        scans(1)
        wiring.release()
        scans(1)
    scans(10)
    assert inbox.drain() == []


def test_chatter_on_release_is_still_one_dart(rig, inbox):
    wiring, _scanner, scans = rig
    wiring.press((1, 1))
    scans(5)
    for _ in range(10):  # the contact bounces while opening
        wiring.release()
        scans(1)
        wiring.press((1, 1))
        scans(1)
    wiring.release()
    scans(10)
    assert [type(e) for e in inbox.drain()] == [DartInput]


def test_two_contacts_at_once_are_reported_not_guessed(rig, inbox):
    wiring, _scanner, scans = rig
    wiring.press((1, 1), (4, 2))
    scans(5)
    events = inbox.drain()
    assert len(events) == 1
    assert isinstance(events[0], MultipleContacts)
    assert events[0].raws == ("1,1", "4,2")
    assert events[0].to_json() == {"event": "multiple_contacts", "raw": ["1,1", "4,2"]}


def test_two_contacts_in_one_row(rig, inbox):
    wiring, _scanner, scans = rig
    wiring.press((3, 0), (3, 9))
    scans(5)
    assert [type(e) for e in inbox.drain()] == [MultipleContacts]


def test_a_held_contact_is_one_dart_and_one_stuck_report(rig, inbox):
    wiring, _scanner, scans = rig
    wiring.press((0, 0))
    scans(1000)  # a second of scans at 1 ms
    wiring.release()
    scans(10)
    events = inbox.drain()
    assert events == [DartInput(cell_of((0, 0)), "0,0"), StuckInput(cell_of((0, 0)))]


def test_the_lockout_swallows_a_second_contact_right_after_a_dart(rig, inbox):
    wiring, _scanner, scans = rig
    wiring.press((2, 2))
    scans(3)
    wiring.press((2, 3))  # the dart flexes the board onto the neighbour 3 ms later
    scans(5)
    wiring.release()
    scans(40)
    wiring.press((5, 5))  # after the lockout: a new dart
    scans(5)
    assert [e.raw for e in inbox.drain()] == ["2,2", "5,5"]


def test_unmapped_contacts_are_reported(mock_factory, inbox):
    wiring = MockMatrixWiring(mock_factory, ROWS, COLS)
    scanner = MatrixScanner(ROWS, COLS, inbox, board_map=None, pin_factory=mock_factory)
    assert scanner.open()
    wiring.press((6, 9))
    for i in range(5):
        scanner.scan_once(float(i) * MS)
    scanner.stop()
    assert inbox.drain() == [UnmappedInput("6,9")]


def test_the_scan_thread_delivers(mock_factory, inbox):
    wiring = MockMatrixWiring(mock_factory, ROWS, COLS)
    scanner = MatrixScanner(ROWS, COLS, inbox, board_map=demo_map(), scan_hz=2000, pin_factory=mock_factory)
    scanner.start()
    try:
        assert isinstance(inbox.next(), Connected)
        wiring.press((4, 4))
        event = inbox.until(lambda e: isinstance(e, DartInput))[-1]
        assert event.raw == "4,4"
    finally:
        scanner.stop()


def test_pins_that_cannot_be_used_are_reported(mock_factory, inbox):
    scanner = MatrixScanner([5, 5], COLS, inbox, pin_factory=mock_factory)  # a pin twice
    scanner.start()
    assert isinstance(inbox.next(), Disconnected)
    scanner.stop()


# --- the pure debouncer ---------------------------------------------------------------------


def test_debouncer_held_is_told_once():
    d = ContactDebouncer(debounce_scans=2, lockout_seconds=0.02, stuck_seconds=0.5)
    changes = []
    for i in range(2000):
        changes += d.scan([(0, 1)], i * MS)
    assert changes == [Press((0, 1)), Held((0, 1))]


def test_debouncer_several():
    d = ContactDebouncer(debounce_scans=1)
    assert d.scan([(0, 1), (2, 2)], 0.0) == [Several(((0, 1), (2, 2)))]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.frozensets(st.tuples(st.integers(0, 2), st.integers(0, 2)), max_size=3), max_size=200))
def test_debouncer_never_reports_an_unclosed_contact(readings):
    """Whatever the wires do, a dart is a contact closed now and in at least `debounce` scans,
    and no contact gives a second dart without having read open in between."""
    d = ContactDebouncer(debounce_scans=3, lockout_seconds=0.0, stuck_seconds=10.0)
    last_press: dict = {}
    for i, reading in enumerate(readings):
        for change in d.scan(reading, i * MS):
            if isinstance(change, Press):
                c = change.contact
                assert c in reading
                assert sum(c in readings[j] for j in range(i + 1)) >= 3
                if c in last_press:
                    assert any(c not in readings[j] for j in range(last_press[c], i))
                last_press[c] = i
