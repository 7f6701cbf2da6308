"""The report of a finished game, as a kiosk sends it and the hub checks it.

A report holds the whole game: its kind, setup, every command of its log with its secret part
put back (the fleets: the game is over, nothing is hidden any more) and the result the kiosk
stored. `verify` replays the log with the same pure engine the kiosk ran and refuses a report
whose result the replay does not give: a tampered or corrupted upload names what differs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.errors import DartshipError
from kiosk.game import PlayerResult, replay
from kiosk.hosted import HOSTED
from kiosk.i18n import _, joined
from kiosk.kinds import kind_named
from kiosk.lines import WireError, untrusted_json

VERSION = 1
MAX_COMMANDS = 20_000  # a long dart game is a few hundred; Express a few thousand at most
FIGURES = ("shots", "hits", "sunk", "turns")


class ReportError(DartshipError, ValueError):
    """A report that cannot be accepted; the message says what is wrong and where."""


@dataclass(frozen=True)
class Verified:
    """What the replay of a report gave: the result the league counts."""

    kind: str
    winner: int | None
    turns: int
    results: tuple[PlayerResult, ...]
    computers: frozenset[int]  # the sides the kiosk's computer played


def result_to_dict(result: PlayerResult) -> dict[str, Any]:
    return {
        "side": result.side,
        "player": result.player,
        "shots": result.shots,
        "hits": result.hits,
        "sunk": result.sunk,
        "turns": result.turns,
        "won": result.won,
    }


def _result_from_dict(raw: object, where: str) -> PlayerResult:
    if not isinstance(raw, Mapping):
        raise ReportError(_("{where} must be an object").format(where=where))
    try:
        ints = {k: raw[k] for k in ("side", *FIGURES)}
        player, won = raw["player"], raw["won"]
    except KeyError as err:
        raise ReportError(_("{where} has no {key!r}").format(where=where, key=err.args[0])) from None
    if (
        not all(type(v) is int for v in ints.values())
        or not isinstance(player, str)
        or not isinstance(won, bool)
    ):
        raise ReportError(
            _("{where}: figures must be whole numbers, 'player' a name, 'won' true or false").format(
                where=where
            )
        )
    return PlayerResult(
        side=ints["side"],
        player=player,
        shots=ints["shots"],
        hits=ints["hits"],
        sunk=ints["sunk"],
        turns=ints["turns"],
        won=won,
    )


def _field(report: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = report.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ReportError(_("the report's {key!r} is missing or of the wrong type").format(key=key))
    return value


def parse(body: bytes) -> dict[str, Any]:
    try:
        report = untrusted_json(body)  # as the line protocols read a line: no 10 000 brackets
    except WireError:
        raise ReportError(_("the report is not JSON")) from None
    if not isinstance(report, dict):
        raise ReportError(_("the report must be a JSON object"))
    if report.get("version") != VERSION:
        raise ReportError(_("the report's version must be {version}").format(version=VERSION))
    for key, kind in (
        ("uuid", str),
        ("kind", str),
        ("venue", int),
        ("started", str),
        ("finished", str),
        ("setup", dict),
        ("log", list),
        ("results", list),
    ):
        _field(report, key, kind)
    if report["kind"] not in HOSTED:
        raise ReportError(_("unknown kind of game {kind!r}").format(kind=report["kind"]))
    if len(report["log"]) > MAX_COMMANDS:
        raise ReportError(_("the log has more than {most} commands").format(most=MAX_COMMANDS))
    return report


def _differences(claimed: Sequence[PlayerResult], replayed: Sequence[PlayerResult]) -> list[str]:
    by_seat = {(r.side, r.player): r for r in replayed}
    claimed_seats = {(r.side, r.player) for r in claimed}
    found = []
    for seat in sorted(set(by_seat) ^ claimed_seats):
        found.append(
            (
                _("player {player!r} (side {side}) is not in the replay")
                if seat in claimed_seats
                else _("player {player!r} (side {side}) is missing from the report")
            ).format(player=seat[1], side=seat[0])
        )
    for mine in claimed:
        theirs = by_seat.get((mine.side, mine.player))
        if theirs is None:
            continue
        for figure in (*FIGURES, "won"):
            if getattr(mine, figure) != getattr(theirs, figure):
                found.append(
                    _("{player}'s {figure}: the report says {claimed}, the replay gives {replayed}").format(
                        player=mine.player,
                        figure=_figure_word(figure),
                        claimed=_figure_value(getattr(mine, figure)),
                        replayed=_figure_value(getattr(theirs, figure)),
                    )
                )
    return found


def _figure_word(figure: str) -> str:
    """A player's figure as the reason names it, in the reader's language."""
    words = {
        "shots": _("shots"),
        "hits": _("hits"),
        "sunk": _("ships sunk"),
        "turns": _("turns"),
        "won": _("result"),
    }
    return words[figure]


def _figure_value(value: int | bool) -> int | str:
    return (_("won") if value else _("lost")) if isinstance(value, bool) else value


def verify(report: Mapping[str, Any]) -> Verified:
    """Replay the report's log; ReportError (saying what differs) unless it gives the same
    finished game, winner and figures the report claims."""
    kind = kind_named(report["kind"])
    try:
        setup = kind.setup_from_dict(report["setup"])
    except Exception as err:  # a kind's parser raises what it raises: all of it is a bad setup
        raise ReportError(_("the setup cannot be read: {error}").format(error=err)) from None
    commands = []
    for number, entry in enumerate(report["log"], start=1):
        if (
            not isinstance(entry, Mapping)
            or not isinstance(entry.get("body"), Mapping)
            or not isinstance(entry.get("secret"), str | None)
        ):
            raise ReportError(
                _('command {number} must be {{"body": {{...}}, "secret": ...}}').format(number=number)
            )
        try:
            commands.append(kind.command_from_dict(entry["body"], setup, entry["secret"]))
        except Exception as err:
            raise ReportError(
                _("command {number} cannot be read: {error}").format(number=number, error=err)
            ) from None
    try:
        game = replay(kind, setup, commands)
    except Exception as err:  # ReplayError, or whatever a kind's rules raise on a forged log
        raise ReportError(_("the log does not replay: {error}").format(error=err)) from None
    outcome = game.outcome()
    if not outcome.over:
        raise ReportError(_("the replayed game is not over"))
    claimed = [_result_from_dict(r, f"result {n}") for n, r in enumerate(report["results"], 1)]
    problems = []
    if report.get("winner") != outcome.winner:
        problems.append(
            _("the winner: the report says {claimed}, the replay gives {replayed}").format(
                claimed=report.get("winner"), replayed=outcome.winner
            )
        )
    problems += _differences(claimed, outcome.results)
    if problems:
        raise ReportError(
            _("the result is not what the log gives: {problems}").format(problems=joined(problems))
        )
    return Verified(
        kind.name,
        outcome.winner,
        outcome.turns,
        tuple(outcome.results),
        frozenset(kind.computer_sides(setup)),
    )
