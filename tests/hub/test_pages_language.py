"""The hub's pages speak their reader's language: `?lang=`, else the browser's Accept-Language
(by its q-values), else English; the JSON is the same for everyone."""

from __future__ import annotations

import random

import aiohttp
import pytest

from hub.pages import language_of
from tests import league_games as games

from .test_hub import _flush, _kiosk


@pytest.mark.parametrize(
    ("accept", "asked", "language"),
    [
        (None, None, "en"),
        ("de-DE,de;q=0.9,en;q=0.8", None, "de"),
        ("en;q=0.5, fi-FI;q=0.9", None, "fi"),
        ("sv, fr;q=0.9", None, "en"),
        ("de;q=0", None, "en"),
        ("de;q=nonsense, fi;q=0.1", None, "fi"),
        ("de", "fi", "fi"),
        ("de", "xx", "de"),
        ("," * 5000 + "de", None, "en"),  # only the first 400 characters are read
    ],
)
def test_the_language_of_a_page(accept, asked, language):
    assert language_of(accept, asked) == language


async def test_the_pages_in_german_and_finnish(hub, tmp_path):
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(2), winner=0)
    assert await _flush(sync) == 1
    seen = {}
    async with aiohttp.ClientSession() as session:
        for accept, query in (("de-AT,de;q=0.9", ""), ("en", "?lang=fi"), ("fr", "")):
            async with session.get(
                f"{hub.url}/leagues/{hub.league}{query}", headers={"Accept-Language": accept}
            ) as page:
                assert page.headers["Vary"] == "Accept-Language"
                seen[page.headers["Content-Language"]] = await page.text()
            async with session.get(
                f"{hub.url}/api/leagues/{hub.league}", headers={"Accept-Language": accept}
            ) as api:
                assert (await api.json())["rows"][0]["player"] == "Ann"
        async with session.get(
            f"{hub.url}/leagues/{hub.league}/players/ann", headers={"Accept-Language": "fi"}
        ) as page:
            player = await page.text()
    assert set(seen) == {"de", "fi", "en"}
    assert '<html lang="de">' in seen["de"] and "Test league: die Tabelle" in seen["de"]
    assert "Spieler" in seen["de"] and "Wertungen: Dartspiel" in seen["de"] and "Saison" in seen["de"]
    assert (
        '<html lang="fi">' in seen["fi"] and "Test league: taulukko" in seen["fi"] and "Kausi" in seen["fi"]
    )
    assert "Test league: the table" in seen["en"] and "Season" in seen["en"]
    assert "voitti" in player and "Luokitukset" in player
