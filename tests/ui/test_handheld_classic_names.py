"""A phone's classic player who gives no name is "Player 1" (a room's friend "Player 2") in the
language of THAT phone (its Accept-Language, matched to en/de/fi), stored so: the duel's names,
the result rows, the daily leaderboard's row, whatever the kiosk's screen speaks meanwhile. A
phone that sends no language of ours gets the kiosk's; what the kiosk itself hears stays in the
kiosk's language; a game stored before reads as it was stored."""

from __future__ import annotations

import pytest

from kiosk.i18n import accepted_language, language, set_language
from kiosk.service import GameService
from kiosk.store import Store
from tests.ui.conftest_classic import (
    classic_phones,
    daily_match,
    device,
    enemy_squares,
    ok,
    play_match,
    water,
)
from tests.ui.conftest_handheld import finnish_kiosk  # noqa: F401 - a fixture

pytestmark = pytest.mark.usefixtures("finnish_kiosk")  # the kiosk's screen speaks Finnish

ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
GERMAN = {"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}


@pytest.mark.parametrize(
    "header, found",
    [
        ("en-GB,en;q=0.9", "en"),
        ("fi-FI;q=0.8, de;q=0.9", "de"),  # by q, not by place
        ("sv-SE, de_CH;q=0.7, fi;q=0.7", "de"),  # equal q: the header's order
        ("sv-SE,ja;q=0.8", None),  # none of ours
        ("de;q=0, en;q=abc", None),  # q=0 is "not this"; a q that is no number counts as 0
        ("", None),
        (None, None),
        (",,;;=q," * 200, None),
    ],
)
def test_accept_language_is_matched_to_ours(header, found):
    assert accepted_language(header) == found


async def test_a_duel_of_unnamed_players_names_each_in_its_own_phones_language(tmp_path):
    async with classic_phones(tmp_path, 2) as ((owner, friend), classic):
        solo = await ok(await owner.post("/api/classic/play/solo", json={"level": "easy"}, headers=ENGLISH))
        assert solo["view"]["players"] == ["Player 1", "Computer"]
        room = (await ok(await owner.post("/api/classic/play/room", json={}, headers=ENGLISH)))["room"]
        token = room["link"].rsplit("/", 1)[1]
        watched = await ok(await friend.get(f"/api/classic/r/{token}", headers=GERMAN))
        assert watched["view"]["players"][0] == "Player 1"  # "The room of Player 1"
        table = classic.rooms.table(device(owner))
        heard: list[str] = []
        table.service.subscribe(lambda _event: heard.append(language()))
        await ok(await friend.post(f"/api/classic/r/{token}/ready", json={}, headers=GERMAN))
        duel = (await ok(await owner.post("/api/classic/play/duel", json={}, headers=ENGLISH)))["view"]
        assert duel["mode"] == "duel" and duel["players"] == ["Player 1", "Spieler 2"]
        match = play_match(classic, owner)
        assert match.setup.players == ("Player 1", "Spieler 2")  # stored so
        await ok(await owner.post("/api/classic/play/fire", json={"cell": water(match, 0)[0]}))
        for cell in enemy_squares(match, 1):
            last = await ok(await friend.post(f"/api/classic/r/{token}/fire", json={"cell": cell}))
        assert last["view"]["winner"] == 1
        store: Store = classic.api.service.store
        game = store.stats.finished_games("classic", mode="duel")[-1]
        assert [r.player for r in game.results] == ["Player 1", "Spieler 2"] and game.results[1].won
        # What the kiosk heard of it (its journal, screen, caller) was told in the kiosk's language.
        assert heard and set(heard) == {"fi"} and language() == "fi"


async def test_a_phone_without_a_language_of_ours_gets_the_kiosks(tmp_path):
    async with classic_phones(tmp_path, 3) as ((plain, foreign, owner), classic):
        none = await ok(await plain.post("/api/classic/play/solo", json={"level": "easy"}))
        assert none["view"]["players"][0] == "Pelaaja 1"
        swedish = {"Accept-Language": "sv-SE,sv;q=0.9,ja;q=0.5"}
        other = await ok(
            await foreign.post("/api/classic/play/solo", json={"level": "easy"}, headers=swedish)
        )
        assert other["view"]["players"][0] == "Pelaaja 1"
        # A friend without a language of ours: "Pelaaja 2" beside the German owner's own default.
        await ok(await owner.post("/api/classic/play/solo", json={"level": "easy"}, headers=GERMAN))
        room = (await ok(await owner.post("/api/classic/play/room", json={})))["room"]
        token = room["link"].rsplit("/", 1)[1]
        await ok(await foreign.get(f"/api/classic/r/{token}"))
        await ok(await foreign.post(f"/api/classic/r/{token}/ready", json={}, headers=swedish))
        duel = (await ok(await owner.post("/api/classic/play/duel", json={}, headers=GERMAN)))["view"]
        assert duel["players"] == ["Spieler 1", "Pelaaja 2"]
        # A name given is the name, whatever the phone speaks.
        named = await ok(
            await plain.post("/api/classic/play/solo", json={"level": "easy", "name": "Ann"}, headers=GERMAN)
        )
        assert named["view"]["players"][0] == "Ann"
        assert play_match(classic, plain).setup.players == ("Ann",)


async def test_a_daily_challenge_of_an_english_phone_stands_as_player_1(tmp_path):
    async with classic_phones(tmp_path, 2) as ((english, german), classic):
        for phone, headers in ((english, ENGLISH), (german, GERMAN)):
            await ok(await phone.post("/api/classic/daily/start", json={}, headers=headers))
            match = daily_match(classic, phone)
            for cell in enemy_squares(match, 0):
                answer = await ok(await phone.post("/api/classic/daily/fire", json={"cell": cell}))
            assert answer["view"]["winner"] == 0
        store: Store = classic.api.service.store
        games = store.stats.finished_games("classic", mode="daily")
        assert sorted(g.results[0].player for g in games) == ["Player 1", "Spieler 1"]
        assert daily_match(classic, english).setup.players == ("Player 1",)


async def test_a_game_stored_before_reads_as_it_was_stored(tmp_path):
    """Two English phones' duel stored as "Pelaaja 1" v "Pelaaja 2" (the kiosk's old way):
    it resumes and shows so, on an English phone and after the kiosk switched to English."""
    async with classic_phones(tmp_path, 2) as ((owner, friend), classic):
        await ok(await owner.post("/api/classic/play/solo", json={"level": "easy"}))
        token = (await ok(await owner.post("/api/classic/play/room", json={})))["room"]["link"].rsplit(
            "/", 1
        )[1]
        await ok(await friend.get(f"/api/classic/r/{token}"))
        await ok(await friend.post(f"/api/classic/r/{token}/ready", json={}))
        await ok(await owner.post("/api/classic/play/duel", json={}))
        assert play_match(classic, owner).setup.players == ("Pelaaja 1", "Pelaaja 2")
        jar = {c.key: c.value for c in owner.session.cookie_jar}
        classic.api.service.store.close()
    set_language("en")
    async with classic_phones(tmp_path, 1, service=GameService(Store(tmp_path / "dartship.db"))) as (
        [again],
        _classic,
    ):
        again.session.cookie_jar.update_cookies(jar)
        view = (await ok(await again.get("/api/classic/play", headers=ENGLISH)))["view"]
        assert view["mode"] == "duel" and view["players"] == ["Pelaaja 1", "Pelaaja 2"]
