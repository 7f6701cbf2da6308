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
        return cls(
            _("contacts {raws} closed at once: not counted, throw again or enter the dart by hand").format(
                raws=" + ".join(raws)
            ),
            tuple(raws),
        )

    def to_json(self) -> dict:
        return {"event": "multiple_contacts", "raw": list(self.raws)}


@dataclass(frozen=True)
class NoiseSummary(Info):
    """How many bad lines (or unmapped contacts, or board messages) a board sent beyond the
    first few of a window: counted, not each passed on (`hardware.noise`). A kind of `Info`, so
    the service shows its message; board-test prints `{"event": "bad_lines", "count": N,
    "seconds": 10}`."""

    kind: str = "bad_lines"  # bad_lines, unmapped_contacts, board_messages
    count: int = 0
    seconds: float = 10.0

    @classmethod
    def of(cls, kind: str, count: int, seconds: float) -> NoiseSummary:
        templates = {
            "bad_lines": _("{count} more bad lines from the board in the last {seconds} s"),
            "unmapped_contacts": _("{count} more unmapped contacts in the last {seconds} s"),
            "board_messages": _("{count} more messages from the board in the last {seconds} s"),
        }
        return cls(templates[kind].format(count=count, seconds=f"{seconds:g}"), kind, count, seconds)

    def to_json(self) -> dict:
        return {"event": self.kind, "count": self.count, "seconds": round(self.seconds)}


def deliver(sink: Sink, event: InputEvent) -> None:
    """Hand one event to the sink; a failing sink is logged, never the end of a reader thread."""
    try:
        sink(event)
    except Exception:  # the reader must outlive any consumer bug
        log.exception(_("the event sink failed on %r"), event)
