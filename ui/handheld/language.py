"""Every text the phones' server sends a phone is in that phone's language.

A phone's language is its request's Accept-Language, the first of its languages by q-value that
is ours (`kiosk.i18n.accepted_language`, the parser the hub's pages use too), else the kiosk's
language of the moment (as the names of players who gave none: docs/decisions.md). A socket
speaks the language of the request that opened it.

The answer alone speaks it. Each request is handled `recording` (`in_phone_language`): every
message made on its way, the rules' refusals deep in the game included, remembers its msgid and
values (`kiosk.i18n.Said`), in the kiosk's language as before, so the journal, the caller, the
kiosk's screen and whatever listens to the service hear what they always heard. Only what goes
back to the phone is said again in the phone's language (`told`: the JSON errors, the host's
desk, the views' one text), or made in it where nothing but the answer is made (`speaking_answer`:
the desk's page). A service's listener never runs in a phone's language: a shot from a German
phone tells the other phones and the kiosk in theirs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Any

from aiohttp import web

from kiosk.i18n import accepted_language, language, recording, said_in, speaking

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# The language of the request being answered (None: no request, the kiosk's own).
_answering: ContextVar[str | None] = ContextVar("dartship_phone_answer", default=None)


def phone_language(request: web.Request) -> str:
    """The language of the phone that asks: its Accept-Language's first of ours, else the
    kiosk's (a browser lists there the languages its page picks its own from, static/i18n.js)."""
    return accepted_language(request.headers.get("Accept-Language")) or language()


def answer_language() -> str:
    """The language of the answer being made: the phone's (`in_phone_language`), else the
    kiosk's."""
    return _answering.get() or language()


@web.middleware
async def in_phone_language(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every request handled `recording`, its answer's language known (`told`)."""
    token = _answering.set(phone_language(request))
    try:
        with recording():
            return await handler(request)
    finally:
        _answering.reset(token)


def told(message: str, to: str | None = None) -> str:
    """`message` in the language of the phone answered (`to`: a socket's own), said again from
    how it was made; a text not of ours (a name, aiohttp's reason) as it is."""
    return said_in(to or answer_language(), message)


@contextlib.contextmanager
def speaking_answer() -> Iterator[None]:
    """Every `_` here in the answer's language: for what makes nothing but the answer (a page
    rendered from the game's state), never around a command or a service's call."""
    with speaking(answer_language()):
        yield


def spoken_view(view: dict[str, Any] | None, to: str) -> dict[str, Any] | None:
    """A view with its one text, why the kiosk cannot save (`paused`), in language `to`."""
    if view is None or not view.get("paused"):
        return view
    return {**view, "paused": said_in(to, view["paused"])}
