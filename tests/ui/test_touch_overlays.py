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


def test_a_name_with_brackets_is_announced_as_typed_not_as_markup(tour) -> None:
    """The SUNK / win overlay names the player ("Bo's Carrier", "Victory for Sharks!"): a name
    typed as Kivy markup is shown as typed, and the line keeps its own size."""
    from ui.touch.fingers import frames

    tour.at("home")
    screen = tour.screen()
    from ui.touch.announcement import Announcement

    plain, marked = Announcement(size=(700, 400)), Announcement(size=(700, 400))
    screen.add_widget(plain)
    screen.add_widget(marked)
    try:
        plain.announce("SUNK!", "Bo's Carrier", "sunk")
        marked.announce("SUNK!", "[size=400]Bo[/size]'s Carrier", "sunk")
        frames(2)
        assert "[size=400]" not in marked.text and "&bl;size=400&br;" in marked.text
        # Drawn the same height as a plain name, not 400 pixels of "Bo".
        assert marked.texture_size[1] == plain.texture_size[1]
    finally:
        screen.remove_widget(plain)
        screen.remove_widget(marked)


def test_the_board_banner_takes_its_own_strip_and_covers_no_button(tour, artefacts) -> None:
    """Board unplugged: the red banner shows at the top, and the game screen is laid out below
    it, so its Home and Phones stay visible (they used to lie under the banner); plugged in
    again, the screen has the whole window back."""
    from kivy.uix.button import Button

    from kiosk.inputs import Connected, Disconnected
    from ui.touch.fingers import frames

    tour.at("game")
    service, app = tour.kiosk.service, tour.app
    whole = app.sm.height
    service.handle_input(Disconnected("unplugged"))
    frames(3)
    try:
        assert app.banner.opacity == 1
        buttons = [w for w in tour.screen().walk() if isinstance(w, Button) and w.opacity > 0]
        assert {"Home", "Phones"} <= {b.text for b in buttons}
        for button in buttons:
            assert not _overlap(_rect(button), _rect(app.banner)), button.text
        tour.save(artefacts / "game_board_unplugged.png")
    finally:
        service.handle_input(Connected("/dev/ttyACM0"))
        frames(3)
    assert app.banner.opacity == 0 and app.sm.height == whole
