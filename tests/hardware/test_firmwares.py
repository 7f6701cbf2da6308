"""The public DIY firmwares, read exactly: what each one prints (tests/hardware/firmwares/, written
from their sources) must register as one dart per dart, one press per press.

Three ways: the file's times as the reader's clock with the dialect named, the same with
`dialect = "auto"`, and on a pty through the fake board at the firmware's own speed (garbled
at another speed, dascr silent until its handshake) with auto telling dialect and speed.
"""

from __future__ import annotations

import time

import pytest

from hardware.fake_board import FakeBoard
from hardware.known_boards import KnownBoard, KnownBoards
from hardware.serial_reader import SerialReader
from kiosk.inputs import BadLine, Connected, Disconnected, Info
from tests.hardware.firmware_fixture import Firmware, every, registered

FIRMWARES = every()
IDS = [f.name for f in FIRMWARES]


def clocked(firmware: Firmware, dialect_name: str, inbox) -> list[object]:
    reader = SerialReader(
        "loop://",
        inbox,
        dialect_name=dialect_name,
        baud=firmware.baud or 115200,
        board_map=firmware.board_map,
    )
    for sent in firmware.sent:
        reader.feed(sent.data, now=100.0 + sent.at)
    return inbox.drain()


def test_every_firmware_of_the_protocol_table_has_a_fixture():
    assert {f.dialect for f in FIRMWARES} >= {
        "numeric",
        "x",
        "semicolon",
        "colon",
        "rc",
        "bracket",
        "granboard",
    }
    assert len(FIRMWARES) == 8


@pytest.mark.parametrize("firmware", FIRMWARES, ids=IDS)
def test_firmware_read_in_its_dialect(firmware, inbox):
    events = clocked(firmware, firmware.dialect, inbox)
    assert registered(events) == firmware.expected
    # unused spots, banners, words that mean nothing: quiet, never a bad line
    assert not [e for e in events if isinstance(e, BadLine)]


@pytest.mark.parametrize("firmware", FIRMWARES, ids=IDS)
def test_firmware_told_by_auto_from_its_first_line(firmware, inbox):
    events = clocked(firmware, "auto", inbox)
    assert registered(events) == firmware.expected
    said = [e.message for e in events if isinstance(e, Info)]
    assert any(f"board speaks {firmware.dialect} at" in m for m in said), said
    assert not [e for e in events if isinstance(e, BadLine)]


def test_a_held_button_is_one_press_and_two_darts_a_second_apart_are_two(inbox):
    reader = SerialReader("loop://", inbox, dialect_name="rc", baud=115200)
    for at in (0.0, 0.5, 1.0, 1.5, 2.0):  # next held 2 s, repeated every 500 ms
        reader.feed(b"next\r\n", now=at)
    reader.feed(b"next\r\n", now=3.0)  # pressed again after a second's rest
    assert registered(inbox.drain()) == ["button next", "button next"]
    # a dart between two presses: the button was let go, however quick the hand
    reader.feed(b"miss\r\n", now=3.2)
    reader.feed(b"next\r\n", now=3.4)
    assert registered(inbox.drain()) == ["miss", "button next"]
    reader = SerialReader("loop://", inbox, dialect_name="x", baud=115200)
    reader.feed(b"5i\n", now=10.0)
    reader.feed(b"5i\n", now=11.0)
    assert registered(inbox.drain()) == ["dart S5", "dart S5"]


def test_a_second_segment_within_the_lockout_is_the_same_dart(inbox):
    reader = SerialReader("loop://", inbox, dialect_name="x", baud=115200, lockout_seconds=0.02)
    reader.feed(b"16i\n7i\n", now=5.0)  # one read: 0.1 ms apart
    reader.feed(b"8i\n", now=5.019)
    reader.feed(b"3i\n", now=5.021)  # past the lockout: a dart of its own
    assert registered(inbox.drain()) == ["dart S16", "dart S3"]


def test_granboard_codes_split_on_the_at_sign_in_any_chunks(inbox):
    reader = SerialReader("loop://", inbox, dialect_name="granboard", baud=115200, lockout_seconds=0.0)
    reader.feed(b"3.4@3.", now=1.0)
    reader.feed(b"5@BTN@4.0", now=2.0)
    reader.feed(b"@", now=3.0)
    assert registered(inbox.drain()) == ["dart T20", "dart L20", "button next", "dart BULL"]


def test_a_forced_dialect_wins_over_what_auto_remembered(tmp_path, inbox):
    known = KnownBoards(tmp_path / "boards.json")
    known.remember("loop://", KnownBoard("x", 9600))
    forced = SerialReader("loop://", inbox, dialect_name="numeric", baud=115200, known=known)
    assert (forced.dialect_label, forced.baud) == ("numeric", 115200)
    auto = SerialReader("loop://", inbox, known=known)
    assert (auto.dialect_label, auto.baud) == ("x", 9600)


def test_a_remembered_dialect_is_told_again_when_another_board_answers(tmp_path, inbox):
    known = KnownBoards(tmp_path / "boards.json")
    known.remember("loop://", KnownBoard("x", 115200))
    reader = SerialReader("loop://", inbox, known=known)
    reader.feed(b"20;3\r\n", now=1.0)
    events = inbox.drain()
    assert registered(events) == ["dart T20"]
    assert known.get("loop://") == KnownBoard("semicolon", 115200)


def test_another_board_plugged_in_after_an_unplug_is_told_again(tmp_path, inbox):
    """An x board on the port, unplugged; a numeric one plugged in while the kiosk runs: its
    darts are read as numeric (they were bad lines of the x dialect until a restart)."""
    known = KnownBoards(tmp_path / "boards.json")
    first = FakeBoard("x")
    url = first.listen_tcp()
    port = int(url.rsplit(":", 1)[1])
    reader = SerialReader(url, inbox, known=known, read_timeout=0.02, backoff=(0.05, 0.1))
    reader.start()
    second = None
    try:
        inbox.until(lambda e: isinstance(e, Connected))
        time.sleep(0.4)  # past the fake board's hello delay
        for line, dart in (("20x3", "dart T20"), ("5i", "dart S5")):  # read well in x
            time.sleep(0.3)  # darts come apart (the lockout)
            assert first.send_line(line)
            inbox.until(lambda e, dart=dart: registered([e]) == [dart])
        first.close()
        inbox.until(lambda e: isinstance(e, Disconnected))
        second = FakeBoard("numeric")
        second.listen_tcp(port=port)
        inbox.until(lambda e: isinstance(e, Connected))
        time.sleep(0.4)
        assert second.send_line("305")
        events = inbox.until(lambda e: bool(registered([e])))
        assert registered(events) == ["dart T5"], events
        assert known.get(url) == KnownBoard("numeric", 115200)
    finally:
        reader.stop()
        first.close()
        if second is not None:
            second.close()


def replay_on_a_pty(firmware: Firmware, tmp_path, inbox) -> tuple[list[object], KnownBoards]:
    fake = FakeBoard(
        firmware.dialect,
        board_map=firmware.board_map,
        baud=firmware.baud,
        handshake=firmware.handshake is not None,
    )
    path = fake.open_pty()
    known = KnownBoards(tmp_path / "boards.json")
    reader = SerialReader(
        path, inbox, board_map=firmware.board_map, known=known, read_timeout=0.02, handshake_at=(0.0, 1.0)
    )
    reader.start()
    try:
        inbox.until(lambda e: isinstance(e, Connected))
        before: list[object] = []
        if firmware.handshake is not None:
            # silent until its handshake reaches it at its own speed: 115200 is tried (and
            # written to) first, then 9600
            deadline = time.monotonic() + 20
            while not fake.awake() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert fake.awake(), "the handshake never reached the board at its speed"
        elif firmware.baud == 9600:
            # the first dart at 115200 is no text: the reader says so and listens at 9600
            fake.send_bytes(firmware.sent[0].data)
            before = inbox.until(lambda e: isinstance(e, Info) and "9600" in e.message)
            time.sleep(0.8)  # that dart's repeats are long over before the replay
        start = time.monotonic()
        for sent in firmware.sent:
            time.sleep(max(0.0, start + sent.at - time.monotonic()))
            fake.send_bytes(sent.data)
        want = len(firmware.expected)
        got: list[object] = []
        deadline = time.monotonic() + 5
        while len(registered(got)) < want and time.monotonic() < deadline:
            got += inbox.drain()
            time.sleep(0.05)
        time.sleep(0.3)  # nothing more must come
        got += inbox.drain()
        return before + got, known
    finally:
        reader.stop()
        fake.close()


@pytest.mark.parametrize("firmware", FIRMWARES, ids=IDS)
def test_firmware_on_a_pty_at_its_own_speed_with_auto(firmware, tmp_path, inbox):
    events, known = replay_on_a_pty(firmware, tmp_path, inbox)
    assert registered(events) == firmware.expected
    remembered = next(iter(known.all().values()))
    assert remembered.dialect == firmware.dialect
    if firmware.baud is not None:
        assert remembered.baud == firmware.baud


def test_bytes_at_another_speed_move_auto_to_the_next_speed(inbox):
    from hardware.fake_board import garbled

    reader = SerialReader("/dev/ttyUSB-none", inbox)  # never opened: lines fed by hand
    assert reader.baud == 115200
    assert reader.feed(garbled(b"320\r\n") + b"\n", now=1.0) == 9600  # a 9600 board's dart
    assert reader.baud == 9600
    assert reader.feed(b"320\r\n", now=3.0) is None
    events = inbox.drain()
    assert registered(events) == ["dart T20"]
    assert any(isinstance(e, Info) and "listening at 9600 baud" in e.message for e in events)
    # once the speed is known, bad bytes are bad lines, not another change of speed
    assert reader.feed(b"\xfe\xff\n", now=4.0) is None and reader.baud == 9600


def test_a_board_remembered_for_its_port_is_waited_for_at_its_speed_while_silent(tmp_path, inbox):
    """The GranBoard bridge (SoftCyD, 9600 baud) says nothing until a dart. Its first kiosk start
    learns it (that first dart lost, once per port, as docs/board-test-transcripts.md says); the
    kiosk started again (a power cut mid-game, qa9) waited a few seconds at the remembered 9600,
    heard nothing, moved to 115200, and the next dart, whenever it came, was lost again: "nothing
    readable ... throw that dart again", after every start. A remembered speed is kept while the
    board is silent."""
    fake = FakeBoard("bracket", baud=9600)
    path = fake.open_pty()
    known = KnownBoards(tmp_path / "boards.json")

    def reader() -> SerialReader:
        return SerialReader(path, inbox, known=known, read_timeout=0.02, handshake_at=(0.0, 0.5))

    first = reader()
    first.start()
    try:
        inbox.until(lambda e: isinstance(e, Connected))
        fake.send_line("<T20>")  # read at 115200: no text; listened for at 9600 from then on
        # (a wait, not a time limit: on a loaded machine the reader's move to 9600 took over 3 s)
        inbox.until(lambda e: isinstance(e, Info) and "9600" in e.message, timeout=15)
        # The port is reopened at 9600 just after that is said: a dart thrown in between is read
        # at the old speed (a BadLine, as a thrower's would be): thrown again, as a thrower would.
        for _attempt in range(5):
            fake.send_line("<S5>")
            heard = inbox.until(lambda e: registered([e]) == ["dart S5"] or isinstance(e, BadLine))
            if registered(heard[-1:]) == ["dart S5"]:
                break
        assert registered(heard[-1:]) == ["dart S5"], heard
    finally:
        first.stop()
    assert known.get(path) == KnownBoard("bracket", 9600)
    inbox.drain()
    again = reader()
    again.start()
    try:
        inbox.until(lambda e: isinstance(e, Connected))
        time.sleep(3.5)  # silent past the handshakes and the settling (0.5 s + 2 s)
        fake.send_line("<D3>")
        events = inbox.until(lambda e: bool(registered([e])) or isinstance(e, Info), timeout=5)
        assert registered(events) == ["dart D3"], events
        assert again.baud == 9600
    finally:
        again.stop()
        fake.close()
