"""What the caller says in Battleship Express (`kiosk.speech.Phrasebook`).

"Ann to roll", "Sunk! The Destroyer", "Ann again" (a sink rolls on), "Miss" (an attack that sank
nothing), "Ann wins!". The table hides nothing, so nothing here can give anything away; the
calls come when the screen shows the dice land (the caller waits the table's `delay`, as the
buzzer does).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kiosk.express.match import Phase, Rolled, Sunk, TurnPassed, Won
from kiosk.express.rules import Ship
from kiosk.i18n import _
from kiosk.speech import Call, CallOptions, Calls, Words, name, sunk_ship, template


def sunk(ship: Ship) -> Words:
    return sunk_ship(ship.value)


class ExpressCalls:
    """Battleship Express's phrasebook."""

    def calls(self, events: Sequence[Any], view: Mapping[str, Any], options: CallOptions) -> Calls:
        players = [str(p) for p in view["players"]]
        words: list[Words] = []
        keep = False
        attacker: int | None = None
        sank = False
        for event in events:
            if isinstance(event, Rolled) and event.hits is not None:
                attacker = event.side
            elif isinstance(event, Sunk):
                words.append(sunk(event.ship))
                sank = keep = True
            elif isinstance(event, Won):
                words += template("wins", _("{name} wins!"), name=players[event.side])
                keep = True
            elif isinstance(event, TurnPassed):
                if attacker is not None and not sank:
                    words.append(Words("miss", _("Miss")))
                if event.side == attacker and sank:
                    words += template("again", _("{name} again"), name=players[event.side])
                else:
                    words += template("to-roll", _("{name} to roll"), name=players[event.side])
        return Calls((Call(tuple(words), None, keep),) if words else ())

    def opening(self, view: Mapping[str, Any], handed_over: bool) -> tuple[Words, ...]:
        """ "Ann to roll" as the table first shows (nobody has attacked yet)."""
        if view["phase"] != Phase.ATTACK.value or any(t["attacks"] for t in view["stats"]):
            return ()
        return template("to-roll", _("{name} to roll"), name=str(view["players"][view["turn"]]))

    def phrases(self, options: CallOptions) -> Iterable[Words]:
        yield from (sunk(ship) for ship in Ship)
        yield Words("miss", _("Miss"))
        for phrase, text in (
            ("wins", _("{name} wins!")),
            ("again", _("{name} again")),
            ("to-roll", _("{name} to roll")),
        ):
            yield from template(phrase, text)

    def names(self, view: Mapping[str, Any]) -> Iterable[Words]:
        yield from (name(str(player)) for player in view["players"])


EXPRESS_CALLS = ExpressCalls()
