"""The Settings PIN's guard: wrong PINs are slowed down, and a restart does not reset the count.

After `TRIES` wrong PINs in a row the keypad locks; then one more try is allowed every
`SECONDS_PER_TRY` seconds (a leaky bucket, so a patient owner who mistypes now and then is never
locked out), until a right PIN resets it. The bucket is kept in the database: pulling the plug
would otherwise buy five new guesses each time. It is kept against the wall clock (a monotonic
clock starts again with the process), and a clock that goes back never shortens a lock.
"""

from __future__ import annotations

import hmac
import json
import logging
import sqlite3
import time
from collections.abc import Callable

from kiosk.bucket import Bucket
from kiosk.i18n import _
from kiosk.store import Store, StoreError

log = logging.getLogger("dartship.pin")

TRIES = 5
SECONDS_PER_TRY = 60.0
_KEY = "pin_lock"


class PinGuard:
    def __init__(self, store: Store | None, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.tries = self._load()

    def _now(self) -> float:
        # Never before the last stamp: a clock set back must not refill the bucket backwards.
        return max(self.clock(), self.tries.stamp)

    def _fresh(self) -> Bucket:
        return Bucket.full(TRIES, 1 / SECONDS_PER_TRY, self.clock())

    def _load(self) -> Bucket:
        if self.store is None:
            return self._fresh()
        try:
            kept = self.store.meta.recall(_KEY)
            if kept is None:
                return self._fresh()
            data = json.loads(kept)
            level, stamp = float(data["level"]), float(data["at"])
        except (sqlite3.Error, StoreError, ValueError, KeyError, TypeError) as err:
            log.warning(
                _("the Settings PIN's count of wrong tries cannot be read (%s): it starts afresh"), err
            )
            return self._fresh()
        return Bucket(TRIES, 1 / SECONDS_PER_TRY, min(max(level, 0.0), TRIES), min(stamp, self.clock()))

    def _save(self) -> None:
        if self.store is None:
            return
        try:
            self.store.meta.remember(_KEY, json.dumps({"level": self.tries.level, "at": self.tries.stamp}))
        except (sqlite3.Error, StoreError) as err:
            log.warning(_("the Settings PIN's count of wrong tries cannot be kept (%s)"), err)

    def locked_for(self) -> float:
        """Seconds until the keypad takes a PIN again (0: it does now)."""
        now = self._now()
        return self.tries.wait(now) if self.tries.empty(now) else 0.0

    def check(self, entered: str, pin: str) -> bool:
        """Whether `entered` is the PIN; a wrong one costs a try. Callers ask `locked_for` first:
        a locked keypad takes no PIN at all."""
        if hmac.compare_digest(entered.encode(), pin.encode()):
            if self.tries.level < TRIES:
                self.tries = self._fresh()
                self._save()
            return True
        self.tries.take(self._now())
        self._save()
        if self.locked_for() > 0:
            log.warning(_("Settings PIN: %d wrong tries, keypad locked"), TRIES)
        return False
