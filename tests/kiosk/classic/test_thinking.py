"""The computer thinking in the shared worker processes (`kiosk.classic.thinking`): the same
face as the local computer, its answers legal, hard's pondering coming back ready, the radar
crossing to the worker whole, and a table's randomness carried across."""

from __future__ import annotations

import random

import pytest

from kiosk.classic import thinking
from kiosk.classic.fleet import random_fleet
from kiosk.classic.grid import SQUARES
from kiosk.classic.match import ComputerLevel, Fire, Match, Mode, Place, Setup
from kiosk.classic.thinking import RemoteComputer, radar_of, radar_wire
from tests.waits import Lines, until


def _radar_after(shots: int, seed: int = 4):
    rng = random.Random(seed)
    match = Match(Setup(Mode.DUEL, ("A", "B")))
    match.apply(Place(0, random_fleet(rng)))
    match.apply(Place(1, random_fleet(rng)))
    while match.shots(0) < shots and match.winner is None:
        if match.turn == 0:
            shot = match.radar(0).shots
            match.apply(Fire(0, rng.choice([s for s in SQUARES if s not in shot])))
        else:
            shot = match.radar(1).shots
            match.apply(Fire(1, rng.choice([s for s in SQUARES if s not in shot])))
    return match.radar(0)


def test_the_radar_crosses_to_the_worker_whole():
    radar = _radar_after(95)
    assert radar.sunk  # some ships sunk: their classes and squares must survive
    again = radar_of(radar_wire(radar))
    assert dict(again.shots) == dict(radar.shots) and again.sunk == radar.sunk


@pytest.mark.parametrize("level", list(ComputerLevel))
def test_answers_are_squares_not_shot_yet_and_the_tables_randomness_moves_on(level):
    radar = _radar_after(25)
    rng = random.Random(7)
    computer = RemoteComputer(level, rng)
    before = rng.getstate()
    square = computer.choose(radar)
    assert square in SQUARES and square not in radar.shots
    assert rng.getstate() != before or level is ComputerLevel.HARD


def test_hard_pondering_comes_back_ready_and_is_skipped_when_the_queue_is_full(monkeypatch):
    radar = _radar_after(10)
    computer = RemoteComputer(ComputerLevel.HARD, random.Random(2))
    computer.ponder(radar)
    assert computer.answer_ready(radar)
    ready = computer._ready[radar_wire(radar)]
    assert computer.choose(radar).code == ready
    busy = RemoteComputer(ComputerLevel.HARD, random.Random(3))
    monkeypatch.setattr(thinking, "_pondering", thinking.PONDER_QUEUE)
    busy.ponder(radar)
    assert not busy.answer_ready(radar)  # yielded: the answers' queue comes first


def test_a_kiosk_killed_with_sigkill_leaves_no_worker_behind(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    script = tmp_path / "a_kiosk.py"
    script.write_text(
        "import os, random, sys, time\n"
        "from kiosk.classic.match import ComputerLevel, Radar\n"
        "from kiosk.classic.thinking import RemoteComputer\n"
        "if __name__ == '__main__':\n"
        "    RemoteComputer(ComputerLevel.EASY, random.Random(1)).choose(Radar())\n"
        "    print('thinking', flush=True)\n"
        "    time.sleep(60)\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        text=True,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": root},
    )
    Lines(proc).wait_for(r"^thinking$", what="'thinking' (the computer asked its worker)")
    workers = [int(d) for d in os.listdir("/proc") if d.isdigit() and _parent(int(d)) == proc.pid]
    assert workers
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    until(
        lambda: not [p for p in workers if _state(p) not in (None, "Z")],
        lambda: f"the workers gone after their kiosk's SIGKILL: {workers}",
    )


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (state, parent, ...)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _parent(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[1]) if fields else None


def _state(pid: int) -> str | None:
    fields = _stat(pid)
    return fields[0] if fields else None
