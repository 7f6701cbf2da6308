"""The one place that picks real or simulated devices from the config.

The composition root calls, with `sink = lambda ev: loop.call_soon_threadsafe(queue.put_nowait, ev)`:

    board = build_board_input(config, sink)      # start() / stop(); never None
    buttons = build_buttons(config, sink)        # start() / stop(), or None (no buttons)
    sensor = build_miss_sensor(config, sink)     # None: the sensor rides in the board input
    buzzer = build_buzzer(config)                # play(sound) / close(), or None (no buzzer)

Nothing here raises for a broken map or a missing device: the problem reaches the sink as an
`Info` and the kiosk runs with what it has.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from hardware import boardmap
from hardware.boardmap import BoardMap, BoardMapError
from hardware.buttons import Buttons, MissSensor, SimulatedButtons
from hardware.buzzer import ActiveBuzzer, SimulatedBuzzer, TonalBuzzer
from hardware.matrix import MatrixScanner
from hardware.ports import Sink, deliver
from hardware.serial_reader import SerialReader
from hardware.simulator import SimulatedBoard
from kiosk.darts.board import Profile
from kiosk.i18n import _
from kiosk.inputs import Button, Info

log = logging.getLogger("dartship.hardware")


class SensedBoard:
    """A board input with the miss sensor watching its darts: one device to start and stop."""

    def __init__(self, board_input: Any, sensor: MissSensor) -> None:
        self.board_input = board_input
        self.sensor = sensor

    def start(self) -> None:
        self.sensor.start()
        self.board_input.start()

    def stop(self) -> None:
        self.board_input.stop()
        self.sensor.stop()

    def __getattr__(self, name: str) -> Any:  # profile, throw_at, ... of the board input
        return getattr(self.board_input, name)


def load_map(config: Any, sink: Sink, path: str | None = None) -> BoardMap | None:
    """The configured board map, or None; every problem goes to the sink as an Info."""
    path = path if path is not None else config["board.map"]
    if not path:
        return None
    try:
        board_map = boardmap.load(path)
    except BoardMapError as err:
        for problem in err.problems:
            deliver(sink, Info(problem))
        deliver(sink, Info(_("running without a board map: every contact is unmapped")))
        return None
    for problem in board_map.check():
        deliver(sink, Info(problem))
    return board_map


def build_board_input(config: Any, sink: Sink, *, pin_factory: Any = None,
                      simulator_interval: float | None = None,
                      simulator_seed: int | None = None) -> Any:
    """The configured board input (serial, matrix or simulator), with the miss sensor if any.

    The simulator throws by itself every `simulator_interval` seconds when that is given;
    otherwise the screen drives it (`throw_at`, `enter`, `press`)."""
    kind = config["board.input"]
    profile = Profile(config["board.profile"])
    if kind == "simulator":
        return SimulatedBoard(sink, profile=profile, skill=config["simulator.skill"],
                              interval=simulator_interval, rng=random.Random(simulator_seed))
    sensor: MissSensor | None = None
    if config["miss_sensor.pin"] >= 0:
        sensor = MissSensor(config["miss_sensor.pin"], sink, grace_ms=config["miss_sensor.grace_ms"],
                            pin_factory=pin_factory)
    board_sink = sensor.watch(sink) if sensor else sink
    board_map = load_map(config, sink)
    device: Any
    if kind == "serial":
        device = SerialReader(config["board.port"], board_sink, dialect_name=config["board.dialect"],
                              profile=profile, board_map=board_map, baud=config["board.baud"])
    else:
        device = MatrixScanner(config["matrix.rows"], config["matrix.cols"], board_sink,
                               board_map=board_map, debounce_scans=config["matrix.debounce_scans"],
                               lockout_ms=config["matrix.lockout_ms"],
                               scan_hz=config["matrix.scan_hz"], pin_factory=pin_factory)
    return SensedBoard(device, sensor) if sensor else device


def build_buttons(config: Any, sink: Sink, *, pin_factory: Any = None) -> Any:
    """Simulated buttons for the simulator, GPIO buttons where pins are set, else None."""
    if config["board.input"] == "simulator":
        return SimulatedButtons(sink)
    pins = {Button.NEXT: config["buttons.next"], Button.UNDO: config["buttons.undo"],
            Button.MISS: config["buttons.miss"]}
    if all(p < 0 for p in pins.values()):
        return None
    return Buttons(pins, sink, pin_factory=pin_factory)


def build_miss_sensor(config: Any, sink: Sink, *, pin_factory: Any = None) -> None:
    """Always None: a miss sensor must see the board's darts to judge a felt dart, so
    `build_board_input` builds it into the board input (`SensedBoard`) when `miss_sensor.pin`
    is set. Kept so the composition root can treat every device alike."""
    return None


def build_buzzer(config: Any, *, pin_factory: Any = None) -> Any:
    """The configured buzzer; a simulated one (logging) for the simulator or when the pin
    cannot be used; None when there is no buzzer."""
    kind, pin, muted = config["buzzer.kind"], config["buzzer.pin"], config["buzzer.mute"]
    if kind == "none":
        return SimulatedBuzzer(muted=muted) if config["board.input"] == "simulator" else None
    if pin < 0:
        log.warning(_("buzzer.kind is %s but buzzer.pin is not set: the buzzer is simulated"), kind)
        return SimulatedBuzzer(muted=muted)
    try:
        if kind == "tonal":
            return TonalBuzzer(pin, muted=muted, pin_factory=pin_factory)
        return ActiveBuzzer(pin, muted=muted, pin_factory=pin_factory)
    except Exception as err:  # no GPIO here, or no PWM on this pin
        log.warning(_("the buzzer on GPIO%s is unusable (%s): it is simulated"), pin, err)
        return SimulatedBuzzer(muted=muted)
