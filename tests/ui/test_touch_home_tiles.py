"""Home's game tiles (the audit, point 2): every title sits at the same height, whatever its
subtitle's length ("Dart game", with a one-line subtitle, sat lower than the other two), in every
language; a tap on a tile opens its game's start screen."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("lang", ["en", "de", "fi"])
def test_the_tiles_titles_are_level(tour, lang: str, artefacts: Path) -> None:
    from ui.touch.fingers import frames

    tour.at("home", lang)
    frames(3)
    tiles = list(tour.screen().game_buttons.values())
    assert len(tiles) == 3
    subtitle_lines = {len(t.subtitle._label._cached_lines) for t in tiles}
    assert len(subtitle_lines) > 1 or lang != "en"  # English: one and two-line subtitles side by side
    tops = [t.title.to_window(t.title.x, t.title.top)[1] for t in tiles]
    ink = [t.title.to_window(t.title.center_x, t.title.center_y)[1] for t in tiles]
    assert max(tops) - min(tops) < 1 and max(ink) - min(ink) < 1, (tops, ink)
    for tile in tiles:  # the title inside its tile, at the top, the subtitle under it
        assert tile.top - tile.title.top <= tile.padding[1] + 1
        assert tile.subtitle.top <= tile.title.y and tile.subtitle.y >= tile.y
    tour.save(artefacts / f"home_{lang}.png")
    tour.reset()


def test_a_tap_on_a_tile_opens_its_game(tour) -> None:
    for kind, screen in (("darts", "new_game"), ("classic", "classic_new"), ("express", "express_setup")):
        tour.at("home")
        tour.choose_game(kind)
        assert tour.app.sm.current == screen
    tour.reset()
