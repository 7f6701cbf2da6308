"""A team placing its fleet on the touchscreen, the kiosk killed with SIGKILL mid placing, in a
real window (Xvfb where there is no display): started again it shows the hand-over, with no
board and no ship on the window, and only the team's own button brings its draft back as it
was (tests/ui/real_window_placing_kill_probe.py). Before, the team placed anew."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.ui.probes import first_report, run_probe, started_probe

pytestmark = pytest.mark.slow

MODULE = "tests.ui.real_window_placing_kill_probe"


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_fleet_being_placed_killed_with_sigkill_comes_back_behind_the_hand_over(
    tmp_path: Path, artefacts: Path, size: tuple[int, int]
) -> None:
    width, height = (str(n) for n in size)
    out = artefacts / f"draft7_kill_{size[0]}x{size[1]}"
    with started_probe(MODULE, str(tmp_path), width, height, "place", str(out), folder=tmp_path) as probe:
        placed = first_report(probe, timeout=180)
        probe.send_signal(signal.SIGKILL)
        probe.wait(timeout=30)
    assert probe.returncode == -signal.SIGKILL
    assert placed["screen"] == "placement" and placed["team"] == 0 and placed["board_share"] > 0.2
    assert len(placed["ships"]) == 2 and placed["next"] == 3
    assert any(code.startswith("D") for code in placed["ships"][0].split("-"))
    assert "T3" in placed["ships"][1].split("-")
    (again,) = run_probe(MODULE, str(tmp_path), width, height, "again", str(out), folder=tmp_path)
    handover, draft = again["handover"], again["draft"]
    assert handover["window"] == list(size)
    assert handover["screen"] == "placement" and handover["team"] is None
    assert handover["board_share"] < 0.01, handover["board_share"]  # no board on the window
    assert handover["marks"] == [] and handover["ships"] is None
    shown = " ".join(handover["labels"])
    assert "Jets, look away" in shown and "Sharks: place on this screen" in shown
    assert not any(code in shown.split() for code in placed["marks"])  # no cell of the draft named
    assert draft["screen"] == "placement" and draft["team"] == 0 and draft["board_share"] > 0.2
    assert draft["ships"] == placed["ships"] and draft["marks"] == placed["marks"]
    assert draft["next"] == placed["next"]
