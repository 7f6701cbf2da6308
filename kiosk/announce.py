"""The buzzer hears what the screen shows: HIT / MISS / SUNK / REPEAT / WIN mean the same sound
in every game (each kind says which sound its events deserve), an error beep for a refusal, a
lost board or a store that cannot save."""

from __future__ import annotations

from kiosk.ports import Buzzer
from kiosk.service import GameService, Listener, MatchUpdate, Notice, NoticeKind, ServiceEvent
from kiosk.sound import Sound

_ERRORS = (NoticeKind.REFUSED, NoticeKind.DISCONNECTED, NoticeKind.PAUSED)


def buzzer_listener(buzzer: Buzzer, service: GameService) -> Listener:
    """A service listener that sounds the buzzer (the buzzer itself never blocks)."""

    def listen(event: ServiceEvent) -> None:
        sound: Sound | None = None
        if isinstance(event, MatchUpdate) and service.kind is not None:
            sound = service.kind.sound_for(event.events)
        elif isinstance(event, Notice) and event.kind in _ERRORS:
            sound = Sound.ERROR
        if sound is not None:
            buzzer.play(sound)
    return listen
