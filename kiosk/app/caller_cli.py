"""`dartship caller`: the caller's phrases, rendered ahead and listed.

    dartship caller build [--all] [--config F]    render every phrase into the voice cache
    dartship caller phrases [--language de]       list the phrases: what a recording is named

`build` renders what the config will use (the kiosk's language; the cells too when the caller
says them; `--all`: every language, cells included) with the configured voice, skipping what
is cached or recorded; install.sh runs it as the kiosk's user. The kiosk renders anything still
missing on first use, and a game's names when it starts. It prints, per language, the phrases,
how many were rendered and how long that took; without espeak-ng it says so and renders nothing
(exit 0: the kiosk still runs, silently or with recordings).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator, Sequence

from kiosk import config as config_module
from kiosk.caller import test_call
from kiosk.i18n import LANGUAGES, _, set_language
from kiosk.kinds import kind_named
from kiosk.rooms import REGISTRY
from kiosk.speech import CallOptions, Words


def every_phrase(options: CallOptions) -> Iterator[tuple[str, Words]]:
    """(game, words) of every game's phrasebook, in the current language; each phrase once."""
    seen: set[str] = set()
    for name in ("caller", *REGISTRY.names()):
        if name == "caller":
            phrases = list(test_call().words)
        else:
            book = kind_named(name).phrasebook()
            phrases = list(book.phrases(options)) if book is not None else []
        for words in phrases:
            key = f"{words.phrase}\0{words.text}"
            if key not in seen:
                seen.add(key)
                yield name, words


def build(settings: config_module.Settings, languages: Sequence[str], cells: bool) -> int:
    from hardware.factory import build_voice

    voice, _speaker = build_voice(settings)
    problem = voice.problem()
    if problem:
        print(_("The caller's voice cannot be rendered: {problem}.").format(problem=problem))
        return 0
    for language in languages:
        set_language(language)
        phrases = [words for _game, words in every_phrase(CallOptions(say_cell=cells))]
        started = time.perf_counter()
        made = failed = 0
        for words in phrases:
            if voice.find(words, language) is not None:
                continue
            if voice.render(words, language) is None:
                failed += 1
            else:
                made += 1
        print(
            _("{language} ({voice}): {count} phrases, {made} rendered in {seconds:.1f} s{failed}").format(
                language=language,
                voice=voice.voices.get(language, language),
                count=len(phrases),
                made=made,
                seconds=time.perf_counter() - started,
                failed=_(", {n} failed").format(n=failed) if failed else "",
            )
        )
    return 0


def phrases(language: str) -> int:
    set_language(language)
    print(
        _("# phrase (the recording's file name: <phrase>.wav)  what it says ({language})").format(
            language=language
        )
    )
    for game, words in every_phrase(CallOptions(say_cell=True)):
        print(f"{words.phrase + '.wav':<28} {game:<8} {words.text}")
    print(_("# names: name-<name>.wav, the name in lower case, letters and digits joined by -"))
    return 0


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="dartship caller",
        description=_("The caller's phrases: render them ahead into the voice cache, or list them."),
    )
    parser.add_argument("action", choices=("build", "phrases"))
    parser.add_argument(
        "--config", help=_("config file (default: $DARTSHIP_CONFIG or /etc/dartship/config.toml)")
    )
    parser.add_argument("--all", action="store_true", help=_("build: every language, and every cell"))
    parser.add_argument("--language", choices=LANGUAGES, help=_("phrases: in this language"))
    args = parser.parse_args(list(argv))
    settings = config_module.read(args.config, strict=False).settings
    language = args.language or settings.kiosk.language
    if args.action == "phrases":
        return phrases(language)
    if args.all:
        return build(settings, LANGUAGES, cells=True)
    return build(settings, [language], cells=settings.caller.say_cell)
