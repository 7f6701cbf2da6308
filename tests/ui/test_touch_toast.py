"""A toast shows its whole message: a long one wraps to as many lines as it needs, gets a
smaller font (the shared rule `fitting_font`) to stay over the board, and a taller panel past
that; never "…", never lines dropped, never off the window. Checked with the same check as
every screen (`ui.touch.fitting`), in English, German and Finnish; the other window sizes are
the walk's (`dartship screenshots --check`, its "toast_long" screen)."""

from __future__ import annotations

import pytest

from kiosk.app.tour.driver import GARBLED_LINE

# The longest the kiosk says: the Express coach's failure with a refusal inside, as a worst case.
VERY_LONG = (
    "The coach has no advice: the table's dice were typed in by hand and two of the faces "
    "tapped do not match the dice the rules allow for this roll; tap Undo, then tap each "
    "die's face again as it lies on the table, from left to right, and the coach will look again."
)


def _toast_faults(tour) -> list[str]:
    from ui.touch.fingers import frames
    from ui.touch.fitting import faults

    frames(2)  # laid out as drawn
    return [str(f) for f in faults(tour.app.toast_panel)]


@pytest.mark.parametrize("language", ["en", "de", "fi"])
def test_a_garbled_line_s_notice_is_shown_whole_over_the_board(tour, language: str) -> None:
    tour.at("game", language)
    try:
        tour.garbled_line()
        app = tour.app
        assert app.toast_panel.opacity == 1
        assert GARBLED_LINE in app.toast_label.text  # the reader's words, all of them
        assert _toast_faults(tour) == []
        board = tour.screen().toast_anchor()
        bottom = board.to_window(board.x, board.y)[1]
        assert bottom <= app.toast_panel.y and app.toast_panel.top <= bottom + board.height
    finally:
        tour.app._hide_toast()
        tour.at("home")


@pytest.mark.parametrize("anchored", [True, False])
def test_a_very_long_toast_grows_rather_than_cut(tour, anchored: bool) -> None:
    from kivy.core.window import Window

    tour.at("game" if anchored else "home")
    try:
        app = tour.app
        app.toast(VERY_LONG)
        assert app.toast_label.text == VERY_LONG
        assert _toast_faults(tour) == []
        assert app.toast_panel.y >= 0 and app.toast_panel.top <= Window.height
    finally:
        tour.app._hide_toast()
        tour.at("home")


def test_a_long_toast_stays_long_enough_to_be_read() -> None:
    from ui.touch.shell import reading_seconds

    assert reading_seconds("board connected") < 4.0  # a short notice: its own 2 or 4 s
    assert reading_seconds(VERY_LONG) > 15.0  # 56 words: about 20 s
