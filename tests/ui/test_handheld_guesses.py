"""The guess throttle slows guessers and never keeps a real phone out (issue 13, item 3): after
1000 guesses from 250 addresses a phone opening its team link for the first time gets in, a
steady stream from a few addresses does not keep it out, and last game's links are no guesses.

The crowd is real: requests from 250 loopback addresses (127.0.1.x: loopback takes any 127/8)
to the phone page on a real socket."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator

import pytest

from kiosk import config
from tests.ui.conftest_handheld import FLEET_A, fleet, make_service, new_game, place
from ui.handheld.server import start_web
from ui.handheld.throttle import GuessThrottle, Limits, _ticket


@pytest.fixture(autouse=True)
def no_ticket_left_over() -> Iterator[None]:
    """The unit tests below call the throttle outside any request: each request's ticket would
    stay in the test's context."""
    token = _ticket.set(None)
    yield
    _ticket.reset(token)


async def _status(port: int, path: str, source: str) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: kiosk\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 60)
        return int(line.split()[1])
    finally:
        writer.close()


async def test_a_fresh_phone_gets_in_after_1000_guesses_from_250_addresses(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    place(service, 0, fleet(FLEET_A))
    settings = config.build({"web.host": "127.0.0.1", "web.port": 0})
    server = await start_web(service, settings)
    port = int(server.base_url.rsplit(":", 1)[1])
    try:
        guessers = [f"127.0.1.{n}" for n in range(1, 251)]
        statuses = await asyncio.gather(
            *(
                _status(port, f"/api/team/{secrets.token_urlsafe(16)}", address)
                for address in guessers
                for _ in range(4)
            )
        )
        assert statuses.count(404) == 1000  # four wrong links each: within every budget
        # Each team's phone, new at the start as every phone is (one phone per team link).
        for phone, token in zip(("127.0.2.1", "127.0.2.2"), server.api.tokens.teams, strict=True):
            assert await _status(port, f"/team/{token}", phone) == 200
            assert await _status(port, f"/api/team/{token}", phone) == 200
    finally:
        await server.stop()


def test_a_steady_stream_of_guesses_never_slows_an_address_that_did_not_guess():
    now = [0.0]
    throttle = GuessThrottle(clock=lambda: now[0])
    for second in range(600):  # ten minutes of one guess a second from each of five addresses
        now[0] = float(second)
        for n in range(5):
            address = f"10.0.0.{n}"
            if throttle.admit(address, secrets.token_urlsafe(16)) is not None:
                throttle.failed(address)
        if second % 60 == 30:  # and now and then a phone scans its QR code
            assert throttle.admit(f"10.0.1.{second}", "a-valid-token") == 0.0
            throttle.succeeded(f"10.0.1.{second}")


def test_a_guesser_waits_its_turn_and_a_queue_longer_than_max_wait_is_refused():
    now = [0.0]
    throttle = GuessThrottle(Limits(per_client=3, per_client_per_minute=6, max_wait=30), clock=lambda: now[0])
    for _guess in range(3):
        assert throttle.admit("10.0.0.9", "guess") == 0.0
        throttle.failed("10.0.0.9")
    waits = [throttle.admit("10.0.0.9", "guess") for _ in range(4)]  # four at once
    assert waits[:3] == [10.0, 20.0, 30.0] and waits[3] is None  # one try per 10 s, then 429
    assert not throttle.may_try("10.0.0.9")  # the refused one is not looked at
    now[0] = 60.0
    assert throttle.admit("10.0.0.9", "a-valid-token") == 0.0  # the budget came back


def test_a_right_token_gives_back_what_its_wait_took():
    now = [0.0]
    throttle = GuessThrottle(Limits(per_client=1), clock=lambda: now[0])
    throttle.admit("10.0.0.9", "guess")
    throttle.failed("10.0.0.9")
    assert throttle.admit("10.0.0.9", "right") == 10.0
    throttle.succeeded("10.0.0.9")  # a phone behind a guesser's address: served after the wait
    assert throttle.admit("10.0.0.9", "right") == 10.0  # and not charged for it


def test_last_games_links_are_dead_links_not_guesses():
    now = [0.0]
    throttle = GuessThrottle(Limits(per_client=2), clock=lambda: now[0])
    throttle.new_game(("old-sharks", "old-jets"))
    for _reload in range(50):  # a phone reloading last game's page
        assert throttle.admit("10.0.0.7", "old-sharks") == 0.0
        throttle.failed("10.0.0.7")
    assert throttle.admit("10.0.0.7", "new-sharks") == 0.0
