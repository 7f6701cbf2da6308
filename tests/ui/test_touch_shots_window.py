"""The screens the screenshots of 2026-12-02 changed, in German, in a real window (Xvfb where
there is no display) as `dartship run` shows them: the Stats page's headings at their own font
(a narrow column takes room from a wide one), and Battleship Express's table of four with every
tile's dice and rolls inside the frame a chosen tile wears (`tests/ui/real_window_shots_probe.py`:
the window's pixels are in the test's folder, and in $DARTSHIP_ARTEFACTS when set)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.ui.probes import run_probe

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_stats_and_the_express_table_in_german_in_a_real_window(tmp_path: Path, size: tuple[int, int]):
    (report,) = run_probe(
        "tests.ui.real_window_shots_probe", str(tmp_path), str(size[0]), str(size[1]), folder=tmp_path
    )
    if os.environ.get("DARTSHIP_ARTEFACTS"):
        out = Path(os.environ["DARTSHIP_ARTEFACTS"])
        out.mkdir(parents=True, exist_ok=True)
        for name in ("stats", "express"):
            shutil.copy(tmp_path / f"{name}.png", out / f"window_{name}_de_{size[0]}x{size[1]}.png")
    assert report["stats_screen"] == "stats" and report["table_screen"] == "express"
    headings = {cell["text"]: cell for cell in report["headings"]}
    assert "Aufnahmen" in headings and "Trefferquote" in headings, sorted(headings)
    for cell in report["headings"]:
        assert cell["font"] == pytest.approx(cell["made_for"]), cell
    assert len(report["notes"]) == 20  # four lines of five ships
    for note in report["notes"]:
        left, bottom, right, _top = note["ink"]
        x0, y0, x1, _y1 = note["tile"]
        room = note["room"] - 1  # Kivy draws a text at whole pixels
        assert left >= x0 + room and right <= x1 - room and bottom >= y0 + room, note
