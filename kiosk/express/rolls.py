"""What the dice of an attack were, and will need to be, found by replaying the game.

Two questions the touchscreen asks and the rules answer best themselves (so nothing here
re-implements them): with real dice, how many dice does the next roll of this attack throw,
given the faces typed in so far (`next_roll`); after a restart, what did the last attack's dice
show (`last_attack`), so the screen comes back to the same faces.
"""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.express.match import Attack, Declare, Match, QueueDice, Rolled
from kiosk.express.rules import Face
from kiosk.express.wire import EXPRESS
from kiosk.game import replay


def _thrown(events: Sequence[object]) -> list[Rolled]:
    """The rolls actually thrown (the Carrier's recount is its first roll again, not a new one)."""
    return [e for e in events if isinstance(e, Rolled) and not e.recount]


def typed(
    match: Match, command: Attack | Declare, entered: Sequence[Face]
) -> tuple[list[Rolled], int | None]:
    """With real dice: the rolls the faces in `entered` (whole rolls, in order) make of
    `command`, and how many dice its next roll throws (None when those decide it: the target
    sunk, the rolls or dice used up, or the Carrier's first roll in, its target next). Raises
    the rules' error for a command they refuse. Nothing changes: a copy of the game is asked."""
    trial = replay(EXPRESS, match.setup, match.log)
    if entered:
        trial.apply(QueueDice(tuple(entered)))
    given = match.queued + len(entered)  # faces typed in earlier (before a restart) come first
    used = 0
    done: list[Rolled] = []
    for rolled in _thrown(trial.apply(command)):
        if used >= given:
            return done, len(rolled.faces)
        used += len(rolled.faces)
        done.append(rolled)
    return done, None


def next_roll(match: Match, command: Attack | Declare, entered: Sequence[Face]) -> int | None:
    """How many dice the next roll throws once `entered` is thrown (see `typed`)."""
    return typed(match, command, entered)[1]


def last_attack(match: Match) -> list[Rolled]:
    """Every roll of the last attack, as it was thrown (a Carrier still waiting for its target:
    its first roll); empty before the first attack."""
    log = list(match.log)
    for index in range(len(log) - 1, -1, -1):
        if isinstance(log[index], Attack | Declare):
            trial = replay(EXPRESS, match.setup, log[:index])
            return [e for e in trial.apply(log[index]) if isinstance(e, Rolled)]
    return []
