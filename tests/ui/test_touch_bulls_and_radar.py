"""The drawn board shows both bulls and a tap tells them apart (issue 20, point 11); after
Next, the new team's radar outlines no cell the other team threw (point 5)."""

from __future__ import annotations

import pytest

from kiosk.board import BULL, BullZone, Cell, Ring
from kiosk.darts.match import Phase

pytestmark = pytest.mark.slow


def _pixel(x: float, y: float) -> tuple[int, int, int]:
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    from ui.touch.fingers import frames

    frames(2)
    data = glReadPixels(int(x), int(y), 1, 1, GL_RGB, GL_UNSIGNED_BYTE)
    return data[0], data[1], data[2]


def _nearest(colour: tuple[int, int, int], **named: tuple[float, ...]) -> str:
    def distance(rgba: tuple[float, ...]) -> float:
        return sum((c - 255 * v) ** 2 for c, v in zip(colour, rgba[:3], strict=True))

    return min(named, key=lambda name: distance(named[name]))


def test_both_bulls_are_drawn_and_taps_on_each_count_as_that_bull(tour):
    from kiosk.geometry import INNER_BULL_R, OUTER_BULL_R
    from ui.touch import theme

    tour.at("bull_off")
    assert tour.app.sm.current == "bull_off"
    view = tour.screen().board_view
    middle = (INNER_BULL_R + OUTER_BULL_R) / 2
    inner_xy = view.to_window(*view.to_px(0, 0))
    outer_xy = view.to_window(*view.to_px(middle, 90))
    colours = {"red": theme.BOARD_RED, "green": theme.BOARD_GREEN}
    assert _nearest(_pixel(*inner_xy), **colours) == "red"
    assert _nearest(_pixel(*outer_xy), **colours) == "green"
    from ui.touch.fingers import tap_at

    tap_at(*outer_xy)  # Sharks: the outer bull
    tour.drain()
    tap_at(*inner_xy)  # Jets: the inner bull, and they start
    tour.drain()
    match = tour.match
    assert match.bull_off_zones() == (BullZone.OUTER, BullZone.INNER)
    assert match.phase is Phase.THROWING and match.turn == 1


def test_after_next_the_new_radar_outlines_nothing_of_the_other_team(tour):
    tour.at("game")
    match = tour.match
    assert match.phase is Phase.THROWING
    screen = tour.screen()
    assert screen.radar.last is None  # a visit starts: nothing thrown yet
    thrower = match.turn
    cell = Cell(Ring.SMALL, 11)
    tour.throw_tap(cell)
    assert screen.radar.last == cell  # the team's own dart, outlined
    tour.press("Next")
    assert tour.match.turn == 1 - thrower and tour.match.phase is Phase.THROWING
    assert screen.radar.last is None  # not the other team's S11
    tour.throw_tap(BULL)
    assert screen.radar.last == BULL
    tour.app.go("home")
