"""The AI: where the enemy ships can be (heat), where to aim under scatter, and the classic grid.

Pure functions of their inputs (the randomness is passed in), so the kiosk runs them in an
executor. See docs/ai.md for the method and the benchmark.
"""

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
