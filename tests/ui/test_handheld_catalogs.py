"""The page's own translations: the same keys in every language, and every key the page uses."""

from __future__ import annotations

import json
import re

from ui.handheld.static_files import STATIC_DIR, StaticFiles

LANGUAGES = ("en", "de", "fi")


def _catalog(language: str) -> dict[str, str | dict[str, str]]:
    return json.loads((STATIC_DIR / "i18n" / f"{language}.json").read_text(encoding="utf-8"))


def _used_keys() -> set[str]:
    source = "\n".join(p.read_text(encoding="utf-8") for p in STATIC_DIR.glob("*.js"))
    keys = set(re.findall(r"""\bt\(\s*"([a-z_]+)\"""", source))
    keys |= set(re.findall(r"""key:\s*"([a-z_]+)\"""", source))
    keys |= set(re.findall(r"""\[\s*"[a-z]+",\s*"(legend_[a-z_]+)"\s*\]""", source))
    keys |= {f"result_{r}" for r in ("miss", "hit", "sunk", "repeat")}
    keys |= {f"err_{c}" for c in ("game_started", "locked", "too_large", "bad_json", "not_json", "busy")}
    return keys


# The plural categories (CLDR's, as Intl.PluralRules names them) each language uses for counts.
PLURAL_FORMS = {"en": {"one", "other"}, "de": {"one", "other"}, "fi": {"one", "other"}}


def _forms(entry: str | dict[str, str], language: str) -> list[str]:
    """A message's texts: itself, or each plural form (which must be the language's)."""
    if isinstance(entry, str):
        return [entry]
    assert set(entry) - {"count"} == PLURAL_FORMS[language], (language, entry)
    assert re.fullmatch(r"\w+", entry["count"]), entry
    return [text for form, text in entry.items() if form != "count"]


def _placeholders(texts: list[str]) -> set[str]:
    return {name for text in texts for name in re.findall(r"\{\w+\}", text)}


def test_every_language_has_every_key_and_the_same_placeholders():
    english = _catalog("en")
    for language in LANGUAGES[1:]:
        other = _catalog(language)
        assert set(other) == set(english), language
        for key, entry in english.items():
            texts, theirs = _forms(entry, "en"), _forms(other[key], language)
            assert isinstance(entry, str) == isinstance(other[key], str), (language, key)
            for text in theirs:
                assert _placeholders([text]) == _placeholders(texts), (language, key)
                assert text.strip(), (language, key)
            if not isinstance(entry, str):
                assert entry["count"] == other[key]["count"], (language, key)
                assert f"{{{entry['count']}}}" in _placeholders(texts), key


def test_counted_words_have_plural_forms():
    english = _catalog("en")
    for key in ("c_n_shots", "c_n_hits", "c_daily_done"):
        assert isinstance(english[key], dict), key


def test_every_key_the_page_uses_is_translated():
    missing = _used_keys() - set(_catalog("en"))
    assert missing == set()


def test_the_package_ships_the_page_and_its_catalogs():
    names = StaticFiles().names()
    for name in (
        "index.html",
        "app.js",
        "board.js",
        "rules.js",
        "i18n.js",
        "app.css",
        "dom.js",
        "live.js",
        "classic.html",
        "classic.js",
        "classic.css",
        "grid.js",
        *(f"i18n/{language}.json" for language in LANGUAGES),
    ):
        assert name in names
    for html in ("index.html", "classic.html"):
        page = (STATIC_DIR / html).read_text(encoding="utf-8")
        assert "http" not in page.replace("http-equiv", "")  # nothing fetched from the internet


# Codes the classic page does not put in its own words, and why: it ends the page instead
# (`goneFor`), the kiosk's message says which rule and which ship, or the page never asks for it.
CLASSIC_CODES_ELSEWHERE = {
    "too_many_attempts": "goneFor: the throttled page",
    "other_phone": "goneFor",
    "other_team": "goneFor",
    "refused": "the kiosk's message names the rule",
    "bad_fleet": "the kiosk's message names the ship",
    "no_device": "sockets only",
    "bad_date": "the page asks for today's board only",
    "internal": "the server's last resort: the message",
}


def _classic_codes() -> set[str]:
    """Every error code the classic routes, and the seats and body checks they use, answer."""
    from ui.handheld.classic.api import _refusals

    root = STATIC_DIR.parent
    source = "\n".join((root / name).read_text(encoding="utf-8") for name in ("classic/api.py", "seats.py"))
    codes = set(re.findall(r"""json_error\(\s*\d{3},\s*"([a-z_]+)\"""", source))
    codes |= {code for _kind, code in _refusals.CODES}
    codes |= set(re.findall(r"""^\s*"([a-z_]+)",\s*$""", source, re.M)) & {"too_many_games", "too_many_rooms"}
    return codes


def test_every_error_the_classic_routes_answer_is_said_in_the_phones_language():
    classic = (STATIC_DIR / "classic.js").read_text(encoding="utf-8")
    block = re.search(r"const KNOWN_ERRORS = \[(.*?)\];", classic, re.S)
    assert block is not None
    known = set(re.findall(r'"([a-z_]+)"', block.group(1)))
    codes = _classic_codes()
    assert {"too_many_rooms", "daily_taken", "too_many_games", "paused", "too_slow"} <= codes
    assert codes - set(CLASSIC_CODES_ELSEWHERE) <= known, codes - known - set(CLASSIC_CODES_ELSEWHERE)
    for language in LANGUAGES:
        catalog = _catalog(language)
        assert {f"c_err_{code}" for code in known} <= set(catalog), language
