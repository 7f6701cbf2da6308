"""Why a game did not get through to the hub, as the kiosk keeps it (the outbox's entry, the
sync's last error): told in the language the kiosk speaks when it shows it, not the one it spoke
when the hub answered.

The hub says why it refused in the kiosk's language and says along how to say it again (its
answer's `said`: the message's msgid and the values of its fields, `kiosk.i18n.said_json`); the
kiosk's own reasons (the hub cannot be reached, the kiosk left the league) are made the same way
(`kiosk.i18n.recording`). A kept reason is JSON: its text as first said, its HTTP status, and
`said`. `told` says it again from the kiosk's own catalogs, or gives the text as first said
where it cannot (a newer hub's message, a reason kept before reasons were kept so).
"""

from __future__ import annotations

import json

from kiosk.i18n import MOST_SAID, said_again, said_json
from kiosk.lines import untrusted_json

MOST_TEXT = 300  # characters of a reason's text that are kept


def keep(message: str, status: int | None = None) -> str:
    """A reason to keep: `message` (a `Said` if made while recording) and the HTTP status."""
    return _kept(str(message), status, said_json(message), None)


def of_hub(status: int, body: str) -> str:
    """The hub's answer that refused a request (JSON: `error`, `code`, `said`; or whatever text
    a proxy in the way answered), as a reason to keep."""
    try:
        data = untrusted_json(body)  # a hub's or a proxy's answer: 100 000 brackets are no reason
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return _kept(body, status, None, None)
    said, code = data.get("said"), data.get("code")
    return _kept(
        str(data.get("error", body)),
        status,
        said if isinstance(said, dict) else None,
        code if isinstance(code, str) else None,
    )


def _kept(text: str, status: int | None, said: dict[str, object] | None, code: str | None) -> str:
    found: dict[str, object] = {"reason": 1, "text": text[:MOST_TEXT]}
    if status is not None:
        found["status"] = status
    if code is not None:
        found["code"] = code[:40]
    if said is not None and len(json.dumps(said)) <= MOST_SAID:
        found["said"] = said
    return json.dumps(found, ensure_ascii=False)


def told(kept: str | None) -> str | None:
    """A kept reason in the language `_` speaks now ("HTTP 422: ..." for the hub's refusals);
    one kept as plain text (before reasons were kept so) as it was written."""
    if kept is None:
        return None
    try:
        found = json.loads(kept)
    except ValueError:
        return kept
    if not isinstance(found, dict) or found.get("reason") != 1:
        return kept
    text = said_again(found.get("said"))
    if text is None:
        text = str(found.get("text", ""))
    status = found.get("status")
    return f"HTTP {status}: {text[:MOST_TEXT]}" if isinstance(status, int) else text[:MOST_TEXT]
