"""A board that floods the kiosk with garbage (issue 13, item 7): control characters never
reach a log or a screen raw, bad lines are summarised (the first few, then a count per 10 s)
before they reach the game's queue, and a real dart in the middle of the flood still counts.

How fast it counts is measured, not asserted: bench/serial_flood.py."""

from __future__ import annotations

import io
import os
import threading

from hardware.serial_reader import SerialReader
from hardware.sink import NoiseSummary
from kiosk.inputs import BadLine, DartInput, UnmappedInput
from tests.hardware.test_serial_reader import FAST, running

ESCAPES = b"\x1b[2J\x1b[31mPWNED\x07\r\x1b]0;title\x07\n"  # clear screen, red, bell, a title


def _controls(text: str) -> set[str]:
    return {ch for ch in text if ord(ch) < 32 or ord(ch) == 127}


def test_ten_thousand_bad_lines_a_second_become_five_and_a_count():
    told: list[object] = []
    reader = SerialReader("loop://", told.append, dialect_name="dartship", baud=115200)
    for i in range(10_000):
        reader.line(ESCAPES if i % 2 else b"\xfe\xff garbage\n", now=i / 10_000)
        if i == 5_000:
            reader.line(b"T20\n", now=0.5)  # a real dart in the middle of it
    reader.tick(now=9.9)
    assert sum(isinstance(e, NoiseSummary) for e in told) == 0  # the window is still open
    reader.tick(now=10.0)
    bad = [e for e in told if isinstance(e, BadLine)]
    darts = [e for e in told if isinstance(e, DartInput)]
    summaries = [e for e in told if isinstance(e, NoiseSummary)]
    assert len(bad) == 5 and [d.cell.code for d in darts] == ["T20"]
    assert len(summaries) == 1 and summaries[0].count == 9_995
    assert "9995 more bad lines" in summaries[0].message and "10 s" in summaries[0].message
    assert summaries[0].to_json() == {"event": "bad_lines", "count": 9_995, "seconds": 10}
    for event in bad:
        assert not _controls(event.raw), event.raw
    assert "\\x1b[2J" in [e.raw for e in bad][1]


def test_unmapped_contacts_and_board_messages_are_summarised_too():
    told: list[object] = []
    reader = SerialReader("loop://", told.append, dialect_name="dartship", baud=115200)
    for i in range(1_000):
        reader.line(b"RC 9 9\n", now=i / 1_000)
        reader.line(b"HELLO dartship/1 flood four-ring\n", now=i / 1_000)
    reader.tick(now=20.0)
    assert sum(isinstance(e, UnmappedInput) for e in told) == 5
    counts = sorted((e.count, e.kind) for e in told if isinstance(e, NoiseSummary))
    assert counts == [(995, "board_messages"), (995, "unmapped_contacts")]


def test_a_dart_behind_a_flood_on_a_real_line_still_counts(pty_pair, inbox):
    master, _slave, path = pty_pair
    flood = ESCAPES * 30_000  # 30 000 lines, about 900 kB
    with running(SerialReader(path, inbox, dialect_name="dartship", baud=115200, **FAST)):
        inbox.until(lambda e: type(e).__name__ == "Connected")
        writer = threading.Thread(target=lambda: os.write(master, flood + b"D20\n"))
        writer.start()
        got = inbox.until(lambda e: isinstance(e, DartInput), timeout=60)
        writer.join()
    assert [e.cell.code for e in got if isinstance(e, DartInput)] == ["D20"]
    assert sum(isinstance(e, BadLine) for e in got) <= 5  # the rest is counted, not queued


def test_board_test_prints_the_summary_as_json():
    from hardware.board_test import JsonLines

    out = io.StringIO()
    JsonLines(out)(NoiseSummary.of("bad_lines", 12, 10.0))
    assert out.getvalue() == '{"event": "bad_lines", "count": 12, "seconds": 10}\n'
