"""The hub's refusals of a forged report are the kiosk's words in the reader's language, all of
them: an error quoted into a translated sentence is itself made with `_` at its raise (named
placeholders), so a German kiosk reads it in German, and says it again in Finnish when its
owner switches (kiosk.i18n: `Said`), the command that no longer applies named in words ("ein
Schuss", not "Fire"). Before, a game's parser gave Python's own words ("'seed'", "int()
argument must be ..."), the replay the command's class name and the dart game's rebuild an
English f-string."""

from __future__ import annotations

import json
import random

import pytest

from kiosk.board import Profile, board_for
from kiosk.darts.match import ReplayError, Throw, Undo
from kiosk.i18n import recording, said_again, said_json, said_of, speaking
from kiosk.league import report as reports
from kiosk.league.membership import Membership
from kiosk.store import Store
from tests import league_games as games
from tests.kiosk.conftest import SHARK_FLEET, make_match

MEMBER = Membership("http://hub.example", 3, "k" * 43, 7, "The Anchor", 1, "Harbour League")


def _report(tmp_path, play, *args) -> dict:
    store = Store(tmp_path / "k.db")
    store.use_league(MEMBER)
    play(store, *args)
    assert store.outbox is not None
    return json.loads(store.outbox.due(1e12)[0].report)


def _refusal_in_german(report: dict) -> str:
    """The reason `verify` gives, made as the hub makes it for a German kiosk."""
    with speaking("de"), recording(), pytest.raises(reports.ReportError) as refused:
        reports.verify(report)
    return said_of(refused.value)


def _forged_place_team(report: dict) -> None:
    place = next(entry for entry in report["log"] if entry["body"].get("cmd") == "place")
    place["body"]["team"] = "x"


def _forged_shot_again(report: dict) -> None:
    fires = [n for n, entry in enumerate(report["log"]) if entry["body"].get("cmd") == "fire"]
    report["log"].insert(fires[2] + 1, report["log"][fires[2]])  # the third shot, fired twice


FORGERIES = [  # (kind, forgery, the German reason, the same said again in Finnish)
    (
        "darts",
        _forged_place_team,
        "Befehl 1 ist nicht lesbar: 'team' hat den falschen Typ",
        "komentoa 1 ei voi lukea: 'team' on väärää tyyppiä",
    ),
    (
        "darts",
        lambda r: r["setup"].update(bull_off="x"),
        "die Spieleinstellung ist nicht lesbar: 'bull_off' muss normal, official oder off sein",
        "pelin asetuksia ei voi lukea: 'bull_off' on normal, official tai off",
    ),
    (
        "classic",
        _forged_shot_again,
        "das Protokoll lässt sich nicht nachspielen: Befehl 6 (ein Schuss) passt nicht mehr: "
        "auf H1 wurde schon gefeuert: wähle ein anderes Feld",
        "pelilokia ei voi toistaa: komento 6 (laukaus) ei enää käy: "
        "ruutuun H1 on jo ammuttu: valitse toinen ruutu",
    ),
    (
        "express",
        lambda r: r["setup"].pop("seed"),
        "die Spieleinstellung ist nicht lesbar: 'seed' fehlt",
        "pelin asetuksia ei voi lukea: 'seed' puuttuu",
    ),
    (
        "express",
        lambda r: r["setup"].update(points_to_win=None),
        "die Spieleinstellung ist nicht lesbar: 'points_to_win' muss eine ganze Zahl sein",
        "pelin asetuksia ei voi lukea: 'points_to_win' on kokonaisluku",
    ),
    (
        "express",
        lambda r: r["setup"]["rules"]["Carrier"].update(defense="x"),
        "die Spieleinstellung ist nicht lesbar: 'rules.Carrier.defense' hat den falschen Typ",
        "pelin asetuksia ei voi lukea: 'rules.Carrier.defense' on väärää tyyppiä",
    ),
    (
        "express",
        lambda r: r["setup"]["rules"]["Carrier"].update(armour=3),
        "die Spieleinstellung ist nicht lesbar: 'rules' hat einen unbekannten Schlüssel 'Carrier.armour'",
        "pelin asetuksia ei voi lukea: kohdassa 'rules' on tuntematon avain 'Carrier.armour'",
    ),
]


@pytest.mark.parametrize(
    ("kind", "forge", "german", "finnish"),
    FORGERIES,
    ids=[
        "darts-place",
        "darts-bull-off",
        "classic-shot",
        "express-seed",
        "express-points",
        "express-rules",
        "express-key",
    ],
)
def test_a_forged_report_is_refused_in_german_to_the_last_word(tmp_path, kind, forge, german, finnish):
    if kind == "darts":
        report = _report(tmp_path, games.play_darts, [["Ann", "Bo"], ["Cy"]], random.Random(1), 1)
    elif kind == "classic":
        report = _report(tmp_path, games.play_classic, ["Ann", "Cy"], random.Random(5), 1)
    else:
        report = _report(tmp_path, games.play_express, ["Ann", "Cy", "Di"], random.Random(3))
    forge(report)
    reason = _refusal_in_german(report)
    assert reason == german
    # Every word of it is ours, so the kiosk says it again in the language it speaks later.
    kept = json.loads(json.dumps(said_json(reason)))
    with speaking("fi"):
        assert said_again(kept) == finnish


def _corrupted(step: int, copy_of: int):
    """A dart game two darts into its first visit whose kept history has `copy_of`'s step put
    in again before `step` (0-based): a history that no longer replays."""
    match = make_match(start=0)
    four = board_for(Profile.FOUR_RING)
    match.apply(Throw(four.parse("T5")))
    match.apply(Throw(four.parse("T6")))
    match._history.insert(step, match._history[copy_of])
    return match


def test_a_step_that_no_longer_replays_is_said_in_german_and_shows_no_fleet():
    """The dart game's own rebuild (Undo replays the history it kept): a step that no longer
    applies is a bug, said loudly, in the kiosk's words; a step is named by its cell or its
    command's kind in words, never by a repr that would show a team's fleet."""
    with speaking("de"), pytest.raises(ReplayError) as broken:
        _corrupted(2, 3).apply(Undo())  # the dart at T5 before the start
    assert str(broken.value) == (
        "Schritt 3 des Spiels (der Dart auf T5) passt nicht mehr: "
        "die Flotten sind noch nicht alle gesetzt: Darts zählen nicht"
    )
    with pytest.raises(ReplayError) as placed:
        _corrupted(3, 0).apply(Undo())  # the Sharks' placement again, after the start
    assert str(placed.value).startswith("step 4 of the game (placing a fleet) no longer applies: ")
    assert not any(cell in str(placed.value) for cell in SHARK_FLEET.replace("-", " ").split())
