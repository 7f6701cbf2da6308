"""Logging for the journal: one line per message on stdout, its level as a `<N>` prefix.

Under systemd (`JOURNAL_STREAM` names our stdout) each line starts with the syslog priority in
angle brackets, which journald turns into the entry's level (`SyslogLevelPrefix=`, on by
default), so `journalctl -u dartship -p warning` works; the journal adds time and unit itself.
At a terminal the lines carry a time and the level name instead.

A placement is secret until its ship is sunk, and a log is read by whoever has the Pi: the
`PlacementFilter` on the handler rewrites every ship (`D20-D1-D18`), fleet or run of cells in a
record before any formatter sees it, whatever logger it came from. The `PrintableFilter` escapes
every control character a board or a phone managed to get into a record.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Mapping
from typing import TextIO

from kiosk.printable import printable

# syslog(3) priorities, as sd-daemon(3)'s SD_ERR... prefixes.
PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}
# Kept in English on purpose: log lines are grepped and pasted into bug reports.
HIDDEN = "[placement hidden]"

_CELL = r"(?:[DLOTSI](?:20|1[0-9]|[1-9])|BULL(?:SEYE)?|[DSOI]B)"
# A ship is two or more cells joined by hyphens; single cells (a thrown dart) stay readable.
_SHIP = re.compile(rf"(?<![\w-]){_CELL}(?:\s*-\s*{_CELL})+(?![\w-])", re.IGNORECASE)
_CELL_REPRS = re.compile(r"Cell\([^()]*\)(?:\s*,\s*Cell\([^()]*\))+")
_SECRET_REPRS = ("Fleet(", "Ship(")


def _hide_reprs(text: str) -> str:
    """Replace `Fleet(...)` and `Ship(...)` (balanced parentheses) by the marker."""
    for head in _SECRET_REPRS:
        start = text.find(head)
        while start != -1:
            depth, end = 0, len(text)
            for i in range(start + len(head) - 1, len(text)):
                if text[i] == "(":
                    depth += 1
                elif text[i] == ")":
                    depth -= 1
                    if depth == 0:
                        end = i + 1
                        break
            text = text[:start] + HIDDEN + text[end:]
            start = text.find(head, start + len(HIDDEN))
    return text


def redact(text: str) -> str:
    """The text with every ship, fleet and run of cells replaced by a marker."""
    text = _hide_reprs(text)
    text = _CELL_REPRS.sub(HIDDEN, text)
    return _SHIP.sub(HIDDEN, text)


class PlacementFilter(logging.Filter):
    """Never lets a placement reach a log: rewrites the message (and a traceback's text)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string must not lose the record
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


class PrintableFilter(logging.Filter):
    """Control characters from outside (a board's line, a phone's path) never reach the journal
    or a terminal raw: each is written as an escape. A newline inside a message is escaped too,
    so no message can start a forged line (with its own `<N>` level); a traceback keeps its
    lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = printable(record.getMessage(), keep="\t"), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = printable(record.exc_text, keep="\n\t")
        return True


class JournalFormatter(logging.Formatter):
    """`<6>dartship.service: message`, the prefix repeated on every line of a traceback
    (journald reads each line of a stream as its own entry)."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


def priority(levelno: int) -> int:
    for level in sorted(PRIORITY, reverse=True):
        if levelno >= level:
            return PRIORITY[level]
    return PRIORITY[logging.DEBUG]


def under_journal(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """True when `stream` is the journal stream systemd gave us (systemd.exec(5), JOURNAL_STREAM)."""
    environ = os.environ if environ is None else environ
    value = environ.get("JOURNAL_STREAM", "")
    device, _sep, inode = value.partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return (st.st_dev, st.st_ino) == (int(device), int(inode))


class _DartshipHandler(logging.StreamHandler):
    """Marks the handler `setup` installed, so a second `setup` replaces it instead of doubling."""


def setup(
    level: str | int | None = None,
    stream: TextIO | None = None,
    journal: bool | None = None,
    environ: Mapping[str, str] | None = None,
) -> logging.Handler:
    """Send every log record to stdout, journal-style under systemd; return the handler.

    `level` defaults to `$DARTSHIP_LOG_LEVEL` or INFO (`systemctl edit dartship` can set it).
    """
    environ = os.environ if environ is None else environ
    stream = sys.stdout if stream is None else stream
    if level is None:
        level = environ.get("DARTSHIP_LOG_LEVEL", "INFO")
    if isinstance(level, str):
        level = logging.getLevelName(level.upper())
        if not isinstance(level, int):
            level = logging.INFO
    if journal is None:
        journal = under_journal(stream, environ)
    handler = _DartshipHandler(stream)
    handler.addFilter(PlacementFilter())
    handler.addFilter(PrintableFilter())
    handler.setFormatter(
        JournalFormatter()
        if journal
        else logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")
    )
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _DartshipHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
