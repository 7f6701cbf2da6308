"""What the kiosk announces for the match's events: the word on screen and the buzzer sound.

The screen, the buzzer and the phones all ask here, so HIT / MISS / SUNK / REPEAT / WIN mean the
same everywhere.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Protocol

from kiosk.darts.match import Corrected, DartThrown, Event, Result, Won
from kiosk.service import MatchUpdate, Notice, NoticeKind, ServiceEvent
from kiosk.sound import Sound

log = logging.getLogger("dartship.announce")


_BY_RESULT = {Result.HIT: Sound.HIT, Result.MISS: Sound.MISS, Result.SUNK: Sound.SUNK,
              Result.REPEAT: Sound.REPEAT}


def sound_for(events: Iterable[Event]) -> Sound | None:
    """The one sound a batch of events deserves: a win drowns the dart that won it."""
    sound: Sound | None = None
    for event in events:
        if isinstance(event, Won):
            return Sound.WIN
        if (isinstance(event, DartThrown) and not event.padded) or isinstance(event, Corrected):
            sound = _BY_RESULT[event.result]
    return sound


class Buzzer(Protocol):
    def play(self, sound: str) -> None: ...


def buzzer_listener(buzzer: Buzzer) -> Callable[[ServiceEvent], None]:
    """A service listener that sounds the buzzer (the buzzer itself never blocks)."""

    def listen(event: ServiceEvent) -> None:
        sound: Sound | None = None
        if isinstance(event, MatchUpdate):
            sound = sound_for(event.events)
        elif isinstance(event, Notice) and event.kind in (NoticeKind.REFUSED,
                                                          NoticeKind.DISCONNECTED):
            sound = Sound.ERROR
        if sound is not None:
            buzzer.play(sound.value)
    return listen
