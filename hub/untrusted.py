"""What a request brings the hub, read as the kiosk's line protocols read a line.

A body is JSON as `kiosk.lines.untrusted_json` takes it (UTF-8, no lone surrogate, no number of
more than 30 digits, no NaN, nested at most 16 deep: a parser that follows deeper nesting runs
out of stack), and no text of it holds NUL, which PostgreSQL cannot keep in a text or a JSON
value; the same for what an address names (a path's part, a query's value). Each is refused
with its reason (400 `not_json` or `bad_text`, 404 for an address), never passed to the database
to fail there as a 500.
"""

from __future__ import annotations

from typing import Any

from hub.kiosks import Refused
from hub.standings import NotFound
from kiosk.i18n import _
from kiosk.lines import WireError, untrusted_json

NUL = "\x00"


def holds_nul(value: object) -> bool:
    """Whether any text in `value` (its keys too) holds NUL."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if NUL in item:
                return True
        elif isinstance(item, dict):
            todo.extend(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False


def json_of(body: bytes) -> Any:
    """The body's JSON value (an empty body is `{}`), or Refused(400)."""
    try:
        value = untrusted_json(body or b"{}")
    except WireError:
        raise Refused(400, "not_json", _("the body is not JSON")) from None
    if holds_nul(value):
        raise Refused(400, "bad_text", _("the body holds a NUL character, which the league cannot keep"))
    return value


def json_object(body: bytes) -> dict[str, Any]:
    data = json_of(body)
    if not isinstance(data, dict):
        raise Refused(400, "not_object", _("the body must be a JSON object"))
    return data


def address_text(value: str) -> str:
    """A text from the request's address (a path's part, a query's value), or NotFound: an
    address with NUL in it names nothing."""
    if NUL in value:
        raise NotFound(_("nothing is at an address holding a NUL character"))
    return value
