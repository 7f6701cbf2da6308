"""The caller's real sound: espeak-ng renders real speech (sox measures it), recordings win over
the synthetic voice, and Kivy's SDL2 audio plays it (SDL's `disk` driver writes what would be
heard to a file; without any audio device the speaker says so in one line)."""

from __future__ import annotations

import array
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.speaker import wav_seconds, write_silence
from hardware.voice import EspeakVoice
from kiosk.darts.calls import DART_CALLS
from kiosk.i18n import set_language
from kiosk.speech import CallOptions, Words

ROOT = Path(__file__).resolve().parents[2]
needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="espeak-ng and sox (Debian packages) are not installed",
)


def sox_stat(path: Path) -> dict[str, float]:
    """`sox FILE -n stat`, as numbers by name ("Length (seconds)", "RMS amplitude", ...)."""
    done = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True, check=True)
    figures = {}
    for line in done.stderr.splitlines():
        name, _colon, value = line.partition(":")
        try:
            figures[" ".join(name.split())] = float(value.split()[0])
        except (ValueError, IndexError):
            continue
    return figures


def rate(path: Path) -> int:
    return int(
        subprocess.run(["soxi", "-r", str(path)], capture_output=True, text=True, check=True).stdout.strip()
    )


@needs_espeak
@pytest.mark.parametrize("language", ["en", "de", "fi"])
def test_rendered_calls_are_real_speech(tmp_path, language):
    set_language(language)
    try:
        phrases = list(DART_CALLS.phrases(CallOptions()))[:4]  # hit, miss, repeat, sunk-2
    finally:
        set_language("en")
    voice = EspeakVoice(tmp_path / "cache")
    for words in phrases:
        assert voice.find(words, language) is None
        path = voice.render(words, language)
        assert path is not None and voice.find(words, language) == path
        assert path.parent == tmp_path / "cache" / language / voice.voice_of(language)
        stat = sox_stat(path)
        assert 0.25 < stat["Length (seconds)"] < 4.0, (words, stat)
        assert stat["RMS amplitude"] > 0.03, (words, stat)  # not silence
        assert stat["Maximum amplitude"] > 0.2
        assert rate(path) == 22050
    # A name: rendered once, the same file the next time.
    sharks = Words("name-sharks", "Sharks")
    first = voice.render(sharks, language)
    assert first is not None and voice.render(sharks, language) == first


@needs_espeak
def test_a_changed_voice_or_text_renders_anew_and_an_unknown_voice_falls_back(tmp_path, caplog):
    voice = EspeakVoice(tmp_path)
    hit = Words("hit", "Hit")
    plain = voice.render(hit, "en")
    voice.voices = {**voice.voices, "en": "en-us+f3"}
    other = voice.render(hit, "en")
    assert plain is not None and other is not None and plain != other
    assert voice.render(Words("hit", "Hit!"), "en") not in (plain, other)
    voice.voices = {**voice.voices, "en": "nosuchvoice"}
    with caplog.at_level("WARNING", logger="dartship.caller"):
        again = voice.render(hit, "en")
        voice.render(Words("miss", "Miss"), "en")
    assert again == plain  # said by the language's default voice
    warned = [r.getMessage() for r in caplog.records]
    assert warned == ["caller: espeak-ng has no voice 'nosuchvoice'; the en-gb voice says it instead"]


def test_a_recording_wins_and_a_broken_one_is_said_once(tmp_path, caplog):
    recordings = tmp_path / "recordings"
    mine = write_silence(recordings / "en" / "hit.wav", 0.3)
    anywhere = write_silence(recordings / "sunk-3.wav", 0.3)
    (recordings / "miss.wav").write_bytes(b"not a wav")
    voice = EspeakVoice(tmp_path / "cache", recordings, program="no-such-espeak")
    assert voice.find(Words("hit", "Hit"), "en") == mine
    assert voice.find(Words("hit", "Treffer"), "de") is None  # no German recording, no cache
    assert voice.find(Words("sunk-3", "Versenkt!"), "de") == anywhere
    with caplog.at_level("WARNING", logger="dartship.caller"):
        assert voice.find(Words("miss", "Miss"), "en") is None
        assert voice.find(Words("miss", "Miss"), "en") is None
        assert voice.render(Words("miss", "Miss"), "en") is None  # no synthesiser here
    assert len(caplog.records) == 1 and "miss.wav is not a WAV file" in caplog.records[0].message
    assert "not installed" in (voice.problem() or "")


PLAY = r"""
import json, sys, time
from pathlib import Path
from hardware.speaker import SdlSpeaker
speaker = SdlSpeaker(Path(sys.argv[1]))
reason = speaker.open()
played = None
if reason is None:
    started = time.monotonic()
    played = speaker.play(Path(sys.argv[2]), 1.0)
print(json.dumps({"reason": reason, "played": played}))
"""


def _play(tmp_path: Path, wav: Path, **env: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SDL_AUDIO")}
    environment.update(
        env, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1", KIVY_HOME=str(tmp_path / "kivy")
    )
    done = subprocess.run(
        [sys.executable, "-c", PLAY, str(tmp_path), str(wav)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@needs_espeak
def test_kivy_s_sdl2_audio_plays_the_call_to_sdl_s_disk_driver(tmp_path):
    voice = EspeakVoice(tmp_path / "cache")
    wav = voice.render(Words("sunk-3", "Sunk! A ship of three"), "en")
    assert wav is not None
    out = tmp_path / "heard.raw"
    answer = _play(tmp_path, wav, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(out))
    assert answer == {"reason": None, "played": True}
    # What SDL_mixer wrote: 16-bit stereo at 44.1 kHz. The speech is in it, about as long as
    # the file (silence around it is SDL's, before and after the sound).
    samples = array.array("h", out.read_bytes())
    loud = [i for i, v in enumerate(samples) if abs(v) > 300]
    assert loud, "nothing but silence reached the audio driver"
    heard = (loud[-1] - loud[0]) / 2 / 44100
    assert 0.6 * wav_seconds(wav) < heard <= wav_seconds(wav) + 0.05


def test_without_an_audio_device_the_speaker_says_why_in_one_line(tmp_path):
    if Path("/proc/asound/cards").exists() and "no soundcards" not in Path("/proc/asound/cards").read_text():
        pytest.skip("this machine has a sound card")
    wav = write_silence(tmp_path / "a.wav", 0.2)
    answer = _play(tmp_path, wav)
    assert answer["played"] is None
    assert answer["reason"] == "no sound card: /proc/asound/cards lists none"


def _doctor(tmp_path: Path, **env: str) -> str:
    config = tmp_path / "config.toml"
    config.write_text("[caller]\nvolume = 60\n")
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SDL_AUDIO")}
    environment.update(
        env, STATE_DIRECTORY=str(tmp_path / "state"), KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp_path / "kivy")
    )
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.app.cli", "doctor", "--sound", "--config", str(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
    )
    return done.stdout


@needs_espeak
def test_doctor_sound_plays_the_test_phrase_or_says_there_is_no_device(tmp_path):
    heard = tmp_path / "heard.raw"
    out = _doctor(tmp_path, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(heard))
    sound = [line for line in out.splitlines() if " sound " in line]
    assert sound[0].startswith("ok    sound     voice en-gb: the test phrase is")
    assert sound[1].startswith("ok    sound     played the test phrase on SDL2 audio (disk) at 60 %")
    assert any(abs(v) > 300 for v in array.array("h", heard.read_bytes()))
    if not Path("/proc/asound/cards").exists():
        out = _doctor(tmp_path)
        assert "FAIL  sound     no audio device: no sound card: /proc/asound/cards lists none" in out


@needs_espeak
def test_hostile_names_are_said_as_text_and_a_spoilt_rendering_is_made_again(tmp_path, caplog):
    voice = EspeakVoice(tmp_path)
    for text in ("--help", "-v de; rm -rf /", "<speak>x</speak>", "Jäger 2 🎯", "x" * 500):
        words = Words(f"name-{len(text)}", text)
        path = voice.render(words, "en")
        assert path is not None and path.parent == tmp_path / "en" / "en-gb", text
        assert 0.1 < wav_seconds(path) < 30, text
    hit = Words("hit", "Hit")
    path = voice.render(hit, "en")
    assert path is not None
    path.write_bytes(b"RIFF\0\0")  # a power cut mid-write of the disk, say
    with caplog.at_level("WARNING", logger="dartship.caller"):
        assert voice.find(hit, "en") is None
    assert "is spoilt" in caplog.text and not path.exists()
    again = voice.render(hit, "en")
    assert again == path and wav_seconds(again) > 0.2
