"""Two names are one name when they differ only in case (kiosk.names.same_name), for every new
game that takes two or more."""

from __future__ import annotations

import pytest

from kiosk.app.run import _teams
from kiosk.names import same_name


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
