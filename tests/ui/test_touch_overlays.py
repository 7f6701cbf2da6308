"""What lies over what on the game screen: a refusal's toast never covers the cell field, Throw
or Next, the HIT/SUNK word never the scoreboard; the Stats dates fit; Kivy's start-up noise is
one quiet line."""

from __future__ import annotations

import logging
from datetime import date

import pytest

pytestmark = pytest.mark.slow


def _rect(widget) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_toasts_and_the_announcement_leave_the_controls_and_the_scoreboard_free(tour) -> None:
    from kiosk.board import Cell, Ring
    from ui.touch.fingers import frames

    tour.at("home")
    tour.new_game()
    for team in ("Sharks", "Jets"):
        tour.press(f"{team}: place on this screen")
        tour.press("Random fleet")
        tour.press("Lock in")
    screen = tour.screen()
    if screen.name == "bull_off":
        tour.tap_cell(screen.board_view, Cell(Ring.DOUBLE, 1))
        tour.tap_cell(screen.board_view, Cell(Ring.DOUBLE, 7))
        tour.press("Sharks")
    screen = tour.screen()
    assert screen.name == "game"
    screen.cell_field.text = "T21"  # not a cell: refused with a toast
    screen.cell_field.dispatch("on_text_validate")
    frames(2)
    toast = tour.app.toast_panel
    assert toast.opacity == 1 and "T21" in tour.app.toast_label.text
    for control in (screen.cell_field, screen.next_button, screen.sim_row):
        assert not _overlap(_rect(toast), _rect(control)), control
    tour.throw_typed("T20")  # a dart: its word shows
    assert screen.announcement.opacity == 1
    assert not _overlap(_rect(screen.announcement), _rect(screen.scoreboard))
    tour.app._hide_toast()
    screen.announcement.clear()


def test_stats_dates_are_short_and_in_the_languages_order(tour) -> None:
    from kiosk.i18n import set_language
    from ui.touch.stats_page import played_on

    today = date(2026, 11, 30)
    assert played_on("2026-03-04T10:00:00.000+00:00", today) == "4/3"
    assert played_on("2025-03-04T10:00:00.000+00:00", today) == "4/3/2025"
    assert played_on("not a date") == "not a date"
    try:
        set_language("de")
        assert played_on("2026-03-04T10:00:00.000+00:00", today) == "4.3."
    finally:
        set_language("en")


def test_kivys_start_up_noise_is_one_quiet_line() -> None:
    from ui.touch.kivy_setup import QuietKnownNoise

    try:
        raise OSError("libmtdev.so.1: cannot open shared object file")
    except OSError:
        import sys

        info = sys.exc_info()
    record = logging.LogRecord(
        "kivy", logging.ERROR, __file__, 1, "Input: MTDev is not supported by your version of linux", (), info
    )
    assert QuietKnownNoise().filter(record)
    assert record.levelno == logging.DEBUG and record.exc_info is None
    other = logging.LogRecord("kivy", logging.ERROR, __file__, 1, "Window: real trouble", (), info)
    QuietKnownNoise().filter(other)
    assert other.levelno == logging.ERROR and other.exc_info is info
