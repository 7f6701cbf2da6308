"""Which strings need translating, and which catalogs lack them.

`python -m ui.translations` lists the msgids of kiosk/, hardware/ (the learn wizard's prompts on
the Learn screen, the board's notices, the board commands' help), ui/touch/ and ui/handheld/ (the
server's answers and the host's desk; the phone page itself has its own JSON catalogs) that a catalog
(the .po files of kiosk/locale/<lang>/) lacks, or with `--template` prints them as .po entries to
paste and translate. Strings are found by reading the source (every `_("...")` call with a
literal), so no build step or gettext tools are needed.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from kiosk.i18n import LANGUAGES, language_catalog, plural_rule

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (ROOT / "kiosk", ROOT / "hardware", ROOT / "ui" / "touch", ROOT / "ui" / "handheld", ROOT / "hub")


def _literals(node: ast.Call, count: int) -> tuple[str, ...] | None:
    args = node.args[:count]
    if len(args) == count and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
        return tuple(str(a.value) for a in args if isinstance(a, ast.Constant))
    return None


def _calls(path: Path, name: str, count: int) -> set[tuple[str, ...]]:
    """The literal first `count` arguments of every call of `name` in one Python file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[tuple[str, ...]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
            literals = _literals(node, count)
            if literals is not None:
                found.add(literals)
    return found


def msgids_in(path: Path) -> set[str]:
    """Literal first arguments of `_()` calls in one Python file."""
    return {found[0] for found in _calls(path, "_", 1)}


def plural_msgids_in(path: Path) -> set[tuple[str, str]]:
    """(singular, plural) of the `ngettext("...", "...", n)` calls in one Python file."""
    return {(one, other) for one, other in _calls(path, "ngettext", 2)}


def _sources(folders: Iterable[Path]) -> list[Path]:
    return [path for folder in folders for path in sorted(folder.rglob("*.py"))]


def msgids(folders: Iterable[Path] = SOURCES) -> set[str]:
    return {m for path in _sources(folders) for m in msgids_in(path)}


def plural_msgids(folders: Iterable[Path] = SOURCES) -> set[tuple[str, str]]:
    return {m for path in _sources(folders) for m in plural_msgids_in(path)}


def missing(language: str, folders: Iterable[Path] = SOURCES) -> list[str]:
    """The msgids a language lacks; a plural one lacks a form, or has more or fewer forms than
    its Plural-Forms say (then its singular msgid is listed)."""
    known = language_catalog(language)
    forms, _rule = plural_rule(known.plural_forms)
    gaps = {m for m in msgids(folders) if not known.messages.get(m)}
    for one, _other in plural_msgids(folders):
        entry = known.plurals.get(one, ())
        if len(entry) != forms or not all(entry):
            gaps.add(one)
    return sorted(gaps)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def po_entry(msgid: str, msgstr: str = "") -> str:
    return f"msgid {_quote(msgid)}\nmsgstr {_quote(msgstr)}\n"


def plural_po_entry(singular: str, plural: str, forms: Sequence[str]) -> str:
    lines = [f"msgid {_quote(singular)}", f"msgid_plural {_quote(plural)}"]
    lines += [f"msgstr[{i}] {_quote(form)}" for i, form in enumerate(forms)]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.translations")
    parser.add_argument("--template", action="store_true", help="print missing entries as .po")
    args = parser.parse_args(argv)
    gaps = 0
    for language in LANGUAGES:
        if language == "en":
            continue
        for msgid in missing(language):
            gaps += 1
            plural = dict(plural_msgids()).get(msgid)
            entry = plural_po_entry(msgid, plural, ("", "")) if plural is not None else po_entry(msgid)
            print(entry if args.template else f"{language}: {msgid!r}")
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
