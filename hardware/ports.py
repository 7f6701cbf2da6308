"""The contracts every device backend fulfils (the gpiozero way: a port, then one module per
backend, a simulated one included).

A device is given a `sink` when it is built and hands it immutable input events from its own
thread. The composition root passes `lambda ev: loop.call_soon_threadsafe(queue.put_nowait, ev)`;
tests pass `queue.Queue().put`. A device never touches the match or a widget.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from kiosk.i18n import _
from kiosk.inputs import Info, InputEvent
from kiosk.sound import Sound

log = logging.getLogger("dartship.hardware")


@dataclass(frozen=True)
class MultipleContacts(Info):
    """Two or more contacts closed in the same instant: reported, never guessed as a dart.

    A kind of `Info`, so a service that knows only `kiosk.inputs` shows its message; board-test
    prints it as `{"event": "multiple_contacts", "raw": [...]}`.
    """

    raws: tuple[str, ...] = ()

    @classmethod
    def of(cls, raws: tuple[str, ...]) -> MultipleContacts:
        return cls(_("contacts {raws} closed at once: not counted, throw again or enter the "
                     "dart by hand").format(raws=" + ".join(raws)), tuple(raws))

    def to_json(self) -> dict:
        return {"event": "multiple_contacts", "raw": list(self.raws)}


DeviceEvent = InputEvent
Sink = Callable[[Any], None]


def deliver(sink: Sink, event: DeviceEvent) -> None:
    """Hand one event to the sink; a failing sink is logged, never the end of a reader thread."""
    try:
        sink(event)
    except Exception:  # the reader must outlive any consumer bug
        log.exception(_("the event sink failed on %r"), event)


@runtime_checkable
class BoardInput(Protocol):
    """Where darts come from: a serial board, the GPIO matrix or the virtual thrower."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


@runtime_checkable
class ButtonPanel(Protocol):
    def start(self) -> None: ...

    def stop(self) -> None: ...


@runtime_checkable
class Buzzer(Protocol):
    """Plays a pattern without blocking the caller."""

    muted: bool

    def play(self, sound: Sound | str) -> None: ...

    def close(self) -> None: ...
