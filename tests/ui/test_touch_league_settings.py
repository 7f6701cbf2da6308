"""Settings -> League on the touchscreen, against a real hub process on a real PostgreSQL: a bad
code and a bad address are told before any hub is asked, a hub that never answers leaves the
screen and the loop going (the screen shows that it asks), an unreachable hub and a refusing one
are said plainly and change nothing; a good code joins (the status shows the venue, the outbox,
the last contact; the kiosk's games go to the hub), and Leave asks before it leaves."""

from __future__ import annotations

import asyncio
import random
import socket
import time
from pathlib import Path

import pytest

from kiosk.league import membership as members
from tests import league_games as games
from tests.ui.test_touch_game import labels_text
from tests.ui.test_touch_league import _hub, _league
from tests.waits import PATIENCE

pytestmark = pytest.mark.slow


def _type(field, text: str) -> None:
    from ui.touch.fingers import tap

    tap(field)  # focus: on the kiosk the docked keyboard comes up
    field.text = text


def _wait(tour, until, seconds: float = PATIENCE) -> bool:
    return tour.pump(until, seconds)


def test_settings_league_joins_shows_the_status_and_leaves(tour, database, artefacts: Path) -> None:
    from hub.cluster import free_port

    anchor_code, _crown_code = asyncio.run(_league(database))
    port = free_port()
    hub = _hub(database, port)
    url = f"http://127.0.0.1:{port}"
    kiosk = tour.kiosk
    silent = socket.create_server(("127.0.0.1", 0))  # takes connections, never answers
    try:
        tour.at("home")
        kiosk.config.save({"league.hold_seconds": 0})  # sent at once, not after 2 minutes
        tour.app.go("settings")
        tour.press("League")
        screen = tour.screen()
        assert tour.app.sm.current == "league"
        assert "This kiosk is in no league" in labels_text(tour.root)
        tour.save(artefacts / "settings_league_empty.png")

        # Told before any hub is asked.
        _type(screen.code_field, "ABCD-EFGH-JKL0")
        _type(screen.hub_field, url)
        tour.press("Join")
        assert _wait(tour, lambda: screen.joining is None)
        assert "has no 0" in screen.message.text
        _type(screen.code_field, "ABCD-EFGH")
        tour.press("Join")
        assert _wait(tour, lambda: screen.joining is None)
        assert "12 letters and digits; this one has 8" in screen.message.text
        _type(screen.code_field, anchor_code)
        _type(screen.hub_field, "ftp://league")
        tour.press("Join")
        assert _wait(tour, lambda: screen.joining is None)
        assert "The hub's address:" in screen.message.text

        # A hub that never answers: the screen shows it asks, the loop and Kivy go on.
        _type(screen.hub_field, f"http://127.0.0.1:{silent.getsockname()[1]}")
        tour.press("Join")
        assert screen.joining is not None  # the tap did not wait for the network
        ticks = []
        kiosk.service_task.get_loop().call_soon(lambda: ticks.append(time.monotonic()))
        _wait(tour, lambda: False, 1.5)
        assert screen.joining is not None and screen.join_button.text == "Asking ..."
        assert screen.message.text.startswith("Asking the hub at http://127.0.0.1:")
        assert ticks  # the kiosk's loop ran meanwhile
        assert screen.join_button.disabled  # one question at a time
        tour.save(artefacts / "settings_league_asking.png")
        silent.close()  # the hub goes away: its connection is reset
        assert _wait(tour, lambda: screen.joining is None, 40)
        assert "cannot be reached" in screen.message.text and "Nothing was changed" in screen.message.text

        # An address where nothing listens, then a hub that refuses the code.
        _type(screen.hub_field, f"http://127.0.0.1:{free_port()}")
        tour.press("Join")
        assert _wait(tour, lambda: screen.joining is None)
        assert "cannot be reached" in screen.message.text
        _type(screen.code_field, "ABCD-EFGH-JKMN")
        _type(screen.hub_field, url)
        tour.press("Join")
        assert _wait(tour, lambda: screen.joining is None)
        assert "The hub refused: HTTP 403" in screen.message.text
        tour.save(artefacts / "settings_league_refused.png")
        assert kiosk.league.status().member is None and kiosk.settings.league.hub == ""
        assert members.membership(kiosk.store.meta, url) is None

        # The right code: joined, sending, the status shows it.
        _type(screen.code_field, anchor_code.lower().replace("-", " "))  # as typed in a hurry
        _type(screen.hub_field, f" 127.0.0.1:{port}/")  # no scheme: a hub on the bar's network
        tour.press("Join")
        assert _wait(tour, lambda: screen.joining is None)
        assert "joined Harbour League as kiosk" in screen.message.text, screen.message.text
        assert kiosk.settings.league.hub == url
        before = kiosk.league.status()  # the tour's kiosk may have sent games in other tests
        games.play_darts(kiosk.store, [["Ann"], ["Cy"]], random.Random(3), winner=0)
        kiosk.league.sync.wake.set()
        assert _wait(tour, lambda: kiosk.league.status().sent == before.sent + 1)
        assert _wait(tour, lambda: kiosk.league.status().last_sync is not None)
        screen.refresh()
        text = labels_text(tour.root)
        sent, refused = before.sent + 1, before.refused
        assert "Harbour League: The Anchor, kiosk" in text
        assert f"Outbox: 0 waiting, {sent} sent, {refused} refused" in text
        assert "Last contact with the hub: just now" in text and "No errors." in text
        assert anchor_code not in text and kiosk.league.status().member.key not in text
        tour.save(artefacts / "settings_league_joined.png")

        # The hub goes away: the status says so once the kiosk tried.
        hub.kill()
        hub.wait()
        games.play_darts(kiosk.store, [["Ann"], ["Cy"]], random.Random(4), winner=1)
        kiosk.league.sync.wake.set()
        assert _wait(tour, lambda: kiosk.league.status().last_error is not None)
        screen.refresh()
        text = labels_text(tour.root)
        assert f"Outbox: 1 waiting, {sent} sent, {refused} refused" in text and "cannot be reached" in text
        tour.save(artefacts / "settings_league_offline.png")

        # Leave: asked first, then gone.
        tour.press("Leave league")
        assert "Tap Leave league again" in screen.message.text
        assert "1 game waiting for the hub will never be sent." in screen.message.text
        assert kiosk.league.status().member is not None
        tour.press("Leave league")
        assert "This kiosk left Harbour League" in screen.message.text
        assert kiosk.league.status().member is None and kiosk.settings.league.hub == ""
        assert kiosk.store.outbox is None and kiosk.league.sync is None
        assert "This kiosk is in no league" in labels_text(tour.root)
    finally:
        silent.close()
        hub.kill()
        if kiosk.league is not None:
            kiosk.league.leave()
        tour.app.go("home")


@pytest.mark.parametrize(("language", "words"), [("de", "Beitreten"), ("fi", "Liity")])
def test_settings_league_speaks_the_kiosks_language(tour, artefacts: Path, language: str, words: str) -> None:
    tour.at("home")
    tour.app.set_language(language)
    tour.app.go("league")
    screen = tour.screen()
    screen.code_field.text = "ABCD-EFGH"
    screen.join()
    assert tour.pump(lambda: screen.joining is None)
    text = labels_text(tour.root)
    assert words in text and "Join" not in text  # in no league: Join, where Leave will stand
    assert (
        screen.message.text
        == {
            "de": "Ein Kopplungscode hat 12 Buchstaben und Ziffern, dieser hat 8.",
            "fi": "Liitoskoodissa on 12 kirjainta ja numeroa, tässä on 8.",
        }[language]
    )
    tour.save(artefacts / f"settings_league_{language}.png")
    from ui.touch.fitting import faults

    assert faults(tour.root) == []  # every text fits its widget, none cut or broken
    tour.at("home")


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "de",
            "Der Hub lehnt ab: HTTP 403: dieser Kopplungscode gilt nicht (unbekannt, benutzt oder",
        ),
        (
            "fi",
            "Keskus kieltäytyi: HTTP 403: tämä liitoskoodi ei kelpaa (tuntematon, käytetty tai vanhentunut)",
        ),
    ],
)
def test_the_hub_s_refusal_comes_in_the_kiosk_s_language(
    tour, database, artefacts: Path, language: str, said: str
) -> None:
    from hub.cluster import free_port

    port = free_port()
    hub = _hub(database, port)
    try:
        tour.at("home")
        tour.app.set_language(language)
        tour.app.go("league")
        screen = tour.screen()
        screen.code_field.text = "ABCD-EFGH-JKMN"  # well formed, never issued
        screen.hub_field.text = f"http://127.0.0.1:{port}"
        screen.join()
        assert _wait(tour, lambda: screen.joining is None)
        assert screen.message.text.startswith(said), screen.message.text
        assert tour.kiosk.league is not None and tour.kiosk.league.status().member is None
        tour.save(artefacts / f"settings_league_refused_{language}.png")
    finally:
        hub.kill()
        hub.wait()
        tour.app.set_language("en")
        tour.at("home")
