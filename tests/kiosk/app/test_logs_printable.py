"""No control character from outside reaches the journal raw (issue 13, item 7): terminal
escapes, bells, carriage returns and newlines in a message are written as escapes, so a board
or a phone can neither repaint the owner's terminal nor forge a log line."""

from __future__ import annotations

import io
import logging

from kiosk.app import logs


def test_control_characters_are_escaped_in_every_log_line():
    out = io.StringIO()
    handler = logs.setup(level="INFO", stream=out, journal=True, environ={})
    try:
        logging.getLogger("dartship.serial").warning(
            "bad line %s", "\x1b[2J\x1b[31mPWNED\x07\rover\n<3>dartship: forged\x9b1m"
        )
        try:
            raise ValueError("\x1b]0;title\x07")
        except ValueError:
            logging.getLogger("dartship").exception("with a traceback \x1b[5m")
    finally:
        logging.getLogger().removeHandler(handler)
    text = out.getvalue()
    assert not {ch for ch in text if (ord(ch) < 32 and ch != "\n") or 127 <= ord(ch) < 160}
    first = text.splitlines()[0]
    assert first == (
        "<4>dartship.serial: bad line \\x1b[2J\\x1b[31mPWNED\\x07\\x0dover\\x0a<3>dartship: forged\\x9b1m"
    )
    assert not any(line.startswith("<3>dartship: forged") for line in text.splitlines())
    assert "<3>ValueError: \\x1b]0;title\\x07" in text  # the traceback keeps its lines
