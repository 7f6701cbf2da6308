"""A way out of every dart game screen (issue 20, point 3): Home on the hand-over, placement,
bull-off and game screens leaves the game as it is (Home offers Continue); staff abandon a game
in Settings (behind the PIN), asked first; it is stored as abandoned and Stats say so."""

from __future__ import annotations

import pytest

from kiosk.board import Cell, Ring

pytestmark = pytest.mark.slow


def _home_and_back(tour, screen_name: str) -> None:
    assert tour.app.sm.current == screen_name
    tour.press("Home")
    assert tour.app.sm.current == "home"
    home = tour.screen()
    assert home.continue_button.parent is not None  # Continue: the game is still in play
    tour.press(home.continue_button.text)
    assert tour.app.sm.current == screen_name


def _status(tour, game: int) -> str:
    row = tour.kiosk.store.db.execute("SELECT status FROM games WHERE id=?", [game]).fetchone()
    return row[0]


def test_home_on_every_dart_game_screen_then_abandon_behind_the_pin(tour):
    tour.at("home")
    tour.new_game()
    game = tour.kiosk.service.game
    _home_and_back(tour, "placement")  # the hand-over
    tour.press("Sharks: place on this screen")
    assert tour.screen().team == 0
    # Placing: the fleet is put away (the next Continue may be the other team's), the hand-over
    # shows, and the team's own button brings its board back.
    _home_and_back(tour, "placement")
    assert tour.screen().team is None
    tour.press("Sharks: place on this screen")
    assert tour.screen().team == 0
    tour.press("Random fleet")
    tour.press("Lock in")
    tour.press("Jets: place on this screen")
    tour.press("Random fleet")
    tour.press("Lock in")
    _home_and_back(tour, "bull_off")
    bull = tour.screen()
    tour.tap_cell(bull.board_view, Cell(Ring.SMALL, 20))
    tour.tap_cell(bull.board_view, Cell(Ring.SMALL, 3))
    tour.press("Sharks")
    _home_and_back(tour, "game")

    tour.app.go("settings")  # what the PIN screen opens
    settings = tour.screen()
    assert not settings.abandon_button.disabled
    tour.press("Abandon game")
    assert "again" in settings.message.text and tour.kiosk.service.game == game  # asked first
    tour.press("Abandon game")
    assert tour.kiosk.service.match is None and _status(tour, game) == "abandoned"
    assert "abandoned" in settings.message.text and settings.abandon_button.disabled
    tour.app.go("home")
    assert tour.screen().continue_button.parent is None  # nothing to continue
    summary = tour.kiosk.store.stats.last_games()[0]
    assert summary.id == game and summary.abandoned and summary.winner is None
    tour.app.go("stats")
    tour.drain()
    from kivy.uix.label import Label

    stats = tour.app.screen("stats")
    stats.choose("darts")
    words = [w.text for w in stats.walk() if isinstance(w, Label)]
    assert "abandoned" in words
    tour.app.go("home")
