"""A kiosk restarted on a stored Battleship Express game comes back to the same dice, and its
table is drawn whole in a real window.

Each case is a process of its own (`tests/ui/express_probe.py`): the kiosk from the composition
root over a store whose game a power cut stopped mid-roll, the app running as `dartship run`
runs it (`App.async_run`), in SDL's offscreen window or a real X display (Xvfb where there is
none). A tap on the drawn tiles goes through Kivy's input path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.probes import run_probe

pytestmark = pytest.mark.slow


def _probe(folder: Path, stage: str, size: tuple[int, int], real: bool) -> dict:
    args = [str(folder), stage, str(size[0]), str(size[1]), *([] if real else ["--offscreen"])]
    reports = run_probe("tests.ui.express_probe", *args, folder=folder, real=real, timeout=180)
    assert len(reports) == 1, reports
    return reports[0]


@pytest.mark.parametrize("stage", ["carrier", "rolled"])
def test_a_game_stopped_mid_roll_comes_back_to_the_same_dice(tmp_path: Path, stage: str) -> None:
    report = _probe(tmp_path, stage, (800, 480), real=False)
    assert report["screen"] == "express"
    assert report["shown"] == report["stored"]  # the faces on the table are the stored roll's
    if stage == "carrier":
        # The Carrier still waits for its target: a tap on Bo's front ship declares it.
        assert "Carrier" in report["prompt"] and report["target"] == "Patrol Boat"
    else:
        # The attack was over (a miss): Bo is up and a tap on Bo's front ship chooses it.
        assert report["prompt"].startswith("Bo:") and report["attacker"] == "Patrol Boat"


def _inside(box: list[float], width: int, height: int) -> bool:
    left, bottom, right, top = box
    return left >= 0 and bottom >= 0 and right <= width and top <= height


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_is_drawn_whole_in_a_real_window(tmp_path: Path, size: tuple[int, int]) -> None:
    report = _probe(tmp_path, "carrier", size, real=True)
    width, height = report["window"]
    assert (width, height) == size
    assert report["shown"] == report["stored"]
    assert len(report["tiles"]) == 15 and len(report["dice"]) == 6
    for box in report["tiles"] + report["dice"]:
        assert _inside(box, width, height), box
    # No two tiles overlap (a line laid out whole, not slid over itself).
    tiles = report["tiles"]
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            assert a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5, (
                a,
                b,
            )
    # Readable from a few metres: a tile is at least a sixth of the window's height tall (three players).
    assert min(t[3] - t[1] for t in tiles) >= height / 6
    assert report["target"] == "Patrol Boat"
    # Then a new game by touch, from Home: setup and lines drawn whole, Start opens the table.
    assert report["setup"]["screen"] == "express_setup"
    assert report["lineup"]["screen"] == "express_lineup"
    for step in ("setup", "lineup"):
        assert len(report[step]["buttons"]) >= 8, step
        for box in report[step]["buttons"]:
            assert _inside(box, width, height), (step, box)
    assert report["asked"] is True  # the stored game was in play: asked before it ends
    assert report["started"] == "express"


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("size", [(800, 480), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_long_notice_over_the_line_up_of_four_is_read_in_a_real_window(
    tmp_path: Path, artefacts: Path, size: tuple[int, int], players: int
) -> None:
    """The line-up tiled with three or four people's ships, a garbled line's notice shown over
    it in a real window (tests/ui/real_window_lineup_probe.py): it lies over the prompt, the
    whole of it, full width and at 80 % of the font at least (it went to the name column at
    60 % before), over no ship, button, name or colour stripe."""
    picture = artefacts / f"express_lineup_{players}p_{size[0]}x{size[1]}_real_window.png"
    (report,) = run_probe(
        "tests.ui.real_window_lineup_probe",
        str(tmp_path),
        str(size[0]),
        str(size[1]),
        str(players),
        str(picture),
        folder=tmp_path,
        timeout=180,
    )
    width, height = size
    assert report["screen"] == "express_lineup" and report["window"] == [width, height]
    assert report["shown"] and report["covered"] == [], report
    toast, prompt = report["toast"], report["prompt"]
    assert toast[2] - toast[0] >= 0.9 * width, toast
    assert toast[1] <= prompt[1] and prompt[3] <= toast[3] + 1, (toast, prompt)
    assert report["font"] >= 0.8 * report["full_font"], report["font"]
    for shown in report["names"] + report["stripes"]:
        assert not _overlap(toast, shown), (toast, shown)


def test_a_three_line_toast_over_the_line_up_of_four_is_read_in_a_real_window(
    tmp_path: Path, artefacts: Path
) -> None:
    """The longest message the kiosk says, three lines at 80 % over four people's lines at the
    Pi's 800x480, in a real window: the line-up makes room for it (the prompt's band as tall as
    the toast), full width, at 80 % of the font at least (it fell to 60 %), over no ship,
    button, name or colour stripe."""
    picture = artefacts / "express_lineup_4p_800x480_three_lines_real_window.png"
    (report,) = run_probe(
        "tests.ui.real_window_lineup_probe",
        str(tmp_path),
        "800",
        "480",
        "4",
        str(picture),
        "long",
        folder=tmp_path,
        timeout=180,
    )
    assert report["screen"] == "express_lineup" and report["shown"], report
    assert report["font"] >= 0.8 * report["full_font"], report["font"]
    assert report["lines"] >= 3 and report["covered"] == [], report
    toast = report["toast"]
    assert toast[2] - toast[0] >= 0.9 * 800, toast
    for shown in report["names"] + report["stripes"]:
        assert not _overlap(toast, shown), (toast, shown)


def test_a_line_up_killed_with_sigkill_comes_back_as_it_was_in_a_real_window(tmp_path: Path) -> None:
    """The bar's night (docs/decisions.md, qa6): the kiosk killed with SIGKILL while the lines
    are laid out (a swap made, the computer's line laid) came back to the last game, the swap
    lost. Now the kiosk started again opens the line-up by itself, every line as it stood, and
    Start can be tapped (tests/ui/real_window_lineup_kill_probe.py, a real window, Xvfb)."""
    import signal

    from tests.ui.probes import first_report, started_probe

    module = "tests.ui.real_window_lineup_kill_probe"
    with started_probe(
        module, str(tmp_path), "800", "480", "lay", str(tmp_path / "laid.png"), folder=tmp_path
    ) as probe:
        laid = first_report(probe, timeout=180)
        probe.send_signal(signal.SIGKILL)
        probe.wait(timeout=30)
    assert probe.returncode == -signal.SIGKILL
    assert laid["opened_on"] == "express_result"  # the last game's card, as in the bar
    assert laid["screen"] == "express_lineup" and laid["ready"]
    first, last = laid["swapped"]
    assert laid["lines"][0][0] == last and laid["lines"][0][4] == first  # the swap was made
    (again,) = run_probe(
        module, str(tmp_path), "800", "480", "again", str(tmp_path / "again.png"), folder=tmp_path
    )
    assert again["screen"] == "express_lineup"  # not the game in play before
    for key in ("lines", "names", "computers", "variant", "points"):
        assert again[key] == laid[key], key
    assert again["variant"] == "captain" and again["computers"] == [None, None, "normal"]
    assert again["ready"] and again["start_enabled"]
