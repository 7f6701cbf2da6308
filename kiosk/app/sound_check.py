"""`dartship doctor --sound`: can the caller be heard? The synthetic voice renders the test
phrase in the kiosk's language, the audio device is opened as the kiosk opens it, and the phrase
is played (listen for it). Only with `--sound`: a plain `doctor` makes no noise in a bar."""

from __future__ import annotations

import time
from pathlib import Path

from kiosk.app.findings import Report, Severity
from kiosk.caller import test_call
from kiosk.config import CallerOutput, Settings
from kiosk.i18n import _, set_language

ok, warn, fail = Severity.OK, Severity.WARN, Severity.FAIL


def check_sound(cfg: Settings, report: Report) -> None:
    """The caller's voice and the audio output, as findings of the doctor's report."""
    from hardware.factory import build_voice
    from hardware.speaker import wav_seconds

    caller = cfg.caller
    if not caller.enabled:
        report.add(
            "sound",
            warn,
            _("the caller is off (caller.enabled = false)"),
            _("turn it on in Settings or the config"),
        )
    language = set_language(cfg.kiosk.language)
    voice, speaker = build_voice(cfg)
    words = test_call().words[0]
    problem = voice.problem()
    path = voice.find(words, language) or voice.render(words, language)
    if path is None:
        report.add(
            "sound",
            fail,
            _("the caller cannot say the test phrase ({why})").format(why=problem or _("espeak-ng failed")),
            _("sudo apt-get install espeak-ng"),
        )
        return
    report.add(
        "sound",
        ok,
        _("voice {voice}: the test phrase is {seconds:.1f} s ({path})").format(
            voice=voice.voices.get(language, language), seconds=wav_seconds(path), path=path
        ),
    )
    wanted = caller.voice(language)
    if problem is None and voice.voices.get(language, wanted) != wanted:
        # The renderer fell back to the language's own voice: said in the journal only, so the
        # line above named a voice the owner never set, and nothing said why.
        report.add(
            "sound",
            warn,
            _(
                "caller.voice_{language} = {wanted}: espeak-ng has no such voice; {used} speaks instead"
            ).format(language=language, wanted=wanted, used=voice.voices.get(language)),
            _("pick one of `espeak-ng --voices={language}`, or one of Settings' voices").format(
                language=language
            ),
        )
    check_recordings(cfg, language, report)
    if caller.output is CallerOutput.LOG:
        report.add(
            "sound",
            warn,
            _("caller.output is log: the calls go to the journal only"),
            _('set caller.output = "audio" to hear them'),
        )
        return
    reason = speaker.open()
    if reason is not None:
        report.add(
            "sound",
            fail,
            _("no audio device: {reason}").format(reason=reason),
            _(
                "connect the HDMI screen's speakers or the headphone jack, check "
                "`aplay -l`, and that the kiosk's user is in the audio group; the kiosk "
                "plays on silently until then"
            ),
        )
        return
    started = time.monotonic()
    played = speaker.play(path, caller.volume / 100)
    speaker.close()
    if not played:
        report.add(
            "sound", fail, _("{speaker} could not play {path}").format(speaker=speaker.name, path=path)
        )
        return
    report.add(
        "sound",
        ok,
        _("played the test phrase on {speaker} at {volume} % in {seconds:.1f} s: did you hear it?").format(
            speaker=speaker.name, volume=caller.volume, seconds=time.monotonic() - started
        ),
    )


def check_recordings(cfg: Settings, language: str, report: Report) -> None:
    """A bar's own recordings (caller.recordings): which phrases they say, and every file the
    caller will not play, a broken one (an empty file, an MP3 renamed) or one named after no
    phrase ("hitt.wav"). The kiosk says a broken one once in the journal; a misnamed one it
    never looks at: only here is the owner told."""
    from hardware.wavinfo import is_wav
    from kiosk.app.caller_cli import every_phrase
    from kiosk.speech import CallOptions

    folder = cfg.caller.recordings_path()
    if not folder.is_dir():
        if cfg.caller.recordings:
            report.add(
                "sound",
                warn,
                _(
                    "caller.recordings: {folder} is not a folder; the synthetic voice says every phrase"
                ).format(folder=folder),
                _("make the folder, or set caller.recordings to the folder of your WAV files"),
            )
        return
    files = sorted(
        [*folder.glob("*.wav"), *(folder / language).glob("*.wav")],
        key=lambda p: (p.parent != folder, p.name),
    )
    if not files:
        return
    known = {words.phrase for _game, words in every_phrase(CallOptions(say_cell=True))}
    said = [p for p in files if p.stem in known or p.stem.startswith("name-")]
    unknown = [p for p in files if p not in said]
    broken = [p for p in said if not is_wav(p)]
    good = [p for p in said if p not in broken]

    def names(paths: list[Path]) -> str:
        return ", ".join(str(p.relative_to(folder)) for p in paths)

    if good:
        report.add("sound", ok, _("recordings in {folder}: {names}").format(folder=folder, names=names(good)))
    if broken:
        report.add(
            "sound",
            warn,
            _("recordings the caller cannot play (the synthetic voice says these): {names}").format(
                names=names(broken)
            ),
            _("record them again as WAV files (PCM or float, any rate)"),
        )
    if unknown:
        report.add(
            "sound",
            warn,
            _("recordings named after no phrase, never played: {names}").format(names=names(unknown)),
            _("`dartship caller phrases --language {language}` lists every phrase's file name").format(
                language=language
            ),
        )
