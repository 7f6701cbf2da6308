"""The caller's voice (`kiosk.ports.Voice`): the bar's own recordings, else espeak-ng.

A recording is a WAV file named by its phrase (`hit.wav`, `sunk-3.wav`, `name-sharks.wav`: the
names are in docs/caller.md), looked for in `<recordings>/<language>/` and then in
`<recordings>/`. Anything without a recording is said by espeak-ng, rendered once into the cache,
`<cache>/<language>/<voice>/<phrase>-<hash>.wav` (the hash is of the voice, the text and how it
is rendered, so a changed translation or voice renders anew and nothing stale is played).
A rendering is written to a temporary file and renamed: a half-written WAV is never played, and
two threads rendering the same words at once do no harm.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from hardware.wavinfo import is_wav
from kiosk.i18n import _
from kiosk.speech import DEFAULT_VOICES, Words

log = logging.getLogger("dartship.caller")

PROGRAM = "espeak-ng"
SPEED_WPM = 165  # a little slower than espeak-ng's 175: a bar is loud
AMPLITUDE = 170  # of espeak-ng's 0..200 (100 is its default): heard over the room
RENDER_SECONDS = 15.0  # a rendering that takes longer is given up (a stuck synthesiser)
MAX_TEXT = 80  # a longer name is cut (a name is a team's or player's, typed on a screen)
RENDERING = f"espeak-ng -s {SPEED_WPM} -a {AMPLITUDE}"  # part of the cache key


class EspeakVoice:
    """Recordings first, then espeak-ng through the cache (see the module's docstring)."""

    def __init__(
        self,
        cache: Path,
        recordings: Path | None = None,
        voices: dict[str, str] | None = None,
        program: str = PROGRAM,
    ) -> None:
        self.cache = cache
        self.recordings = recordings
        self.voices = dict(voices or DEFAULT_VOICES)
        self.program = program
        self._said: set[str] = set()  # problems already in the journal
        self._lock = threading.Lock()

    def problem(self) -> str | None:
        if shutil.which(self.program) is None:
            return _("{program} is not installed (sudo apt-get install espeak-ng)").format(
                program=self.program
            )
        return None

    def find(self, words: Words, language: str) -> Path | None:
        recorded = self.recording(words, language)
        if recorded is not None:
            return recorded
        path = self.cache_path(words, language)
        if not path.is_file():
            return None
        if is_wav(path):
            return path
        # A rendering spoilt on disk: dropped, and rendered again when next wanted.
        self._once(f"spoilt:{path}", _("caller: %s is spoilt; it is rendered again"), path)
        path.unlink(missing_ok=True)
        return None

    def recording(self, words: Words, language: str) -> Path | None:
        if self.recordings is None:
            return None
        for folder in (self.recordings / language, self.recordings):
            path = folder / f"{words.phrase}.wav"
            if path.is_file():
                if is_wav(path):
                    return path
                self._once(
                    f"bad:{path}",
                    _("caller: %s is not a WAV file it can play; the synthetic voice says it instead"),
                    path,
                )
        return None

    def voice_of(self, language: str) -> str:
        return self.voices.get(language) or DEFAULT_VOICES.get(language, "en")

    def cache_path(self, words: Words, language: str) -> Path:
        voice = self.voice_of(language)
        key = hashlib.sha256(f"{RENDERING}\0{voice}\0{words.text}".encode()).hexdigest()[:12]
        return self.cache / language / voice / f"{words.phrase}-{key}.wav"

    def render(self, words: Words, language: str) -> Path | None:
        target = self.cache_path(words, language)
        if target.is_file() and is_wav(target):
            return target
        if self.problem() is not None:
            return None
        voice = self.voice_of(language)
        made = self._espeak(words.text, voice, target)
        if made is None and voice != DEFAULT_VOICES.get(language, voice):
            self._once(
                f"voice:{voice}",
                _("caller: espeak-ng has no voice %r; the %s voice says it instead"),
                voice,
                DEFAULT_VOICES[language],
            )
            fallback = dict(self.voices)
            fallback[language] = DEFAULT_VOICES[language]
            self.voices = fallback
            return self.render(words, language)
        return made

    def _espeak(self, text: str, voice: str, target: Path) -> Path | None:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(suffix=".wav", dir=target.parent)
            os.close(handle)
        except OSError as err:
            self._once(
                f"cache:{target.parent}",
                _("caller: cannot write the voice cache %s (%s)"),
                target.parent,
                err,
            )
            return None
        try:
            done = subprocess.run(
                [
                    self.program,
                    "-v",
                    voice,
                    "-s",
                    str(SPEED_WPM),
                    "-a",
                    str(AMPLITUDE),
                    "-w",
                    temporary,
                    "--",
                    text[:MAX_TEXT],
                ],
                capture_output=True,
                text=True,
                timeout=RENDER_SECONDS,
                check=False,
            )
            if done.returncode != 0 or not is_wav(Path(temporary)):
                log.debug("espeak-ng %s: %s", voice, done.stderr.strip())
                return None
            os.replace(temporary, target)
            return target
        except (OSError, subprocess.SubprocessError) as err:
            self._once(f"run:{voice}", _("caller: espeak-ng failed (%s)"), err)
            return None
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)

    def _once(self, key: str, message: str, *args: object) -> None:
        with self._lock:
            if key in self._said:
                return
            self._said.add(key)
        log.warning(message, *args)
