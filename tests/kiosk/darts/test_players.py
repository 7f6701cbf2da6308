"""Who of a team is named (kiosk.darts.players): one rule, and the caller keeps it as the
screens do."""

from __future__ import annotations

from kiosk.board import MISS
from kiosk.darts.calls import DART_CALLS
from kiosk.darts.match import Next, Start, Team, Throw
from kiosk.darts.players import named_players, thrower
from kiosk.speech import CallOptions

from ..conftest import make_match


def test_a_team_without_named_players_names_nobody():
    assert named_players("Jets", ()) == ()
    assert named_players("Jets", ("Jets",)) == ()  # the team's own name as its only player
    assert named_players("Jets", ("Cleo",)) == ("Cleo",)  # one named player is named
    assert named_players("Jets", ("Jets", "Cleo")) == ("Jets", "Cleo")  # a player may bear it
    assert thrower("Jets", ("Jets",), "Jets") is None
    assert thrower("Jets", ("Cleo",), "Cleo") == "Cleo"
    assert thrower("Jets", ("Cleo",), None) is None
    assert Team("Jets", ("Jets",)).named == () and Team("Jets", ("Cleo",)).thrower("Cleo") == "Cleo"


def _turn_names(players) -> list[list[str]]:
    """The names the caller says at the first visit and at the next two."""
    match = make_match(players=players, start=None)
    said = []
    events = match.apply(Start(0))
    for _visit in range(3):
        call = DART_CALLS.calls(events, match.public_view(), CallOptions()).say[0]
        said.append([w.phrase for w in call.words if w.phrase.startswith("name-")])
        for _dart in range(3):
            match.apply(Throw(MISS))
        events = match.apply(Next())
    return said


def test_the_caller_names_a_player_as_the_scoreboard_does():
    """One named player is named by the caller too ("Jets: Cy to throw"), as the scoreboard
    and the host page name her; a team without named players is called by its name alone."""
    assert _turn_names((("Ann", "Bo"), ("Cy",))) == [
        ["name-sharks", "name-ann"],
        ["name-jets", "name-cy"],
        ["name-sharks", "name-bo"],
    ]
    assert _turn_names((("Sharks",), ("Jets",))) == [["name-sharks"], ["name-jets"], ["name-sharks"]]
    match = make_match(players=(("Sharks",), ("Cy",)))
    said = [w.phrase for w in DART_CALLS.names(match.public_view())]
    assert said == ["name-sharks", "name-jets", "name-cy"]
    assert [t["named"] for t in match.public_view()["teams"]] == [False, True]


def test_a_team_whose_one_player_is_its_own_name_in_another_case_is_named_once():
    from kiosk.darts.players import named_players

    assert named_players("Jets", ["jets"]) == ()
    assert named_players("Jets", ["Jet"]) == ("Jet",)
