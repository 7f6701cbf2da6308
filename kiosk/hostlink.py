"""The host page's secret, kept in the database until the owner renews it.

A phones-only bar opens the host page (`/host/<secret>`) on the owner's own phone. The secret
used to be new at every start, so a power cut or a watchdog restart left the owner with a dead
link (a bare 404) and the new one only in the journal. Now it is made once, kept in the store's
`meta` table, and the same link works after any restart until the owner renews it
(`dartship host-link --renew`, or Renew host link in Settings): then the old link is dead at
once. SECRET: nothing public shows it (the terminal, the journal, Settings and the command
`dartship host-link` are the owner's).
"""

from __future__ import annotations

import secrets
from typing import Protocol

# As the team links (ui/handheld/tokens.py): 128 random bits.
SECRET_BYTES = 16
KEY = "host_secret"


class Memory(Protocol):
    """Where the secret is kept: the store's small key-value memory."""

    def remember(self, key: str, value: str) -> None: ...

    def recall(self, key: str) -> str | None: ...


def host_secret(memory: Memory | None) -> str:
    """The kept secret, or a new one, kept (None: no store, a new one each time)."""
    kept = memory.recall(KEY) if memory is not None else None
    if kept:
        return kept
    return renew(memory)


def renew(memory: Memory | None) -> str:
    """A new secret, kept: the old host link stops working."""
    fresh = secrets.token_urlsafe(SECRET_BYTES)
    if memory is not None:
        memory.remember(KEY, fresh)
    return fresh
