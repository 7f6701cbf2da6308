"""Two taps at once on the drawn board (found by the qa5 night in the bar, in a real window
under Xvfb): a finger's double tap on a cell scored two darts 0.2 s apart (commands 6 and 7,
S1 and S1), where a thrower taps once per dart. The second tap of a double tap on the cell
just tapped is one dart, and the screen says so; a tap that is no double tap still counts."""

from __future__ import annotations

from kiosk.board import Cell, Ring
from kiosk.darts.match import Throw


def double_tap_at(x: float, y: float) -> None:
    """Two taps as Kivy's input delivers them: through its own doubletap detector (the window's
    input passes it; the tests' fingers do not by themselves), which marks the second one."""
    from kivy.input.postproc import kivy_postproc_modules

    from ui.touch.fingers import Finger, frames

    detector = kivy_postproc_modules["doubletap"]
    for _ in range(2):
        finger = Finger(x, y)
        detector.process([("begin", finger)])
        finger.down()
        detector.process([("end", finger)])
        finger.up()
    frames(1)


def thrown(tour) -> list[Cell]:
    return [c.cell for c in tour.match.log if isinstance(c, Throw)]


def test_a_double_tap_on_a_cell_is_one_dart_and_said(tour) -> None:
    from kiosk.i18n import _

    try:
        tour.at("game")
        radar = tour.screen().radar
        targets = tour.enemy_cells(0)
        cell = next(
            c for c in tour.match.board.cells if c.on_board and c.ring is Ring.SMALL and c not in targets
        )
        double_tap_at(*radar.to_window(*radar.point_of(cell)))
        tour.drain()
        assert thrown(tour) == [cell]
        assert tour.match.dart_in_visit == 1
        said = _("A double tap on {cell} counts as one dart: tap again for a second").format(cell=cell.code)
        assert tour.app.toast_label.text == said
        # A tap after it (no double tap) is the next dart, on the same cell too.
        tour.throw_tap(cell)
        assert thrown(tour) == [cell, cell]
    finally:
        tour.at("home")
