"""The buzzer: an active `Buzzer` (one pitch) or a passive `TonalBuzzer` (any pitch).

Each sound is a short pattern of notes and rests. `play()` only puts the sound on a queue: a
thread of the buzzer's own plays it, so the caller (the asyncio loop) never waits. A newer sound
drops any not yet started, so a burst of darts never builds a backlog of beeps.
"""

from __future__ import annotations

import abc
import logging
import queue
import threading
from dataclasses import dataclass
from typing import Any

from kiosk.i18n import _
from kiosk.sound import Sound

log = logging.getLogger("dartship.buzzer")


@dataclass(frozen=True)
class Note:
    hz: float | None  # None is a rest
    seconds: float


def _n(hz: float | None, ms: float) -> Note:
    return Note(hz, ms / 1000)


PATTERNS: dict[Sound, tuple[Note, ...]] = {
    Sound.HIT: (_n(1319, 70), _n(None, 40), _n(1760, 120)),
    Sound.MISS: (_n(440, 250),),
    Sound.SUNK: (_n(880, 90), _n(None, 50), _n(880, 90), _n(None, 50), _n(1760, 300)),
    Sound.WIN: (_n(523, 120), _n(659, 120), _n(784, 120), _n(1047, 450)),
    Sound.REPEAT: (_n(660, 60), _n(None, 60), _n(660, 60)),
    Sound.ERROR: (_n(247, 150), _n(None, 80), _n(247, 150), _n(None, 80), _n(247, 150)),
}


def sound_of(sound: Sound | str) -> Sound:
    return sound if isinstance(sound, Sound) else Sound(str(sound).lower())


def _known(sound: Sound | str) -> Sound | None:
    """The sound asked for, or None (logged) for a name that is no sound: never an error."""
    try:
        return sound_of(sound)
    except ValueError:
        log.warning(_("no buzzer sound called %r"), sound)
        return None


class PatternPlayer(abc.ABC):
    """Plays patterns on a thread of its own. Subclasses switch the tone on and off."""

    def __init__(self, *, muted: bool = False, tempo: float = 1.0) -> None:
        self.muted = muted
        self.tempo = tempo  # < 1 plays faster (tests)
        self._queue: queue.Queue[Sound | None] = queue.Queue()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dartship-buzzer", daemon=True)
        self._thread.start()

    def play(self, sound: Sound | str) -> None:
        chosen = _known(sound)
        if chosen is None or self.muted or self._closing.is_set():
            return
        while True:  # the newest sound wins over ones not yet started
            try:
                self._queue.get_nowait()
                self._queue.task_done()
            except queue.Empty:
                break
        self._queue.put(chosen)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Block until every queued sound has played (tests and shutdown only)."""
        done = threading.Event()

        def waiter() -> None:
            self._queue.join()
            done.set()

        threading.Thread(target=waiter, daemon=True).start()
        return done.wait(timeout)

    def _run(self) -> None:
        while True:
            sound = self._queue.get()
            try:
                if sound is None:
                    return
                self._play_pattern(sound)
            except Exception:  # a pin error must not end the buzzer for good
                log.exception(_("the buzzer failed to play %s"), sound)
            finally:
                self._queue.task_done()

    def _play_pattern(self, sound: Sound) -> None:
        for note in PATTERNS[sound]:
            if self._closing.is_set():
                break
            if note.hz is None:
                self.tone_off()
            else:
                self.tone_on(note.hz)
            self._closing.wait(note.seconds * self.tempo)
        self.tone_off()

    @abc.abstractmethod
    def tone_on(self, hz: float) -> None:
        """Sound the pitch `hz` (an active buzzer ignores the pitch)."""

    @abc.abstractmethod
    def tone_off(self) -> None:
        """Silence."""

    def close(self) -> None:
        self._closing.set()
        self._queue.put(None)
        self._thread.join(2.0)
        self.release()

    def release(self) -> None:  # noqa: B027 - optional hook: most buzzers hold nothing to free
        """Free the pins (a subclass that holds a gpiozero device closes it)."""


class ActiveBuzzer(PatternPlayer):
    """A buzzer with its own oscillator: on or off, one pitch (the pattern's rhythm carries)."""

    def __init__(self, pin: int, *, muted: bool = False, tempo: float = 1.0, pin_factory: Any = None) -> None:
        from gpiozero import Buzzer as GpioBuzzer

        self.device = GpioBuzzer(pin, pin_factory=pin_factory)
        super().__init__(muted=muted, tempo=tempo)

    def tone_on(self, hz: float) -> None:
        self.device.on()

    def tone_off(self) -> None:
        self.device.off()

    def release(self) -> None:
        self.device.close()


class TonalBuzzer(PatternPlayer):
    """A passive piezo driven by PWM at the note's pitch (needs a PWM-capable pin factory)."""

    def __init__(self, pin: int, *, muted: bool = False, tempo: float = 1.0, pin_factory: Any = None) -> None:
        from gpiozero import TonalBuzzer as GpioTonalBuzzer
        from gpiozero.tones import Tone

        # A5 +- 2 octaves covers 220..3520 Hz, every note of PATTERNS
        self.device = GpioTonalBuzzer(pin, mid_tone=Tone("A5"), octaves=2, pin_factory=pin_factory)
        self._tone = Tone
        super().__init__(muted=muted, tempo=tempo)

    def tone_on(self, hz: float) -> None:
        self.device.play(self._tone.from_frequency(hz))

    def tone_off(self) -> None:
        self.device.stop()

    def release(self) -> None:
        self.device.close()


class SimulatedBuzzer:
    """No wire: logs what it would play, at once (it has nothing to wait for)."""

    def __init__(self, *, muted: bool = False) -> None:
        self.muted = muted
        self.played: list[Sound] = []

    def play(self, sound: Sound | str) -> None:
        chosen = _known(sound)
        if chosen is None:
            return
        if self.muted:
            log.info(_("buzzer (muted) would play %s"), chosen.value)
            return
        self.played.append(chosen)
        notes = ", ".join(
            f"{n.hz:.0f} Hz {n.seconds * 1000:.0f} ms" if n.hz else f"rest {n.seconds * 1000:.0f} ms"
            for n in PATTERNS[chosen]
        )
        log.info(_("buzzer plays %s: %s"), chosen.value.upper(), notes)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        return True

    def close(self) -> None:
        pass
