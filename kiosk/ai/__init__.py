# ruff: noqa: E402  (the BLAS thread setting must come before numpy is imported)
"""The AI: where the enemy ships can be (heat), where to aim under scatter, and the classic grid.

Pure functions of their inputs (the randomness is passed in), so the kiosk runs them in an
executor. See docs/ai.md for the method and the benchmark.

The matrices are small (at most a few thousand rows by 81 or 100 cells): a threaded BLAS only
adds overhead there, and when the kiosk (or the benchmark's workers) keep the other core busy
its threads fight over it; that made the slowest decisions several times slower. So the BLAS
runs on one thread unless the environment says otherwise (this only takes effect if numpy has
not been imported yet; `kiosk.ai` is the only user of numpy in the kiosk).
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from kiosk.ai import classic
from kiosk.ai.aim import Aim, best_aim, hit_chance, landing_table
from kiosk.ai.decision import Decision, decide
from kiosk.ai.heatmap import board_estimate, choose_target, heatmap
from kiosk.ai.posterior import Estimate, Method
from kiosk.ai.record import Record

__all__ = [
    "Aim",
    "Decision",
    "Estimate",
    "Method",
    "Record",
    "best_aim",
    "board_estimate",
    "choose_target",
    "classic",
    "decide",
    "heatmap",
    "hit_chance",
    "landing_table",
]
