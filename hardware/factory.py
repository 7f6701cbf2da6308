"""The one place that picks real or simulated devices from the settings; each factory returns
a port of `kiosk/ports.py`.

The composition root calls, with `sink = lambda ev: loop.call_soon_threadsafe(queue.put_nowait, ev)`:

    board = build_board_input(settings, sink)    # a BoardInput (a Thrower in simulator mode)
    buttons = build_buttons(settings, sink)      # a Device, or None (no button pins)
    buzzer = build_buzzer(settings)              # a Buzzer, or None (no buzzer)
    voice, speaker = build_voice(settings)       # the caller's Voice and Speaker
    learner = LearnWizard                        # a LearnerFactory

Nothing here raises for a broken map or a missing device: the problem reaches the sink as an
`Info` and the kiosk runs with what it has.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hardware import boardmap
from hardware.boardmap import BoardMap, BoardMapError
from hardware.buttons import Buttons, MissSensor
from hardware.buzzer import ActiveBuzzer, SimulatedBuzzer, TonalBuzzer
from hardware.known_boards import KnownBoards
from hardware.simulator import SimulatedBoard
from hardware.sink import deliver
from hardware.speaker import SdlSpeaker, SimulatedSpeaker
from hardware.voice import EspeakVoice
from kiosk.board import Profile
from kiosk.config import BuzzerKind, CallerOutput, InputKind, Settings, voice_cache_dir
from kiosk.i18n import _
from kiosk.inputs import Button, Info
from kiosk.ports import BoardInput, Buzzer, Device, Sink, Speaker, Voice

if TYPE_CHECKING:  # each board's reader is imported when it is the one configured (pyserial...)
    from hardware.matrix import MatrixScanner
    from hardware.serial_reader import SerialReader

log = logging.getLogger("dartship.hardware")


class SensedBoard:
    """A board input with the miss sensor watching its darts: one device to start and stop."""

    def __init__(self, board_input: SerialReader | MatrixScanner, sensor: MissSensor) -> None:
        self.board_input = board_input
        self.sensor = sensor

    @property
    def name(self) -> str:
        return self.board_input.name

    @property
    def profile(self) -> Profile:
        return self.board_input.profile

    @property
    def rings_told(self) -> bool:
        return self.board_input.rings_told

    @property
    def takes_out(self) -> bool:
        return self.board_input.takes_out

    def use_map(self, path: Path) -> None:
        self.board_input.use_map(path)

    def start(self) -> None:
        self.sensor.start()
        self.board_input.start()

    def stop(self) -> None:
        self.board_input.stop()
        self.sensor.stop()


def load_map(settings: Settings, sink: Sink, path: str | None = None) -> BoardMap | None:
    """The configured board map, or None; every problem goes to the sink as an Info."""
    path = path if path is not None else settings.board.map
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


def known_boards(settings: Settings) -> KnownBoards:
    """What `dialect = "auto"` found per port: boards.json beside the database."""
    return KnownBoards(settings.database_path().parent / "boards.json")


def build_simulator(
    settings: Settings,
    sink: Sink,
    *,
    interval: float | None = None,
    seed: int | None = None,
    rng: random.Random | None = None,
) -> SimulatedBoard:
    """The virtual board: taps, typed cells, virtual throws (by itself every `interval` s)."""
    return SimulatedBoard(
        sink,
        profile=settings.board.profile,
        skill=settings.simulator.skill,
        interval=interval,
        rng=rng or random.Random(seed),
    )


def build_board_input(
    settings: Settings, sink: Sink, *, pin_factory: Any = None, rng: random.Random | None = None
) -> BoardInput:
    """The configured board input (serial, matrix, Autodarts or simulator), with the miss
    sensor if any.
    `rng` makes the simulator's scatter repeatable."""
    board = settings.board
    if board.input is InputKind.SIMULATOR:
        return build_simulator(settings, sink, rng=rng)
    if board.input is InputKind.AUTODARTS:
        from hardware.autodarts import AutodartsBoard

        # cameras see misses themselves: no miss sensor, no board map
        return AutodartsBoard(
            board.autodarts, sink, profile=board.profile, darts_per_visit=settings.rules.darts_per_visit
        )
    sensor: MissSensor | None = None
    if settings.miss_sensor.pin >= 0:
        sensor = MissSensor(
            settings.miss_sensor.pin, sink, grace_ms=settings.miss_sensor.grace_ms, pin_factory=pin_factory
        )
    board_sink = sensor.watch(sink) if sensor else sink
    board_map = load_map(settings, sink)
    device: SerialReader | MatrixScanner
    if board.input is InputKind.SERIAL:
        from hardware.serial_reader import SerialReader

        device = SerialReader(
            board.port,
            board_sink,
            dialect_name=board.dialect.value,
            profile=board.profile,
            board_map=board_map,
            baud=board.baud,
            lockout_seconds=settings.matrix.lockout_ms / 1000,
            known=known_boards(settings),
        )
    else:
        from hardware.matrix import MatrixScanner

        matrix = settings.matrix
        device = MatrixScanner(
            matrix.rows,
            matrix.cols,
            board_sink,
            board_map=board_map,
            debounce_scans=matrix.debounce_scans,
            lockout_ms=matrix.lockout_ms,
            scan_hz=matrix.scan_hz,
            pin_factory=pin_factory,
            profile=board.profile,
        )
    return SensedBoard(device, sensor) if sensor else device


def build_buttons(settings: Settings, sink: Sink, *, pin_factory: Any = None) -> Device | None:
    """GPIO buttons where pins are set, else None (the simulator has its own `press`)."""
    pins = {
        Button.NEXT: settings.buttons.next,
        Button.UNDO: settings.buttons.undo,
        Button.MISS: settings.buttons.miss,
    }
    if all(p < 0 for p in pins.values()):
        return None
    return Buttons(pins, sink, pin_factory=pin_factory)


def build_buzzer(settings: Settings, *, pin_factory: Any = None) -> Buzzer | None:
    """The configured buzzer; a simulated one (logging) for the simulator or when the pin
    cannot be used; None when there is no buzzer."""
    kind, pin, muted = settings.buzzer.kind, settings.buzzer.pin, settings.buzzer.mute
    if kind is BuzzerKind.NONE:
        simulator = settings.board.input is InputKind.SIMULATOR
        return SimulatedBuzzer(muted=muted) if simulator else None
    if pin < 0:
        log.warning(_("buzzer.kind is %s but buzzer.pin is not set: the buzzer is simulated"), kind.value)
        return SimulatedBuzzer(muted=muted)
    try:
        if kind is BuzzerKind.TONAL:
            return TonalBuzzer(pin, muted=muted, pin_factory=pin_factory)
        return ActiveBuzzer(pin, muted=muted, pin_factory=pin_factory)
    except Exception as err:  # no GPIO here, or no PWM on this pin
        log.warning(_("the buzzer on GPIO%s is unusable (%s): it is simulated"), pin, err)
        return SimulatedBuzzer(muted=muted)


def build_voice(settings: Settings, cache: Path | None = None) -> tuple[Voice, Speaker]:
    """The caller's voice (recordings, else espeak-ng through the cache: `cache`, else the
    data folder's) and where it is heard (SDL2 audio, or nothing but the journal with
    `caller.output = "log"`). Nothing is opened here: the caller opens the speaker on its own
    thread."""
    caller = settings.caller
    cache = cache or voice_cache_dir()
    voice = EspeakVoice(cache, caller.recordings_path(), caller.voices())
    if caller.output is CallerOutput.LOG:
        return voice, SimulatedSpeaker()
    return voice, SdlSpeaker(cache)
