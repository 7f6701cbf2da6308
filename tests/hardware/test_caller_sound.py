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


def _wav(
    path: Path, tag: int, bits: int, seconds: float, *, channels: int = 1, extensible: bool = False
) -> Path:
    """A WAV file as recorders write them (a sine, so SDL has sound to play): `tag` 1 PCM, 3
    float, 7 u-law; `extensible`: WAVE_FORMAT_EXTENSIBLE, as sox and Audacity write 24-bit PCM."""
    import math
    import struct

    rate = 22050
    width = bits // 8
    frames = int(rate * seconds)
    data = bytearray()
    for n in range(frames):
        x = 0.5 * math.sin(2 * math.pi * 440 * n / rate)
        if tag == 3:
            sample = struct.pack("<f", x)
        elif tag == 7:
            sample = bytes([0x80 if x >= 0 else 0x00])  # some u-law byte; its sound does not matter
        else:
            sample = int(x * (2 ** (bits - 1) - 1)).to_bytes(width, "little", signed=True)
        data += sample * channels
    align = width * channels
    common = struct.pack("<HIIHH", channels, rate, rate * align, align, bits)
    if extensible:
        guid_tail = b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
        fmt = struct.pack("<H", 0xFFFE) + common + struct.pack("<HHIH", 22, bits, 0x4, tag) + guid_tail
    else:
        fmt = struct.pack("<H", tag) + common + (b"\x00\x00" if tag != 1 else b"")
    chunks = b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data
    body = b"WAVE" + chunks
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    return path


def test_a_recording_in_any_format_sdl_plays_is_said_and_only_a_broken_one_is_refused(tmp_path, caplog):
    """A bar's recordings as recorders write them (24-bit PCM in WAVE_FORMAT_EXTENSIBLE, 32-bit
    float, u-law) replace the synthetic voice for their phrase (Python 3.11's `wave` refused
    them all: "not a WAV file", and espeak-ng said the phrase instead); SDL really plays the
    24-bit one. A file that is empty, cut short before its sound or not a WAV is refused, said
    once, and only for its own phrase."""
    recordings = tmp_path / "recordings"
    good = {
        "hit": _wav(recordings / "hit.wav", 1, 24, 0.4, extensible=True),
        "miss": _wav(recordings / "de" / "miss.wav", 3, 32, 0.3, channels=2),
        "repeat": _wav(recordings / "repeat.wav", 7, 8, 0.2),
        "sunk-2": _wav(recordings / "sunk-2.wav", 1, 16, 0.25),
    }
    (recordings / "sunk-3.wav").write_bytes(b"")
    (recordings / "sunk-4.wav").write_bytes(good["sunk-2"].read_bytes()[:44])  # the header, no sound
    (recordings / "sunk-5.wav").write_bytes(b"ID3\x04 an mp3 named .wav")
    voice = EspeakVoice(tmp_path / "cache", recordings, program="no-such-espeak")
    for phrase, path in good.items():
        assert voice.find(Words(phrase, phrase), "de") == path, phrase
    assert abs(wav_seconds(good["hit"]) - 0.4) < 0.01 and abs(wav_seconds(good["miss"]) - 0.3) < 0.01
    with caplog.at_level("WARNING", logger="dartship.caller"):
        for phrase in ("sunk-3", "sunk-4", "sunk-5"):
            assert voice.find(Words(phrase, phrase), "de") is None
            assert voice.find(Words(phrase, phrase), "de") is None
    refused = sorted(r.getMessage() for r in caplog.records)
    assert len(refused) == 3 and all("is not a WAV file" in m for m in refused), refused
    out = tmp_path / "heard.raw"
    answer = _play(tmp_path, good["hit"], SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(out))
    assert answer == {"reason": None, "played": True}
    samples = array.array("h", out.read_bytes())
    assert any(abs(v) > 3000 for v in samples), "the 24-bit recording did not reach the audio driver"


@needs_espeak
def test_doctor_sound_says_a_voice_espeak_ng_does_not_have(tmp_path, monkeypatch):
    """`caller.voice_fi = "xx-nonexist"`: the kiosk speaks with Finnish's own voice, and the
    doctor now says so and what to pick (before: "voice fi: the test phrase is 4.6 s", a voice
    the owner never set, the reason only in the journal). A voice it has draws no warning."""
    from kiosk import config
    from kiosk.app.findings import Report, Severity
    from kiosk.app.sound_check import check_sound

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    try:
        for voice, warned in (("xx-nonexist", True), ("fi+f3", False)):
            report = Report()
            text = f'[kiosk]\nlanguage = "fi"\n[caller]\noutput = "log"\nvoice_fi = "{voice}"\n'
            check_sound(config.parse(text), report)
            warnings = [f for f in report.findings if f.level is Severity.WARN and voice in f.message]
            assert bool(warnings) is warned, report.findings
            if warned:
                assert "espeak-ng --voices=fi" in warnings[0].fix
    finally:
        set_language("en")


@needs_espeak
def test_doctor_sound_lists_the_recordings_and_each_one_the_caller_will_not_play(tmp_path, monkeypatch):
    """The bar's folder: what it says, what is broken (an empty file, one cut off after its
    header), and what is named after no phrase ("hitt.wav", never looked at by the kiosk, so
    never said anywhere before); a caller.recordings that is no folder is said too."""
    from kiosk import config
    from kiosk.app.findings import Report, Severity
    from kiosk.app.sound_check import check_sound

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    folder = tmp_path / "recordings"
    _wav(folder / "hit.wav", 1, 24, 0.3, extensible=True)
    _wav(folder / "en" / "to-throw.wav", 1, 16, 0.3)
    _wav(folder / "name-die-bruder.wav", 1, 16, 0.3)
    _wav(folder / "hitt.wav", 1, 16, 0.3)
    (folder / "miss.wav").write_bytes(b"")
    (folder / "sunk-3.wav").write_bytes(_wav(tmp_path / "whole.wav", 1, 16, 0.3).read_bytes()[:60])

    def sound(recordings: Path) -> list:
        report = Report()
        text = f'[caller]\noutput = "log"\nrecordings = "{recordings}"\n'
        try:
            check_sound(config.parse(text), report)
        finally:
            set_language("en")
        return [f for f in report.findings if "recording" in f.message]

    good, broken, unknown = sound(folder)
    assert good.level is Severity.OK and good.message.endswith(
        "hit.wav, name-die-bruder.wav, en/to-throw.wav"
    )
    assert broken.level is Severity.WARN and broken.message.endswith(": miss.wav, sunk-3.wav")
    assert unknown.level is Severity.WARN and unknown.message.endswith(": hitt.wav")
    assert "dartship caller phrases --language en" in unknown.fix
    [missing] = sound(tmp_path / "nowhere")
    assert missing.level is Severity.WARN and "is not a folder" in missing.message


@pytest.mark.skipif(
    shutil.which("sox") is None, reason="sox writes the ADPCM recordings (./run-tests installs it)"
)
@pytest.mark.parametrize("encoding", ["ms-adpcm", "ima-adpcm"])
def test_an_adpcm_recording_is_said_as_sdl_plays_it(tmp_path, encoding):
    """A bar's recording in Microsoft's or IMA's ADPCM (what sox writes with `-e ms-adpcm`, and
    some recorders to save room) replaces the synthetic voice for its phrase, as long as its
    sound: SDL decodes both and really plays them (to its disk driver here). Before, the header
    reader refused them as "not a WAV file" and espeak-ng said the phrase instead."""
    pcm = _wav(tmp_path / "pcm.wav", 1, 16, 0.5)
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    adpcm = recordings / "hit.wav"
    subprocess.run(["sox", str(pcm), "-e", encoding, str(adpcm)], check=True, timeout=60)
    assert adpcm.read_bytes()[20:22] in (b"\x02\x00", b"\x11\x00")  # ADPCM it is
    voice = EspeakVoice(tmp_path / "cache", recordings, program="no-such-espeak")
    assert voice.find(Words("hit", "Hit"), "en") == adpcm
    assert abs(wav_seconds(adpcm) - 0.5) < 0.02
    out = tmp_path / "heard.raw"
    answer = _play(tmp_path, adpcm, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(out))
    assert answer == {"reason": None, "played": True}
    samples = array.array("h", out.read_bytes())
    assert sum(abs(v) > 3000 for v in samples) > len(samples) // 4, "the ADPCM recording reached no driver"
