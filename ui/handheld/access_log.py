"""Access log lines without secrets: a team or room token or the host's secret in a path is `***`.

Request bodies (a fleet) and query strings are never logged.
"""

from __future__ import annotations

import re

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

# Team links, the host's desk, and the classic page's room and team links.
_SECRET_SEGMENT = re.compile(r"^/(team|api/team|host|classic/r|api/classic/r|api/classic/team)/([^/]+)")


def redact(path: str) -> str:
    return _SECRET_SEGMENT.sub(lambda m: f"/{m.group(1)}/***", path)


def secret_in(path: str) -> str | None:
    """The token (or the host's secret) a path carries, if it carries one."""
    found = _SECRET_SEGMENT.match(path)
    return found.group(2) if found else None


class RedactingAccessLogger(AbstractAccessLogger):
    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info(
            "%s %s %s %s %.1fms",
            request.remote,
            request.method,
            redact(request.rel_url.path),
            response.status,
            time * 1000,
        )
