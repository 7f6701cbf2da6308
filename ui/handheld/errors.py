"""Error answers of the API: a stable code for the page to translate and a readable message."""

from __future__ import annotations

import json

from aiohttp import web

from ui.handheld.language import told

_SIMPLE: dict[int, type[web.HTTPException]] = {
    400: web.HTTPBadRequest,
    403: web.HTTPForbidden,
    404: web.HTTPNotFound,
    408: web.HTTPRequestTimeout,
    409: web.HTTPConflict,
    415: web.HTTPUnsupportedMediaType,
    422: web.HTTPUnprocessableEntity,
    429: web.HTTPTooManyRequests,
    500: web.HTTPInternalServerError,
    503: web.HTTPServiceUnavailable,
}


def json_error(status: int, code: str, message: str, **headers: str) -> web.HTTPException:
    """An HTTP exception whose body is {"error": code, "message": message}: the message in the
    language of the phone answered (`ui.handheld.language.told`)."""
    body = json.dumps({"error": code, "message": told(message)})
    if status == 413:
        return web.HTTPRequestEntityTooLarge(
            max_size=0, actual_size=0, text=body, content_type="application/json", headers=headers
        )
    if status == 405:
        return web.HTTPMethodNotAllowed("", [], text=body, content_type="application/json", headers=headers)
    return _SIMPLE[status](text=body, content_type="application/json", headers=headers)
