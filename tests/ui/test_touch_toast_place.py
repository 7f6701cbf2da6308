"""A toast never lies over a button (`ui.touch.toast`): the geometry alone, then the kiosk's
screens at 800x480 with the longest notices they get, in English, German and Finnish. The other
window sizes are the screenshot walk's (`dartship screenshots --check`, every screen)."""

from __future__ import annotations

import pytest

from kiosk.app.tour.driver import GARBLED_LINE
from ui.touch.toast import Box, place, reaching_up

from .test_touch_toast import VERY_LONG


def _lines(width: float) -> float:
    """A text 600 px long at one 20 px line per `width` px."""
    return 20.0 * -(-600 // width)


def test_the_lowest_place_clear_of_every_button() -> None:
    region = Box(0, 0, 400, 300)
    corner = Box(0, 0, 80, 40)  # a button in the bottom-left corner, as the Coach is on the board
    box = place(region, [corner], _lines, least_width=240)
    assert box is not None and not box.overlaps(corner)
    # Beside it (320 px, two lines: its top at 40) is lower than above it (top at 80).
    assert (box.x, box.y, box.width) == (80, 0, 320)
    # Two buttons on the floor leave 240 px between them, narrower than the least: above them.
    both = [corner, Box(320, 0, 80, 40)]
    box = place(region, both, _lines, least_width=250)
    assert box is not None and (box.x, box.y, box.width) == (0, 40, 400)
    assert not any(box.overlaps(button) for button in both)


def test_a_narrow_room_is_kept_as_wide_as_the_least() -> None:
    """Rounding a room down to the step never makes it narrower than the least width."""
    region = Box(0, 0, 800, 300)
    wall = Box(150, 0, 650, 300)  # buttons everywhere but a column 150 px wide
    box = place(region, [wall], lambda _w: 100.0, least_width=120, step=80)
    assert box is not None and box.width == 120 and box.right <= 150


def test_a_toast_reaches_up_to_what_lies_just_above_it() -> None:
    """A toast resting a few pixels under a button (or the region's top) grows to it: no sliver
    of what lies behind it (a prompt's text) shows in between; farther away it stays as it is."""
    region = Box(0, 0, 800, 480)
    button = Box(0, 400, 200, 50)
    under = Box(0, 340, 300, 52)  # its top 8 px under the button
    assert reaching_up(under, region, [button], most=16) == Box(0, 340, 300, 60)
    top = Box(300, 420, 400, 52)  # its top 8 px under the region's top, nothing above it
    assert reaching_up(top, region, [button], most=16) == Box(300, 420, 400, 60)
    far = Box(0, 300, 300, 52)
    assert reaching_up(far, region, [button], most=16) == far


def test_no_place_when_buttons_fill_the_region() -> None:
    region = Box(0, 0, 400, 100)
    rows = [Box(0, 0, 400, 45), Box(0, 50, 400, 50)]
    assert place(region, rows, _lines, least_width=100) is None
    assert place(region, [], lambda _w: 120.0, least_width=100) is None  # too tall for it


def _covered(tour) -> list[str]:
    from ui.touch.fingers import frames
    from ui.touch.toast import covered

    frames(2)  # laid out as drawn
    return covered(tour.app.toast_panel)


@pytest.mark.parametrize("language", ["en", "de", "fi"])
def test_a_garbled_line_s_notice_leaves_the_board_s_buttons_free(tour, language: str) -> None:
    """docs/screenshots/toast_long.png at 800x480 had the toast over the Coach button's edge."""
    tour.at("game", language)
    try:
        tour.garbled_line()
        assert tour.app.toast_panel.opacity == 1 and GARBLED_LINE in tour.app.toast_label.text
        assert _covered(tour) == []
        board = tour.screen().toast_anchor()
        assert board.collide_point(*board.to_widget(*tour.app.toast_panel.center))  # still over the board
    finally:
        tour.app._hide_toast()
        tour.at("home")


SCREENS = [
    ("game", None),
    ("solo", None),
    ("over", None),
    ("bull_off", None),
    ("placement", None),
    ("home", "new_game"),
    ("home", "stats"),
    ("home", "pin"),
    ("home", "settings"),
    ("home", "league"),
    ("home", "learn"),
    ("classic_solo", None),
    ("express_setup", None),
    ("express_turn", None),
]


@pytest.mark.parametrize("message", ["garbled", "very long"])
@pytest.mark.parametrize(("stage", "screen"), SCREENS)
def test_no_toast_covers_a_button_on_any_screen(tour, stage: str, screen: str | None, message: str) -> None:
    tour.at(stage)
    try:
        if screen is not None:
            tour.app.go(screen)
        if message == "garbled":
            tour.garbled_line()
        else:
            tour.app.toast(VERY_LONG)
        assert tour.app.toast_panel.opacity == 1
        assert _covered(tour) == [], tour.screen().name
    finally:
        tour.app._hide_toast()
        tour.at("home")


@pytest.mark.parametrize("language", ["en", "de", "fi"])
def test_express_s_line_up_tiled_with_ships_leaves_its_toast_a_column(tour, language: str) -> None:
    from kiosk.app.tour.driver import label

    tour.at("express_setup", language)
    try:
        tour.press(label("Lay out the lines"))
        assert tour.screen().name == "express_lineup"
        tour.garbled_line()
        assert _covered(tour) == []
    finally:
        tour.app._hide_toast()
        tour.at("home")


@pytest.mark.parametrize("language", ["en", "de", "fi"])
@pytest.mark.parametrize("players", [3, 4])
def test_express_s_line_up_of_four_keeps_its_toast_readable_and_its_names_shown(
    tour, artefacts, language: str, players: int
) -> None:
    """Three or four people's lines tile the line-up with ships: a garbled line's notice went
    to the players' name column at 60 % of the font (12 px on the Pi's screen), over the last
    players' names. Now it lies over the prompt (the whole prompt: no sliver of it above), full
    width, at 80 % at least; no ship, button, name or colour bar under it; every word whole."""
    from kiosk.app.tour.driver import label
    from kiosk.app.tour.express import ExpressTour
    from ui.touch import theme
    from ui.touch.toast import widget_box

    tour.at("home", language)
    express = ExpressTour(tour)
    express.set_up([(name, None) for name in ("Ann", "Bo", "Cy", "Di")[:players]])
    try:
        tour.press(label("Lay out the lines"))
        screen = tour.screen()
        assert screen.name == "express_lineup" and express.wait(lambda: screen.ready)
        tour.garbled_line()
        assert _covered(tour) == []
        panel, text = tour.app.toast_panel, tour.app.toast_label
        tour.save(artefacts / f"express_lineup_{players}p_toast_{language}.png")
        assert text.font_size >= 0.8 * theme.sizes()(20), text.font_size
        assert panel.width >= 0.9 * screen.width, panel.width  # full width, not a column
        toast = widget_box(panel)
        # Over the prompt, the whole of it: no sliver of its text above the toast.
        prompt = widget_box(screen.prompt)
        assert toast.y <= prompt.y and prompt.top <= toast.top + 1, (prompt, toast)
        for row in screen.rows:
            stripe = Box(*row.to_window(*row._stripe.pos), *row._stripe.size)  # the player's colour
            assert not widget_box(row.name).overlaps(toast) and not stripe.overlaps(toast), row.name.text
        assert _words_whole(text)
    finally:
        tour.app._hide_toast()
        tour.at("home")


# The store's refusal when Start cannot save (kiosk/locale/*/faults.po): three lines at 80 % over
# the line-up's full width in German and Finnish.
READ_ONLY = (
    "{path} cannot be written: the file, its folder or its disk is read-only. Make it writable for "
    "this user (a disk mounted read-only after errors: see dmesg), or use another database file"
)


@pytest.mark.parametrize("language", ["de", "fi", "en"])
def test_a_three_line_toast_on_the_line_up_of_four_is_read_at_80_percent(
    tour, artefacts, language: str
) -> None:
    """The prompt's band over four people's lines holds two lines of a toast at 80 %: a message
    of three (the store's refusal at Start in German or Finnish, the longest the kiosk says in
    English) fell to 60 %, 12 px on the Pi's screen. While such a toast shows, the line-up gives
    its band the toast's height (the rows a little lower: every ship, button, name and colour
    stripe still clear of it), and takes it back when the toast goes."""
    from kiosk.app.tour.driver import label
    from kiosk.app.tour.express import ExpressTour
    from kiosk.i18n import _
    from ui.touch import theme
    from ui.touch.fingers import frames
    from ui.touch.fitting import laid_out
    from ui.touch.toast import widget_box

    tour.at("home", language)
    express = ExpressTour(tour)
    express.set_up([(name, None) for name in ("Ann", "Bo", "Cy", "Di")])
    try:
        tour.press(label("Lay out the lines"))
        screen = tour.screen()
        assert screen.name == "express_lineup" and express.wait(lambda: screen.ready)
        band = screen.prompt.height
        message = _(READ_ONLY).format(path="/var/lib/dartship/dartship.db") if language != "en" else VERY_LONG
        tour.app.toast(message)
        frames(3)
        panel, text = tour.app.toast_panel, tour.app.toast_label
        tour.save(artefacts / f"express_lineup_4p_three_lines_{language}.png")
        assert text.font_size >= 0.8 * theme.sizes()(20), text.font_size  # it fell to 60 %
        assert len(laid_out(text)) >= 3, laid_out(text)  # a message of three lines (or more) at that
        assert _covered(tour) == []
        assert panel.width >= 0.9 * screen.width, panel.width
        toast = widget_box(panel)
        for row in screen.rows:
            stripe = Box(*row.to_window(*row._stripe.pos), *row._stripe.size)
            assert not widget_box(row.name).overlaps(toast) and not stripe.overlaps(toast), row.name.text
        assert _words_whole(text)
        tour.app._hide_toast()
        frames(2)
        assert screen.prompt.height == band  # the band as it was, the rows back in their places
    finally:
        tour.app._hide_toast()
        tour.at("home")


def _words_whole(label) -> bool:
    """Every word of the label's text on one line, as Kivy laid it out (no word broken)."""
    from ui.touch.fitting import whole

    label.texture_update()
    laid = ["".join(word.text for word in line.words) for line in label._label._cached_lines]
    return whole(str(label.text), laid)


def test_a_toast_over_a_popup_is_shown_above_it_and_clear_of_its_buttons(tour) -> None:
    """Correct's picker (a popup) used to hide a toast shown while it was open: the toast lay in
    the app's layout, under the popup."""
    from kivy.core.window import Window

    from kiosk.app.tour.driver import label

    tour.at("visit", "de")
    try:
        tour.press(label("Correct"))
        picker = tour.screen().picker
        assert picker.get_parent_window() is not None
        tour.garbled_line()
        assert _covered(tour) == []  # none of the picker's buttons, nor its field
        assert Window.children[0] is tour.app.toast_panel  # drawn over the popup
        tour.app._hide_toast()
        assert tour.app.toast_panel.parent is tour.app.root_layout  # back in the app's layout
        picker.dismiss()
    finally:
        tour.app._hide_toast()
        tour.at("home")
