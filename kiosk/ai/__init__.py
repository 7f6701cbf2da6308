"""What is generic in the computer players: the posterior engine (where hidden ships can be,
over any grid of cells), aiming under scatter on the physical board, baseline shooters.

Names no game: each game's computer player lives in its room (`kiosk.darts.decision`,
`kiosk.classic.ai`, `kiosk.express.ai`) and uses these. Pure functions of their inputs (the
randomness is passed in), so the kiosk runs them in an executor. See docs/ai.md. The BLAS runs
on one thread (set in `kiosk/__init__.py`, before numpy is imported).
"""

from kiosk.ai.aim import Aim, best_aim, hit_chance, landing_table
from kiosk.ai.posterior import Estimate, Method
from kiosk.ai.record import Record

__all__ = ["Aim", "Estimate", "Method", "Record", "best_aim", "hit_chance", "landing_table"]
