"""Buttons, the miss sensor and the buzzer on gpiozero's MockFactory (MockPWMPin for tones)."""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.buttons import Buttons, MissJudge, MissSensor
from hardware.buzzer import PATTERNS, ActiveBuzzer, SimulatedBuzzer, TonalBuzzer
from kiosk.board import Cell, Ring
from kiosk.inputs import Button, ButtonInput, DartInput, Info, MissInput
from kiosk.sound import Sound


def test_buttons_send_their_names(mock_factory, inbox):
    buttons = Buttons({Button.NEXT: 23, Button.UNDO: 24, Button.MISS: -1}, inbox, pin_factory=mock_factory)
    buttons.start()
    try:
        for pin in (24, 23):
            mock_factory.pin(pin).drive_low()  # pressed: the pin is pulled to ground
            mock_factory.pin(pin).drive_high()
        assert [inbox.next(), inbox.next()] == [ButtonInput(Button.UNDO), ButtonInput(Button.NEXT)]
    finally:
        buttons.stop()


def test_a_button_pin_in_use_is_reported_not_fatal(mock_factory, inbox):
    buttons = Buttons({Button.NEXT: 23, Button.UNDO: 23}, inbox, pin_factory=mock_factory)
    buttons.start()
    try:
        assert isinstance(inbox.next(), Info)
    finally:
        buttons.stop()


def test_the_simulator_presses_buttons(inbox):
    from hardware.simulator import SimulatedBoard

    SimulatedBoard(inbox).press(Button.UNDO)
    assert inbox.next() == ButtonInput(Button.UNDO)


def test_miss_judge():
    judge = MissJudge(grace=0.15)
    assert judge.felt(10.0)
    assert judge.judge(10.0)  # nothing closed: a miss
    judge.dart(20.0)
    assert not judge.felt(20.05)  # the contact came first: a dart
    assert judge.felt(30.0)
    judge.dart(30.1)  # the contact came just after the sensor
    assert not judge.judge(30.0)


def test_miss_sensor_on_a_pin(mock_factory, inbox):
    sensor = MissSensor(25, inbox, grace_ms=10, pin_factory=mock_factory)
    sink = sensor.watch(inbox)
    sensor.start()
    try:
        pin = mock_factory.pin(25)
        pin.drive_low()
        pin.drive_high()
        assert inbox.next() == MissInput("sensor")
        dart = DartInput(Cell(Ring.TRIPLE, 20), "T20")
        sink(dart)  # the board saw a dart ...
        pin.drive_low()  # ... and the sensor felt it: no miss
        pin.drive_high()
        assert inbox.next() == dart
        for timer in sensor._timers:
            timer.join(1)
        assert inbox.drain() == []
    finally:
        sensor.stop()


class RecordingPWMPin(MockPWMPin):
    """Remembers every frequency set, so the tune can be checked."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.tune: list[float | None] = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        self.tune.append(value)


@pytest.mark.parametrize("sound", list(Sound))
def test_tonal_buzzer_plays_each_pattern(sound):
    factory = MockFactory(pin_class=RecordingPWMPin)
    buzzer = TonalBuzzer(18, tempo=0.01, pin_factory=factory)
    pin = factory.pin(18)
    pin.tune.clear()  # the PWM device sets a default frequency when it is made
    try:
        buzzer.play(sound)
        assert buzzer.wait_idle()
        notes = [n.hz for n in PATTERNS[sound] if n.hz is not None]
        played = [f for f in pin.tune if f is not None]
        assert played == pytest.approx(notes, rel=0.01)
        assert pin.state == 0  # silent afterwards
    finally:
        buzzer.close()


def test_patterns_differ():
    assert len({PATTERNS[s] for s in Sound}) == len(Sound)


def test_active_buzzer_beeps_the_rhythm(mock_factory):
    pin = mock_factory.pin(17)
    buzzer = ActiveBuzzer(17, tempo=0.01, pin_factory=mock_factory)
    try:
        pin.clear_states()
        buzzer.play("sunk")
        assert buzzer.wait_idle()
        ons = sum(1 for s in pin.states[1:] if s.state)
        assert ons == sum(1 for n in PATTERNS[Sound.SUNK] if n.hz is not None)
        assert not pin.state
    finally:
        buzzer.close()


def test_play_never_blocks_and_mute_is_silent(mock_factory):
    pin = mock_factory.pin(17)
    buzzer = ActiveBuzzer(17, tempo=100.0, pin_factory=mock_factory)  # a very slow tune
    try:
        returned = threading.Event()
        threading.Thread(target=lambda: (buzzer.play(Sound.WIN), returned.set())).start()
        assert returned.wait(1.0)  # play() came back while the tune is far from over
        buzzer.close()  # close() cuts a playing tune short
        buzzer2 = ActiveBuzzer(22, muted=True, pin_factory=mock_factory)
        buzzer2.play(Sound.HIT)
        assert buzzer2.wait_idle()
        assert [s.state for s in mock_factory.pin(22).states] == [False]
        buzzer2.close()
    finally:
        buzzer.close()
    assert not pin.state


def test_simulated_buzzer_says_what_it_would_play(caplog):
    buzzer = SimulatedBuzzer()
    with caplog.at_level("INFO", logger="dartship.buzzer"):
        buzzer.play("hit")
        buzzer.play("nonsense")
    assert buzzer.played == [Sound.HIT]
    assert "HIT" in caplog.text and "Hz" in caplog.text
