"""Signed requests from a kiosk to the hub: HMAC-SHA256 over what the request is.

The signature covers the method, the path (with its query), the time, a nonce and the body's
digest, under the kiosk's own key (given once, at pairing). The hub refuses a request whose time
is off by more than `WINDOW_SECONDS` and a nonce it has seen from that kiosk within the window:
a request caught on the wire cannot be sent again, nor changed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass

from kiosk.errors import DartshipError
from kiosk.i18n import _

WINDOW_SECONDS = 300
KIOSK = "X-Dartship-Kiosk"
TIME = "X-Dartship-Time"
NONCE = "X-Dartship-Nonce"
SIGNATURE = "X-Dartship-Signature"


def new_key() -> str:
    """A kiosk's key: 32 random bytes as hex."""
    return secrets.token_hex(32)


def signature(key: str, method: str, path: str, at: int, nonce: str, body: bytes) -> str:
    text = "\n".join((method.upper(), path, str(at), nonce, hashlib.sha256(body).hexdigest()))
    return hmac.new(bytes.fromhex(key), text.encode(), hashlib.sha256).hexdigest()


def signed_headers(
    kiosk: int, key: str, method: str, path: str, body: bytes, at: int | None = None, nonce: str | None = None
) -> dict[str, str]:
    """The headers that sign one request (a fresh nonce and the time now unless given)."""
    at = int(time.time()) if at is None else at
    nonce = nonce or secrets.token_hex(16)
    return {
        KIOSK: str(kiosk),
        TIME: str(at),
        NONCE: nonce,
        SIGNATURE: signature(key, method, path, at, nonce, body),
    }


@dataclass(frozen=True)
class Claim:
    """What a request says about itself, before its signature is checked."""

    kiosk: int
    at: int
    nonce: str
    signature: str


class SignatureError(DartshipError, ValueError):
    """A request that is not signed as it must be; the message says what is wrong."""


def claim_of(headers: Mapping[str, str]) -> Claim:
    try:
        kiosk, at = int(headers[KIOSK]), int(headers[TIME])
        nonce, sig = headers[NONCE], headers[SIGNATURE]
    except (KeyError, ValueError):
        raise SignatureError(
            _("the request is not signed (X-Dartship-Kiosk, -Time, -Nonce, -Signature)")
        ) from None
    if not 16 <= len(nonce) <= 64 or not nonce.isalnum() or len(sig) != 64:
        raise SignatureError(_("the request's nonce or signature is malformed"))
    return Claim(kiosk, at, nonce, sig)


def check(claim: Claim, key: str, method: str, path: str, body: bytes, now: float) -> None:
    """SignatureError unless the claim is signed by `key` and its time is within the window
    (the nonce's freshness is the hub's to check: it has to remember them)."""
    if abs(now - claim.at) > WINDOW_SECONDS:
        raise SignatureError(
            _(
                "the request's time is {off} s off the hub's clock (at most {most} s: set the kiosk's clock)"
            ).format(off=int(now - claim.at), most=WINDOW_SECONDS)
        )
    expected = signature(key, method, path, claim.at, claim.nonce, body)
    if not hmac.compare_digest(expected, claim.signature):
        raise SignatureError(
            _("the request's signature is wrong (forged, changed on the way, or signed with another key)")
        )
