"""What the three line protocols share (PROTOCOLS.md §3-5: `dartship referee`, `classic`,
`express`): one JSON object a line in, one JSON object a line out.

Each game's referee (`kiosk/<game>/referee.py`) knows its own commands; this module reads a line
into a command object, words the answers every protocol gives to a line that is not one, and
runs the loop from standard input to standard output.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from kiosk.i18n import _

Answer = dict[str, Any]


class LineError(ValueError):
    """A line that is not a command object; its text is the answer's message."""


def error(message: str) -> Answer:
    """The protocols' answer to anything refused."""
    return {"event": "error", "message": message}


def command_of(line: str) -> dict[str, Any]:
    """The command object on one line, or LineError (bad JSON, too deeply nested, not an object)."""
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as err:
        raise LineError(_("bad JSON: {error}").format(error=err)) from None
    if not isinstance(obj, dict):
        raise LineError(_("a command must be a JSON object like {\"cmd\": \"state\"}"))
    return obj


def serve(stdin: Iterable[str], stdout: TextIO, handle_line: Callable[[str], list[Answer]]) -> int:
    """Answer every non-blank line until the end of input (status 0), flushing after each."""
    for line in stdin:
        if not line.strip():
            continue
        for answer in handle_line(line):
            stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
