"""The dart game's words for the huge announcement: HIT, MISS, SUNK, REPEAT (ui/touch/announcement.py
shows them)."""

from __future__ import annotations

from kiosk.darts.match import Corrected, DartThrown, Event, Won
from kiosk.game import Result
from kiosk.i18n import _


def words_for(
    events: tuple[Event, ...] | list[Event], team_names: tuple[str, str]
) -> tuple[str, str, str] | None:
    """(word, second line, colour key) for a batch of match events, or None to stay quiet.

    The words say only what the rules allow: HIT never says which ship, SUNK gives the length.
    """
    shown: tuple[str, str, str] | None = None
    for event in events:
        if isinstance(event, Won):
            return (_("SUNK!"), _("Victory for {team}!").format(team=team_names[event.side]), "win")
        if isinstance(event, DartThrown) and not event.padded:
            shown = _result_words(event.result, event.cell.code, event.ship.length if event.ship else 0)
        elif isinstance(event, Corrected):
            word, _line, key = _result_words(
                event.result, event.new.code, event.ship.length if event.ship else 0
            )
            shown = (
                word,
                _("corrected: {new} (was {old})").format(old=event.old.code, new=event.new.code),
                key,
            )
    return shown


def _result_words(result: Result, cell: str, length: int) -> tuple[str, str, str]:
    if result is Result.HIT:
        return _("HIT"), cell, "hit"
    if result is Result.SUNK:
        return _("SUNK!"), _("a ship of {n} went down").format(n=length), "sunk"
    if result is Result.REPEAT:
        return _("REPEAT"), _("{cell} was already shot").format(cell=cell), "repeat"
    return _("MISS"), cell, "miss"
