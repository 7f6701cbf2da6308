"""Battleship Express's players' names as a bar types them (found by the qa5 night in the bar,
in a real window under Xvfb: build/artefacts/qa5/22-express-set.png, 25-express-turn.png).

The setup screen kept a name as typed, of any length and with any characters the keyboard
gives, where the dart game keeps at most 32 characters of what draws as text
(`kiosk.names.clean_name`); and the table cut a long name after its second line
("Maximilian Alexander von" without "Hohenberg-Stein").
"""

from __future__ import annotations

import pytest

from kiosk.names import MAX_NAME

LONG = "Maximilian Alexander von Hohenberg-Stein"  # 40 characters


def test_a_name_is_kept_as_the_dart_game_keeps_it(tour) -> None:
    """At most 32 characters, tabs and line breaks dropped, runs of spaces one space."""
    from kiosk.app.tour.express import ExpressTour

    x = ExpressTour(tour)
    try:
        x.set_up([("  Ann\t ", None), (LONG, None), ("Kiosk", "easy")], points=2)
        draft = tour.screen().draft()
        assert draft.names == ("Ann", LONG[:MAX_NAME].strip(), "Kiosk")
    finally:
        tour.at("home")


def test_a_name_of_nothing_visible_is_no_name(tour) -> None:
    from kiosk.app.tour.express import ExpressTour
    from kiosk.express.match import SetupError

    x = ExpressTour(tour)
    try:
        x.set_up([("Ann", None), ("\u3164\u200b", None)], points=2)
        with pytest.raises(SetupError):
            tour.screen().draft()
    finally:
        tour.at("home")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_longest_name_fits_the_lines_the_table_and_the_result(tour, language: str) -> None:
    from kiosk.app.tour.driver import label
    from kiosk.app.tour.express import ExpressTour
    from kiosk.express.match import Target
    from kiosk.express.rules import Ship
    from ui.touch.fingers import frames
    from ui.touch.fitting import faults

    b, c, d, s, p = Ship.BATTLESHIP, Ship.CARRIER, Ship.DESTROYER, Ship.SUBMARINE, Ship.PATROL_BOAT
    found = {}
    x = ExpressTour(tour)
    try:
        tour.at("home", language)
        x.set_up([("Ann", None), (LONG, None), ("Kiosk", "easy")], points=1)
        x.lay_out([[b, c, d, s, p], [p, d, b, c, s]], start=False)
        frames(2)
        found["lines"] = [str(f) for f in faults()]
        tour.screen().seed = x.sinking_seed(b, Target(1, d), rolls=2)
        tour.press_start(label("Start"))
        frames(2)
        found["table"] = [str(f) for f in faults()]
        x.attack(b, Target(1, d))  # sinks: Ann has the one point to win
        assert tour.frames_until(lambda: tour.app.sm.current == "express_result", count=600)
        frames(2)
        found["result"] = [str(f) for f in faults()]
    finally:
        tour.at("home")
    assert not any(found.values()), found


@pytest.mark.parametrize("language", ["en", "de", "fi"])
def test_a_computer_seat_s_level_is_read_whole_in_a_game_of_four(tour, language: str) -> None:
    """The table of four at 800x480: under "Computer 4" stood "normal" alone, "Computer:" lost
    (the level wrapped to a second line the panel had no room for: seen in a real window,
    build/artefacts/qa6/155-levels-zoom.png). Every seat's words are laid out in its panel."""
    from kivy.uix.label import Label

    from kiosk.app.tour.express import ExpressTour
    from ui.touch.express.look import seat_name
    from ui.touch.fingers import frames

    x = ExpressTour(tour)
    try:
        tour.at("home", language)
        x.set_up([("Ann", None), ("Bo", None), ("C3", "easy"), ("C4", "normal")], points=6)
        x.lay_out()
        frames(2)
        assert tour.app.sm.current == "express"
        for level in ("easy", "normal"):
            said = seat_name(level)
            (seat,) = [w for w in tour.screen().walk() if isinstance(w, Label) and w.text == said]
            seat.texture_update()
            laid = " ".join("".join(word.text for word in line.words) for line in seat._label._cached_lines)
            assert laid.split() == said.split(), (language, said, laid)
            assert seat.texture_size[1] <= seat.height + 1, (said, seat.texture_size, seat.size)
    finally:
        tour.at("home")


@pytest.mark.parametrize("language", ["en", "de", "fi"])
def test_a_computer_s_attack_keeps_its_ellipsis_on_its_line_at_the_table_of_four(
    tour, language: str, artefacts
) -> None:
    """qa6 at 800x480: "Computer 4 attacks …" on the table of four put its "…" on a line of
    its own. The prompt's lines keep every mark with its word (`fitting.label_faults`: a mark
    alone on a line is a fault, as a word broken inside is)."""
    from kiosk.app.tour.express import ExpressTour
    from kiosk.i18n import _
    from ui.touch.fingers import frames
    from ui.touch.fitting import faults, laid_out

    x = ExpressTour(tour)
    try:
        tour.at("home", language)
        names = [_("Player {n}").format(n=1), _("Player {n}").format(n=2)]
        names += [_("Computer {n}").format(n=3), _("Computer {n}").format(n=4)]
        x.set_up([(names[0], None), (names[1], None), (names[2], "easy"), (names[3], "normal")], points=6)
        x.lay_out()
        table = tour.screen()
        assert tour.app.sm.current == "express"
        # The words the table shows while Computer 4's attack plays (table.py's own format).
        table.prompt.text = _("{name} attacks …").format(name=names[3])
        frames(2)
        lines = laid_out(table.prompt)
        tour.save(artefacts / f"express_four_attacks_{language}.png")
        assert all(line.strip() not in ("…", "") for line in lines), lines
        assert not [str(f) for f in faults() if "…" in f.text], lines
    finally:
        tour.at("home")
