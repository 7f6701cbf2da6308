"""Translations: every user-facing string goes through `_`.

Catalogs are plain `.po` files in `kiosk/locale/<lang>/`, one per part of the house
(`dartship.po` for the dart game and the shell, `classic.po`, `express.po`, ...), all read and merged
at start (no build step, no msgfmt needed on the Pi). English is the source language.
"""

from __future__ import annotations

import ast
import gettext
import threading
from pathlib import Path

LANGUAGES = ("en", "de", "fi")
LOCALE_DIR = Path(__file__).with_name("locale")

_lock = threading.Lock()
_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


class _PoTranslations(gettext.NullTranslations):
    def __init__(self, catalog: dict[str, str]) -> None:
        super().__init__()
        self._catalog = catalog

    def gettext(self, message: str) -> str:
        return self._catalog.get(message) or message


def read_po(path: Path) -> dict[str, str]:
    """Read msgid/msgstr pairs of a .po file (single forms, multi-line strings, comments)."""
    catalog: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    target: list[str] | None = None

    def flush() -> None:
        if msgid is not None and msgstr is not None:
            key = "".join(msgid)
            if key:
                catalog[key] = "".join(msgstr)

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgid "):
            flush()
            msgid, msgstr = [ast.literal_eval(line[6:])], None
            target = msgid
        elif line.startswith("msgstr "):
            msgstr = [ast.literal_eval(line[7:])]
            target = msgstr
        elif line.startswith('"') and target is not None:
            target.append(ast.literal_eval(line))
    flush()
    return catalog


def catalog(language: str) -> dict[str, str]:
    """Every translation of `language`: the merged `.po` files of its folder (empty for English)."""
    folder = LOCALE_DIR / language
    merged: dict[str, str] = {}
    for po in sorted(folder.glob("*.po")) if folder.is_dir() else ():
        merged.update(read_po(po))
    return merged


def set_language(language: str) -> str:
    """Switch every later `_` call to `language` (en, de, fi); unknown ones fall back to English."""
    global _current, _language
    language = (language or "en").split("-")[0].split("_")[0].lower()
    if language not in LANGUAGES:
        language = "en"
    translations = _PoTranslations(catalog(language))
    with _lock:
        _current, _language = translations, language
    return language


def language() -> str:
    return _language


def _(message: str) -> str:
    return _current.gettext(message)


def translator(language: str) -> _PoTranslations | gettext.NullTranslations:
    """A catalog for one language without switching the kiosk's own (phones have their own)."""
    return _PoTranslations(catalog(language if language in LANGUAGES else "en"))
