"""The buzzer hears what the screen shows: HIT / MISS / SUNK / REPEAT / WIN mean the same sound
in every game (each kind says which sound its events deserve), an error beep for a refusal, a
lost board or a store that cannot save.

A screen that plays its events out over a few seconds (Battleship Express rolls its dice one
roll after the other before SUNK! shows) gives a `delay`: the seconds from the commit to the
moment the sound belongs to, so the buzzer sounds with the word, not before the dice land.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from kiosk.ports import Buzzer
from kiosk.service import GameService, Listener, MatchUpdate, Notice, NoticeKind, ServiceEvent
from kiosk.sound import Sound

_ERRORS = (NoticeKind.REFUSED, NoticeKind.DISCONNECTED, NoticeKind.PAUSED)


@runtime_checkable
class HoldsSound(Protocol):
    """A participant whose game's screen plays events out over seconds (the dice tumbling)."""

    def sound_delay(self, events: Sequence[Any]) -> float: ...


def sound_delay(participants: Sequence[object]) -> Callable[[Sequence[Any]], float]:
    """The buzzer's delay for a batch of events: the longest any participant asks for."""
    holders = [p for p in participants if isinstance(p, HoldsSound)]

    def delay(events: Sequence[Any]) -> float:
        return max((holder.sound_delay(events) for holder in holders), default=0.0)

    return delay


def buzzer_listener(
    buzzer: Buzzer, service: GameService, delay: Callable[[Sequence[Any]], float] | None = None
) -> Listener:
    """A service listener that sounds the buzzer (the buzzer itself never blocks)."""

    def listen(event: ServiceEvent) -> None:
        sound: Sound | None = None
        wait = 0.0
        if isinstance(event, MatchUpdate) and service.kind is not None:
            sound = service.kind.sound_for(event.events)
            if sound is not None and delay is not None:
                wait = delay(event.events)
        elif isinstance(event, Notice) and event.kind in _ERRORS:
            sound = Sound.ERROR
        if sound is None:
            return
        if wait > 0:
            try:
                asyncio.get_running_loop().call_later(wait, buzzer.play, sound)
                return
            except RuntimeError:
                pass  # no loop running (a script): now rather than never
        buzzer.play(sound)

    return listen
