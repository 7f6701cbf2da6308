"""A hub's refusal on Settings -> League reads in the kiosk's language of the moment: refused
while the kiosk spoke English (a game whose result its log does not give, replayed by a real
hub process on a real PostgreSQL), then shown in German and in Finnish after the owner switched
languages: every part of the reason, the figure that differs too (kiosk/league/reasons.py)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tests import league_games as games
from tests.ui.test_touch_game import labels_text
from tests.ui.test_touch_league import _hub, _league

pytestmark = pytest.mark.slow

SAID = {
    "en": ("HTTP 422: the result is not what the log gives", "Ann's hits: the report says"),
    "de": ("HTTP 422: das Ergebnis ist nicht das, was das Protokoll", "Treffer von Ann: die Meldung sagt"),
    "fi": (
        "HTTP 422: tulos ei ole se, minkä pelilokin toisto antaa",
        "pelaajan Ann osumat: ilmoituksen mukaan",
    ),
}


def test_a_refusal_made_in_english_reads_in_german_and_finnish(tour, database, artefacts: Path) -> None:
    from hub.cluster import free_port

    code, _other = asyncio.run(_league(database))
    port = free_port()
    hub = _hub(database, port)
    kiosk = tour.kiosk
    try:
        tour.at("home")
        kiosk.config.save({"league.hold_seconds": 0})
        tour.app.go("league")
        screen = tour.screen()
        screen.code_field.text = code
        screen.hub_field.text = f"http://127.0.0.1:{port}"
        screen.join()
        assert tour.pump(lambda: screen.joining is None, 30)
        assert kiosk.league is not None and kiosk.league.sync is not None, screen.message.text
        refused = kiosk.league.status().refused
        games.play_darts(kiosk.store, [["Ann"], ["Cy"]], random.Random(3), winner=0)
        kiosk.store.db.execute(  # a result the log does not give: the hub's replay refuses it
            "UPDATE outbox SET report = json_set(report, '$.winner', 1, '$.results[0].hits', "
            "json_extract(report, '$.results[0].hits') + 1) WHERE state = 'pending'"
        )
        kiosk.league.sync.wake.set()
        assert tour.pump(lambda: kiosk.league.status().refused == refused + 1, 30)
        for language in ("en", "de", "fi"):
            tour.app.set_language(language)
            tour.app.go("league")
            tour.screen().refresh()
            text = labels_text(tour.root)
            assert all(part in text for part in SAID[language]), (language, text)
            tour.save(artefacts / f"settings_league_reason_{language}.png")
    finally:
        hub.kill()
        hub.wait()
        tour.app.set_language("en")
        if kiosk.league is not None and kiosk.league.status().member is not None:
            kiosk.league.leave()
        tour.at("home")
