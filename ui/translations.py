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

from kiosk.i18n import LANGUAGES, catalog

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (ROOT / "kiosk", ROOT / "hardware", ROOT / "ui" / "touch", ROOT / "ui" / "handheld")


def msgids_in(path: Path) -> set[str]:
    """Literal first arguments of `_()` calls in one Python file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
                and node.args and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            found.add(node.args[0].value)
    return found


def msgids(folders: Iterable[Path] = SOURCES) -> set[str]:
    found: set[str] = set()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            found |= msgids_in(path)
    return found


def missing(language: str, folders: Iterable[Path] = SOURCES) -> list[str]:
    known = catalog(language)
    return sorted(m for m in msgids(folders) if not known.get(m))


def po_entry(msgid: str, msgstr: str = "") -> str:
    def quote(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return f"msgid {quote(msgid)}\nmsgstr {quote(msgstr)}\n"


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
            print(po_entry(msgid) if args.template else f"{language}: {msgid!r}")
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
