"""Journal-style logging: `<N>` level prefixes, and never a placement in a log."""

from __future__ import annotations

import io
import logging
import os
from collections.abc import Iterator

import pytest

from kiosk.app import logs
from kiosk.board import board_for
from kiosk.darts.fleet import parse_fleet
from kiosk.darts.match import Place


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    logs.setup("DEBUG", stream=stream, journal=True)
    yield stream
    root.handlers[:], _level = saved
    root.setLevel(saved[1])


def test_every_level_gets_its_syslog_prefix(captured: io.StringIO) -> None:
    log = logging.getLogger("dartship.test")
    log.debug("d")
    log.info("i")
    log.warning("w")
    log.error("e")
    log.critical("c")
    assert captured.getvalue().splitlines() == [
        "<7>dartship.test: d",
        "<6>dartship.test: i",
        "<4>dartship.test: w",
        "<3>dartship.test: e",
        "<2>dartship.test: c",
    ]


def test_every_line_of_a_traceback_keeps_the_error_level(captured: io.StringIO) -> None:
    try:
        raise RuntimeError("board unplugged")
    except RuntimeError:
        logging.getLogger("dartship.test").exception("reader stopped")
    lines = captured.getvalue().splitlines()
    assert len(lines) > 2
    assert all(line.startswith("<3>") for line in lines)
    assert lines[-1] == "<3>RuntimeError: board unplugged"


def test_a_placement_never_reaches_the_log(captured: io.StringIO) -> None:
    board = board_for()
    fleet = parse_fleet("D20-D1 T5-T20-T1 S3-S19-S7-S16 D11-L11-T11-S11-BULL", board, (2, 3, 4, 5))
    log = logging.getLogger("dartship.service")
    log.info("placed %s", Place(0, fleet))  # the dataclass repr: Fleet(ships=(Ship(cells=...
    log.info("fleet of team 1: %s", " ".join(str(s) for s in fleet.ships))  # the codes
    log.warning('bad line {"cmd": "place", "team": 1, "fleet": "d20 - d1, t5-t20-t1"}')
    log.info("ship cells %s", list(fleet.ships[0].cells))
    try:
        raise ValueError("ship D20-D1 overlaps")
    except ValueError:
        log.exception("placement refused")
    text = captured.getvalue()
    for code in ("D20", "D1", "T5", "T20", "S3", "S19", "L11", "BULL", "d20", "t5"):
        assert code not in text, text
    assert text.count(logs.HIDDEN) >= 6


def test_single_darts_stay_readable(captured: io.StringIO) -> None:
    logging.getLogger("dartship.service").info("dart T20 hit, then D5, then MISS; game 2024-06-01")
    assert "dart T20 hit, then D5, then MISS; game 2024-06-01" in captured.getvalue()


def test_a_second_setup_replaces_the_handler() -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        logs.setup(stream=io.StringIO(), journal=False)
        logs.setup(stream=io.StringIO(), journal=False)
        ours = [h for h in root.handlers if isinstance(h, logs._DartshipHandler)]
        assert len(ours) == 1
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_level_comes_from_the_environment() -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        logs.setup(stream=io.StringIO(), journal=False, environ={"DARTSHIP_LOG_LEVEL": "warning"})
        assert root.level == logging.WARNING
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_journal_stream_is_recognised_by_device_and_inode(tmp_path) -> None:
    with open(tmp_path / "out", "w") as stream:
        st = os.fstat(stream.fileno())
        assert logs.under_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        assert not logs.under_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino + 1}"})
        assert not logs.under_journal(stream, {})
