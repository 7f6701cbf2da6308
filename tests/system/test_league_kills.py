"""A kiosk killed (SIGKILL) in the middle of sending its games to the hub, every part a real
process: `dartship run --headless --simulator` joined to a `dartship hub` on a throwaway
PostgreSQL, a proxy between them that can hold what the kiosk sends or what the hub answers, and
a phone finishing a classic solo game before each kill:

* before the hub heard of the game (the request held on its way),
* after the hub committed it but before the kiosk could mark it sent (the answer held),
* at random moments after the game ended (in the transaction, before, during or after the send);
* and, with many games waiting (`test_a_kiosk_killed_while_its_outbox_is_sending_...`), while
  its outbox is sending them: when the hub has seen the first of them, and twice more at random
  points of the stream, each kill landing with some games at the hub and others still waiting.

After each restart, and at the end, every game the kiosk finished is at the hub exactly once,
under the outbox's one UUID, and the outbox holds nothing pending and nothing refused."""

from __future__ import annotations

import random
import time

from kiosk.app.league import IDLE_SECONDS
from kiosk.store import Store
from tests import league_games
from tests.system import phone_plays as play
from tests.system.held_proxy import HOLD_ANSWERS, HOLD_REQUESTS, PASS
from tests.system.league_bars import (
    BarKiosk,
    HubProcess,
    bar_behind_a_proxy,
    kill_when_the_hub_has,
    wait_until,
)

RANDOM_KILLS = 6
WAITING = 36  # games in the outbox when the kiosk starts sending them


def _finished(kiosk: BarKiosk) -> list[str]:
    """The UUIDs of the kiosk's finished games in its outbox (every one since it joined)."""
    return [str(u) for (u,) in kiosk.read("SELECT uuid FROM outbox ORDER BY game")]


def _exactly_once(kiosk: BarKiosk, hub: HubProcess, games: int) -> None:
    wait_until(
        lambda: kiosk.outbox() == {"sent": games}, lambda: f"{games} games sent: {kiosk.outbox()}", 120
    )
    at_hub = [u for u, _kind, _venue in hub.games()]
    assert sorted(at_hub) == sorted(_finished(kiosk)) and len(at_hub) == games


def _where(kiosk: BarKiosk, hub: HubProcess, games: int) -> str:
    """Where a kill landed in the last game's way to the hub (for the test's output)."""
    sent = kiosk.outbox().get("sent", 0) == games
    at_hub = len(hub.games()) == games
    return "marked sent" if sent else "hub committed, kiosk not told" if at_hub else "not at the hub yet"


def test_a_kiosk_killed_while_it_syncs_loses_nothing_and_sends_nothing_twice(database, tmp_path):
    hub, proxy, kiosk = bar_behind_a_proxy(database, tmp_path / "anchor")
    rng = random.Random(9)
    games = 0
    try:
        kiosk.start()
        # Killed before the hub heard of it: the game is in the outbox, its request held.
        proxy.mode = HOLD_REQUESTS
        proxy.count_from_now()
        play.solo(kiosk, "Ann", rng)
        games += 1
        wait_until(lambda: kiosk.outbox() == {"pending": 1} and proxy.requests_seen, "the upload on its way")
        kiosk.kill()
        proxy.cut()
        assert hub.games() == []
        proxy.mode = PASS
        kiosk.start()
        _exactly_once(kiosk, hub, games)

        # Killed after the hub committed it, before the kiosk heard so: it sends it again, the
        # hub answers "duplicate".
        proxy.mode = HOLD_ANSWERS
        proxy.count_from_now()
        play.solo(kiosk, "Bo", rng)
        games += 1
        wait_until(lambda: len(hub.games()) == games, "the hub has the game")
        wait_until(lambda: proxy.answers_held, "the hub's answer held")
        assert kiosk.outbox() == {"sent": games - 1, "pending": 1}
        kiosk.kill()
        proxy.cut()
        proxy.mode = PASS
        kiosk.start()
        _exactly_once(kiosk, hub, games)

        # Killed at random moments after a game ended.
        landed: list[str] = []
        for n in range(RANDOM_KILLS):
            play.solo(kiosk, f"Player {n}", rng)
            games += 1
            time.sleep(rng.uniform(0.0, IDLE_SECONDS + 1))  # the sync task looks every 5 s
            kiosk.kill()
            proxy.cut()
            landed.append(_where(kiosk, hub, games))
            kiosk.start()
            _exactly_once(kiosk, hub, games)
        print("random kills landed:", landed)
    finally:
        kiosk.stop()
        proxy.close()
        hub.stop()


def _queue_games(kiosk: BarKiosk, rng: random.Random) -> None:
    """`WAITING` finished games of every kind in the (stopped) kiosk's database, each queued by
    the store itself in the transaction that ended it (the database joined the league)."""
    store = Store(kiosk.db)
    try:
        for n in range(WAITING):
            if n % 3 == 0:
                league_games.play_darts(store, [[f"Ann {n}"], [f"Cy {n}"]], rng, winner=n % 2)
            elif n % 3 == 1:
                league_games.play_classic(store, [f"Bo {n}", f"Di {n}"], rng, winner=n % 2)
            else:
                league_games.play_express(store, [f"Ed {n}", f"Flo {n}"], rng)
    finally:
        store.close()


def test_a_kiosk_killed_while_its_outbox_is_sending_many_games_sends_each_once(database, tmp_path):
    hub, proxy, kiosk = bar_behind_a_proxy(database, tmp_path / "anchor")
    rng = random.Random(31)
    try:
        _queue_games(kiosk, rng)
        assert kiosk.outbox() == {"pending": WAITING} and hub.games() == []
        landed: list[str] = []
        # The first kill when the hub has seen the first game; then at random points further on,
        # a random few milliseconds later (between two uploads, or in the middle of one).
        for seen, lag in (
            (1, 0.0),
            (rng.randrange(4, WAITING // 2), rng.uniform(0.0, 0.08)),
            (rng.randrange(WAITING // 2 + 2, WAITING - 6), rng.uniform(0.0, 0.08)),
        ):
            before = len(hub.games())
            proxy.mode = HOLD_REQUESTS  # until the kiosk is up: then its outbox streams freely
            kiosk.start(links=False)  # it shows the last game's result: no team links
            proxy.mode = PASS
            kill_when_the_hub_has(kiosk, hub, max(seen, before + 1), lag)
            proxy.cut()
            time.sleep(0.5)  # an upload whose body got through may still commit at the hub
            at_hub, sent = len(hub.games()), kiosk.outbox().get("sent", 0)
            landed.append(f"hub {at_hub}, kiosk marked {sent} sent")
            # Landed while sending: the hub took more than before, the kiosk had not marked all sent.
            assert before < at_hub and sent < WAITING, landed
            assert sent <= at_hub
        proxy.mode = PASS
        kiosk.start(links=False)
        _exactly_once(kiosk, hub, WAITING)
        kinds = sorted(k for _u, k, _v in hub.games())
        assert kinds == sorted(["darts", "classic", "express"] * (WAITING // 3))
        print("kills while sending landed:", landed)
    finally:
        kiosk.stop()
        proxy.close()
        hub.stop()
