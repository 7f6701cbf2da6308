"""Names as kept (kiosk.names.clean_name: emoji sequences stay whole) and compared
(kiosk.names.same_name: two names that differ only in case are one name, for every new game that
takes two or more)."""

from __future__ import annotations

import pytest

from kiosk.app.run import _teams
from kiosk.names import clean_name, same_name

FAMILY = "👨\u200d👩\u200d👧"
RAINBOW_FLAG = "🏳\ufe0f\u200d🌈"
SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"


def test_emoji_sequences_keep_their_joiners_and_tags() -> None:
    assert clean_name(f"{FAMILY} Jets") == f"{FAMILY} Jets"
    assert clean_name(f"Die {RAINBOW_FLAG} Brüder") == f"Die {RAINBOW_FLAG} Brüder"
    assert clean_name(f"{SCOTLAND} Jets") == f"{SCOTLAND} Jets"
    assert clean_name("👍🏽 Jets") == "👍🏽 Jets"


def test_joiners_and_tags_outside_a_sequence_are_dropped() -> None:
    assert clean_name("Je\u200dts") == "Jets"  # between letters: no sequence
    assert clean_name("\u200d🎯\u200d") == "🎯"  # at the ends: nothing to join
    assert clean_name("Jets\U000e0067") == "Jets"  # a tag after no black flag
    assert clean_name("\u200d\U000e0067") is None  # nothing visible
    assert clean_name("Anna\u200b\u2060") == "Anna"  # other format characters, as before


def test_names_that_differ_only_in_case_are_one_name():
    assert same_name("Sharks", "sharks") and same_name("STRASSE", "straße")
    assert not same_name("Sharks", "Jets") and not same_name("Jets", "Jets 2")


def test_every_new_game_refuses_one_name_twice():
    from kiosk.express.match import Setup as ExpressSetup
    from kiosk.express.match import SetupError
    from kiosk.express.rules import FLEET

    with pytest.raises(SystemExit):
        _teams("Jets,JETS", "")
    with pytest.raises(SetupError, match="same name"):
        ExpressSetup(players=("Ann", "ann"), lines=(FLEET, FLEET), seed=1)


def test_a_name_typed_with_spaces_is_kept_cleaned_by_every_game_whoever_built_its_setup(tmp_path):
    # The store keeps a setup as it is given, and its results under the names the game was
    # played with; the league's replay reads the names through `clean_name`. A setup built by
    # something that does not clean ("Ann ", a duel's made-up second name) kept them raw and
    # the hub refused the game (branch league10: docs/league.md).
    import json
    import random

    from kiosk.classic.rooms import duel_names
    from kiosk.store import Store
    from tests import league_games as games

    store = Store(tmp_path / "k.db")
    darts = games.play_darts(store, [["Ann ", " Bo\u00a0 Bee"], ["Cy\t"]], random.Random(1))
    classic = games.play_classic(store, ["Dee  Dee ", "Eve\n"], random.Random(2))
    express = games.play_express(store, ["Fay ", "Gus"], random.Random(3))
    setups = {
        game: json.loads(setup) for game, setup in store.db.execute("SELECT id, setup FROM games").fetchall()
    }
    results = store.db.execute("SELECT game, player FROM results ORDER BY game, side, player").fetchall()
    store.close()
    assert setups[darts]["teams"] == ["Ann 's team", "Cy's team"]  # a tab is dropped
    assert setups[darts]["players"] == [["Ann", "Bo Bee"], ["Cy"]]
    assert setups[classic]["players"] == ["Dee Dee", "Eve"]
    assert setups[express]["players"] == ["Fay", "Gus"]
    assert results == [
        (darts, "Ann"),
        (darts, "Bo Bee"),
        (darts, "Cy"),
        (classic, "Dee Dee"),
        (classic, "Eve"),
        (express, "Fay"),
        (express, "Gus"),
    ]
    # Two phones both named so: the friend's " 2" after a cut that ends in a space.
    from kiosk.classic.match import Mode, Setup

    twin = "Annabelle Sophiee X"
    assert Setup(Mode.DUEL, duel_names(twin, twin)).players == (twin, "Annabelle Sophiee 2")
