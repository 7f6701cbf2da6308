"""`dartship screenshots` renders every screen at 1920x1080 in its own process, headless, and
(`--check`) every text on them fits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCREENS = (
    "home",
    "new_game",
    "placement_handover",
    "placement",
    "bull_off",
    "bull_off_closer",
    "game",
    "toast_long",
    "game_takeout",
    "correct",
    "result",
    "stats",
    "pin",
    "settings",
    "learn",
    "league_settings",
    "new_game_solo",
    "placement_solo",
    "bull_off_solo",
    "game_coach",
    "game_kiosk",
    "game_kiosk_hold",
    "game_resumed",
    "classic_new",
    "classic_solo",
    "classic_replace",
    "classic_aim",
    "classic_computer",
    "classic_result",
    "classic_duel_handover",
    "classic_duel_handover_next",
    "classic_duel",
    "stats_classic",
    "express_setup",
    "express_lineup",
    "express_turn",
    "express_coach",
    "express_rolling",
    "express_sunk",
    "express_real_dice",
    "express_result",
    "stats_express",
    "express_resumed",
)


@pytest.mark.slow
def test_screenshots_at_1080p(artefacts: Path) -> None:
    out = artefacts / "screenshots"
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.app.cli", "screenshots", str(out), "--size", "1920x1080", "--check"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    unfit = [line for line in done.stdout.splitlines() if not line.endswith(".png")]
    assert done.returncode == 0, "\n".join(unfit[:40]) or done.stderr[-2000:]
    for name in SCREENS:
        picture = out / f"{name}@1080.png"
        assert picture.exists() and picture.stat().st_size > 5000, name


@pytest.mark.parametrize("flag", ["--resumed", "--resumed-express"])
def test_a_resumed_kiosk_is_photographed_in_the_language_asked_for(tmp_path: Path, flag: str) -> None:
    """`dartship screenshots --language de` drew game_resumed and express_resumed in English:
    the kiosk started on a stored game was built without the language `dartship run` sets
    first. The same kiosk photographed in English and in German is not the same picture."""
    pictures = {}
    for language in ("en", "de"):
        out = tmp_path / language
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "kiosk.app.screenshots",
                str(out),
                "--render",
                "800x480",
                flag,
                "--language",
                language,
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        (picture,) = out.glob("*_resumed.png")
        pictures[language] = picture.read_bytes()
    same = pictures["en"] == pictures["de"]
    assert not same, "the kiosk photographed in German is the English picture"
