"""The serial reader through a pty pair, socket:// (closing the socket is an unplug) and loop://."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import tty
from collections.abc import Iterator

import pytest
import serial

from hardware.boardmap import from_pairs
from hardware.serial_reader import SerialReader
from kiosk.board import BullZone, Profile
from kiosk.i18n import set_language
from kiosk.inputs import (
    BadLine,
    Connected,
    DartInput,
    Disconnected,
    Info,
    MissInput,
    StuckInput,
    UnmappedInput,
)

# These tests write several darts in one go and name the dialect and speed; the lockout (two
# segments within 20 ms are one dart) and `auto` have tests of their own (test_firmwares.py).
FAST = {"backoff": (0.02, 0.1), "read_timeout": 0.02, "lockout_seconds": 0.0}
DARTSHIP = {"dialect_name": "dartship", "baud": 115200}


@contextlib.contextmanager
def running(reader: SerialReader) -> Iterator[SerialReader]:
    reader.start()
    try:
        yield reader
    finally:
        reader.stop()


def is_(kind):
    return lambda event: isinstance(event, kind)


def test_pty_darts_bad_lines_and_unplug(pty_pair, inbox):
    master, slave, path = pty_pair
    with running(SerialReader(path, inbox, **DARTSHIP, **FAST)):
        assert inbox.until(is_(Connected))[-1] == Connected(path)
        os.write(master, b"T20\r\nD3\n\xfe\xff\n" + b"X" * 80 + b"\nMISS\n# debug\nDB\n")
        got = inbox.until(lambda e: isinstance(e, DartInput) and e.raw == "DB")
        darts = [e for e in got if isinstance(e, DartInput)]
        assert [d.cell.code for d in darts] == ["T20", "D3", "BULL"]
        assert darts[-1].zone is BullZone.INNER
        assert sum(isinstance(e, BadLine) for e in got) == 2
        assert sum(isinstance(e, MissInput) for e in got) == 1
        # the board is unplugged: both ends of the pty go away
        os.close(master)
        os.close(slave)
        assert isinstance(inbox.until(is_(Disconnected))[-1].reason, str)


def test_an_unplug_and_a_missing_port_are_said_in_the_owners_words_and_language(pty_pair, inbox):
    """Not pyserial's English ("device reports readiness to read but returned no data (device
    disconnected or multiple access on port?)") on a German screen."""
    master, slave, path = pty_pair
    set_language("de")
    try:
        with running(SerialReader(path, inbox, **DARTSHIP, **FAST)):
            inbox.until(is_(Connected))
            os.close(master)  # the cable is pulled out
            os.close(slave)
            reason = inbox.until(is_(Disconnected))[-1].reason
        # the kernel says it as EIO or as a read of nothing, by the moment it is read
        assert reason in {
            "das Kabel wurde abgezogen",
            "das Kabel wurde abgezogen, oder ein anderes Programm liest den Port mit",
        }
        with running(SerialReader(path + "-gone", inbox, **DARTSHIP, **FAST)):
            reason = inbox.until(is_(Disconnected))[-1].reason
        assert (
            reason
            == f"{path}-gone: kann nicht geöffnet werden: kein solcher Port: ist die Scheibe eingesteckt?"
        )
    finally:
        set_language("en")


def test_a_line_split_over_many_writes(pty_pair, inbox):
    master, _slave, path = pty_pair
    with running(SerialReader(path, inbox, **DARTSHIP, **FAST)):
        inbox.until(is_(Connected))
        for piece in (b"T", b"1", b"9\r", b"\nS", b"5\n"):
            os.write(master, piece)
        got = inbox.until(lambda e: isinstance(e, DartInput) and e.raw == "S5")
        assert [e.cell.code for e in got if isinstance(e, DartInput)] == ["T19", "S5"]


def test_an_overlong_line_in_pieces_is_one_bad_line(pty_pair, inbox):
    master, _slave, path = pty_pair
    with running(SerialReader(path, inbox, **DARTSHIP, **FAST)):
        inbox.until(is_(Connected))
        for _ in range(5):
            os.write(master, b"Y" * 30)
        os.write(master, b"\nT5\n")
        got = inbox.until(lambda e: isinstance(e, DartInput))
        assert sum(isinstance(e, BadLine) for e in got) == 1
        assert got[-1].cell.code == "T5"


def test_stuck_contact_is_one_dart_and_one_report(pty_pair, inbox):
    master, _slave, path = pty_pair
    # a long window: the repeats below are certainly inside it, however slow the machine
    with running(SerialReader(path, inbox, repeat_seconds=30.0, **DARTSHIP, **FAST)):
        inbox.until(is_(Connected))
        os.write(master, b"T20\nT20\nT20\nT20\nD1\n")
        got = inbox.until(lambda e: isinstance(e, DartInput) and e.raw == "D1")
        assert [type(e).__name__ for e in got if not isinstance(e, Info)] == [
            "DartInput",
            "StuckInput",
            "DartInput",
        ]
        assert next(e for e in got if isinstance(e, StuckInput)).cell.code == "T20"


def test_stuck_window_with_explicit_clock(inbox):
    reader = SerialReader("loop://", inbox, repeat_seconds=0.5, **DARTSHIP)
    reader.line(b"T20\n", now=10.0)
    reader.line(b"T20\n", now=10.2)
    reader.line(b"T20\n", now=10.4)  # still held: no second report
    reader.line(b"T20\n", now=11.5)  # a new dart in the same cell, well apart
    events = inbox.drain()
    assert [type(e).__name__ for e in events] == ["DartInput", "StuckInput", "DartInput"]


def test_missing_port_is_retried_until_it_exists(tmp_path, inbox):
    """The port does not exist yet: disconnected once, then connected when it appears."""
    link = tmp_path / "dartboard"
    reader = SerialReader(str(link), inbox, **DARTSHIP, **FAST)
    reader.start()
    master, slave = os.openpty()
    try:
        first = inbox.until(is_(Disconnected))[-1]
        assert "dartboard" in first.reason
        tty.setraw(slave)
        link.symlink_to(os.ttyname(slave))
        got = inbox.until(is_(Connected))
        assert not any(isinstance(e, Disconnected) for e in got)  # announced once, not per retry
        os.write(master, b"T1\n")
        assert inbox.until(is_(DartInput))[-1].cell.code == "T1"
    finally:
        reader.stop()
        os.close(master)
        os.close(slave)


class OneBoardServer:
    """A TCP board: accepts one client at a time; `unplug()` closes the connection."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.clients: list[socket.socket] = []
        self.connected = threading.Semaphore(0)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            self.clients.append(client)
            self.connected.release()

    def send(self, data: bytes) -> None:
        self.clients[-1].sendall(data)

    def unplug(self) -> None:
        self.clients[-1].close()

    def close(self) -> None:
        self.server.close()
        for c in self.clients:
            c.close()


def test_socket_unplug_and_reconnect(inbox):
    board = OneBoardServer()
    url = f"socket://127.0.0.1:{board.port}"
    with running(SerialReader(url, inbox, **DARTSHIP, **FAST)):
        assert inbox.until(is_(Connected))[-1] == Connected(url)
        assert board.connected.acquire(timeout=3)
        board.send(b"HELLO dartship/1 tcp-1 four-ring\nT20\n")
        got = inbox.until(is_(DartInput))
        assert any(isinstance(e, Info) and "tcp-1" in e.message for e in got)
        board.unplug()
        inbox.until(is_(Disconnected))
        # the reader reconnects by itself
        assert inbox.until(is_(Connected))[-1] == Connected(url)
        assert board.connected.acquire(timeout=3)
        board.send(b"D20\n")
        assert inbox.until(is_(DartInput))[-1].cell.code == "D20"
        board.close()


def test_loop_url_through_an_opener(inbox):
    port = serial.serial_for_url("loop://", timeout=0.02)
    reader = SerialReader(
        "loop://",
        inbox,
        opener=lambda url: port,
        dialect_name="rc",
        board_map=from_pairs([("3,7", "T20")]),
        **FAST,
    )
    with running(reader):
        inbox.until(is_(Connected))
        port.write(b"3,7\n4,4\nnext\n")
        got = inbox.until(lambda e: type(e).__name__ == "ButtonInput")
        assert [type(e).__name__ for e in got if not isinstance(e, Connected)] == [
            "DartInput",
            "UnmappedInput",
            "ButtonInput",
        ]
        assert next(e for e in got if isinstance(e, UnmappedInput)).raw == "4,4"


def test_a_map_handed_to_the_running_reader_counts_from_the_next_line(inbox, tmp_path, caplog):
    """Learn board's Save map (kiosk.ports.MappedBoard): the reader started without a map reads
    the next contact with the saved one, its three-ring profile too (qa9: until the next start
    it said "not in the board map"); a map it cannot read leaves the old one. What the map
    lacks goes to the journal once (the Learn screen says it; a toast of it stood over that,
    and a problem in the file was told twice), never to the game as `Info`."""
    port = serial.serial_for_url("loop://", timeout=0.02)
    reader = SerialReader("loop://", inbox, opener=lambda url: port, dialect_name="rc", **FAST)
    saved = tmp_path / "board-map.toml"
    saved.write_text('profile = "three-ring"\n[contacts]\n"3,7" = "T20"\n"3,8" = "X99"\n', encoding="utf-8")
    caplog.set_level(logging.WARNING, logger="dartship.serial")
    with running(reader):
        inbox.until(is_(Connected))
        port.write(b"3,7\n")
        assert inbox.until(is_(UnmappedInput))[-1].raw == "3,7"
        reader.use_map(saved)
        assert reader.profile is Profile.THREE_RING
        port.write(b"4,4\n3,7\n")
        got = inbox.until(is_(DartInput))
        assert [e.cell.code for e in got if isinstance(e, DartInput)] == ["T20"]
        lacks = [e for e in got if isinstance(e, Info) and ("X99" in e.message or "no contact" in e.message)]
        assert not lacks, got
        told = [r.getMessage() for r in caplog.records if "board map" in r.getMessage()]
        assert len(told) == 2, told  # the bad cell, then the missing ones: each once
        assert "X99" in told[0] and "cells have no contact" in told[1]
        with pytest.raises(ValueError, match="cannot read the board map"):
            reader.use_map(tmp_path / "nothing.toml")
        assert reader.board_map is not None and reader.board_map.lookup("3,7") is not None


def test_a_three_ring_dialect_says_so_at_start(inbox):
    port = serial.serial_for_url("loop://", timeout=0.02)
    # loop:// would echo dascr's handshake back: not what this test is about
    reader = SerialReader(
        "loop://",
        inbox,
        opener=lambda url: port,
        dialect_name="numeric",
        profile=Profile.FOUR_RING,
        handshake_at=(),
        **FAST,
    )
    assert reader.profile is Profile.THREE_RING
    with running(reader):
        first = inbox.next()
        assert isinstance(first, Info) and "three-ring" in first.message
        inbox.until(is_(Connected))
        port.write(b"120\n")
        assert inbox.until(is_(DartInput))[-1].cell.code == "S20"


def test_a_bad_url_is_reported_and_stop_is_clean(inbox):
    reader = SerialReader("nosuchscheme://x", inbox, **DARTSHIP, **FAST)
    reader.start()
    assert isinstance(inbox.until(is_(Disconnected))[-1], Disconnected)
    reader.stop()
    assert reader._thread is None


def test_a_failing_sink_does_not_end_the_reader(pty_pair):
    master, _slave, path = pty_pair
    delivered = []
    done = threading.Event()
    connected = threading.Event()

    def sink(event):
        if isinstance(event, Connected):
            connected.set()
        if isinstance(event, DartInput) and event.raw == "T1":
            raise RuntimeError("consumer bug")
        delivered.append(event)
        if isinstance(event, DartInput) and event.raw == "T2":
            done.set()

    with running(SerialReader(path, sink, **DARTSHIP, **FAST)):
        assert connected.wait(3)  # opening the port flushes what came before
        os.write(master, b"T1\nT2\n")
        assert done.wait(3)
