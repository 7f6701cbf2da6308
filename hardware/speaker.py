"""Where the caller's voice comes out (`kiosk.ports.Speaker`).

`SdlSpeaker` plays through Kivy's SDL2 audio (SDL_mixer: the Pi's HDMI or headphone output,
whatever SDL's audio driver opens). Kivy's sound says nothing when the device cannot be opened
(it loads every file as a sound of length 0), so `open()` loads a short silent probe: a length
of 0 means there is no audio device, and the reason is one line for the journal. Where the
kernel knows no sound card at all (and no SDL_AUDIODRIVER is asked for), it does not try.
`SimulatedSpeaker` plays nothing: it keeps what it was given and takes as long as the file
would (so the caller's queue behaves as with sound); it is the speaker of `caller.output =
"log"` and of the tests and the bench.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import wave
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.wavinfo import wav_seconds
from kiosk.i18n import _

log = logging.getLogger("dartship.caller")

LOADED_KEPT = 48  # sounds kept loaded (the common calls), so a cache hit starts at once
PROBE_SECONDS = 0.05


def write_silence(path: Path, seconds: float = PROBE_SECONDS, rate: int = 22050) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\0\0" * int(rate * seconds))
    return path


def no_sound_card(proc: Path = Path("/proc/asound/cards")) -> bool:
    try:
        text = proc.read_text()
    except OSError:
        return True
    return not text.strip() or "no soundcards" in text


class _QuietProbe(logging.Filter):
    """Kivy's own lines about a mixer it cannot open (a CRITICAL, a WARNING for the probe)
    become DEBUG: the caller says it once, in words an owner can act on."""

    def __init__(self, probe: Path) -> None:
        super().__init__()
        self.probe = str(probe)

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if message.startswith("AudioSDL2: Unable to open mixer") or self.probe in message:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


class SdlSpeaker:
    """Kivy's SDL2 audio (see the module's docstring). `probe_dir`: where the probe is kept."""

    def __init__(self, probe_dir: Path) -> None:
        self.probe_dir = probe_dir
        self._sounds: OrderedDict[Path, Any] = OrderedDict()
        self._stopped = threading.Event()
        self._loader: Any = None
        self._problem: str | None = None

    @property
    def name(self) -> str:
        driver = os.environ.get("SDL_AUDIODRIVER")
        return _("SDL2 audio ({driver})").format(driver=driver or _("default driver"))

    def open(self) -> str | None:
        if self._loader is not None or self._problem is not None:
            return self._problem
        if not os.environ.get("SDL_AUDIODRIVER") and no_sound_card():
            # Not even tried: ALSA would print eight lines of its own to stderr (the journal),
            # and the headless kiosk would load Kivy for nothing.
            self._problem = _("no sound card: /proc/asound/cards lists none")
            return self._problem
        for key in ("KIVY_NO_ARGS", "KIVY_NO_FILELOG", "KIVY_NO_CONSOLELOG"):
            os.environ.setdefault(key, "1")
        try:
            from kivy.core.audio import SoundLoader
        except Exception as err:  # Kivy missing or broken: no sound, never a crash
            self._problem = _("Kivy's audio cannot be loaded ({error})").format(error=err)
            return self._problem
        try:
            probe = write_silence(self.probe_dir / "probe.wav")
        except OSError as err:
            self._problem = _("cannot write {path} ({error})").format(
                path=self.probe_dir / "probe.wav", error=err
            )
            return self._problem
        quiet = _QuietProbe(probe)
        kivy_log = logging.getLogger("kivy")
        kivy_log.addFilter(quiet)
        try:
            sound = SoundLoader.load(str(probe))
        finally:
            kivy_log.removeFilter(quiet)
        if sound is None or not sound.length:
            driver = os.environ.get("SDL_AUDIODRIVER")
            self._problem = _("SDL2 could not open the audio output ({driver})").format(
                driver=driver or _("default driver")
            )
            return self._problem
        sound.unload()
        self._loader = SoundLoader
        return None

    def play(self, path: Path, volume: float) -> bool:
        if self._loader is None:
            return False
        sound = self._sound(path)
        if sound is None or not sound.length:
            log.warning(_("caller: cannot play %s"), path)
            self._sounds.pop(path, None)
            return False
        self._stopped.clear()
        sound.volume = max(0.0, min(1.0, volume))
        sound.play()
        stopped = self._stopped.wait(float(sound.length))
        if stopped:
            sound.stop()
        return not stopped

    def _sound(self, path: Path) -> Any:
        sound = self._sounds.get(path)
        if sound is not None:
            self._sounds.move_to_end(path)
            return sound
        sound = self._loader.load(str(path))
        if sound is None:
            return None
        self._sounds[path] = sound
        while len(self._sounds) > LOADED_KEPT:
            _path, old = self._sounds.popitem(last=False)
            old.unload()
        return sound

    def stop(self) -> None:
        self._stopped.set()

    def close(self) -> None:
        self._stopped.set()
        for sound in self._sounds.values():
            sound.unload()
        self._sounds.clear()


@dataclass(frozen=True)
class Played:
    path: Path
    volume: float
    started: float  # time.monotonic() when it began
    finished: bool  # played to its end (False: stopped)


class SimulatedSpeaker:
    """No sound (see the module's docstring). `tempo` < 1 plays faster (tests); `problem` makes
    it a speaker without a device."""

    def __init__(self, *, tempo: float = 1.0, problem: str | None = None) -> None:
        self.tempo = tempo
        self.problem = problem
        self.played: list[Played] = []
        self._stopped = threading.Event()
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return _("no sound (the journal only)")

    def open(self) -> str | None:
        return self.problem

    def play(self, path: Path, volume: float) -> bool:
        if self.problem is not None:
            return False
        self._stopped.clear()
        started = time.monotonic()
        stopped = self._stopped.wait(wav_seconds(path) * self.tempo)
        with self._lock:
            self.played.append(Played(path, volume, started, not stopped))
        return not stopped

    def stop(self) -> None:
        self._stopped.set()

    def close(self) -> None:
        self._stopped.set()
