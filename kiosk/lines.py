"""What the three line protocols share (PROTOCOLS.md §3-5: `dartship referee`, `classic`,
`express`): one JSON object a line in, one JSON object a line out.

Each game's referee (`kiosk/<game>/referee.py`) and wire format (`kiosk/<game>/wire.py`) know
their own commands; this module reads a line into a command object, checks its fields, words the
answers every protocol gives to what it cannot understand, and runs the loop from standard input
to standard output.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

from kiosk.errors import RuleError
from kiosk.i18n import _

Answer = dict[str, Any]


class WireError(RuleError):
    """A line or a JSON command that cannot be understood; the message says what is wrong."""


def error(message: str) -> Answer:
    """The protocols' answer to anything refused."""
    return {"event": "error", "message": message}


def command_of(line: str) -> dict[str, Any]:
    """The command object on one line, or WireError (bad JSON, too deeply nested, not an object)."""
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as err:
        raise WireError(_("bad JSON: {error}").format(error=err)) from None
    if not isinstance(obj, dict):
        raise WireError(_("a command must be a JSON object like {\"cmd\": \"state\"}"))
    return obj


def command_name(obj: Mapping[str, Any]) -> str:
    """The command's "cmd", which every command must have."""
    name = obj.get("cmd")
    if not isinstance(name, str):
        raise WireError(_("every command needs \"cmd\", e.g. {\"cmd\": \"state\"}"))
    return name


def require(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """`obj[key]`, which must be there and of this type (a bool is no int)."""
    if key not in obj:
        raise WireError(_("{key!r} is missing").format(key=key))
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise WireError(_("{key!r} has the wrong type").format(key=key))
    return value


def serve(stdin: Iterable[str], stdout: TextIO, handle_line: Callable[[str], list[Answer]]) -> int:
    """Answer every non-blank line until the end of input (status 0), flushing after each."""
    for line in stdin:
        if not line.strip():
            continue
        for answer in handle_line(line):
            stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
