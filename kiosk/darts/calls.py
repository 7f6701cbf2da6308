"""What the caller says in the dart game (`kiosk.speech.Phrasebook`).

"Sharks to throw" (with named players, `kiosk.darts.players`: "Sharks: Ann to throw"), "Hit",
"Miss", "Repeat", "Sunk! A ship of three", "Sharks win!"; the bull-off's outcome ("Sharks
start", "Throw again", "Who was closer?"); "Dart taken back", "Corrected: hit". With `say_cell`
the thrown cell comes first ("Treble 20. Hit"): the cell is public (the whole bar saw the dart
land). Nothing here ever says which ship a hit struck, nor a cell of a ship that is not sunk:
a SUNK call gives the length the screen gives, and the words come from the events and the
public view alone.

A dart's call is `about` the dart's number in the game (both teams' darts counted, the padded
ones of an early Next too), so an undo of that dart cancels it; a new visit's call is about the
last dart before it (undoing that dart takes the visit back too).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kiosk.board import NUMBERS, Cell, Ring
from kiosk.darts.match import (
    BullOffAgain,
    BullOffUndecided,
    Corrected,
    DartThrown,
    Result,
    Undone,
    VisitStarted,
    Won,
)
from kiosk.darts.players import named_players
from kiosk.i18n import _
from kiosk.speech import Call, CallOptions, Calls, Words, cell, name, template


def _sunk(length: int) -> Words:
    texts = {
        2: _("Sunk! A ship of two"),
        3: _("Sunk! A ship of three"),
        4: _("Sunk! A ship of four"),
        5: _("Sunk! A ship of five"),
    }
    return Words(f"sunk-{length}", texts.get(length) or _("Sunk!"))


def _result(result: Result, length: int) -> Words:
    if result is Result.SUNK:
        return _sunk(length)
    if result is Result.HIT:
        return Words("hit", _("Hit"))
    if result is Result.REPEAT:
        return Words("repeat", _("Repeat"))
    return Words("miss", _("Miss"))


def spoken_cell(target: Cell) -> Words | None:
    """A cell as a caller says it ("double 20", "bull"); None off the board."""
    if not target.on_board:
        return None
    if target.ring is Ring.BULL:
        return cell(target.code, _("Bull"))
    rings = {
        Ring.DOUBLE: _("Double {number}"),
        Ring.LARGE: _("Large {number}"),
        Ring.TRIPLE: _("Treble {number}"),
        Ring.SMALL: _("Small {number}"),
    }
    return cell(target.code, rings[target.ring].format(number=target.number))


def _dart_words(target: Cell, result: Result, length: int, options: CallOptions) -> list[Words]:
    said = spoken_cell(target) if options.say_cell else None
    return [*([said] if said else []), _result(result, length)]


def _team(view: Mapping[str, Any], team: int) -> str:
    return str(view["teams"][team]["name"])


def _turn(view: Mapping[str, Any], event: VisitStarted) -> tuple[Words, ...]:
    team = _team(view, event.side)
    side = view["teams"][event.side]
    named = named_players(str(side["name"]), [str(p) for p in side["players"]])
    if event.visit == 1 and named:  # who of the team throws first, too
        return template("start-player", _("{team} start: {player} to throw"), team=team, player=event.player)
    if event.visit == 1:
        return template("start", _("{team} start"), team=team)
    if named:
        return template("player-to-throw", _("{team}: {player} to throw"), team=team, player=event.player)
    return template("to-throw", _("{team} to throw"), team=team)


class DartCalls:
    """The dart game's phrasebook."""

    def calls(self, events: Sequence[Any], view: Mapping[str, Any], options: CallOptions) -> Calls:
        thrown = sum(int(n) for n in view["state"]["darts"])  # after this batch
        later = sum(isinstance(e, DartThrown) for e in events)  # darts of the batch still to come
        words: list[Words] = []
        about: int | None = None
        keep = False
        cancel: int | None = None
        for event in events:
            if isinstance(event, DartThrown):
                number = thrown - later + 1
                later -= 1
                if event.padded:
                    continue
                words += _dart_words(
                    event.cell, event.result, event.ship.length if event.ship else 0, options
                )
                about, keep = number, keep or event.result is Result.SUNK
            elif isinstance(event, Corrected):
                cancel = about = thrown
                words += [
                    Words("corrected", _("Corrected")),
                    *_dart_words(event.new, event.result, event.ship.length if event.ship else 0, options),
                ]
                keep = keep or event.result is Result.SUNK
            elif isinstance(event, Undone):
                cancel = thrown + 1
                words.append(Words("taken-back", _("Dart taken back")))
            elif isinstance(event, Won):
                words += template("win", _("{team} win!"), team=_team(view, event.side))
                keep = True
            elif isinstance(event, VisitStarted):
                words += _turn(view, event)
                about = about if about is not None else (thrown or None)
                keep = keep or event.visit == 1
            elif isinstance(event, BullOffUndecided):
                words.append(Words("closer", _("Who was closer?")))
            elif isinstance(event, BullOffAgain):
                words.append(Words("bull-again", _("Bull-off: throw again")))
        say = (Call(tuple(words), about, keep),) if words else ()
        return Calls(say, cancel)

    def opening(self, view: Mapping[str, Any], handed_over: bool) -> tuple[Words, ...]:
        """Nothing: who throws first is the first visit's own call ("Sharks start"), after the
        bull-off or the start the players chose."""
        return ()

    def phrases(self, options: CallOptions) -> Iterable[Words]:
        for result in (Result.HIT, Result.MISS, Result.REPEAT):
            yield _result(result, 0)
        for length in (2, 3, 4, 5):
            yield _sunk(length)
        yield Words("corrected", _("Corrected"))
        yield Words("taken-back", _("Dart taken back"))
        yield Words("closer", _("Who was closer?"))
        yield Words("bull-again", _("Bull-off: throw again"))
        for phrase, text in (
            ("start", _("{team} start")),
            ("start-player", _("{team} start: {player} to throw")),
            ("to-throw", _("{team} to throw")),
            ("player-to-throw", _("{team}: {player} to throw")),
            ("win", _("{team} win!")),
        ):
            yield from template(phrase, text)
        if options.say_cell:
            yield from self.cells()

    def cells(self) -> Iterable[Words]:
        """Every cell as said."""
        for number in NUMBERS:
            for ring in (Ring.TRIPLE, Ring.DOUBLE, Ring.LARGE, Ring.SMALL):
                said = spoken_cell(Cell(ring, number))
                if said is not None:
                    yield said
        bull = spoken_cell(Cell(Ring.BULL))
        if bull is not None:
            yield bull

    def names(self, view: Mapping[str, Any]) -> Iterable[Words]:
        for team in view["teams"]:
            yield name(str(team["name"]))
            named = named_players(str(team["name"]), [str(p) for p in team["players"]])
            yield from (name(player) for player in named)


DART_CALLS = DartCalls()
