"""The caller's figures: the cache build per language, and from an announcement to the first
audio sample on a cache hit (p50/p99), with the buzzer's first tone beside it.

    .venv/bin/python bench/caller.py [--darts 40] [--gap 0.9] [--fake-darts 300]

* cache build: every phrase of every game (cells included) rendered by espeak-ng into an empty
  cache, per language, with the default voices (the figure install.sh pays once).
* announcement -> first sample, two ways, both through the real service and caller (a dart
  game whose darts all miss, Next after every visit: "Miss", "Jets to throw"), the voice cache
  warm:
  - fake sink: to the moment the caller's thread hands the first file to the speaker (the
    queue, the thread hand-off, the cache look-up);
  - SDL2: Kivy's real SoundSDL2 on SDL's `disk` audio driver, which writes what would be heard
    to a file at the pace of a sound card; a sampler thread notes when the file grows, so the
    first loud sample of each call has a time. That is the whole way: caller, SDL_mixer,
    SDL's audio thread and its buffer (espeak-ng's ~10 ms of lead-in silence included).
  The buzzer is a PatternPlayer whose tone_on notes its time: its first tone, from the same
  announcement, is the "in step" figure.
"""

from __future__ import annotations

import argparse
import array
import contextlib
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RAW_RATE = 44100 * 2 * 2  # bytes per second SDL_mixer writes: 16-bit stereo, 44.1 kHz
LOUD = 300  # a sample above this (of 32767) is sound, not silence


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    return (
        f"p50 {statistics.median(values) * 1000:6.1f} ms   p99 "
        f"{_percentile(values, 0.99) * 1000:6.1f} ms   max {max(values) * 1000:6.1f} ms   "
        f"(n={len(values)})"
    )


def cache_build(folder: Path) -> None:
    from hardware.voice import EspeakVoice
    from kiosk.app.caller_cli import every_phrase
    from kiosk.i18n import LANGUAGES, set_language
    from kiosk.speech import CallOptions

    voice = EspeakVoice(folder)
    if voice.problem():
        print("cache build: skipped,", voice.problem())
        return
    for language in LANGUAGES:
        set_language(language)
        phrases = [w for _g, w in every_phrase(CallOptions(say_cell=True))]
        each = []
        started = time.perf_counter()
        for words in phrases:
            t = time.perf_counter()
            voice.render(words, language)
            each.append(time.perf_counter() - t)
        total = time.perf_counter() - started
        print(
            f"cache build {language} ({voice.voice_of(language)}): {len(phrases)} phrases in "
            f"{total:.1f} s, per phrase p50 {statistics.median(each) * 1000:.0f} ms, "
            f"max {max(each) * 1000:.0f} ms"
        )
    set_language("en")


class Stopwatch:
    """Notes when the service announces (a listener subscribed before the caller's), and
    which announcements sound the buzzer (a Next's new visit does not)."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.beeps: list[float] = []

    def __call__(self, event: object) -> None:
        from kiosk.darts.kind import DARTS
        from kiosk.service import MatchUpdate

        if isinstance(event, MatchUpdate):
            self.times.append(time.monotonic())
            if DARTS.sound_for(event.events) is not None:
                self.beeps.append(self.times[-1])


def _tones(beeps: list[float], tones: list[float]) -> str:
    return _ms([min(x for x in tones if x >= t) - t for t in beeps if any(x >= t for x in tones)])


def _buzzer() -> object:
    from hardware.buzzer import PatternPlayer

    class TimedBuzzer(PatternPlayer):
        def __init__(self) -> None:
            self.first_tones: list[float] = []
            self._fresh = True
            super().__init__(tempo=0.2)

        def _play_pattern(self, sound: object) -> None:
            self._fresh = True
            super()._play_pattern(sound)  # type: ignore[arg-type]

        def tone_on(self, hz: float) -> None:
            if self._fresh:
                self.first_tones.append(time.monotonic())
                self._fresh = False

        def tone_off(self) -> None:
            pass

    return TimedBuzzer()


def _game(
    folder: Path,
    speaker: object,
    darts: int,
    gap: float,
) -> tuple[Stopwatch, object, list[float]]:
    """A real service and caller; every dart a MISS; returns the announcements' times, the
    caller, and the buzzer's first tones."""
    from hardware.voice import EspeakVoice
    from kiosk.announce import buzzer_listener
    from kiosk.board import Cell, Ring
    from kiosk.caller import Caller
    from kiosk.darts.fleet import parse_fleet
    from kiosk.darts.kind import DARTS
    from kiosk.darts.match import HouseRules, Next, Phase, Place, Setup, Start, Team, Throw
    from kiosk.service import GameService

    service = GameService(None, follow_ups=False)
    watch = Stopwatch()
    service.subscribe(watch)
    buzzer = _buzzer()
    service.subscribe(buzzer_listener(buzzer, service))  # type: ignore[arg-type]
    voice = EspeakVoice(folder)
    caller = Caller(service, voice, speaker)  # type: ignore[arg-type]
    rules = HouseRules()
    service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
    service.submit(
        Place(
            0, parse_fleet("D20-D1 T18-T4-T13 L6-L10-L15-L2 D17-L17-T17-S17-BULL", rules.board, rules.fleet)
        )
    )
    service.submit(
        Place(1, parse_fleet("S3-S19 T7-T16-T8 D11-D14-D9-D12 L5-L20-L1-L18-L4", rules.board, rules.fleet))
    )
    # Warm the cache: every phrase and the names, as a kiosk has them after its first game.
    from kiosk.speech import CallOptions, name

    for words in [*DARTS.phrasebook().phrases(CallOptions()), name("Sharks"), name("Jets")]:
        voice.find(words, "en") or voice.render(words, "en")
    caller.attach()
    time.sleep(0.5)  # the speaker opens on the caller's thread
    watch.times.clear()
    watch.beeps.clear()
    service.submit(Start(0))
    caller.wait_idle()
    misses = [Cell(Ring.DOUBLE, 3), Cell(Ring.DOUBLE, 7), Cell(Ring.DOUBLE, 16)]
    for n in range(darts):
        time.sleep(gap)
        match = service.match
        assert match is not None
        if match.phase is Phase.TAKEOUT:
            service.submit(Next())
        else:
            service.submit(Throw(misses[n % 3]))
        caller.wait_idle(5)
    time.sleep(gap)
    caller.close()
    buzzer.close()  # type: ignore[attr-defined]
    return watch, caller, buzzer.first_tones  # type: ignore[attr-defined]


def fake_sink(folder: Path, darts: int) -> None:
    from hardware.speaker import SimulatedSpeaker

    speaker = SimulatedSpeaker(tempo=0.02)
    watch, _caller, tones = _game(folder, speaker, darts, gap=0.1)
    announced = watch.times
    starts = [p.started for p in speaker.played]
    # One call per announcement; its first word is the first file played after it.
    firsts = []
    for t in announced:
        after = [s for s in starts if s >= t]
        if after:
            firsts.append(after[0] - t)
    print("fake sink, announcement -> first file handed to the speaker:", _ms(firsts))
    print("buzzer,    announcement -> first tone on:                 ", _tones(watch.beeps, tones))


def sdl_disk(folder: Path, darts: int, gap: float) -> None:
    raw = folder / "sdl-disk.raw"
    os.environ["SDL_AUDIODRIVER"] = "disk"
    os.environ["SDL_DISKAUDIOFILE"] = str(raw)
    from hardware.speaker import SdlSpeaker

    sizes: list[tuple[float, int]] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                sizes.append((time.monotonic(), raw.stat().st_size))
            time.sleep(0.001)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    speaker = SdlSpeaker(folder)
    watch, caller, tones = _game(folder, speaker, darts, gap)
    announced = watch.times
    stop.set()
    sampler.join()
    if caller.silent:  # type: ignore[attr-defined]
        print("SDL2 disk driver: no audio device:", caller.silent)  # type: ignore[attr-defined]
        return
    samples = array.array("h", raw.read_bytes())

    def written_at(offset: int) -> float | None:
        return next((t for t, size in sizes if size > offset), None)

    def offset_at(moment: float) -> int:
        before = [size for t, size in sizes if t <= moment]
        return before[-1] if before else 0

    latencies = []
    for t in announced:
        start = offset_at(t) // 2
        loud = next(
            (i for i in range(start, min(len(samples), start + RAW_RATE)) if abs(samples[i]) > LOUD), None
        )
        if loud is None:
            continue
        at = written_at(loud * 2)
        if at is not None:
            latencies.append(at - t)
    print("SDL2 (disk driver), announcement -> first loud sample written:", _ms(latencies))
    print("  slowest:", ", ".join(f"{x * 1000:.0f} ms" for x in sorted(latencies)[-3:]))
    print("buzzer,             announcement -> first tone on:            ", _tones(watch.beeps, tones))
    print(
        f"  (SDL's disk file: {raw.stat().st_size / RAW_RATE:.1f} s of 44.1 kHz stereo; "
        f"{len(announced)} announcements, one call each)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--darts", type=int, default=40, help="darts through SDL2 (real time)")
    parser.add_argument("--gap", type=float, default=0.9, help="seconds between those darts")
    parser.add_argument("--fake-darts", type=int, default=300)
    args = parser.parse_args()
    for key in ("KIVY_NO_ARGS", "KIVY_NO_CONSOLELOG", "KIVY_NO_FILELOG"):
        os.environ.setdefault(key, "1")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache_build(folder / "build")
        fake_sink(folder / "hits", args.fake_darts)
        sdl_disk(folder / "hits", args.darts, args.gap)


if __name__ == "__main__":
    main()
