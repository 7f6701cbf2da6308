"""The coach's numbers for the table: every legal attacker/target pair with its exact chance to
sink (`kiosk.express.ai.coach`), arranged the way the tiles show them.

No Kivy here: `chances(view)` is pure (the tests compare it and the tiles with the exact odds),
and `ask(view, answer)` runs it in a worker thread: the first question of a game builds the
exact tables (about a second for the Admiral's game), which must not freeze the screen.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kiosk.express.match import Target
from kiosk.express.rules import Ship


@dataclass(frozen=True)
class Chances:
    """What the coach says about one moment of a game (its `version`)."""

    version: int
    attackers: dict[Ship, float] = field(default_factory=dict)  # each own ship's best chance
    pairs: dict[tuple[Ship, Target], float] = field(default_factory=dict)  # attacker -> target
    best: dict[Target, float] = field(default_factory=dict)  # the best chance against a target
    declared: dict[Target, float] = field(default_factory=dict)  # the Carrier after its roll


def chances(view: Mapping[str, Any]) -> Chances:
    """Every attack the player on turn may make now, each with its exact chance to sink. The
    Admiral's Carrier picks its target after rolling: before, its chance counts that choice
    (no pair); after, each target's chance given the dice (`declared`)."""
    from kiosk.express.ai import coach, declarations
    from kiosk.express.position import Position

    found = Chances(int(view["version"]))
    if view["phase"] == "target":
        found.declared.update(declarations(Position.from_view(view)))
        return found
    if view["phase"] != "attack":
        return found
    for option in coach(view):
        found.attackers[option.ship] = max(found.attackers.get(option.ship, 0.0), option.chance)
        if option.target is not None:
            found.pairs[(option.ship, option.target)] = option.chance
            found.best[option.target] = max(found.best.get(option.target, 0.0), option.chance)
    return found


_pool: concurrent.futures.ThreadPoolExecutor | None = None


def ask(view: Mapping[str, Any], answer: Callable[[Chances | None], Any]) -> None:
    """`chances(view)` in the coach's worker; `answer` is called in that worker (the screen
    hands it to Kivy's clock) with the chances, or None if the coach failed."""
    global _pool
    if _pool is None:
        _pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="express-coach")

    def done(future: concurrent.futures.Future[Chances]) -> None:
        try:
            answer(future.result())
        except Exception:
            answer(None)

    _pool.submit(chances, dict(view)).add_done_callback(done)
