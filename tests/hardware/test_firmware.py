"""The reference firmware's C scan logic, compiled with gcc on the host and driven by ctypes.

Besides its own table, it must agree with the kiosk's Python debouncer on random wire readings.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.matrix import ContactDebouncer, Held, Press, Repeat, Several

SOURCE = Path(__file__).resolve().parents[2] / "hardware" / "firmware" / "dartship_board"
DART, MULTI, HELD = 1, 2, 3


class Event(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_uint8),
        ("row", ctypes.c_uint8),
        ("col", ctypes.c_uint8),
        ("count", ctypes.c_uint8),
    ]


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed")
    out = tmp_path_factory.mktemp("firmware") / "ds_scan.so"
    subprocess.run(
        [
            gcc,
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O2",
            "-shared",
            "-fPIC",
            "-o",
            str(out),
            str(SOURCE / "ds_scan.c"),
        ],
        check=True,
        timeout=120,
    )
    library = ctypes.CDLL(str(out))
    library.ds_init.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint8,
        ctypes.c_uint8,
        ctypes.c_uint8,
        ctypes.c_uint16,
        ctypes.c_uint16,
    ]
    library.ds_scan.argtypes = [
        ctypes.c_void_p,
        ctypes.c_char_p,
        ctypes.c_uint32,
        ctypes.POINTER(Event),
        ctypes.c_int,
    ]
    library.ds_format.argtypes = [ctypes.POINTER(Event), ctypes.c_char_p, ctypes.c_int]
    return library


class Matrix:
    """One ds_matrix in a buffer big enough for the struct (8x16 contacts)."""

    def __init__(self, lib, rows=3, cols=4, debounce=3, lockout_ms=20, stuck_ms=500):
        self.lib, self.rows, self.cols = lib, rows, cols
        self.memory = ctypes.create_string_buffer(8192)
        assert lib.ds_init(self.memory, rows, cols, debounce, lockout_ms, stuck_ms) == 0

    def scan(self, closed, now_ms):
        reading = bytearray(self.rows * self.cols)
        for r, c in closed:
            reading[r * self.cols + c] = 1
        out = (Event * 8)()
        n = self.lib.ds_scan(self.memory, bytes(reading), now_ms & 0xFFFFFFFF, out, 8)
        return [(e.kind, e.row, e.col, e.count) for e in out[:n]]

    def line(self, event):
        buf = ctypes.create_string_buffer(40)
        n = self.lib.ds_format(ctypes.byref(Event(*event)), buf, 40)
        return buf.value.decode() if n >= 0 else None


def test_init_refuses_impossible_sizes(lib):
    memory = ctypes.create_string_buffer(8192)
    assert lib.ds_init(memory, 9, 4, 3, 20, 500) == -1
    assert lib.ds_init(memory, 4, 17, 3, 20, 500) == -1
    assert lib.ds_init(memory, 4, 4, 0, 20, 500) == -1


def test_a_press_after_the_debounce_is_one_dart(lib):
    m = Matrix(lib)
    events = [m.scan([(1, 2)], t) for t in range(10)]
    assert events[:2] == [[], []]
    assert events[2] == [(DART, 1, 2, 1)]
    assert all(e == [] for e in events[3:])
    assert m.line(events[2][0]) == "RC 1 2"


def test_chatter_is_no_dart(lib):
    m = Matrix(lib)
    assert all(m.scan([(0, 0)] if t % 2 else [], t) == [] for t in range(50))


def test_two_at_once_is_multi(lib):
    m = Matrix(lib, debounce=1)
    [event] = m.scan([(0, 1), (2, 3)], 5)
    assert event == (MULTI, 0, 1, 2)
    assert m.line(event).startswith("#")  # a comment: the kiosk never counts it as a dart


def test_held_is_reported_once(lib):
    m = Matrix(lib, debounce=1, stuck_ms=500)
    events = [e for t in range(2000) for e in m.scan([(2, 2)], t)]
    assert events == [(DART, 2, 2, 1), (HELD, 2, 2, 1)]
    assert m.line(events[1]) == "# held 2 2"


def test_lockout_and_clock_wrap(lib):
    m = Matrix(lib, debounce=1, lockout_ms=20)
    start = 0xFFFFFFFF - 5  # millis() wraps during the lockout
    assert m.scan([(0, 0)], start) == [(DART, 0, 0, 1)]
    assert m.scan([(0, 0), (0, 1)], start + 3) == []  # inside the lockout: swallowed
    for t in range(start + 4, start + 30):
        m.scan([], t)
    assert m.scan([(1, 1)], start + 31) == [(DART, 1, 1, 1)]


def _python(changes):
    out = []
    for change in changes:
        if isinstance(change, Press | Repeat):
            out.append((DART, *change.contact, 1))
        elif isinstance(change, Held):
            out.append((HELD, *change.contact, 1))
        elif isinstance(change, Several):
            out.append((MULTI, *change.contacts[0], len(change.contacts)))
    return sorted(out)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.frozensets(st.tuples(st.integers(0, 2), st.integers(0, 3)), max_size=2), st.integers(1, 40)
        ),
        max_size=120,
    ),
    st.integers(1, 4),
)
def test_c_and_python_agree(lib, readings, debounce):
    """Same readings, same clock (in ms): the firmware and the kiosk decide alike."""
    m = Matrix(lib, debounce=debounce, lockout_ms=20, stuck_ms=500)
    d = ContactDebouncer(debounce_scans=debounce, lockout_seconds=20, stuck_seconds=500)
    now = 1000
    for closed, step in readings:
        now += step
        assert sorted(m.scan(closed, now)) == _python(d.scan(closed, now))
