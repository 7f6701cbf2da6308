"""Perfect play of the two-player game, solved ahead of time: the values `Duel.solve` finds,
and the line to lay: of the 120, the one that wins most often under perfect play against the
normal level (a player who takes the best chance to sink, and lays a line at random).

The default rules of both games (points to win 5) are shipped with the kiosk, one small file
each (`kiosk/express/solved/<game>-<fingerprint>.npz`: the values as float32, 425 kB, and the
line), so a Pi never waits for them; `tests/kiosk/express/test_duel.py` checks that they are a
fixed point of perfect play for today's rules and that the line is the best one.

Other house rules (another points target, a sinker passing the dice, another
table) are solved on first use by a background process at low priority and cached in the data
directory (`<data>/express-solved/`); until its file is there the hard computer judges by its
race model (`kiosk.express.levels.Judge`), so no decision ever waits for a solve.

    python -m kiosk.express.solved            # write the shipped files for today's defaults
    python -m kiosk.express.solved --game admiral --points 3 --rules rules.json --out FILE
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import logging
import os
import subprocess
import sys
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kiosk.config import data_dir
from kiosk.express.duel import FULL, STATES, TOLERANCE, Duel, Indices
from kiosk.express.rules import Rules, Variant

SHIPPED = Path(__file__).resolve().parent / "solved"
FORMAT = 1  # the layout of the values (duel.LINES order, two terminal slots)
NEAR = 1e-4  # lines this close against normal (0.01 points) are near-equal (`choose_line`)
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Solution:
    values: np.ndarray  # the mover's chance to win under perfect play, by `duel.state`
    line: Indices  # the line to lay (ship indices, front first)


_loaded: dict[str, Solution] = {}
_started: dict[str, subprocess.Popen[bytes]] = {}
_lock = threading.Lock()


def fingerprint(variant: Variant, rules: Rules, points_to_win: int) -> str:
    """What a solution depends on, hashed: the game, every rule number, the points target."""
    text = json.dumps(
        {"format": FORMAT, "game": variant.value, "rules": rules.to_dict(), "points_to_win": points_to_win},
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def filename(variant: Variant, rules: Rules, points_to_win: int) -> str:
    return f"{variant.value}-{fingerprint(variant, rules, points_to_win)}.npz"


def cache_dir() -> Path:
    return data_dir() / "express-solved"


def solution(variant: Variant, rules: Rules, points_to_win: int, build: bool = True) -> Solution | None:
    """The solved two-player game of these rules, or None while it is not solved yet;
    `build`: then start solving it in the background (once)."""
    name = filename(variant, rules, points_to_win)
    with _lock:
        if name in _loaded:
            return _loaded[name]
        for folder in (SHIPPED, cache_dir()):
            found = _read(folder / name)
            if found is not None:
                _loaded[name] = found
                return found
        if build:
            _start(name, variant, rules, points_to_win)
    return None


def _read(path: Path) -> Solution | None:
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            found, line = data["values"], tuple(int(i) for i in data["line"])
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
        log.warning("solved Express game %s unreadable (%s): solving again", path, err)
        return None
    if found.shape != (STATES + 2,) or not np.isfinite(found).all() or line not in FULL:
        log.warning("solved Express game %s does not fit: solving again", path)
        return None
    return Solution(found.astype(np.float64), line)


def _start(name: str, variant: Variant, rules: Rules, points_to_win: int) -> None:
    running = _started.get(name)
    if running is not None and running.poll() is None:
        return
    if any(p.poll() is None for p in _started.values()):
        return  # one solve at a time: the next decision asks again
    out = cache_dir() / name
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        rules_file = out.with_suffix(".rules.json")
        rules_file.write_text(json.dumps(rules.to_dict()))
        _started[name] = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk.express.solved",
                "--game",
                variant.value,
                "--points",
                str(points_to_win),
                "--rules",
                str(rules_file),
                "--out",
                str(out),
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_lower_priority if os.name == "posix" else None,
        )
        log.info("solving the two-player Express game %s in the background", name)
    except OSError as err:  # a full disk or no way to start a process: hard plays by its race
        log.warning("cannot solve the two-player Express game %s: %s", name, err)


def _lower_priority() -> None:
    with contextlib.suppress(OSError):
        os.nice(10)


def wait(variant: Variant, rules: Rules, points_to_win: int, timeout: float) -> Solution | None:
    """The solution, waiting up to `timeout` seconds for a background solve (tests, benches)."""
    deadline = time.monotonic() + timeout
    while True:
        found = solution(variant, rules, points_to_win)
        if found is not None or time.monotonic() > deadline:
            return found
        time.sleep(0.5)


def solve(variant: Variant, rules: Rules, points_to_win: int) -> Solution:
    game = Duel(variant, rules, points_to_win)
    found = game.solve()
    return Solution(found, best_line(game, found))


def best_line(game: Duel, found: np.ndarray, tolerance: float = TOLERANCE) -> Indices:
    """The line that wins most often under perfect play (`found`) against the normal level
    (both seats alike, its line at random); among the lines within `NEAR` of that one, the one
    that wins most against perfect play (ties: the first in `FULL` order)."""
    against_normal, against_perfect = line_scores(game, found, tolerance)
    return FULL[choose_line(against_normal, against_perfect)]


def line_scores(game: Duel, found: np.ndarray, tolerance: float = TOLERANCE) -> tuple[np.ndarray, np.ndarray]:
    """For each of the 120 starting lines (`FULL`), perfect play's chance with it against the
    normal level and against perfect play (both seats alike, the other's line at random)."""
    perfect = game.perfect(found)
    against_normal = game.line_scores(*game.evaluate(perfect, game.greedy(), tolerance))
    against_perfect = game.line_scores(*game.evaluate(perfect, perfect, tolerance))
    return against_normal, against_perfect


def choose_line(against_normal: np.ndarray, against_perfect: np.ndarray) -> int:
    """The index of the line to lay: best against normal, near-equal ones (`NEAR`) decided by
    perfect play (in the Captain's game all 120 lines are within 0.003 points against normal,
    and perfect play tells them apart by points)."""
    near = against_normal >= against_normal.max() - NEAR
    return int(np.argmax(np.where(near, against_perfect, -np.inf)))


def write(path: Path, found: Solution) -> None:
    """Atomically: a reader never sees half a file."""
    partial = path.with_name(path.name + ".part")
    with partial.open("wb") as out:
        np.savez(out, values=found.values.astype(np.float32), line=np.array(found.line, dtype=np.int8))
    os.replace(partial, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kiosk.express.solved", description="solve the two-player Express game exactly"
    )
    parser.add_argument("--game", choices=[v.value for v in Variant], action="append")
    parser.add_argument("--points", type=int, default=None)
    parser.add_argument("--rules", type=Path, help="the rules as JSON (Rules.to_dict)")
    parser.add_argument("--out", type=Path, help="where to write (default: the shipped file)")
    args = parser.parse_args(argv)
    rules = Rules.from_dict(json.loads(args.rules.read_text())) if args.rules else Rules()
    points = args.points or rules.default_points(2)
    for variant in [Variant(g) for g in args.game or [v.value for v in Variant]]:
        started = time.time()
        found = solve(variant, rules, points)
        out = args.out or SHIPPED / filename(variant, rules, points)
        out.parent.mkdir(parents=True, exist_ok=True)
        write(out, found)
        print(f"{variant.value}: {out} ({time.time() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
