"""A kiosk paired anew tells the hub who it was: its old key signs the pairing and is revoked in
the same transaction, and a code for another venue than its own is refused without being used
(the code stays good for the bar it was made for). Against a real PostgreSQL."""

from __future__ import annotations

import json

import aiohttp
import pytest

from hub import admin
from kiosk.app.league import OtherVenue, pair
from kiosk.league import signing
from kiosk.league.membership import normal_code

from .conftest import Hub


async def _revoked(hub: Hub, kiosk: int) -> bool:
    async with hub.pool.connection() as conn:
        row = await (await conn.execute("SELECT revoked FROM kiosks WHERE id=%s", [kiosk])).fetchone()
    assert row is not None
    return row[0] is not None


async def _code_used(hub: Hub, code: str) -> bool:
    async with hub.pool.connection() as conn:
        row = await (
            await conn.execute(
                "SELECT used FROM pairing_codes WHERE digest=%s", [admin.digest(normal_code(code))]
            )
        ).fetchone()
    assert row is not None
    return row[0] is not None


async def _kiosks(hub: Hub) -> int:
    async with hub.pool.connection() as conn:
        row = await (await conn.execute("SELECT count(*) FROM kiosks")).fetchone()
    assert row is not None
    return int(row[0])


async def _post_games(member) -> int:
    """A signed upload with `member`'s key (an empty body: only the signature's answer counts)."""
    body = b"{}"
    headers = signing.signed_headers(member.kiosk, member.key, "POST", "/api/games", body)
    async with (
        aiohttp.ClientSession() as session,
        session.post(member.hub + "/api/games", data=body, headers=headers) as answer,
    ):
        return answer.status


async def test_pairing_anew_revokes_the_old_key_in_the_same_request(hub):
    old = await pair(hub.url, await hub.code(), "bar")
    assert await _post_games(old) != 403
    new = await pair(hub.url, await hub.code(), "bar", before=old, same_venue=True)
    assert new.kiosk != old.kiosk and new.venue == old.venue
    assert await _revoked(hub, old.kiosk) and not await _revoked(hub, new.kiosk)
    assert await _post_games(old) == 403  # the old key is refused from now on
    assert await _post_games(new) not in (401, 403)


async def test_a_code_for_another_venue_is_refused_and_stays_good_for_it(hub):
    old = await pair(hub.url, await hub.code(), "anchor")
    crown = await hub.code(hub.other_venue)
    before = await _kiosks(hub)
    with pytest.raises(OtherVenue) as refused:
        await pair(hub.url, crown, "anchor", before=old, same_venue=True)
    assert (refused.value.venue_name, refused.value.league_name) == ("The Crown", "Test league")
    assert not await _code_used(hub, crown) and await _kiosks(hub) == before
    assert not await _revoked(hub, old.kiosk)
    # The Crown's own kiosk pairs with it afterwards.
    theirs = await pair(hub.url, crown, "crown")
    assert theirs.venue == hub.other_venue and await _code_used(hub, crown)


async def test_a_kiosk_moving_to_another_venue_keeps_the_old_venues_key_unrevoked(hub):
    """`dartship league join` with another venue's code (no `same_venue`): it pairs, and the
    old key, of another venue, is not this pairing's to revoke."""
    old = await pair(hub.url, await hub.code(), "bar")
    moved = await pair(hub.url, await hub.code(hub.other_venue), "bar", before=old)
    assert moved.venue == hub.other_venue
    assert not await _revoked(hub, old.kiosk)


async def test_a_forged_old_signature_revokes_nothing(hub):
    """A request that claims to be another kiosk of the venue but is not signed by its key pairs
    (the code is good) and leaves that kiosk alone."""
    victim = await pair(hub.url, await hub.code(), "theirs")
    body = json.dumps({"code": await hub.code(), "name": "mine", "venue": hub.venue}).encode()
    headers = signing.signed_headers(victim.kiosk, signing.new_key(), "POST", "/api/pair", body)
    headers["Content-Type"] = "application/json"
    async with (
        aiohttp.ClientSession() as session,
        session.post(hub.url + "/api/pair", data=body, headers=headers) as answer,
    ):
        assert answer.status == 201, await answer.text()
        assert (await answer.json())["replaced"] is None
    assert not await _revoked(hub, victim.kiosk)


@pytest.mark.parametrize("venue", ["1", True, 1.5, [1], {"id": 1}])
async def test_a_venue_that_is_no_number_is_a_clear_refusal_that_uses_nothing(hub, venue):
    code = await hub.code()
    body = json.dumps({"code": code, "name": "bar", "venue": venue}).encode()
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            hub.url + "/api/pair", data=body, headers={"Content-Type": "application/json"}
        ) as answer,
    ):
        assert answer.status == 400
        data = await answer.json()
    assert data["code"] == "bad_pairing" and '"venue"' in data["error"]
    assert not await _code_used(hub, code)


HOSTILE_HEADERS = [
    {
        "X-Dartship-Kiosk": "one",
        "X-Dartship-Time": "0",
        "X-Dartship-Nonce": "n" * 16,
        "X-Dartship-Signature": "0" * 64,
    },
    {
        "X-Dartship-Kiosk": str(10**30),
        "X-Dartship-Time": "1",
        "X-Dartship-Nonce": "a" * 32,
        "X-Dartship-Signature": "f" * 64,
    },
    {
        "X-Dartship-Kiosk": "-1",
        "X-Dartship-Time": "-99999999999",
        "X-Dartship-Nonce": "b" * 64,
        "X-Dartship-Signature": "z" * 64,
    },
    {
        "X-Dartship-Kiosk": "1",
        "X-Dartship-Time": "nan",
        "X-Dartship-Nonce": "c" * 16,
        "X-Dartship-Signature": "0" * 64,
    },
    {
        "X-Dartship-Kiosk": "1",
        "X-Dartship-Time": "1",
        "X-Dartship-Nonce": "short",
        "X-Dartship-Signature": "0",
    },
    {"X-Dartship-Kiosk": "1", "X-Dartship-Nonce": "d" * 16},
    {"X-Dartship-Signature": "0" * 64},
]


@pytest.mark.parametrize("headers", HOSTILE_HEADERS)
async def test_a_pairing_with_a_garbled_old_signature_revokes_nothing_and_never_fails(hub, headers):
    """Headers that claim an old key but are no signature of it: the pairing is served (the code
    is good) or refused with a reason, never a 500, and the kiosk they name keeps its key."""
    victim = await pair(hub.url, await hub.code(), "theirs")
    if headers.get("X-Dartship-Kiosk") == "1":  # the victim's number, whatever the hub gave it
        headers = {**headers, "X-Dartship-Kiosk": str(victim.kiosk)}
    body = json.dumps({"code": await hub.code(), "name": "mine", "venue": hub.venue}).encode()
    sent = {"Content-Type": "application/json", **headers}
    async with (
        aiohttp.ClientSession() as session,
        session.post(hub.url + "/api/pair", data=body, headers=sent) as answer,
    ):
        text = await answer.text()
        assert answer.status == 201 or (400 <= answer.status < 500 and json.loads(text)["error"]), text
        if answer.status == 201:
            assert json.loads(text)["replaced"] is None
    assert not await _revoked(hub, victim.kiosk)
