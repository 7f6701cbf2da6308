"""Real dice typed in on the Express table, the kiosk killed with SIGKILL, in a real window
(Xvfb where there is no display; tests/ui/real_window_dice_kill_probe.py).

Killed halfway through a roll (3 of 8 faces) or after a whole roll (the first roll's 8 faces
and 2 of the second's 7), the kiosk started again opens the same game on the panel, with the
same attack chosen and every face typed so far on it: the table types on from the next face,
re-types none, and the dice the attack rolls at the end are exactly the faces typed before and
after the kill, none of the kiosk's own. Killed after a whole attack typed in and stored, it
comes back to that game, the panel closed (nothing asked twice), Bo up, and real dice still
on: Bo's Roll asks for his faces.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.ui.probes import first_report, run_probe, started_probe

pytestmark = pytest.mark.slow

MODULE = "tests.ui.real_window_dice_kill_probe"


def _killed_then_again(
    tmp_path: Path, artefacts: Path, stage: str, size: tuple[int, int] = (800, 480)
) -> tuple[dict, dict]:
    out = artefacts / f"dice8_kill_{stage}_{size[0]}x{size[1]}"
    args = (str(tmp_path), str(size[0]), str(size[1]))
    with started_probe(MODULE, *args, "type", stage, str(out), folder=tmp_path) as probe:
        typed = first_report(probe, timeout=180)
        probe.send_signal(signal.SIGKILL)
        probe.wait(timeout=30)
    assert probe.returncode == -signal.SIGKILL
    (again,) = run_probe(MODULE, *args, "again", stage, str(out), folder=tmp_path, timeout=240)
    return typed, again


@pytest.mark.parametrize(
    ("stage", "size"),
    [("partial", (800, 480)), ("rolled", (800, 480)), ("partial", (1920, 1080))],
    ids=["partial-800x480", "rolled-800x480", "partial-1920x1080"],
)
def test_real_dice_typed_in_survive_a_kill_9_and_are_asked_on_from_the_next_face(
    tmp_path: Path, artefacts: Path, stage: str, size: tuple[int, int]
) -> None:
    typed, again = _killed_then_again(tmp_path, artefacts, stage, size)
    entered = typed["entered"]
    assert typed["screen"] == "express" and typed["panel"] and typed["kept"] == entered
    assert typed["log"] == [] and typed["queued"] == []  # nothing stored in the game yet
    if stage == "partial":
        assert len(entered) == 3 and typed["current"] == 3 and typed["wanted"] == 8 and typed["rolls"] == []
    else:
        assert len(entered) == 10 and typed["current"] == 2 and typed["wanted"] == 7
        assert len(typed["rolls"]) == 1 and len(typed["rolls"][0]) == 8  # the first roll, whole
    shown = again["again"]
    assert shown["window"] == list(size) and shown["screen"] == "express"
    # The panel is drawn in the window (its own colour over the lines) and holds what was typed.
    assert shown["panel"] and shown["panel_share"] > 0.2, shown["panel_share"]
    assert shown["entered"] == entered and shown["kept"] == entered
    assert shown["current"] == typed["current"] and shown["wanted"] == typed["wanted"]
    assert shown["rolls"] == typed["rolls"]
    assert shown["panel_dice"] == entered[len(entered) - typed["current"] :]  # this roll's faces
    assert f"({typed['current']} of {typed['wanted']})" in shown["title"]
    assert shown["attacker"] == "Battleship" and shown["target"] == [1, "Patrol Boat"]
    assert shown["real_on"] and shown["log"] == [] and shown["tray"] == []  # no die of the kiosk's
    assert not shown["seed_shown"]
    # Typed on by taps to the end of the attack: it rolled every face typed, before and after.
    after = again["after"]
    assert after["entered"] is None and not after["panel"] and after["kept"] is None
    assert after["log"] == ["QueueDice", "Attack"]
    assert after["queued"] == [entered + again["typed_after"]]
    assert after["thrown"] == entered + again["typed_after"]
    assert after["turn"] == 1  # a miss: Bo is up


def test_a_real_dice_attack_sent_before_a_kill_9_is_kept_and_real_dice_stay_on(
    tmp_path: Path, artefacts: Path
) -> None:
    typed, again = _killed_then_again(tmp_path, artefacts, "sent")
    assert typed["log"] == ["QueueDice", "Attack"] and typed["kept"] is None and not typed["panel"]
    assert typed["turn"] == 1 and len(typed["thrown"]) == 29
    shown = again["again"]
    assert shown["screen"] == "express" and shown["log"] == typed["log"]
    assert shown["thrown"] == typed["thrown"] and shown["queued"] == typed["queued"]
    assert not shown["panel"] and shown["panel_share"] < 0.01 and shown["entered"] is None
    assert shown["turn"] == 1 and shown["prompt"].startswith("Bo:")
    assert shown["real_on"]  # the table still rolls its own dice
    after = again["after"]
    assert after["panel"] and after["entered"] == [] and after["log"] == typed["log"]  # asked, not rolled
