"""A board's noise cut down before it reaches the game's queue.

A broken or hostile board can send ten thousand bad lines a second. Each used to become an
event on the service's queue, a notice and a log line: the queue grew without bound and a
real dart waited behind the flood (10 s after 29 500 lines). Now, of each kind of noise (bad
lines, unmapped contacts, board messages such as HELLO), the first few of every 10 s go on as
they are; the rest are only counted, and the count goes on as one `NoiseSummary` when the
window closes. Darts, misses and buttons are never held back.
"""

from __future__ import annotations

from hardware.sink import NoiseSummary
from kiosk.floodgate import FloodGate
from kiosk.inputs import BadLine, Info, InputEvent, UnmappedInput

FIRST = 5  # of each kind, passed on in every window
WINDOW = 10.0  # seconds


def kind_of(event: InputEvent) -> str | None:
    """The kind of noise this event is, or None for an event that always goes on."""
    if isinstance(event, BadLine):
        return "bad_lines"
    if isinstance(event, UnmappedInput):
        return "unmapped_contacts"
    if isinstance(event, Info) and not isinstance(event, NoiseSummary):
        return "board_messages"
    return None


class BoardNoise:
    def __init__(self, first: int = FIRST, window: float = WINDOW) -> None:
        self.window = window
        self._gates = {
            kind: FloodGate(first, window) for kind in ("bad_lines", "unmapped_contacts", "board_messages")
        }

    def admit(self, event: InputEvent, now: float) -> bool:
        """Pass this event on now (True), or only count it (False)?"""
        kind = kind_of(event)
        return kind is None or self._gates[kind].admit(now)

    def summaries(self, now: float) -> list[NoiseSummary]:
        """One summary for each kind whose window closed with events held back."""
        found = []
        for kind, gate in self._gates.items():
            held = gate.due(now)
            if held:
                found.append(NoiseSummary.of(kind, held, self.window))
        return found
