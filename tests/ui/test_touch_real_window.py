"""The board screens in a real window, the first time each appears: drawn whole, inside the
window, where the board really is, and a tap on the drawn bull scores BULL.

Each case is a process of its own (`tests/ui/real_window_probe.py`): the kiosk comes from the
composition root and the app runs as `dartship run` runs it, on a real X display (Xvfb where
there is none). The board's drawing once lagged its layout (Kivy's cached `center`), so a
resumed game showed the board half off-screen and a tap on the drawn bull scored another cell.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.ui.probes import run_probe

SIZES = ((800, 480), (1280, 720))


def _reports(
    folder: Path, phase: str, size: tuple[int, int], module: str = "tests.ui.real_window_probe", *extra: str
) -> list[dict]:
    return run_probe(
        module, str(folder), phase, str(size[0]), str(size[1]), *extra, folder=folder, timeout=180
    )


def _check(report: dict) -> None:
    width, height = report["window"]
    box = report["drawn"]
    assert box is not None, f"{report['screen']}: no board drawn"
    where = f"{report['screen']} at {width}x{height}: drawn {box}"
    # Inside the window, not touching its edges (a board cut by an edge touches it).
    assert box["left"] > 0 and box["bottom"] > 0, where
    assert box["right"] < width - 1 and box["top"] < height - 1, where
    # Whole: as wide and as tall as the board's size says (a cut board is smaller one way).
    diameter = 2 * report["radius_px"]
    assert abs((box["right"] - box["left"]) - diameter) <= 4, where
    assert abs((box["top"] - box["bottom"]) - diameter) <= 4, where
    # Where the widget is: taps are read against the widget, so that is where it must be drawn.
    mx, my = report["widget_middle"]
    assert abs((box["left"] + box["right"]) / 2 - mx) <= 2, where
    assert abs((box["bottom"] + box["top"]) / 2 - my) <= 2, where
    assert report["tapped"] == "BULL", where


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_board_screen_from_placement_on(tmp_path: Path, size: tuple[int, int]) -> None:
    """A resumed game in placement: the placement board, then the bull-off, then the game, each
    the first time it appears in this window."""
    reports = _reports(tmp_path, "placing", size)
    assert [r["screen"] for r in reports] == ["placement", "bull_off", "game"]
    for report in reports:
        _check(report)


@pytest.mark.slow
@pytest.mark.parametrize("phase", ("bull_off", "throwing"))
def test_a_resumed_game_draws_its_board_right(tmp_path: Path, phase: str) -> None:
    """After a restart the kiosk opens straight on the bull-off or the game."""
    reports = _reports(tmp_path, phase, (800, 480))
    assert reports and reports[0]["screen"] == {"bull_off": "bull_off", "throwing": "game"}[phase]
    for report in reports:
        _check(report)


CLASSIC = "tests.ui.real_window_classic_probe"


def _grid_drawn_where_it_is(report: dict) -> None:
    """The drawn squares inside the window and exactly where the widget's squares are (taps
    are read against the widget): A1's and J10's middles at the drawn grid's corners."""
    width, height = report["window"]
    box = report["drawn"]
    where = f"{report['screen']} at {width}x{height}: drawn {box}"
    assert box is not None, where
    assert box["left"] > 0 and box["bottom"] > 0, where
    assert box["right"] < width - 1 and box["top"] < height - 1, where
    step = report["step"]
    half = step * (1 - 0.08) / 2  # a square's half, its gap left out
    assert abs(box["left"] + half - report["a1"][0]) <= 3, where
    assert abs(box["top"] - half - report["a1"][1]) <= 3, where
    assert abs(box["right"] - half - report["j10"][0]) <= 3, where
    assert abs(box["bottom"] + half - report["j10"][1]) <= 3, where


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_resumed_classic_solo_game_plays_on_in_a_real_window(
    tmp_path: Path, artefacts: Path, size: tuple[int, int]
) -> None:
    """Restarted in the computer's turn: the computer fires by itself, the radar is drawn where
    it is, and two taps on the drawn E5 fire at E5."""
    picture = artefacts / f"classic_real_window_{size[0]}x{size[1]}.png"
    [report] = _reports(tmp_path, "solo", size, CLASSIC, str(picture))
    assert report["screen"] == "classic_solo" and report["computer_fired"] >= 1
    _grid_drawn_where_it_is(report)
    assert report["tapped"] == ["E5"]


@pytest.mark.slow
def test_a_classic_duel_shows_both_radars_once_both_phones_hold_their_links(
    tmp_path: Path, artefacts: Path
) -> None:
    picture = artefacts / "classic_duel_real_window.png"
    [report] = _reports(tmp_path, "duel", (800, 480), CLASSIC, str(picture))
    assert report["screen"] == "classic_duel" and len(report["grids"]) == 2
    for grid in report["grids"]:
        _grid_drawn_where_it_is({"screen": report["screen"], **grid})


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_caller_speaks_through_kivy_s_audio_in_the_live_app(tmp_path, monkeypatch):
    """The live app's loop and Kivy's clock with the caller's thread playing a tapped dart's
    call through SDL2's audio (SDL's disk driver writes what would be heard to a file)."""
    import array

    heard = tmp_path / "heard.raw"
    monkeypatch.setenv("SDL_AUDIODRIVER", "disk")  # the probe's environment is ours
    monkeypatch.setenv("SDL_DISKAUDIOFILE", str(heard))
    [report] = _reports(tmp_path, "throwing", (800, 480), "tests.ui.real_window_caller_probe")
    assert report["silent"] is None and report["dart"] == "T20"
    assert report["said"][-1] in (
        "caller: Treble 20 Hit",
        "caller: Treble 20 Miss",
        "caller: Treble 20 Sunk! A ship of two",
    )
    samples = array.array("h", heard.read_bytes())
    assert sum(abs(v) > 300 for v in samples) > 44100 // 4  # a quarter second of speech, at least


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_new_game_question_in_a_real_window(tmp_path: Path, size: tuple[int, int]) -> None:
    """New game over a resumed game in play asks; Keep playing goes back; Start new game
    abandons it (tests/ui/real_window_question_probe.py)."""
    (report,) = run_probe(
        "tests.ui.real_window_question_probe", str(tmp_path), *map(str, size), folder=tmp_path, timeout=180
    )
    assert report["window"] == list(size) and report["resumed_on"] == "game"
    assert report["asked"] is True
    assert report["kept"] == [True, "game", True]
    assert report["after"] == ["abandoned", True, "placement"]


@pytest.mark.slow
def test_next_tapped_twice_in_a_real_window_ends_one_visit(tmp_path: Path, artefacts: Path) -> None:
    """Real touches on the real clock: the second tap is refused, the toast says so, the Jets'
    visit is left alone (tests/ui/real_window_next_probe.py); the picture goes to the artefacts."""
    (report,) = run_probe(
        "tests.ui.real_window_next_probe", str(tmp_path), "800", "480", folder=tmp_path, timeout=180
    )
    assert report["window"] == [800, 480]
    assert report["before"] == ["takeout", 1, 3]
    assert report["after"] == ["throwing", 2, 1, [3, 0]]
    assert report["toast"].startswith("Next came twice at once: the new visit goes on.")
    shutil.copy(tmp_path / "next_twice.png", artefacts / "next_twice_real_window.png")
