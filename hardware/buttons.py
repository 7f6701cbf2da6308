"""The board's buttons (Next, Undo, Miss) and the miss sensor, on GPIO with gpiozero.

The miss sensor is a piezo (through a comparator) or a tilt switch on one input: it feels every
dart that hits the board's body. A dart it feels that closed no contact within the grace window
is a MISS (a bounce-out or a dart in the catch ring). It has to see the board's darts to judge,
so it sits between the board input and the sink (`MissSensor.watch`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hardware.sink import deliver
from kiosk.i18n import _
from kiosk.inputs import Button, ButtonInput, DartInput, Info, MissInput
from kiosk.ports import Sink

log = logging.getLogger("dartship.buttons")


class Buttons:
    """Next/Undo/Miss buttons wired from a GPIO pin to ground (internal pull-ups)."""

    def __init__(
        self, pins: Mapping[Button, int], sink: Sink, *, bounce_seconds: float = 0.05, pin_factory: Any = None
    ) -> None:
        self.pins = {b: p for b, p in pins.items() if p >= 0}
        self.sink = sink
        self.bounce_seconds = bounce_seconds
        self.pin_factory = pin_factory
        self._devices: list[Any] = []

    def start(self) -> None:
        from gpiozero import Button as GpioButton

        for button, pin in self.pins.items():
            try:
                device = GpioButton(
                    pin, pull_up=True, bounce_time=self.bounce_seconds, pin_factory=self.pin_factory
                )
            except Exception as err:  # no GPIO here, pin taken: the kiosk works without it
                deliver(
                    self.sink,
                    Info(
                        _("button {name} on GPIO{pin} unusable: {error}").format(
                            name=button.value, pin=pin, error=err
                        )
                    ),
                )
                continue
            device.when_pressed = self._pressed_handler(button)
            self._devices.append(device)

    def _pressed_handler(self, button: Button) -> Any:
        def pressed() -> None:
            deliver(self.sink, ButtonInput(button))

        return pressed

    def stop(self) -> None:
        for device in self._devices:
            device.close()
        self._devices.clear()


@dataclass
class MissJudge:
    """Decides whether a felt dart was a miss (pure: the caller passes the clock)."""

    grace: float = 0.150
    _last_dart: float = float("-inf")
    _pending: list[float] = field(default_factory=list)

    def dart(self, now: float) -> None:
        self._last_dart = now

    def felt(self, now: float) -> bool:
        """A dart felt now; True when it must be judged after the grace window."""
        if now - self._last_dart <= self.grace:
            return False  # the contact came first: it was a dart, not a miss
        self._pending.append(now)
        return True

    def judge(self, felt_at: float) -> bool:
        """After the grace window: True when no contact closed around `felt_at` (a MISS)."""
        if felt_at in self._pending:
            self._pending.remove(felt_at)
        return not (felt_at - self.grace <= self._last_dart)


class MissSensor:
    """A piezo or tilt switch on one GPIO input (active low with a pull-up)."""

    def __init__(self, pin: int, sink: Sink, *, grace_ms: float = 150, pin_factory: Any = None) -> None:
        self.pin = pin
        self.sink = sink
        self.judge = MissJudge(grace_ms / 1000)
        self.pin_factory = pin_factory
        self._device: Any = None
        self._timers: list[threading.Timer] = []
        self._lock = threading.Lock()

    def watch(self, sink: Sink) -> Sink:
        """A sink for the board input: notes each dart, then passes it on."""

        def watched(event: Any) -> None:
            if isinstance(event, DartInput):
                with self._lock:
                    self.judge.dart(time.monotonic())
            sink(event)

        return watched

    def start(self) -> None:
        from gpiozero import DigitalInputDevice

        try:
            self._device = DigitalInputDevice(self.pin, pull_up=True, pin_factory=self.pin_factory)
        except Exception as err:
            deliver(
                self.sink,
                Info(_("miss sensor on GPIO{pin} unusable: {error}").format(pin=self.pin, error=err)),
            )
            return
        self._device.when_activated = self.felt

    def felt(self) -> None:
        now = time.monotonic()
        with self._lock:
            if not self.judge.felt(now):
                return
        timer = threading.Timer(self.judge.grace, self._decide, (now,))
        timer.daemon = True
        self._timers = [t for t in self._timers if t.is_alive()] + [timer]
        timer.start()

    def _decide(self, felt_at: float) -> None:
        with self._lock:
            miss = self.judge.judge(felt_at)
        if miss:
            deliver(self.sink, MissInput("sensor"))

    def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        if self._device is not None:
            self._device.close()
            self._device = None
