"""The dart game as the service and the store keep it (`kiosk.game.GameKind`).

What is particular to darts and runs beside the rules: a placement is stored apart (its fleet is
a `Secret`), both fleets in means the game starts (a follow-up), a board's dart, miss or button
becomes a command (or a refusal), and each announcement has its sound.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, get_args

from kiosk.board import MISS, BullZone, Cell
from kiosk.darts.match import (
    BullOffDart,
    Command,
    Correct,
    Corrected,
    DartThrown,
    Event,
    Match,
    Next,
    Phase,
    Place,
    Setup,
    Start,
    Throw,
    Undo,
    Won,
    command_word,
)
from kiosk.darts.wire import command_from_dict, command_to_dict, setup_from_dict, setup_to_dict
from kiosk.game import GameKind, Result, Secret, Shot
from kiosk.i18n import _
from kiosk.inputs import Button, ButtonInput, CorrectInput, DartInput, InputEvent, MissInput, TakeoutInput
from kiosk.sound import Sound
from kiosk.speech import Phrasebook

_SOUND_OF = {
    Result.HIT: Sound.HIT,
    Result.MISS: Sound.MISS,
    Result.SUNK: Sound.SUNK,
    Result.REPEAT: Sound.REPEAT,
}
_BUTTON: dict[Button, Command] = {Button.NEXT: Next(), Button.UNDO: Undo(), Button.MISS: Throw(MISS)}


def sound_for(events: Iterable[Event]) -> Sound | None:
    """The one sound a batch of events deserves: a win drowns the dart that won it."""
    sound: Sound | None = None
    for event in events:
        if isinstance(event, Won):
            return Sound.WIN
        if (isinstance(event, DartThrown) and not event.padded) or isinstance(event, Corrected):
            sound = _SOUND_OF[event.result]
    return sound


def command_for_input(match: Match, event: InputEvent) -> Command | str | None:
    """What a board input means now (see `GameKind.command_for_input`)."""
    if isinstance(event, ButtonInput):
        return _BUTTON[event.button]
    if isinstance(event, TakeoutInput):
        # the darts of a visit pulled: the guard knows which visit (kiosk/darts/double_next.py);
        # the bull-off's and the warm-up's darts end no visit
        return Next(takeout=True) if match.phase in (Phase.THROWING, Phase.TAKEOUT) else None
    if isinstance(event, CorrectInput):
        # a camera scorer correcting the last dart it reported: only darts of a visit have one
        return Correct(event.cell) if match.phase in (Phase.THROWING, Phase.TAKEOUT, Phase.OVER) else None
    if isinstance(event, DartInput):
        cell, zone = event.cell, event.zone
    elif isinstance(event, MissInput):
        cell, zone = MISS, BullZone.MISS
    else:
        return None
    computer = match.setup.computer
    if match.phase is Phase.BULL_OFF:
        zones = match.bull_off_zones()
        # The first team named throws first; in solo mode every board dart is the players'.
        waiting = [t for t in (0, 1) if zones[t] is None and (computer is None or computer.side != t)]
        if match.bull_off_undecided:
            # Said, not dropped silently: until someone answers, darts change nothing.
            return _("who was closer? Answer on the kiosk, on both teams' phones or on the host page first")
        if not waiting:
            return None
        return BullOffDart(waiting[0], zone, cell)
    if match.phase is Phase.PLACING:
        return None  # warming-up darts before the game: nothing to referee
    if computer is not None and match.turn == computer.side:
        return _("the kiosk is throwing: wait for your visit")
    return Throw(cell)


class DartsKind(GameKind[Setup, Command, Event, Match]):
    name = "darts"
    game_type = Match
    event_types = get_args(Event)

    def new(self, setup: Setup) -> Match:
        return Match(setup)

    def setup_to_dict(self, setup: Setup) -> dict[str, Any]:
        return setup_to_dict(setup)

    def setup_from_dict(self, data: Mapping[str, Any]) -> Setup:
        return setup_from_dict(data)

    def command_to_dict(self, command: Command) -> tuple[dict[str, Any], Secret | None]:
        if isinstance(command, Place):
            # The fleet is the team's secret: the log says only that the team placed.
            return {"cmd": "place", "team": command.side}, Secret(command.side, command.fleet.code)
        return command_to_dict(command), None

    def command_from_dict(self, body: Mapping[str, Any], setup: Setup, secret: str | None) -> Command:
        if body.get("cmd") == "place" and secret is not None:
            body = {**body, "fleet": secret}  # the stored fleet back, read as the wire reads one
        return command_from_dict(body, setup.rules)

    def command_word(self, command: Command) -> str:
        return command_word(command)

    def shots(self, events: Iterable[Event]) -> Iterable[Shot]:
        for e in events:
            if isinstance(e, DartThrown):
                yield Shot(e.side, e.player, e.dart, e.cell.code, e.result.value)

    def follow_up(self, game: Match, events: Sequence[Event]) -> Command | None:
        if game.phase is Phase.PLACING and all(game.state().placed):
            return Start(None)
        return None

    def command_for_input(self, game: Match, event: InputEvent) -> Command | str | None:
        return command_for_input(game, event)

    def visit_darts(self, game: Match) -> tuple[Cell, ...] | None:
        return game.darts_in_board() if game.phase in (Phase.THROWING, Phase.TAKEOUT) else None

    def sound_for(self, events: Iterable[Event]) -> Sound | None:
        return sound_for(events)

    def computer_sides(self, setup: Setup) -> frozenset[int]:
        return frozenset() if setup.computer is None else frozenset({setup.computer.side})

    def side_names(self, setup: Setup) -> tuple[str, ...]:
        return tuple(team.name for team in setup.teams)

    def phrasebook(self) -> Phrasebook:
        from kiosk.darts.calls import DART_CALLS

        return DART_CALLS


DARTS = DartsKind()
