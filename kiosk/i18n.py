"""Translations: every user-facing string goes through `_`.

Catalogs are plain `.po` files in `kiosk/locale/<lang>/`, one per part of the house
(`dartship.po` for the dart game and the shell, `classic.po`, `express.po`, ...), all read and merged
at start (no build step, no msgfmt needed on the Pi). English is the source language.
"""

from __future__ import annotations

import ast
import contextlib
import gettext
import re
import string
import threading
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "de", "fi")
LOCALE_DIR = Path(__file__).with_name("locale")

_lock = threading.Lock()
_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
# A language of one request's own (the hub answers each reader in theirs: `speaking`), over the
# process's; None: the process's (`set_language`).
_speaking: ContextVar[tuple[str, gettext.NullTranslations] | None] = ContextVar(
    "dartship_speaking", default=None
)


# Every one of our languages counts "1 dart, 2 darts" (gettext's rule for en, de, fi); a
# catalog's Plural-Forms header overrides it.
DEFAULT_PLURAL = "nplurals=2; plural=(n != 1);"


def plural_rule(header: str) -> tuple[int, Callable[[int], int]]:
    """The number of forms and the form of `n`, from a Plural-Forms value (gettext's C-like
    expression, compiled by the standard library's gettext)."""
    found = re.search(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+)", header)
    if found is None:
        return plural_rule(DEFAULT_PLURAL)
    return int(found.group(1)), gettext.c2py(found.group(2))


@dataclass
class Catalog:
    """One language's translations: single messages, plural ones (every form, by the msgid of
    the singular) and the rule that picks a form."""

    messages: dict[str, str] = field(default_factory=dict)
    plurals: dict[str, tuple[str, ...]] = field(default_factory=dict)
    plural_forms: str = DEFAULT_PLURAL

    def update(self, other: Catalog) -> None:
        self.messages.update(other.messages)
        self.plurals.update(other.plurals)
        if other.plural_forms != DEFAULT_PLURAL:
            self.plural_forms = other.plural_forms


class _PoTranslations(gettext.NullTranslations):
    def __init__(self, found: Catalog | dict[str, str]) -> None:
        super().__init__()
        found = found if isinstance(found, Catalog) else Catalog(dict(found))
        self._catalog = found.messages
        self._plurals = found.plurals
        self._forms, self._plural = plural_rule(found.plural_forms)

    def gettext(self, message: str) -> str:
        return self._catalog.get(message) or message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        forms = self._plurals.get(msgid1)
        if forms and len(forms) == self._forms and all(forms):
            return forms[min(self._plural(n), len(forms) - 1)]
        return msgid1 if n == 1 else msgid2


def _unquote(text: str) -> str:
    return str(ast.literal_eval(text))


def read_catalog(path: Path) -> Catalog:
    """Read a .po file: single entries (msgid/msgstr), plural ones (msgid, msgid_plural,
    msgstr[0..n]), multi-line strings, comments, the header's Plural-Forms."""
    found = Catalog()
    parts: dict[str, list[str]] = {}
    target: list[str] | None = None

    def flush() -> None:
        key = "".join(parts.get("msgid", []))
        if not key:
            header = "".join(parts.get("msgstr", []))
            forms = re.search(r"Plural-Forms:\s*([^\n]*)", header)
            if forms:
                found.plural_forms = forms.group(1)
        elif "msgid_plural" in parts:
            count = sum(1 for name in parts if name.startswith("msgstr["))
            found.plurals[key] = tuple("".join(parts.get(f"msgstr[{i}]", [])) for i in range(count))
        elif "msgstr" in parts:
            found.messages[key] = "".join(parts["msgstr"])
        parts.clear()

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword = re.match(r"(msgid_plural|msgid|msgstr\[\d+\]|msgstr)\s+(\".*)", line)
        if keyword:
            name, text = keyword.groups()
            if name == "msgid":
                flush()
            target = parts.setdefault(name, [])
            target.append(_unquote(text))
        elif line.startswith('"') and target is not None:
            target.append(_unquote(line))
    flush()
    return found


def read_po(path: Path) -> dict[str, str]:
    """The single (not plural) msgid/msgstr pairs of a .po file."""
    return read_catalog(path).messages


def language_catalog(language: str) -> Catalog:
    """Every translation of `language`: the merged `.po` files of its folder (empty for English)."""
    folder = LOCALE_DIR / language
    merged = Catalog()
    for po in sorted(folder.glob("*.po")) if folder.is_dir() else ():
        merged.update(read_catalog(po))
    return merged


def catalog(language: str) -> dict[str, str]:
    """The single messages of `language` (its plural ones: `language_catalog`)."""
    return language_catalog(language).messages


def set_language(language: str) -> str:
    """Switch every later `_` call to `language` (en, de, fi); unknown ones fall back to English."""
    global _current, _language
    language = _code(language or "en")
    if language not in LANGUAGES:
        language = "en"
    translations = _PoTranslations(language_catalog(language))
    with _lock:
        _current, _language = translations, language
    return language


def _code(tag: str) -> str:
    """A language tag's language ("fi-FI", "de_AT": fi, de)."""
    return tag.strip().split("-")[0].split("_")[0].lower()


def accepted_language(accept: str | None) -> str | None:
    """The first of an Accept-Language header's languages by its q-values that is ours
    ("fi-FI;q=0.8" counts as fi; ties keep the header's order), None if none is (or no header):
    a browser's header lists the languages its `navigator.languages` does, those the phone
    pages pick theirs from."""
    wanted: list[tuple[float, int, str]] = []
    for n, part in enumerate((accept or "")[:400].split(",")):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = _code(tag)
        if code in LANGUAGES and q > 0:
            wanted.append((-q, n, code))
    return min(wanted)[2] if wanted else None


def language() -> str:
    """The language `_` speaks here and now (`speaking`'s, else the process's)."""
    spoken = _speaking.get()
    return spoken[0] if spoken is not None else _language


def _translations() -> gettext.NullTranslations:
    spoken = _speaking.get()
    return spoken[1] if spoken is not None else _current


def _(message: str) -> str:
    text = _translations().gettext(message)
    return Said(text, message) if _recording.get() else text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count `n` in the kiosk's language, by that language's
    plural rule: `ngettext("{n} point to win", "{n} points to win", n).format(n=n)`."""
    return _translations().ngettext(singular, plural, n)


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Every `_` in this context (this task or thread, not the others) speaks `language`: the
    hub's pages and answers, each in its reader's language, while it serves many at once."""
    language = language if language in LANGUAGES else "en"
    token = _speaking.set((language, _cached_translator(language)))
    try:
        yield
    finally:
        _speaking.reset(token)


@cache
def _cached_translator(language: str) -> gettext.NullTranslations:
    return translator(language)


def translator(language: str) -> _PoTranslations | gettext.NullTranslations:
    """A catalog for one language without switching the kiosk's own (phones have their own)."""
    return _PoTranslations(language_catalog(language if language in LANGUAGES else "en"))


# ---- said again, in another language ---------------------------------------------------------
#
# The hub answers a kiosk in the kiosk's language, but a kiosk keeps the answer (the reason its
# outbox shows) and its owner may switch languages afterwards. So a message made while
# `recording` remembers how it was made, its msgid and the values of the fields it shows
# (`Said`), the hub sends that along (`said_json`), and the kiosk says it again in whatever
# language it speaks when it shows it (`said_again`), from its own catalogs.

_recording: ContextVar[bool] = ContextVar("dartship_recording", default=False)
MOST_NESTED = 6  # a message quoting a message quoting ...: deeper is not said again
MOST_SAID = 4000  # characters of a said message's JSON that a kiosk keeps


class Said(str):
    """A message as `_` said it while `recording`, and how it was made: its msgid and the
    values of the fields the msgid names (only those: a value handed to `format` that the
    message does not show is not kept, so nothing travels with it that its text does not say).
    A value is a number, a text as written (a name, a Python error), or a `Said` itself (an
    exception's message quoted into another one)."""

    msgid: str
    params: dict[str, object]

    def __new__(cls, text: str, msgid: str, params: dict[str, object] | None = None) -> Said:
        said = super().__new__(cls, text)
        said.msgid = msgid
        said.params = params or {}
        return said

    def __reduce__(self) -> tuple[type[Said], tuple[str, str, dict[str, object]]]:
        # Copied (dataclasses.asdict, copy.deepcopy) or pickled as what it is, how it was made.
        return (Said, (str(self), self.msgid, self.params))

    def format(self, *args: object, **kwargs: object) -> str:
        text = str.format(self, *args, **kwargs)
        if args:
            return text  # positional fields: not said again (none of our messages has them)
        return Said(
            text, self.msgid, {name: _kept(kwargs[name]) for name in fields(self.msgid) if name in kwargs}
        )


class Joined(str):
    """Messages joined into one text (`joined`), each to be said again on its own."""

    items: tuple[str, ...]
    separator: str

    def __new__(cls, items: tuple[str, ...], separator: str) -> Joined:
        said = super().__new__(cls, separator.join(items))
        said.items = items
        said.separator = separator
        return said

    def __reduce__(self) -> tuple[type[Joined], tuple[tuple[str, ...], str]]:
        return (Joined, (self.items, self.separator))


def joined(items: Sequence[str], separator: str = "; ") -> str:
    """`separator.join(items)`, keeping each said message of them (a reason listing problems),
    and the separator if it is one (`_(" v ")`)."""
    if not any(isinstance(item, Said | Joined) for item in (*items, separator)):
        return separator.join(items)
    return Joined(tuple(items), separator)


def fields(message: str) -> list[str]:
    """The names of the fields a message's text shows (`{player}`, `{key!r}`, `{n:.1f}`)."""
    try:
        parsed = list(string.Formatter().parse(message))
    except ValueError:
        return []
    return [re.split(r"[.\[]", name, maxsplit=1)[0] for _text, name, _spec, _conv in parsed if name]


def _kept(value: object) -> object:
    if isinstance(value, BaseException):
        value = said_of(value)
    if isinstance(value, Said | Joined) or value is None or isinstance(value, bool | int | float):
        return value
    return str(value)


def said_of(err: BaseException) -> str:
    """An exception's message as it was made (a `Said`, if made while recording), else its text."""
    first = err.args[0] if len(err.args) == 1 else None
    return first if isinstance(first, Said) else str(err)


@contextlib.contextmanager
def recording() -> Iterator[None]:
    """Every `_` in this context (this task or thread) gives a `Said`: the hub's answers, the
    reasons a kiosk keeps."""
    token = _recording.set(True)
    try:
        yield
    finally:
        _recording.reset(token)


def said_json(message: object) -> dict[str, object] | None:
    """How to say `message` again, as JSON (None: it was not made while recording)."""
    if isinstance(message, Joined):
        return {
            "joined": [said_json(item) or str(item) for item in message.items],
            "separator": said_json(message.separator) or message.separator,
            "text": str(message),
        }
    if not isinstance(message, Said):
        return None
    return {
        "msgid": message.msgid,
        "params": {k: said_json(v) or v for k, v in message.params.items()},
        "text": str(message),
    }


@cache
def known_messages() -> frozenset[str]:
    """Every msgid of our catalogs: a said message is said again only if it is one of ours."""
    return frozenset(m for language in LANGUAGES for m in language_catalog(language).messages)


def said_again(found: object, depth: int = 0) -> str | None:
    """A said message (`said_json`'s, from the hub or kept by the kiosk) in the language `_`
    speaks now; None if it cannot be: a msgid that is not one of ours (a newer hub's), values
    that do not fit, a malformed one. Only our own catalogs' texts are formatted, with values
    that are numbers and texts (never an object: no attribute of anything is read)."""
    if not isinstance(found, dict) or depth > MOST_NESTED:
        return None
    if "joined" in found:
        items, separator = found["joined"], found.get("separator")
        if isinstance(separator, dict):  # a separator of ours (" v "), said again too
            separator = said_again(separator, depth + 1)
        elif isinstance(separator, str) and len(separator) > 5:
            return None  # a text as it was: a few characters of punctuation at most
        if not isinstance(items, list) or not isinstance(separator, str):
            return None
        told = [_said_item(item, depth) for item in items]
        return None if None in told else separator.join(str(t) for t in told)
    msgid, params = found.get("msgid"), found.get("params", {})
    if not isinstance(msgid, str) or msgid not in known_messages() or not isinstance(params, dict):
        return None
    values: dict[str, object] = {}
    for name, value in params.items():
        if isinstance(value, dict):
            value = _said_item(value, depth)
            if value is None:
                return None  # a quoted message that can be said neither again nor as it was
        elif not (value is None or isinstance(value, str | bool | int | float)):
            return None
        values[str(name)] = value
    if not values and fields(msgid):
        # Said as written, never formatted (a format keeps the values of the fields its msgid
        # shows): its braces are the text's own ('send {"cell": "B7"}').
        return _translations().gettext(msgid)
    for template in (_translations().gettext(msgid), msgid):
        try:
            return str.format(template, **values)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError):
            continue
    return None


def said_in(language: str, message: object) -> str:
    """`message` in `language`: a message made while `recording` said again there (its msgid
    and values: the names in it as they were written), anything else as it is (a text not of
    ours: a name, the system's words). A phone's answer in the phone's language, whatever the
    kiosk spoke when it made it."""
    with speaking(language):
        return said_again(said_json(message)) or str(message)


def _said_item(value: object, depth: int) -> object:
    """A value quoted into a said message: a said message again (else as it was said), a text."""
    if isinstance(value, dict):
        text = value.get("text")
        return said_again(value, depth + 1) or (text if isinstance(text, str) else None)
    return value
