"""The kiosk's own secret: 256 random bits made on first use and kept in its database.

What the players must not be able to work out from the published code is derived from it, each
use under a name of its own (`derive`): the daily challenge's fleet of each date, the signature
of the device keys handed to phones. It lives in the store's `meta` table, so `dartship backup`
keeps it with the games (a restored kiosk hides the same daily fleets and knows its phones), and
nothing serves, prints or logs it. Without a database (a line protocol run in memory) the secret
lives as long as the process.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from kiosk.store import Store

KEY = "secret"
_process_secret = secrets.token_bytes(32)


def kiosk_secret(store: Store | None) -> bytes:
    """This kiosk's secret (made and stored on first use)."""
    if store is None:
        return _process_secret
    kept = store.meta.recall(KEY)
    if kept is None:
        store.meta.remember(KEY, secrets.token_hex(32))
        kept = store.meta.recall(KEY)
    assert kept is not None
    return bytes.fromhex(kept)


def derive(secret: bytes, purpose: str) -> bytes:
    """A key for one purpose ("daily:2026-11-30", "device-keys"): HMAC-SHA256 of the secret."""
    return hmac.new(secret, purpose.encode(), hashlib.sha256).digest()
