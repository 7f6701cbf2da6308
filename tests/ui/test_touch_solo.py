"""Solo mode and the coach on the touchscreen, headless, driven by simulated touches.

One window per process: these tests share the session's `tour`; each builds its game first
(`tour.at("solo")`: the players up against the kiosk, see tests/ui/stages.py). The kiosk's
computer player lives on the tour's asyncio loop, which `tour.pump` runs (pauses are 0 here);
the coach answers from a worker thread, which `tour.wait_for_coach` waits for in frames.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.board import Cell, Ring
from kiosk.darts.match import Match, Phase
from kiosk.darts.solo import KioskSeat
from kiosk.game import Result
from kiosk.scatter import Skill

pytestmark = pytest.mark.slow


def labels_text(root) -> str:
    from kivy.uix.label import Label

    return "\n".join(w.text for w in root.walk() if isinstance(w, Label) and w.opacity > 0)


def kiosk_fleet_cells(match: Match) -> set[Cell]:
    """The test's own look at the kiosk's fleet (Match.fleet of the base class, unguarded)."""
    return set(Match.fleet(match, 1).cells)


def test_solo_setup_places_only_the_players_fleet(tour, artefacts: Path) -> None:
    tour.at("home")
    tour.start_solo()
    screen = tour.screen()
    assert screen.solo.value and screen.players[1].disabled and screen.names[1].text == "Kiosk"
    tour.press_start("Place fleets")
    service = tour.kiosk.service
    assert tour.solo.seat() == KioskSeat(1, Skill.PUB)
    assert tour.pump()
    match = service.match
    assert match.state().placed == (False, True)
    text = labels_text(tour.root)
    assert "Kiosk has hidden its fleet" in text and "look away" not in text
    with pytest.raises(LookupError):
        tour.press("Kiosk: place on this screen")
    placement = tour.screen()
    placement.open_for(1)  # even asked directly, the screen never opens the kiosk's fleet
    assert placement.team is None and placement.board_view.marks == {}
    tour.press("Sharks: place on this screen")
    tour.press("Random fleet")
    tour.press("Lock in")
    assert tour.pump()
    assert match.phase is Phase.BULL_OFF and match.bull_off_zones()[1] is not None
    assert " mm off" in labels_text(tour.root)
    assert len(tour.screen().board_view.pins) == 1
    tour.save(artefacts / "bull_off_solo.png")
    tour.tap_cell(tour.screen().board_view, Cell(Ring.SMALL, 20))
    if match.bull_off_undecided:
        tour.press("Sharks")
    if tour.kiosk_turn():
        assert tour.pump(lambda: not tour.kiosk_turn())
    assert tour.app.sm.current == "game" and match.turn == 0 and match.phase is Phase.THROWING


def test_the_kiosk_throws_dart_by_dart_on_screen(tour, artefacts: Path) -> None:
    tour.at("solo")
    service = tour.kiosk.service
    match = service.match
    screen = tour.app.screen("game")
    for visit in range(3):
        for code in ("S1", "D7", "T14")[: 3 - match.dart_in_visit]:
            tour.throw_typed(code)
        assert match.phase is Phase.TAKEOUT and match.turn == 0
        before = match.tally(1).darts
        tour.press("Next")
        for dart in (1, 2):
            assert tour.pump(lambda d=dart: match.phase is not Phase.THROWING or match.dart_in_visit >= d)
            if match.phase is not Phase.THROWING:
                break  # it won (it will not: the players have three dozen darts to go)
            # The kiosk's dart is announced like any dart and drawn where it landed.
            words = screen.announcement.text
            assert any(w in words for w in ("HIT", "MISS", "SUNK", "REPEAT"))
            assert len(screen.radar.pins) == dart
            assert "Kiosk is throwing" in labels_text(tour.root)
            # Its radar shows only its own shots at the players: never its own (hidden) fleet.
            assert set(screen.radar.marks) <= set(match.shots(1))
            assert not (kiosk_fleet_cells(match) - set(match.shots(1))) & set(screen.radar.marks)
            assert screen.sim_row.disabled  # the simulator does not throw for the kiosk
        if visit == 1:
            tour.save(artefacts / "game_kiosk.png")
        assert tour.pump(lambda: not tour.kiosk_turn())
        assert match.tally(1).darts == before + 3 and match.turn == 0
        assert match.phase is Phase.THROWING  # it pressed Next itself after its visit


def test_undo_of_a_kiosk_dart_waits_for_the_players(tour) -> None:
    tour.at("solo")
    match = tour.kiosk.service.match
    for code in ("S2", "S3", "S4"):
        tour.throw_typed(code)
    tour.press("Next")
    assert tour.pump(lambda: match.dart_in_visit >= 2)
    tour.press("Undo")
    assert tour.pump()  # idle: it holds instead of throwing the dart again
    assert match.dart_in_visit == 1 and tour.solo.player.holding
    assert "it waits" in labels_text(tour.root)
    tour.press("Let the kiosk throw")
    assert tour.pump(lambda: not tour.kiosk_turn())
    assert match.turn == 0 and not tour.solo.player.holding


def test_the_coach_shades_the_radar_and_marks_the_aim(tour, artefacts: Path) -> None:
    tour.at("solo")
    match = tour.kiosk.service.match
    screen = tour.app.screen("game")
    assert match.turn == 0 and match.phase is Phase.THROWING
    assert not screen.coach_on and screen.radar.heat == {} and screen.radar.crosshair is None
    tour.press("Coach")
    assert tour.wait_for_coach()
    radar = screen.radar
    assert radar.crosshair is not None and radar.scatter_mm == Skill.PUB.sigma
    # Public only: no heat on a cell already shot; the heat sums to the ship cells still to hit.
    assert all(radar.heat[c] == 0 for c in match.shots(0))
    unsunk = sum(match.setup.rules.fleet) - sum(1 for r in match.shots(0).values() if r.scores)
    assert abs(sum(radar.heat.values()) - unsunk) < 0.5
    assert "Coach: aim at the cross" in labels_text(tour.root)
    tour.save(artefacts / "game_coach.png")
    tour.press("thrower:\npub player")  # the next skill: pro
    assert tour.wait_for_coach()
    assert radar.scatter_mm == Skill.PRO.sigma
    hot = max(radar.heat, key=radar.heat.get)
    tour.throw_typed(hot.code)
    assert tour.wait_for_coach()
    assert match.shots(0)[hot] in (Result.HIT, Result.SUNK, Result.MISS, Result.REPEAT)
    assert radar.heat[hot] == 0
    tour.throw_typed("miss")
    tour.throw_typed("miss")
    tour.press("Next")
    tour.pump(lambda: match.dart_in_visit >= 1)
    assert screen.coach is None and radar.heat == {}  # no coach for the kiosk's own visit
    assert tour.pump(lambda: not tour.kiosk_turn())
    assert tour.wait_for_coach()  # back for the players
    tour.press("Coach")
    assert radar.heat == {} and radar.crosshair is None and not screen.coach_on
    with pytest.raises(LookupError):  # the skill button is hidden with the coach off
        tour.press("thrower:\npro")


def test_a_new_two_team_game_ends_the_kiosk_player(tour) -> None:
    tour.at("solo")
    player = tour.solo.player
    tour.new_game()
    assert player.stopped and tour.solo.player is None
    assert tour.app.sm.current == "placement"
