"""A bar's team names as people type them, on the dart game's screens (found in a real window
under Xvfb by the qa5 night in the bar: build/artefacts/qa5/).

The longest name the kiosk keeps (`kiosk.names.MAX_NAME`, 32 characters) cut the hand-over's
title short ("... scan your code or place" without "here"), ran over the bull-off's rule and
its own "to throw", and ran off both sides of the result card ("ory for The Extraordinarily
Long Name"); the placing screen's title took two lines in the room of one. A team without
named players was called twice on the scoreboard ("Jets: Jets throws", "next: Jets, Jets").
"""

from __future__ import annotations

import pytest

from kiosk.board import MISS
from kiosk.darts.match import Next, Team, Throw
from kiosk.names import MAX_NAME
from kiosk.service import Source

LONGEST = "The Extraordinarily Long Named D"
assert len(LONGEST) == MAX_NAME
# As the new-game screen makes them: a team without named players is one player of its name.
TEAMS = (Team(LONGEST, ("Anna", "Ben")), Team("Jets", ("Jets",)))


def on_purpose(stage: str, text: str) -> bool:
    """The game's scoreboard gives a team's name one line and ends a long one in "…" (its
    column is a quarter of the screen wide); the line under it names the team in full."""
    return stage == "game" and text == LONGEST


@pytest.mark.parametrize("language", ["en", "de", "fi"])
def test_the_longest_team_name_fits_every_dart_screen(tour, language: str) -> None:
    from ui.touch.fingers import frames
    from ui.touch.fitting import faults

    found = {}
    try:
        for stage in ("placement", "bull_off", "game", "over"):
            tour.at(stage, language, teams=TEAMS)
            frames(2)  # as drawn: texts are fitted before the frame after their last change
            found[stage] = [str(f) for f in faults() if not on_purpose(stage, f.text)]
        # Both orders: the long name as the team looking away and as the team placing.
        tour.at("placement", language, teams=(TEAMS[1], TEAMS[0]))
        frames(2)
        found["placement, second"] = [str(f) for f in faults()]
        # The team placing on the screen: its title names it ("...: place your fleet").
        tour.app.screen("placement").open_for(1)
        frames(2)
        found["placing"] = [str(f) for f in faults()]
    finally:
        tour.at("home")
    assert not any(found.values()), found


def test_the_bull_off_panel_keeps_a_long_name_inside_it(tour) -> None:
    """The team's name and where its dart landed stay inside the team's panel, one above the
    other (the name ran over the rule above and the "to throw" below)."""
    from ui.touch.fingers import frames

    try:
        tour.at("bull_off", teams=TEAMS)
        frames(2)
        screen = tour.app.screen("bull_off")
        for panel in screen.teams.children:
            name, where = reversed(panel.children)  # Kivy keeps the last added first
            for label in (name, where):
                label.texture_update()
                assert label.texture_size[1] <= label.height + 1, (label.text, label.texture_size, label.size)
            assert name.y >= where.top - 1, (name.text, name.y, where.top)
            assert panel.top <= screen.rule.y + 1
    finally:
        tour.at("home")


def test_a_team_without_named_players_is_named_once(tour, artefacts) -> None:
    """The scoreboard says "Jets throws" and "next: Jets", as the host page and the caller do,
    not "Jets: Jets throws"; a team with players still names the one throwing."""
    from ui.touch.fingers import frames

    try:
        tour.at("visit", teams=TEAMS)  # Anna has thrown two darts
        scoreboard = tour.app.screen("game").scoreboard
        assert scoreboard.turn.text == f"{LONGEST}: Anna throws"
        service = tour.kiosk.service
        service.submit(Throw(MISS), Source.TOUCH)
        tour.drain()
        assert scoreboard.turn.text == "next: Jets"
        service.submit(Next(), Source.TOUCH)
        tour.drain()
        frames(1)
        assert scoreboard.turn.text == "Jets throws"
        tour.save(artefacts / "scoreboard_team_named_once.png")
    finally:
        tour.at("home")


def test_the_result_card_has_no_player_row_for_a_team_without_named_players(tour, artefacts) -> None:
    """The Sharks' players each have a row under the team's; the Jets (no named players) have
    their team's row alone, not a second row of their own name."""
    try:
        tour.at("over", teams=TEAMS)
        table = tour.app.screen("result").table
        columns = table.cols
        cells = [w.text for w in reversed(table.children)]
        names = [cells[i].strip() for i in range(0, len(cells), columns)]
        assert names == ["Player", LONGEST, "Anna", "Ben", "Jets"]
        tour.save(artefacts / "result_team_named_once.png")
    finally:
        tour.at("home")
