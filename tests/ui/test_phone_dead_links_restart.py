"""The last games' phone links stay dead links after a restart (ui/handheld/throttle.py): a phone
reloading last game's page gets 404 and costs its address nothing, before a restart and after
it, since the links of the last `dead_games` games are kept in the store with the current
game's (`Phones.keep_links`); a link nobody was ever given still costs a unit."""

from __future__ import annotations

import secrets

from aiohttp.test_utils import TestClient, TestServer

from kiosk.store import Store
from ui.handheld.darts.api import DartsApi
from ui.handheld.seats import Seats
from ui.handheld.server import build_app
from ui.handheld.throttle import GuessThrottle, Limits

from .conftest_handheld import make_service, new_game

ONE = Limits(per_client=1, per_client_per_minute=0.001, max_wait=0.0, dead_games=2)


async def _statuses(service, paths: list[str]) -> list[int]:
    """A kiosk started on `service`'s file (its own throttle, kept in the store), one phone."""
    seats = Seats(service, GuessThrottle(ONE, store=service.store))
    server = TestServer(build_app(seats, DartsApi(seats)))
    phone = TestClient(server)
    await phone.start_server()
    try:
        return [(await phone.get(path)).status for path in paths]
    finally:
        await phone.close()


async def test_the_last_games_links_are_dead_links_after_a_restart(tmp_path):
    service = make_service(tmp_path)
    seats = Seats(service, GuessThrottle(ONE, store=service.store))
    DartsApi(seats)  # the dart game's sides: its games have phone links
    unsubscribe = service.subscribe(seats.on_service_event)
    links = []
    for _ in range(4):
        new_game(service)
        assert seats.tokens is not None
        links.append(seats.tokens.teams[0])
    unsubscribe()
    service.store.close()

    service = make_service(tmp_path)  # the kiosk again, on the same file
    last, before_last, too_old = links[2], links[1], links[0]
    assert await _statuses(service, [f"/api/team/{last}", f"/api/team/{before_last}"] * 3) == [404] * 6
    service.store.close()

    # Dead links cost nothing; the oldest (beyond dead_games) is a guess like any: one unit, then 429.
    service = make_service(tmp_path)
    assert await _statuses(service, [f"/api/team/{too_old}", f"/api/team/{secrets.token_urlsafe(16)}"]) == [
        404,
        429,
    ]
    service.store.close()
    store = Store(tmp_path / "dartship.db")
    try:
        assert store.db.execute("SELECT COUNT(*) FROM links").fetchone()[0] == 3  # this game's and two
    finally:
        store.close()
