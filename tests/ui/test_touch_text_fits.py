"""Every text fits its widget: no word broken inside ("Rückgängi" / "g" in the German Undo
button at 1920x1080), nothing cut to "…", nothing drawn beyond its button or off the window.

The rule (`ui.touch.controls.fitting_font`) and the check (`ui.touch.fitting.faults`, which
reads Kivy's own text layout and the drawn texture's ink) are tested on their own; every staged
screen (tests/ui/stages.py) in English, German and Finnish on the session's 800x480 window; and
the whole walk of
`dartship screenshots --check` (every screen of every game) in a process of its own per size.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .stages import CLASSIC, EXPRESS, SOLO, STAGES

LONG_WORDS = ("Rückgängig", "Korrigieren", "Valmentaja", "Patrouillenboot", "Lentotukialus")


def test_a_button_never_breaks_a_word_at_any_width(tour) -> None:
    """At every width where the word can stand whole at the smallest font the rule allows, it
    does (the old rule scaled the font once by width/need, and the font's hinting left the
    word a pixel too wide at some widths: "Rückgängi" / "g")."""
    from kivy.core.text import Label as CoreLabel

    from ui.touch import theme
    from ui.touch.controls import BigButton
    from ui.touch.fitting import laid_out, whole

    s = theme.sizes()
    for word in LONG_WORDS:
        button = BigButton(word)
        probe = CoreLabel(text=word, font_size=button.base_font * 0.7, font_name=button.font_name)
        probe.refresh()
        smallest = probe.texture.size[0]
        for width in range(40, 260, 3):
            button.width = width
            button.refit()  # what the next frame would do first
            if smallest <= width - s(8) - 1:
                assert whole(word, laid_out(button)), (word, width, laid_out(button))
                assert button.font_size >= button.base_font * 0.7 - 0.01


def test_a_table_cell_gets_a_smaller_font_before_it_is_cut(tour) -> None:
    """'Aufnahmen' in a narrow column of the result card read 'Aufnahm...'."""
    from kivy.uix.label import Label

    from ui.touch import theme
    from ui.touch.fingers import frames
    from ui.touch.fitting import laid_out, whole
    from ui.touch.table import Table

    table = Table([1.0, 1.0], width=160)
    table.add_row(["Spieler", "Aufnahmen"])
    table._widths()
    frames(1)  # the cells are fitted before the frame
    cell = table.children[0]
    natural = Label(text="Aufnahmen", font_size=theme.sizes()(table.font_units))
    natural.texture_update()
    assert cell.text == "Aufnahmen" and cell.width < natural.texture_size[0] * 0.9
    assert whole("Aufnahmen", laid_out(cell)), laid_out(cell)


def test_the_check_finds_a_broken_word_a_cut_text_and_an_overflow(tour) -> None:
    """The check itself can fail: each way a text can fail to fit is found and named."""
    from kivy.uix.label import Label

    from ui.touch.fitting import label_faults

    broken = Label(text="Rückgängig", font_size=30, size=(80, 200), text_size=(80, None))
    assert any("broken" in p for p in label_faults(broken)), label_faults(broken)
    cut = Label(text="Aufnahmen heute", font_size=30, size=(80, 40), shorten=True, text_size=(80, 40))
    assert any(p.startswith("cut") for p in label_faults(cut)), label_faults(cut)
    wide = Label(text="Trefferquote", font_size=30, size=(60, 40))
    assert any("beyond" in p for p in label_faults(wide)), label_faults(wide)
    gone = Label(text="Startseite", font_size=30, size=(200, 40), pos=(700, 10))
    assert any("off the window" in p for p in label_faults(gone, (800, 480))), label_faults(gone, (800, 480))
    fits = Label(text="Weiter", font_size=30, size=(200, 60))
    assert label_faults(fits, (800, 480)) == []


@pytest.mark.parametrize("language", ["de", "fi", "en"])
def test_every_staged_screen_fits_in_every_language(tour, language: str) -> None:
    """Each stage the touchscreen tests build (the dart game's, solo, classic's, Express's)."""
    from ui.touch.fingers import frames
    from ui.touch.fitting import faults

    found = {}
    try:
        for stage in (*STAGES, SOLO, *CLASSIC, *EXPRESS):
            tour.at(stage, language)
            frames(2)  # as drawn: texts are fitted before the frame after their last change
            found[stage] = [str(f) for f in faults()]
    finally:
        tour.at("home")
    assert not any(found.values()), found


@pytest.mark.slow
@pytest.mark.parametrize(("language", "size"), [("de", "1920x1080"), ("fi", "800x480")])
def test_every_screen_of_every_game_fits(language: str, size: str, tmp_path: Path) -> None:
    """The whole walk (`dartship screenshots --check`): each screen is checked as photographed.
    German at 1080p is where "Rückgängig" broke; Finnish at 800x480 has the longest words on
    the smallest screen. (English at 1080p: tests/ui/test_touch_screenshots.py.)"""
    command = ["screenshots", str(tmp_path), "--size", size, "--language", language, "--check"]
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.app.cli", *command],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    unfit = [line for line in done.stdout.splitlines() if not line.endswith(".png")]
    assert done.returncode == 0, "\n".join(unfit[:40]) or done.stderr[-2000:]


@pytest.mark.parametrize(
    ("heading", "row"),
    [
        (["Datum", "Teams", "Sieger", "Aufnahmen"], ["10:18", "Sharks – Jets", "Sharks", "9"]),
        (["Päivä", "Joukkueet", "Voittaja", "Vuorot"], ["10:19", "Sharks – Jets", "Sharks", "9"]),
    ],
)
def test_a_narrow_column_s_long_heading_takes_room_from_a_column_with_room_to_spare(
    tour, heading: list[str], row: list[str]
) -> None:
    """The Stats page's last games at 800x480 (a column of 375 px): German's "Aufnahmen" over
    a column of one-digit numbers was drawn at 60 % of its font, some 9 px, beside the teams'
    column with room for twice it (the screenshots of 2026-12-02). The columns share the width
    by their weights only as far as each column's widest text allows (`table.widened`)."""
    from ui.touch.fingers import frames
    from ui.touch.fitting import laid_out, whole
    from ui.touch.table import Table, heading_row

    table = Table((1.4, 3.2, 2, 1), font_units=18, width=375)
    heading_row(table, heading)
    table.add_row(row)
    table._widths()
    frames(1)  # the cells are fitted before the frame
    cells = list(reversed(table.children))
    for cell in cells:
        base = cell.fit[0]
        assert cell.font_size == base, (cell.text, cell.font_size, base, cell.width)
        assert whole(cell.text, laid_out(cell)), laid_out(cell)


def test_columns_take_what_they_lack_from_those_with_room_and_no_more() -> None:
    from ui.touch.table import widened

    assert widened([100, 100], [50, 50]) == [100, 100]
    assert widened([150, 50], [60, 80]) == [120, 80]
    assert widened([100, 100], [95, 150]) == [95, 105]  # never below a column's own need
    assert sum(widened([120, 40, 40], [30, 70, 45])) == pytest.approx(200)
