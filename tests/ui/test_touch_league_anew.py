"""Settings -> League pairs a kiosk anew for its own bar (its key revoked or lost) without losing
what waits for the hub, against a real hub process on a real PostgreSQL: a code for another bar
changes nothing and says why; a new code for the same bar keeps the waiting game, which the hub
then takes under the new key. Leave's question points there first."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import psycopg
import pytest

from tests import league_games as games
from tests.ui.test_touch_game import labels_text
from tests.ui.test_touch_league import _hub
from tests.ui.test_touch_league_settings import _type, _wait

pytestmark = pytest.mark.slow


async def _codes(database: str) -> tuple[str, str, str]:
    """Two codes for The Anchor and one for The Crown, of one league."""
    from hub import admin, db

    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        await db.migrate(conn)
        league = await admin.create_league(conn, "Harbour League")
        anchor = await admin.create_venue(conn, league, "The Anchor")
        crown = await admin.create_venue(conn, league, "The Crown")
        return (
            await admin.pairing_code(conn, anchor),
            await admin.pairing_code(conn, anchor),
            await admin.pairing_code(conn, crown),
        )


async def _row(database: str, query: str, value: str) -> tuple:
    async with await psycopg.AsyncConnection.connect(database) as conn:
        row = await (await conn.execute(query, (value,))).fetchone()
        assert row is not None
        return tuple(row)


def _code_used(database: str, code: str) -> bool:
    from hub.admin import digest
    from kiosk.league.membership import normal_code

    query = "SELECT used IS NOT NULL FROM pairing_codes WHERE digest = %s"
    return bool(asyncio.run(_row(database, query, digest(normal_code(code))))[0])


def _key_revoked(database: str, key: str) -> bool:
    query = "SELECT revoked IS NOT NULL FROM kiosks WHERE key = %s"
    return bool(asyncio.run(_row(database, query, key))[0])


async def _games_sent_with(database: str, key: str) -> int:
    async with await psycopg.AsyncConnection.connect(database) as conn:
        cursor = await conn.execute(
            "SELECT count(*) FROM games g JOIN kiosks k ON k.id = g.kiosk WHERE k.key = %s", (key,)
        )
        row = await cursor.fetchone()
        return int(row[0]) if row else 0


def test_pair_anew_keeps_the_waiting_games_and_refuses_another_bars_code(
    tour, database, artefacts: Path
) -> None:
    from hub.cluster import free_port

    first, second, crown = asyncio.run(_codes(database))
    port = free_port()
    hub = _hub(database, port)
    url = f"http://127.0.0.1:{port}"
    kiosk = tour.kiosk
    try:
        tour.at("home")
        kiosk.config.save({"league.hold_seconds": 3600})  # the game waits in the outbox
        tour.app.go("settings")
        tour.press("League")
        screen = tour.screen()
        _type(screen.code_field, first)
        _type(screen.hub_field, url)
        tour.press("Join")
        assert _wait(tour, lambda: screen.joining is None)
        assert "joined Harbour League" in screen.message.text, screen.message.text
        old = kiosk.league.status().member
        assert old is not None
        waiting = kiosk.league.status().pending
        games.play_darts(kiosk.store, [["Ann"], ["Cy"]], random.Random(5), winner=0)
        assert kiosk.league.status().pending == waiting + 1
        screen.refresh()
        assert "Pair anew" in labels_text(tour.root)
        assert screen.hub_field.parent is None  # the league's own hub: nothing to type
        tour.save(artefacts / "settings_league_pair_anew.png")

        tour.press("Leave league")  # asked, not left: the question says how to keep the game
        keep = "To keep it" if waiting == 0 else "To keep them"
        assert f"{keep}, pair anew with a new code for this bar instead." in screen.message.text

        # Another bar's code: refused, nothing changed (the kiosk is still The Anchor's).
        _type(screen.code_field, crown)
        tour.press("Pair anew")
        assert _wait(tour, lambda: screen.joining is None)
        assert (
            "That code is for The Crown in Harbour League; this kiosk is The Anchor in Harbour League. "
            "Nothing was changed" in screen.message.text
        ), screen.message.text
        assert kiosk.league.status().member == old
        assert kiosk.league.status().pending == waiting + 1
        assert not _code_used(database, crown)  # still good for The Crown's own kiosk

        # A new code for this bar: paired anew, the waiting game goes with the new key.
        _type(screen.code_field, second)
        tour.press("Pair anew")
        assert _wait(tour, lambda: screen.joining is None)
        assert "This kiosk is paired anew: kiosk" in screen.message.text, screen.message.text
        assert f"{waiting + 1} game" in screen.message.text and "with the new key" in screen.message.text
        new = kiosk.league.status().member
        assert new is not None and new.key != old.key and new.venue == old.venue
        assert kiosk.league.status().pending == waiting + 1
        assert _key_revoked(database, old.key) and not _key_revoked(database, new.key)
        tour.save(artefacts / "settings_league_paired_anew.png")
        from ui.touch.fitting import faults

        assert faults(tour.root) == []

        assert asyncio.run(_games_sent_with(database, new.key)) == 0
        kiosk.league.sync.hold_seconds = 0  # due now
        kiosk.league.sync.wake.set()
        assert _wait(tour, lambda: kiosk.league.status().pending == 0)
        assert asyncio.run(_games_sent_with(database, new.key)) == waiting + 1
        assert asyncio.run(_games_sent_with(database, old.key)) == 0
    finally:
        hub.kill()
        kiosk.config.save({"league.hold_seconds": 0})
        if kiosk.league is not None:
            kiosk.league.leave()
        tour.app.go("home")


@pytest.mark.parametrize(
    ("language", "button"), [("en", "Pair anew"), ("de", "Neu koppeln"), ("fi", "Liitä uudelleen")]
)
def test_pair_anew_speaks_the_kiosks_language_and_fits(
    tour, artefacts: Path, language: str, button: str
) -> None:
    """A kiosk in a league (its membership kept in its store; the status never asks the hub):
    Pair anew and the new code's hint in the kiosk's language, every text whole at 800x480."""
    from kiosk.league import membership as members
    from ui.touch.fitting import faults

    kiosk = tour.kiosk
    hub = "http://127.0.0.1:9"
    member = members.Membership(hub, 4, "k" * 43, 1, "Kruunu & Krone", 1, "Harbour Darts League")
    try:
        tour.at("home")
        tour.app.set_language(language)
        kiosk.store.meta.remember(members.MEMBERSHIP, member.to_json())
        kiosk.config.save({"league.hub": hub})
        tour.app.go("league")
        screen = tour.screen()
        screen.refresh()
        tour.pump(lambda: False, 0.3)
        assert kiosk.league.status().member == member, kiosk.league.status()
        assert screen.anew_button.text == button
        assert screen.code_field.hint_text != "" and screen.hub_field.parent is None
        tour.save(artefacts / f"settings_league_anew_{language}.png")
        assert faults(tour.root) == [], [str(f) for f in faults(tour.root)]
    finally:
        kiosk.store.meta.remember(members.MEMBERSHIP, "{}")
        kiosk.config.save({"league.hub": ""})
        tour.app.set_language("en")
        tour.at("home")
