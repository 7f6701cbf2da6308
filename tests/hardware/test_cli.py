"""board-test (PROTOCOLS.md 2), the fake board, the factory and `python -m hardware.cli`."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hardware import factory
from hardware.board_test import run as board_test
from hardware.buttons import Buttons
from hardware.buzzer import SimulatedBuzzer, TonalBuzzer
from hardware.fake_board import FakeBoard, read_script
from hardware.matrix import MatrixScanner
from hardware.serial_reader import SerialReader
from hardware.simulator import SimulatedBoard
from kiosk import config
from kiosk.board import MISS, Profile, board_for
from kiosk.inputs import DartInput, Info, MissInput

ROOT = Path(__file__).resolve().parents[2]


def _settings(values):
    typed, problems = config.check_values(values)
    assert not problems
    return config.build(typed)


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_board_test_simulator_prints_json_lines():
    out = io.StringIO()
    assert (
        board_test(["--input", "simulator", "--count", "6", "--interval", "0.001", "--seed", "4"], out) == 0
    )
    events = lines(out.getvalue())
    assert len(events) == 7  # six throws; "connected" is news, not a throw
    assert events[0]["event"] == "connected"
    for event in events[1:]:
        assert event["event"] in ("dart", "miss")
        assert set(event) == ({"event", "cell", "raw"} if event["event"] == "dart" else {"event", "raw"})


def test_board_test_serial_through_a_fake_board_pty():
    fake = FakeBoard("numeric")
    path = fake.open_pty()
    out = io.StringIO()
    done = threading.Event()

    class Watch(io.StringIO):
        def write(self, text):
            n = out.write(text)
            if '"connected"' in text:
                done.set()
            return n

    runner = threading.Thread(
        target=board_test, args=(["--port", path, "--dialect", "numeric", "--count", "6"], Watch())
    )
    runner.start()
    try:
        assert done.wait(5)
        for command in ("T20", "S20", "DB", "miss", "btn next"):
            fake.do(command)
            time.sleep(0.05)  # darts come apart: two within the 20 ms lockout are one
        fake.send_line("garbage!")
        runner.join(5)
    finally:
        fake.close()
    assert not runner.is_alive()
    events = lines(out.getvalue())
    assert events[1:] == [
        {"event": "connected", "port": path},
        {"event": "dart", "cell": "T20", "raw": "320"},
        {"event": "dart", "cell": "S20", "raw": "120"},
        {"event": "dart", "cell": "BULL", "raw": "225"},
        {"event": "miss", "raw": "FEHLWURF"},
        {"event": "button", "name": "next"},
        {"event": "bad_line", "raw": "garbage!"},
    ]
    assert events[0]["event"] == "info"
    assert "three-ring" in events[0]["message"]


def test_board_test_matrix_without_gpio_says_why(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    out = io.StringIO()
    assert board_test(["--input", "matrix", "--seconds", "0.05"], out) == 0
    events = lines(out.getvalue())
    assert events and events[0]["event"] in ("connected", "disconnected")


def test_board_test_port_means_a_serial_board():
    err = io.StringIO()
    for given in ("simulator", "matrix"):
        assert (
            board_test(["--input", given, "--port", "/dev/ttyACM0", "--seconds", "0"], io.StringIO(), err)
            == 2
        )
    assert "--input serial" in err.getvalue()


def test_board_test_bad_option_value(tmp_path):
    err = io.StringIO()
    assert (
        board_test(["--input", "serial", "--dialect", "klingon", "--seconds", "0"], io.StringIO(), err) == 2
    )
    assert "board.dialect" in err.getvalue()


def test_board_test_broken_map_is_not_fatal(tmp_path):
    bad = tmp_path / "map.toml"
    bad.write_text("[contacts\n")
    out = io.StringIO()
    assert (
        board_test(
            [
                "--input",
                "serial",
                "--port",
                str(tmp_path / "none"),
                "--dialect",
                "rc",
                "--map",
                str(bad),
                "--seconds",
                "0.3",
            ],
            out,
        )
        == 0
    )
    events = lines(out.getvalue())
    assert events[0]["event"] == "info" and "TOML" in events[0]["message"]
    assert events[-1]["event"] == "disconnected"


def test_fake_board_over_tcp_with_unplug(inbox):
    fake = FakeBoard("x")
    url = fake.listen_tcp()
    reader = SerialReader(url, inbox, dialect_name="x", backoff=(0.02, 0.1), read_timeout=0.02)
    reader.start()
    try:
        inbox.until(lambda e: type(e).__name__ == "Connected")
        # wait for the fake to have its client, then send
        for _ in range(100):
            if fake._client is not None:
                break
            threading.Event().wait(0.02)
        fake.do("20o")  # not a cell spelling of ours: reported, nothing sent
        fake.do("L20")
        assert inbox.until(lambda e: isinstance(e, DartInput))[-1].cell.code == "L20"
        fake.unplug()
        inbox.until(lambda e: type(e).__name__ == "Disconnected")
    finally:
        reader.stop()
        fake.close()


def test_fake_board_throws_with_the_scatter_model():
    fake = FakeBoard("dartship", rng=random.Random(1), skill="novice")
    board = board_for(Profile.FOUR_RING)
    sent = [fake.line_for("throw T20") for _ in range(200)]
    cells = {board.parse(s) if s != "MISS" else MISS for s in sent}
    assert len(cells) > 5  # a novice scatters over many cells, misses included
    assert fake.do("T21").startswith("not sent")


def test_script_reading():
    steps, problems = read_script(
        ["0.5 T20", "# comment", "", "1 btn next", "x T1", "-1 T2", "0 raw 3,7 # not a comment"]
    )
    assert [(s.delay, s.command) for s in steps] == [
        (0.5, "T20"),
        (1.0, "btn next"),
        (0.0, "raw 3,7 # not a comment"),
    ]
    assert len(problems) == 2


def test_factory_chooses_by_config(mock_factory, inbox, tmp_path):
    sim = _settings({"board.input": "simulator"})
    assert isinstance(factory.build_board_input(sim, inbox), SimulatedBoard)
    assert factory.build_buttons(sim, inbox) is None  # the simulator presses its own
    assert isinstance(factory.build_buzzer(sim), SimulatedBuzzer)

    serial_cfg = _settings(
        {"board.input": "serial", "board.port": "loop://", "miss_sensor.pin": 25, "buttons.next": 23}
    )
    board = factory.build_board_input(serial_cfg, inbox, pin_factory=mock_factory)
    assert isinstance(board, factory.SensedBoard)
    assert isinstance(board.board_input, SerialReader)
    assert isinstance(factory.build_buttons(serial_cfg, inbox, pin_factory=mock_factory), Buttons)
    assert factory.build_buzzer(serial_cfg) is None

    matrix_cfg = _settings({"board.input": "matrix"})
    assert isinstance(factory.build_board_input(matrix_cfg, inbox, pin_factory=mock_factory), MatrixScanner)
    assert factory.build_buttons(matrix_cfg, inbox) is None
    tonal = _settings({"board.input": "matrix", "buzzer.kind": "tonal", "buzzer.pin": 18})
    assert isinstance(factory.build_buzzer(tonal, pin_factory=mock_factory), SimulatedBuzzer)


def test_every_board_built_from_the_config_says_whether_it_takes_a_map_and_takes_out(
    mock_factory, inbox, tmp_path
):
    """What Learn board (`Kiosk.use_board_map`) and the takeout prompt ask of the board: the
    contact boards take a saved map at once (with the miss sensor in front too), the
    simulator and the cameras read none; only the cameras end a visit themselves."""
    from hardware.autodarts import AutodartsBoard
    from kiosk.ports import MappedBoard

    saved = tmp_path / "board-map.toml"
    saved.write_text('profile = "three-ring"\n[contacts]\n"3,7" = "T20"\n', encoding="utf-8")
    sensed = factory.build_board_input(
        _settings(
            {"board.input": "serial", "board.port": "loop://", "board.dialect": "rc", "miss_sensor.pin": 25}
        ),
        inbox,
        pin_factory=mock_factory,
    )
    matrix = factory.build_board_input(_settings({"board.input": "matrix"}), inbox, pin_factory=mock_factory)
    cameras = factory.build_board_input(_settings({"board.input": "autodarts"}), inbox)
    sim = factory.build_board_input(_settings({"board.input": "simulator"}), inbox)
    assert isinstance(cameras, AutodartsBoard)
    for board in (sensed, matrix):
        assert isinstance(board, MappedBoard) and not board.takes_out
        board.use_map(saved)
        assert board.profile is Profile.THREE_RING
    assert not isinstance(sim, MappedBoard) and not sim.takes_out
    assert not isinstance(cameras, MappedBoard) and cameras.takes_out


def test_factory_tonal_buzzer_on_pwm_pins():
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    tonal = _settings({"board.input": "matrix", "buzzer.kind": "tonal", "buzzer.pin": 18})
    buzzer = factory.build_buzzer(tonal, pin_factory=MockFactory(pin_class=MockPWMPin))
    assert isinstance(buzzer, TonalBuzzer)
    buzzer.close()


def test_simulated_board_events(inbox):
    board = SimulatedBoard(inbox, rng=random.Random(2), skill="pro")
    four = board_for(Profile.FOUR_RING)
    assert board.enter("db") is None and board.enter("off") is None
    assert "T99" in board.enter("T99")  # not a cell: said, nothing sent
    board.throw_at(four.parse("T20"))
    board.land(four.parse("S5"))
    got = inbox.drain()
    assert got[0].zone.value == "inner"
    assert isinstance(got[1], MissInput)
    assert isinstance(got[2], DartInput | MissInput) and len(got) == 4
    assert got[3] == DartInput(four.parse("S5"), "tap")


def test_the_simulator_aims_at_miss_off_the_board_never_at_the_bull(inbox):
    """Aiming at MISS (a dart thrown to miss) must land off the board like the real thing: the
    old screen-side copy of the simulator landed it at the bull."""
    board = SimulatedBoard(inbox, rng=random.Random(5), skill="pro")
    landings = [board.throw_at(MISS).cell for _ in range(50)]
    assert all(not cell.on_board for cell in landings)


@pytest.mark.parametrize("command", ["board-test", "fake-board", "learn"])
def test_python_dash_m_help(command):
    result = subprocess.run(
        [sys.executable, "-m", "hardware.cli", command, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0
    assert f"dartship {command}" in result.stdout


def test_python_dash_m_board_test_simulator():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "hardware.cli",
            "board-test",
            "--input",
            "simulator",
            "--count",
            "3",
            "--interval",
            "0.001",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0
    events = [json.loads(line)["event"] for line in result.stdout.splitlines()]
    assert len(events) == 4 and events[0] == "connected"


def test_multiple_contacts_is_shown_by_a_service_that_knows_only_info():
    from hardware.sink import MultipleContacts

    event = MultipleContacts.of(("1,1", "4,2"))
    assert isinstance(event, Info) and "1,1" in event.message


def test_fake_board_help_describes_every_option(capsys):
    from hardware.cli import fake_board_main

    with pytest.raises(SystemExit):
        fake_board_main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    for words in ("the serial dialect it speaks", "the address to listen on", "the cells it reports"):
        assert words in out


def test_learn_speaks_the_kiosks_language(tmp_path):
    """The wizard talks to the owner in the config's language (the strings are translated when
    asked, not when the module is imported)."""
    cfg = tmp_path / "config.toml"
    cfg.write_text('[kiosk]\nlanguage = "de"\n[board]\ninput = "simulator"\n', encoding="utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "hardware.cli",
            "learn",
            "--config",
            str(cfg),
            "--map",
            str(tmp_path / "board.map"),
        ],
        input="q\n",
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    from kiosk.i18n import catalog

    german = catalog("de")
    assert german["throw or press {cell} now"].format(cell="D20") in result.stdout
    assert "keys: Enter" not in result.stdout
    assert (tmp_path / "board.map").exists()
