"""Classic 10x10 on the touchscreen, headless, driven by simulated touches on the session's
kiosk (`tour`, from the composition root): Home's game choice, solo against the computer with a
re-placed fleet to the win, the result card and Stats, and a duel whose fleets are on two real
phone clients of the kiosk's own phone page. Each test builds its game first (`tour.at`:
Home, or a classic solo game by touch, see tests/ui/stages.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.app.tour.classic import ClassicWalk
from kiosk.classic.fleet import CLASSES
from kiosk.classic.grid import GRID, parse_square
from kiosk.classic.match import ComputerLevel, Mode
from ui.touch.games import offered

pytestmark = pytest.mark.slow


def labels_text(root) -> str:
    from kivy.uix.label import Label

    return "\n".join(w.text for w in root.walk() if isinstance(w, Label) and w.opacity > 0)


def test_home_offers_each_game_whose_screens_exist(tour) -> None:
    tour.at("home")
    home = tour.screen()
    assert list(home.game_buttons) == ["darts", "classic", "express"]
    # A game whose start screen the app lacks is not offered (no placeholder).
    without_express = offered(tour.app.games, lambda name: name in ("new_game", "classic_new"))
    assert [g.kind for g in without_express] == ["darts", "classic"]
    assert "express" in [g.kind for g in tour.app.games]
    tour.choose_game("classic")
    assert tour.app.sm.current == "classic_new"
    web = tour.kiosk.web
    assert web is not None and tour.screen().qr.texture is not None  # the phone page's QR


def test_solo_stands_a_random_fleet_at_once_and_re_places_it_by_touch(tour) -> None:
    tour.at("home")
    walk = ClassicWalk(tour)
    screen = tour.app.screen("classic_new")
    screen.level.set_value(ComputerLevel.EASY)
    walk.start_solo("Sharks")
    assert tour.app.sm.current == "classic_solo"
    match = walk.match
    assert match.setup.mode is Mode.SOLO and match.setup.level is ComputerLevel.EASY
    assert match.public_view()["placed"] == [True, True] and match.turn == 0
    solo = tour.screen()
    own = {s for ship in walk.fleet(0).ships for s in ship.cells}
    assert {s for ship in solo.small.ships for s in ship} == own  # the team's own fleet
    assert solo.big.ships == [] and solo.big.marks == {}  # the computer's: never
    tour.press("Re-place fleet")
    assert solo.draft is not None and solo.big.ships  # now the big grid is the team's fleet
    before = walk.fleet(0)
    carrier = before.ship(CLASSES[0])
    # Onto another ship: refused, and the message names the ship and the rule.
    other = before.ships[1].cells[0]
    tour.tap_cell(
        solo.big,
        next(
            s
            for s in GRID.squares
            if s not in carrier.cells
            and before.ship_at(s) is None
            and any(c in before.ships[1].cells for c in GRID.line(s, 5, carrier.horizontal))
            and all(c in GRID for c in GRID.line(s, 5, carrier.horizontal))
        ),
    )
    assert solo.draft.ship(CLASSES[0]) == carrier
    assert "Carrier" in tour.app.toast_label.text and "overlaps" in tour.app.toast_label.text
    # A tap on another ship picks that one up; Rotate turns it; Done keeps the fleet.
    tour.tap_cell(solo.big, other)
    assert solo.chosen is CLASSES[1]
    free = next(s for s in GRID.squares if _fits(solo.draft, CLASSES[1], s))
    tour.tap_cell(solo.big, free)
    assert solo.draft.ship(CLASSES[1]).bow == free
    tour.press("Rotate")
    tour.press("Done")
    assert solo.draft is None and walk.fleet(0) == _expected(before, free)
    assert walk.fleet(0) != before


def _fits(fleet, kind, square) -> bool:
    try:
        moved = fleet.moved(kind, square, fleet.ship(kind).horizontal)
    except Exception:
        return False
    try:
        moved.rotated(kind)
    except Exception:
        return False
    return square != fleet.ship(kind).bow


def _expected(before, free):
    moved = before.moved(CLASSES[1], free, before.ship(CLASSES[1]).horizontal)
    return moved.rotated(CLASSES[1])


def test_tap_to_aim_tap_again_to_fire_and_the_computer_answers(tour) -> None:
    tour.at("classic_solo")
    walk = ClassicWalk(tour)
    solo = tour.screen()
    match = walk.match
    water = walk.water(0)[0]
    tour.tap_cell(solo.big, water)
    assert solo.big.selected == water and match.shots(0) == 0  # aimed, not fired
    assert "again to fire" in solo.prompt.text
    tour.tap_cell(solo.big, water)
    assert match.shots(0) == 1 and water in match.radar(0).shots
    assert "Re-place fleet" not in labels_text(tour.root)  # the shooting has begun
    assert tour.pump(walk.computer_done)
    assert match.shots(1) >= 1 and match.turn == 0
    incoming = {s for s in match.radar(1).shots}
    assert set(solo.small.marks) >= incoming  # the computer's shots on the team's own grid
    assert solo.small.last == list(match.radar(1).shots)[-1]
    # A square already fired at is refused, not spent.
    tour.tap_cell(solo.big, water)
    assert match.shots(0) == 1 and "already been fired at" in tour.app.toast_label.text


def test_solo_to_the_win_then_the_result_card_and_stats(tour, artefacts: Path) -> None:
    tour.at("classic_fired")  # one shot in the water: 17 hits of 18 shots at the end
    walk = ClassicWalk(tour)
    solo = tour.screen()
    match = walk.match
    for square in walk.enemy_squares(0):
        if square not in match.radar(0).shots:
            walk.fire(solo.big, square)
            # The radar shows what was shot and the sunk ships only: never a ship not yet hit.
            unshot = set(walk.enemy_squares(0)) - set(match.radar(0).shots)
            assert not set(solo.big.marks) & unshot and solo.big.ships == []
    assert match.winner == 0
    assert len(solo.big.outlines) == 5
    assert tour.frames_until(lambda: tour.app.sm.current == "classic_result")
    text = labels_text(tour.root)
    assert "Victory for Sharks!" in text and "Hit rate" in text and "94%" in text  # 17 of 18
    tour.save(artefacts / "classic_result.png")
    tour.app.go("stats")
    tour.press("Classic 10×10")
    stats = labels_text(tour.root)
    assert "Sharks" in stats and "Today's challenge" in stats


def test_a_duel_of_two_names_that_differ_only_in_case_is_refused(tour) -> None:
    """ "Sharks" and "sharks" are one name (kiosk.names.same_name), as the dart game's new game
    and `--teams Jets,jets` refuse them: the screen says so and no duel starts."""
    tour.at("home")
    before = tour.kiosk.service.game
    ClassicWalk(tour).start_duel(("Sharks", "sharks"))
    screen = tour.screen()
    assert (
        tour.app.sm.current == "classic_new" and screen.message.text == "the two teams need different names"
    )
    assert tour.kiosk.service.game == before


def test_a_duel_hands_each_team_its_code_then_shows_only_the_radars(tour, artefacts: Path) -> None:
    tour.at("home")
    walk = ClassicWalk(tour)
    walk.start_duel(("Sharks", "Jets"))
    assert tour.app.sm.current == "classic_duel"
    duel = tour.screen()
    text = labels_text(tour.root)
    assert "Jets, look away" in text and "Sharks, scan your code" in text
    assert duel.radars.parent is None  # no grid until both phones hold their links
    web = tour.kiosk.web
    phone0 = walk.claim(0)
    assert phone0["view"]["you"] == 0 and len(phone0["view"]["fleet"]) == 5
    assert phone0["phones"] == [True, False]
    assert "Sharks, look away" in labels_text(tour.root)
    token1 = web.team_url(1).rsplit("/", 1)[1]
    walk.claim(1)
    assert duel.radars.parent is not None
    tour.save(artefacts / "classic_duel_start.png")
    match = walk.match
    for grid in duel.grids:
        assert grid.ships == []  # no fleet is ever drawn in a duel
    assert duel.grids[0].interactive and not duel.grids[1].interactive
    # Sharks fire from the touchscreen: a hit, then a miss.
    walk.fire(duel.grids[0], walk.enemy_squares(0)[0])
    walk.fire(duel.grids[0], walk.water(0)[0])
    assert match.turn == 1 and match.shots(0) == 2
    # Jets fire from their phone; the screen follows.
    session = walk.phones[1]
    for square in walk.enemy_squares(1)[:3]:
        answer = tour.loop.run_until_complete(
            session.post(f"/api/classic/team/{token1}/fire", json={"cell": square.code})
        )
        assert answer.status == 200
        tour.drain()
    assert set(duel.grids[1].marks) == set(match.radar(1).shots)
    # And the rest from the touchscreen, to the win.
    for square in walk.enemy_squares(1)[3:]:
        walk.fire(duel.grids[1], square)
    assert match.winner == 1
    assert tour.frames_until(lambda: tour.app.sm.current == "classic_result")
    assert "Victory for Jets!" in labels_text(tour.root)
    walk.close()
    tour.app.go("home")


def test_a_phone_may_not_fire_until_both_teams_hold_their_phones(tour) -> None:
    tour.at("home")
    walk = ClassicWalk(tour)
    walk.start_duel(("Owls", "Cats"))
    walk.claim(0)
    session = walk.phones[0]
    web = tour.kiosk.web
    token = web.api.tokens.teams[0]
    answer = tour.loop.run_until_complete(
        session.post(f"/api/classic/team/{token}/fire", json={"cell": "A1"})
    )
    body = tour.loop.run_until_complete(answer.json())
    assert answer.status == 409 and body["error"] == "waiting_for_phones"
    assert walk.match.shots(0) == 0
    walk.close()
    tour.app.go("home")
    assert parse_square("A1") not in walk.match.radar(0).shots


def test_the_duel_s_first_turn_is_called_when_the_radars_show(tour, monkeypatch) -> None:
    """Not while a team still scans its code (the caller would name a turn nobody can play),
    but the moment both phones hold their links: "Owls, your turn"."""
    caller = tour.kiosk.caller
    assert caller is not None
    said: list[list[str]] = []
    monkeypatch.setattr(caller, "say", lambda call, wait=0.0: said.append([w.phrase for w in call.words]))
    walk = ClassicWalk(tour)
    walk.start_duel(("Owls", "Cats"))
    walk.claim(0)
    assert said == []
    walk.claim(1)
    assert tour.screen().radars.parent is not None
    assert said == [["name-owls", "name-your-turn"]]
    walk.close()
    tour.app.go("home")
