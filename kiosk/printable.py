"""Text from outside (a board's line, a phone's path) made safe to print: every control
character written as an escape (`\\x1b`), so nothing a board or a phone sends can move a
terminal's cursor, clear the journal's screen, ring its bell or start a forged log line."""

from __future__ import annotations

import re

_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str, keep: str = "") -> str:
    """`text` with its control characters (C0, DEL, C1) escaped, except those in `keep`."""
    return _CONTROLS.sub(lambda m: m[0] if m[0] in keep else f"\\x{ord(m[0]):02x}", text)
