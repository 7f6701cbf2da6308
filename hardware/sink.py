"""How a device hands its events on: `deliver` to the sink the composition root gave it
(see the ports in `kiosk/ports.py`), and the one event only hardware makes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from kiosk.i18n import _
from kiosk.inputs import Info, InputEvent
from kiosk.ports import Sink

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


def deliver(sink: Sink, event: InputEvent) -> None:
    """Hand one event to the sink; a failing sink is logged, never the end of a reader thread."""
    try:
        sink(event)
    except Exception:  # the reader must outlive any consumer bug
        log.exception(_("the event sink failed on %r"), event)
