"""SUNK!'s pop stays over the board (it covered the scoreboard and Undo and cut its line at the
screen's edge), and a dart on the result card says why in words, over the table, not over Home
and New game (issue 20, point 7)."""

from __future__ import annotations

import pytest

from kiosk.darts.match import Phase

pytestmark = pytest.mark.slow


def test_the_sunk_pop_never_leaves_the_board(tour):
    tour.at("game")
    assert tour.match.phase is Phase.THROWING
    screen = tour.screen()
    card = screen.announcement
    card.announce("VERSENKT!", "ein Schiff der Länge 3 ist untergegangen", "sunk")
    left = card.x + card.width / 2 - card._box.size[0] * card.zoom / 2
    right = card.x + card.width / 2 + card._box.size[0] * card.zoom / 2
    radar = screen.radar
    assert left >= radar.x - 1 and right <= radar.x + radar.width + 1  # the first frame too
    assert card.zoom >= 1.0
    card.clear()


def test_a_dart_on_the_result_card_says_the_game_is_over_above_the_buttons(tour):
    tour.at("over")
    assert tour.app.sm.current == "result"
    assert tour.kiosk.simulator.enter("T20") is None
    tour.drain()
    app = tour.app
    assert app.toast_panel.opacity == 1
    assert app.toast_label.text == "the game is over: darts no longer count"
    buttons = next(w for w in tour.root.walk() if getattr(w, "text", None) == "New game")
    top_of_buttons = buttons.to_window(buttons.x, buttons.y)[1] + buttons.height
    assert app.toast_panel.y >= top_of_buttons
    app._hide_toast()
    tour.app.go("home")
