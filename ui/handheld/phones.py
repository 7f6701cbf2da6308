"""One phone per team link: the first device that uses a team's link holds it.

A link (`/team/<token>`) is a secret, but a QR code can be photographed and a link passed on. So
each link is also bound to the first device that uses it: that device gets an unguessable device
key in a cookie (`dartship_phone`, 128 random bits, HttpOnly, SameSite=Strict, kept a year), and
the kiosk keeps a digest of the key for the team (in the database, so a restart changes nothing:
the team's phone still gets in, no other does). Any other device that opens the link is told
"this team is playing on another phone" and gets nothing of the fleet; a device that holds one
team's link cannot take the other team's too.

Only a use of the API claims a link, never the page itself: a link previewer or a QR scanner's
prefetch (no script) cannot take a team's seat. A team whose phone is lost or flat is moved to
another phone from the touchscreen or the host page (`Seats.move`): its link is replaced and
the seat is free again, so the old phone is cut off at once.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import logging
import re
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie

from aiohttp import web

from kiosk.secret import derive, kiosk_secret
from kiosk.store import Store, StoreError

log = logging.getLogger("dartship.handheld")

COOKIE = "dartship_phone"
KEY_BYTES = 16
COOKIE_MAX_AGE = 365 * 24 * 3600
_KEY_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,64}\.[A-Za-z0-9_-]{22}$")


class DeviceKeys:
    """The device keys this kiosk hands out: 128 random bits and the kiosk's signature of them
    (HMAC-SHA256 under a key derived from the kiosk's secret, `kiosk.secret`, cut to 128 bits).
    A key the kiosk did not make is no key: a made-up cookie, however well shaped, counts as a
    phone without one (it is given a real key, and is a new phone to every limit). The secret
    is kept in the database, so keys stay valid across restarts and a restored backup."""

    def __init__(self, secret: bytes) -> None:
        self._key = derive(secret, "device-keys")

    def _sign(self, body: str) -> str:
        mac = hmac.new(self._key, body.encode(), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def issue(self) -> str:
        body = secrets.token_urlsafe(KEY_BYTES)
        return f"{body}.{self._sign(body)}"

    def valid(self, key: str | None) -> str | None:
        """The cookie's key if this kiosk made it, else None."""
        if key is None or not _KEY_SHAPE.match(key):
            return None
        body, _dot, signature = key.partition(".")
        return key if hmac.compare_digest(signature, self._sign(body)) else None

    @classmethod
    def of_store(cls, store: Store | None) -> DeviceKeys:
        try:
            return cls(kiosk_secret(store))
        except (sqlite3.Error, StoreError) as err:
            log.warning(
                "the kiosk's secret cannot be read or kept (%s): phones get keys that "
                "hold until the kiosk stops",
                err,
            )
            return cls(kiosk_secret(None))


DEVICE_KEYS = web.AppKey("dartship_device_keys", DeviceKeys)
_UNSIGNED_APP = DeviceKeys(secrets.token_bytes(32))  # an app built without the kiosk's keys


def keys_of(request: web.Request) -> DeviceKeys:
    return request.app.get(DEVICE_KEYS) or _UNSIGNED_APP


class Claim(enum.Enum):
    """What a device gets when it uses a team's link."""

    HELD = "held"  # it holds the link (from before, or from now on)
    OTHER_PHONE = "other_phone"  # another device holds it
    OTHER_TEAM = "other_team"  # this device holds the other team's link
    NO_KEY = "no_key"  # the link is free but the device brought no key and none can be given


@dataclass(frozen=True)
class Admission:
    seat: Claim
    new_key: str | None = None  # a device key to hand over in a cookie (the device had none)


NEW_KEY = web.RequestKey("dartship_new_phone_key", str)


def give_key(request: web.Request, key: str) -> None:
    """This request's answer, whatever it is (an error too), hands the phone its new key."""
    request[NEW_KEY] = key


async def hand_over_key(request: web.Request, response: web.StreamResponse) -> None:
    """`on_response_prepare`: set the cookie of a key given to this request. A phone that took
    a link must learn its key even when the request that took it failed (a bad fleet, say),
    or the link would be held by a key nobody has."""
    key = request.get(NEW_KEY)
    if key is not None:
        # As a header: aiohttp turns `set_cookie` into headers before this signal is sent.
        cookie = SimpleCookie()
        cookie[COOKIE] = key
        morsel = cookie[COOKIE]
        morsel["max-age"] = str(COOKIE_MAX_AGE)
        morsel["path"] = "/"
        morsel["httponly"] = True
        morsel["samesite"] = "Strict"
        response.headers.add("Set-Cookie", morsel.OutputString())


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def device_of(request: web.Request, *, issue: bool) -> str | None:
    """The device a request comes from: the digest of its phone's device key. A phone with no
    key gets one when `issue` (its answer sets the cookie; a WebSocket cannot), else None."""
    keys = keys_of(request)
    key = keys.valid(request.cookies.get(COOKIE))
    if key is None:
        if not issue:
            return None
        key = keys.issue()
        give_key(request, key)
    return _digest(key)


class PhoneSeats:
    """Which device holds each team's link of the game in play."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self.keys = DeviceKeys.of_store(store)
        self._game: int | None = None
        self._holders: dict[int, str] = {}  # team -> key digest
        self.on_change: list[Callable[[], None]] = []

    def _load(self, game: int) -> None:
        if game == self._game:
            return
        self._game, self._holders = game, {}
        if self.store is None:
            return
        try:
            self._holders = self.store.phones.devices(game)
        except (sqlite3.Error, StoreError) as err:
            log.warning(
                "game %s: the phones holding the links cannot be read (%s): the first "
                "phone to open each link holds it",
                game,
                err,
            )

    def _keep(self, game: int, team: int) -> None:
        if self.store is None:
            return
        try:
            self.store.phones.keep_phone(game, team, self._holders.get(team))
        except (sqlite3.Error, StoreError) as err:
            log.warning(
                "game %s: which phone holds a link cannot be saved (%s); it holds until the kiosk stops",
                game,
                err,
            )

    def held(self, game: int, team: int) -> bool:
        self._load(game)
        return team in self._holders

    def admit(self, game: int, team: int, key: str | None, *, may_issue: bool = True) -> Admission:
        """Let the device with `key` (its cookie, None: none) use `team`'s link, claiming it if
        it is free. `may_issue=False` (a WebSocket: no cookie can be set there) never hands out
        a new key."""
        self._load(game)
        key = self.keys.valid(key)
        digest = _digest(key) if key is not None else None
        holder = self._holders.get(team)
        if holder is not None:
            if digest is not None and hmac.compare_digest(holder, digest):
                return Admission(Claim.HELD)
            return Admission(Claim.OTHER_PHONE)
        other = self._holders.get(1 - team)
        if digest is not None and other is not None and hmac.compare_digest(other, digest):
            return Admission(Claim.OTHER_TEAM)
        new_key = None
        if digest is None:
            if not may_issue:
                return Admission(Claim.NO_KEY)
            new_key = self.keys.issue()
            digest = _digest(new_key)
        self._holders[team] = digest
        self._keep(game, team)
        log.info("game %s: team %s's link is now held by a phone", game, team + 1)
        self._changed()
        return Admission(Claim.HELD, new_key)

    def release(self, game: int, team: int) -> None:
        """No phone holds `team`'s link any more (the team moves to another phone)."""
        self._load(game)
        if self._holders.pop(team, None) is not None:
            self._keep(game, team)
            self._changed()

    def _changed(self) -> None:
        for listener in list(self.on_change):
            listener()
