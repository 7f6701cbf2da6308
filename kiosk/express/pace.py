"""How long the table takes to show what happened: one script for the screen, the computer seats
and the buzzer.

An attack is one command and its every roll is decided at once, but people must see it roll by
roll: the attacker slides to the front, the dice tumble and land, the hits move aside, the rest
are rolled again, then SUNK! or the next player. `script(events, pace)` is that show as beats
with their lengths. The touchscreen plays the beats; a computer seat waits until they are played
before it acts again (else its next attack would start while the last one still rolls); the
buzzer sounds at the moment the SUNK! word appears, not when the command was stored.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from kiosk.express.match import Event, Rolled, Sunk, TurnPassed, Won


class Step(enum.Enum):
    MOVE = "move"  # the attacker slides to the front of its line
    TUMBLE = "tumble"  # the dice roll
    LAND = "land"  # they lie still, the hits marked
    ASIDE = "aside"  # the hits move aside; the total counts up
    SUNK = "sunk"  # SUNK! and the point
    WON = "won"  # the winner (the word stays)
    TURN = "turn"  # the next player


@dataclass(frozen=True)
class Beat:
    step: Step
    event: Event
    seconds: float


@dataclass(frozen=True)
class Pace:
    """Seconds of each beat, readable from a few metres (all 0 in tests and screenshots)."""

    move: float = 0.5
    tumble: float = 0.8
    land: float = 0.9
    aside: float = 0.5
    sunk: float = 2.3
    turn: float = 1.0  # after an attack that sank nothing, before the next player is up
    think: float = 1.0  # a computer seat's pause before each of its commands

    @classmethod
    def instant(cls) -> Pace:
        return cls(0, 0, 0, 0, 0, 0, 0)


def script(events: Iterable[Event], pace: Pace) -> list[Beat]:
    """The beats that show a batch of events, in order (the dice queued show nothing)."""
    beats: list[Beat] = []
    passed_after_sink = False
    for event in events:
        match event:
            case Rolled(recount=True):
                # The Carrier's first roll, now counted against its target: only the hits move.
                beats.append(Beat(Step.ASIDE, event, pace.aside))
            case Rolled(roll=number, hits=hits):
                if number == 1:
                    beats.append(Beat(Step.MOVE, event, pace.move))
                beats.append(Beat(Step.TUMBLE, event, pace.tumble))
                beats.append(Beat(Step.LAND, event, pace.land))
                if hits is not None:  # None: the Carrier waits for its target
                    beats.append(Beat(Step.ASIDE, event, pace.aside))
            case Sunk():
                beats.append(Beat(Step.SUNK, event, pace.sunk))
                passed_after_sink = True
            case Won():
                beats.append(Beat(Step.WON, event, 0.0))
            case TurnPassed():
                # After a sink the SUNK! beat was the pause; after a miss the table rests a moment.
                beats.append(Beat(Step.TURN, event, 0.0 if passed_after_sink else pace.turn))
    return beats


def length(events: Iterable[Event], pace: Pace) -> float:
    """Seconds the screen takes to show these events."""
    return sum(beat.seconds for beat in script(events, pace))


def climax(events: Iterable[Event], pace: Pace) -> float:
    """Seconds from the start of the show to its moment: SUNK! (or the winner), else the end of
    the last roll. The buzzer sounds then."""
    elapsed = 0.0
    for beat in script(events, pace):
        if beat.step in (Step.SUNK, Step.WON, Step.TURN):
            return elapsed
        elapsed += beat.seconds
    return elapsed
