"""Whole games of every kind, played by the real engines and stored through the real `Store`
(so a store with an outbox queues each as it ends): for the league's tests and `bench/hub.py`.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from typing import Any

from kiosk.game import GameKind
from kiosk.service import GameService
from kiosk.store import Store

# Where a game goes: a store (command by command, as the service writes it) or a running
# kiosk's service (its commands submitted, as a screen or a phone would).
Sink = Store | GameService


def _keep(sink: Sink, kind: GameKind[Any, Any, Any, Any], setup: Any, commands: Sequence[Any]) -> int:
    """Play a game into `sink`; its id in the kiosk's store."""
    if isinstance(sink, GameService):
        game = sink.new_game(kind, setup)
        for number, command in enumerate(commands):
            if len(sink.match.log) > number:  # a follow-up the service made by itself
                assert type(sink.match.log[number]) is type(command)
                continue
            sink.submit(command)
        assert sink.match.outcome().over
        return game
    game = sink.games.new_game(kind, setup)
    match = kind.new(setup)
    for command in commands:
        events = match.apply(command)
        sink.games.append(game, kind, command, events, match)
    assert match.outcome().over
    return game


def play_darts(store: Sink, teams: Sequence[Sequence[str]], rng: random.Random, winner: int = 0) -> int:
    """A dart game between two teams (of rotating players): `winner` sinks every enemy ship,
    the other team throws misses and stray darts meanwhile."""
    from kiosk.board import MISS
    from kiosk.darts.fleet import random_fleet
    from kiosk.darts.kind import DARTS
    from kiosk.darts.match import (
        BullOffMode,
        HouseRules,
        Match,
        Next,
        Phase,
        Place,
        Setup,
        Start,
        Team,
        Throw,
    )

    rules = HouseRules(bull_off=BullOffMode.OFF)
    setup = Setup(
        (Team(f"{teams[0][0]}'s team", tuple(teams[0])), Team(f"{teams[1][0]}'s team", tuple(teams[1]))),
        rules,
    )
    match = Match(setup)
    commands: list[Any] = [Place(t, random_fleet(rules.board, rules.fleet, rng)) for t in (0, 1)]
    commands.append(Start(0))
    for command in commands:
        match.apply(command)
    targets = sorted(match.fleet(1 - winner).cells, key=lambda c: c.code)
    while match.phase is not Phase.OVER:
        if match.phase is Phase.TAKEOUT:
            command: Any = Next()
        elif match.turn == winner:
            command = Throw(targets.pop())
        else:
            command = Throw(MISS)
        match.apply(command)
        commands.append(command)
    return _keep(store, DARTS, setup, commands)


def play_classic(
    store: Sink,
    players: Sequence[str],
    rng: random.Random,
    winner: int = 0,
    daily: datetime.date | None = None,
    seed: str | None = None,
) -> int:
    """A classic duel (or, with `daily`, that day's challenge by players[0], sunk in a number of
    shots that `rng` decides; with `seed`, on the league's fleet of that day)."""
    from kiosk.classic.fleet import random_fleet
    from kiosk.classic.grid import SQUARES
    from kiosk.classic.match import Fire, Match, Mode, Phase, Place, Setup, daily_fleet
    from kiosk.classic.wire import CLASSIC

    if daily is not None:
        setup = Setup(Mode.DAILY, (players[0],), 0, date=daily)
        # The computer's fleet of the day: the league's (its key from the hub's seed) or a
        # kiosk's own.
        key = bytes.fromhex(seed) if seed else b"a kiosk's own secret"
        commands: list[Any] = [Place(1, daily_fleet(key, daily))]
    else:
        setup = Setup(Mode.DUEL, tuple(players))
        commands = [Place(p, random_fleet(rng)) for p in (0, 1)]
    match = Match(setup)
    for command in commands:
        match.apply(command)
    squares = {side: list(SQUARES) for side in (0, 1)}
    for side in (0, 1):
        rng.shuffle(squares[side])
    targets = sorted(match.fleet(1 - winner).cells, key=lambda s: s.code)  # type: ignore[union-attr]
    while match.phase is not Phase.OVER:
        side = match.turn
        assert side is not None
        if side == winner and (not squares[side] or rng.random() < 0.5 or daily is None):
            square = targets.pop()
            if square in squares[side]:
                squares[side].remove(square)
        else:
            square = squares[side].pop()
            if side == winner and square in targets:  # the daily player's stray shot hit
                targets.remove(square)
        command = Fire(side, square)
        match.apply(command)
        commands.append(command)
    return _keep(store, CLASSIC, setup, commands)


def play_express(store: Sink, players: Sequence[str], rng: random.Random) -> int:
    """A Battleship Express game of 2-4 people, their moves chosen by the computer's normal
    level (the seats are people to the league: nobody is marked a computer)."""
    import json

    from kiosk.express.ai import Computer, Strategy
    from kiosk.express.match import Match, Phase, Setup
    from kiosk.express.wire import EXPRESS

    computers = [Computer(Strategy.NORMAL, rng.randrange(10**6)) for _ in players]
    setup = Setup.create(
        list(players),
        seed=rng.randrange(10**9),
        lines=[c.line(Setup.create(list(players)).variant, None) for c in computers],
    )
    match = Match(setup)
    commands = []
    while match.phase is not Phase.OVER:
        command = computers[match.turn].decide(json.loads(json.dumps(match.public_view())))
        match.apply(command)
        commands.append(command)
    return _keep(store, EXPRESS, setup, commands)
