"""What the caller says in classic 10x10 Battleship (`kiosk.speech.Phrasebook`).

"Hit, fire again", "Miss", "Sunk! The Destroyer", whose turn ("Your turn" against the computer,
"Jets, your turn" in a duel) and the win. With `say_cell` the square comes first ("B 5. Hit,
fire again"): a shot's square is public. A hit never says which ship it struck; only a sunk
ship is named, as the screen names it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kiosk.classic.fleet import ShipClass
from kiosk.classic.grid import SQUARES, Square
from kiosk.classic.match import Mode, Phase, Result, ShotFired, TurnPassed, Won
from kiosk.i18n import _
from kiosk.speech import Call, CallOptions, Calls, Words, cell, name, sunk_ship, template


def sunk(kind: ShipClass) -> Words:
    return sunk_ship(kind.value)


def _square(square: Square) -> Words:
    # "B 5", not "B5": the synthetic voice then says the letter and the number.
    return cell(square.code, f"{square.code[0]} {square.code[1:]}")


def _shot(event: ShotFired, options: CallOptions) -> list[Words]:
    said = [_square(event.square)] if options.say_cell else []
    if event.result is Result.SUNK and event.ship is not None:
        return [*said, sunk(event.ship.kind)]
    if event.result is Result.HIT:
        return [*said, Words("hit-again", _("Hit, fire again"))]
    return [*said, Words("miss", _("Miss"))]


def _against_computer(view: Mapping[str, Any]) -> bool:
    return view["mode"] != Mode.DUEL.value


def _turn(view: Mapping[str, Any], player: int) -> tuple[Words, ...]:
    if _against_computer(view):
        return (Words("your-turn", _("Your turn")),) if player == 0 else ()
    return template("name-your-turn", _("{name}, your turn"), name=str(view["players"][player]))


def _won(view: Mapping[str, Any], player: int) -> tuple[Words, ...]:
    if view["mode"] == Mode.DAILY.value:
        return (Words("all-sunk", _("All ships sunk!")),)
    if _against_computer(view):
        return (
            (Words("you-win", _("You win!")),)
            if player == 0
            else (Words("computer-wins", _("The computer wins")),)
        )
    return template("wins", _("{name} wins!"), name=str(view["players"][player]))


def first_turn(view: Mapping[str, Any]) -> tuple[Words, ...]:
    """Whose turn it is before the first shot ("Your turn", "Sharks, your turn"); nothing
    before the fleets stand or once a shot is fired."""
    if view["phase"] != Phase.PLAYING.value or any(view["shots"]):
        return ()
    return _turn(view, int(view["turn"]))


def _phone_duel() -> Words:
    return Words("phone-duel", _("Phone duel"))


def room_duel_call(events: Sequence[Any], view: Mapping[str, Any]) -> Call | None:
    """What the kiosk says of a duel two phones play in a room (`Caller.hear_table`): its
    sinks and its winner, each after "Phone duel" (and a sink after the shooter's name), so
    the bar tells them from the kiosk's own game ("Phone duel. Anna. Sunk! The Destroyer",
    "Phone duel. Anna wins!"). Never a shot's square, a hit or a miss (a room's duel is on its
    phones, and many may run at once), and nothing of a solo game or the daily challenge."""
    if view["mode"] != Mode.DUEL.value:
        return None
    words: list[Words] = []
    for event in events:
        if isinstance(event, ShotFired) and event.result is Result.SUNK and event.ship is not None:
            words += [_phone_duel(), name(str(view["players"][event.side])), sunk(event.ship.kind)]
        elif isinstance(event, Won):
            said = template("wins", _("{name} wins!"), name=str(view["players"][event.side]))
            words += [*([] if words else [_phone_duel()]), *said]  # after a sink: "Anna wins!"
    return Call(tuple(words)) if words else None


class ClassicCalls:
    """Classic Battleship's phrasebook."""

    def calls(self, events: Sequence[Any], view: Mapping[str, Any], options: CallOptions) -> Calls:
        words: list[Words] = []
        keep = False
        for event in events:
            if isinstance(event, ShotFired):
                words += _shot(event, options)
                keep = keep or event.result is Result.SUNK
            elif isinstance(event, TurnPassed):
                words += _turn(view, event.side)
            elif isinstance(event, Won):
                words += _won(view, event.side)
                keep = True
        return Calls((Call(tuple(words), None, keep),) if words else ())

    def opening(self, view: Mapping[str, Any], handed_over: bool) -> tuple[Words, ...]:
        """Against the computer: "Your turn" once the fleets stand (when the team starts). A
        duel's first turn waits for its hand-over: "Sharks, your turn" once both phones hold
        their links (no shot is taken before: the touchscreen then shows the radars, the
        phones their boards), not while one team still scans its code."""
        if view["mode"] == Mode.DUEL.value and not handed_over:
            return ()
        return first_turn(view)

    def phrases(self, options: CallOptions) -> Iterable[Words]:
        yield Words("hit-again", _("Hit, fire again"))
        yield Words("miss", _("Miss"))
        yield from (sunk(kind) for kind in ShipClass)
        yield Words("your-turn", _("Your turn"))
        yield Words("all-sunk", _("All ships sunk!"))
        yield Words("you-win", _("You win!"))
        yield Words("computer-wins", _("The computer wins"))
        yield from template("name-your-turn", _("{name}, your turn"))
        yield from template("wins", _("{name} wins!"))
        yield _phone_duel()  # a phone room's duel
        if options.say_cell:
            yield from (_square(square) for square in SQUARES)

    def names(self, view: Mapping[str, Any]) -> Iterable[Words]:
        if not _against_computer(view):
            yield from (name(str(player)) for player in view["players"])


CLASSIC_CALLS = ClassicCalls()
