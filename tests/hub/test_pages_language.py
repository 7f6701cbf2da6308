"""The hub's pages speak their reader's language: `?lang=`, else the browser's Accept-Language
(by its q-values), else English; the JSON is the same for everyone."""

from __future__ import annotations

import datetime
import random
import time
import zoneinfo

import aiohttp
import pytest

from hub.pages import language_of
from kiosk.i18n import said_again, set_language, speaking
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


async def _error(session: aiohttp.ClientSession, method: str, url: str, accept: str | None, **kw) -> tuple:
    headers = {"Accept-Language": accept} if accept else {}
    async with session.request(method, url, headers=headers, **kw) as answer:
        body = await answer.json()
        assert {"error", "code"} <= set(body) <= {"error", "code", "said"}
        assert answer.headers["Vary"] == "Accept-Language"
        if "said" in body:  # how to say it again: in the answer's language, the very same text
            with speaking(answer.headers["Content-Language"]):
                assert said_again(body["said"]) == body["error"]
        return answer.status, body["code"], body["error"], answer.headers["Content-Language"]


async def test_the_json_errors_speak_the_reader_s_language_and_keep_their_code(hub, tmp_path):
    async with aiohttp.ClientSession() as session:
        missing = f"{hub.url}/api/leagues/999"
        assert await _error(session, "GET", missing, None) == (404, "not_found", "no league 999", "en")
        assert await _error(session, "GET", missing, "de-CH,de;q=0.9") == (
            404,
            "not_found",
            "keine Liga 999",
            "de",
        )
        assert await _error(session, "GET", missing + "?lang=fi", "de") == (
            404,
            "not_found",
            "ei liigaa 999",
            "fi",
        )
        number = await _error(session, "GET", f"{hub.url}/api/leagues/x", "fi")
        assert number == (404, "bad_number", "league on annettava numerona", "fi")
        unsigned = await _error(session, "POST", f"{hub.url}/api/games", "de", data=b"{}")
        assert unsigned[:2] == (401, "not_signed") and "ist nicht signiert" in unsigned[2]
        not_json = await _error(session, "POST", f"{hub.url}/api/pair", "fi", data=b"nope")
        assert not_json == (400, "not_json", "sisältö ei ole JSONia", "fi")
        code = await _error(
            session, "POST", f"{hub.url}/api/pair", "de", json={"code": "A" * 12, "name": "x"}
        )
        assert code[:2] == (403, "bad_code") and code[2].startswith("dieser Kopplungscode gilt nicht")
        admin = await _error(session, "POST", f"{hub.url}/api/admin/leagues", "fi", json={"name": "X"})
        assert admin[:2] == (401, "admin_token") and "ylläpitäjän tunniste" in admin[2]

    # A kiosk asks in its own language: its Settings -> League shows the hub's reason in it, and
    # in the one it speaks later: the reason is kept with how to say it again (its msgid and
    # values), every part of it (the figure's name too) in the kiosk's words of the moment.
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(3))
    store.db.execute(
        "UPDATE outbox SET report = json_set(report, '$.winner', 1 - json_extract(report, '$.winner'), "
        "'$.results[0].hits', json_extract(report, '$.results[0].hits') + 1)"
    )
    set_language("de")
    try:
        assert await _flush(sync) == 0
        german = store.outbox.last_problem() if store.outbox else None
        set_language("fi")
        finnish = store.outbox.last_problem() if store.outbox else None
    finally:
        set_language("en")
    english = store.outbox.last_problem() if store.outbox else None
    assert german is not None and german.startswith("HTTP 422: das Ergebnis ist nicht das, was das Protokoll")
    assert "der Sieger: die Meldung sagt" in german and "Treffer von Ann: die Meldung sagt" in german
    assert finnish is not None
    assert finnish.startswith("HTTP 422: tulos ei ole se, minkä pelilokin toisto antaa")
    assert "pelaajan Ann osumat: ilmoituksen mukaan" in finnish
    assert english is not None and english.startswith("HTTP 422: the result is not what the log gives")
    assert "Ann's hits: the report says" in english
    assert sync.last_error == english  # the sync's own last error too


@pytest.mark.parametrize(
    ("forgery", "german", "finnish"),
    [
        (
            "json_remove(report, '$.setup.seed')",
            "HTTP 422: die Spieleinstellung ist nicht lesbar: 'seed' fehlt",
            "HTTP 422: pelin asetuksia ei voi lukea: 'seed' puuttuu",
        ),
        (
            "json_set(report, '$.setup.rules.Carrier.defense', 'x')",
            "HTTP 422: die Spieleinstellung ist nicht lesbar: 'rules.Carrier.defense' hat den falschen Typ",
            "HTTP 422: pelin asetuksia ei voi lukea: 'rules.Carrier.defense' on väärää tyyppiä",
        ),
    ],
    ids=["seed", "rules"],
)
async def test_a_forged_report_is_refused_in_the_kiosk_s_words_to_the_last_word(
    hub, tmp_path, forgery, german, finnish
):
    """A report whose setup was tampered with: the hub's reason quotes the game's own reading of
    it in the kiosk's language all through, and in the one it speaks later (before: Python's
    words, "'seed'" or "'<=' not supported between instances of 'int' and 'str'", inside a
    German sentence)."""
    store, sync = await _kiosk(hub, tmp_path)
    games.play_express(store, ["Ann", "Cy", "Di"], random.Random(3))
    store.db.execute(f"UPDATE outbox SET report = {forgery}")
    set_language("de")
    try:
        assert await _flush(sync) == 0
        said = [store.outbox.last_problem() if store.outbox else None]
        set_language("fi")
        said.append(store.outbox.last_problem() if store.outbox else None)
    finally:
        set_language("en")
    assert said == [german, finnish]


async def test_the_kiosks_computer_is_named_in_the_readers_language(hub, tmp_path):
    """A game against the kiosk's computer: the player's page names the computer in its
    reader's language, not by the name the kiosk's side was given in the kiosk's language."""
    store, sync = await _kiosk(hub, tmp_path)
    games.play_classic(store, ["Ann"], random.Random(3), daily=datetime.date.today())
    games.play_classic(store, ["Ann", "Cy"], random.Random(4), winner=0)
    assert await _flush(sync) == 2
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{hub.url}/api/leagues/{hub.league}/players/ann") as api:
            played = (await api.json())["games"]
        async with session.get(f"{hub.url}/leagues/{hub.league}/players/ann?lang=fi") as page:
            finnish = await page.text()
    assert sorted((g["opponents"], g["computers"]) for g in played) == [("", 1), ("Cy", 0)]
    assert '<td data-label="Vastaan">Tietokone</td>' in finnish
    assert '<td data-label="Vastaan">Cy</td>' in finnish


@pytest.fixture
def helsinki(monkeypatch):
    """The hub's machine in Helsinki (its zone says when a day starts, and the pages' times)."""
    monkeypatch.setenv("TZ", "Europe/Helsinki")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


async def test_a_players_games_are_timed_in_the_hubs_zone_and_say_which(hub, tmp_path, helsinki):
    store, sync = await _kiosk(hub, tmp_path)
    games.play_classic(store, ["Ann", "Cy"], random.Random(4), winner=0)
    assert await _flush(sync) == 1
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{hub.url}/api/leagues/{hub.league}/players/ann") as api:
            finished = datetime.datetime.fromisoformat((await api.json())["games"][0]["finished"])
        async with session.get(f"{hub.url}/leagues/{hub.league}/players/ann?lang=de") as page:
            german = await page.text()
    here = finished.astimezone(zoneinfo.ZoneInfo("Europe/Helsinki"))
    assert here.utcoffset() != datetime.timedelta(0)
    assert f'<td data-label="Wann ({here.tzname()})">{here:%Y-%m-%d %H:%M}</td>' in german
    assert f"<th>Wann ({here.tzname()})</th>" in german


def test_a_column_of_times_names_the_zones_it_shows(helsinki):
    """Winter and summer games in one column: shown in each one's own offset, both named."""
    from hub.pages import local_time, when_header

    winter, summer = "2026-01-10T18:00:00+00:00", "2026-07-10T18:00:00+00:00"
    assert local_time(winter) == "2026-01-10 20:00" and local_time(summer) == "2026-07-10 21:00"
    assert when_header([winter, summer, winter]) == "When (EEST/EET)"
    assert when_header([]) in ("When (EET)", "When (EEST)")


def test_a_table_of_cards_names_every_cell_by_its_heading_escaped():
    """A player's games on a phone are cards, a line per column named by its heading (the
    page's style reads `data-label`): every cell carries its column's heading, markup in a
    heading or a cell escaped; a plain table carries none."""
    from hub.pages import table

    headers = ("When (EET)", "Against", 'Shots "<all>"')
    shown = table(headers, [("2026-12-03 15:28", "<b>Cy</b>", 17)], numeric=frozenset({2}), cards=True)
    assert '<table class="cards">' in shown
    assert '<td data-label="When (EET)">2026-12-03 15:28</td>' in shown
    assert '<td data-label="Against">&lt;b&gt;Cy&lt;/b&gt;</td>' in shown
    assert '<td class="n" data-label="Shots &quot;&lt;all&gt;&quot;">17</td>' in shown
    plain = table(headers, [("2026-12-03 15:28", "Cy", 17)])
    assert "data-label" not in plain and "cards" not in plain
