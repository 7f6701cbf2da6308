"""Computer seats: the kiosk plays any seat of an Express game through the service, at the
table's pace, and a resumed game gets its computer players back (kiosk/express/seats.py).

Pauses are 0 here; the tests wait for the seats to be idle, never for a time.
"""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from kiosk.express.ai import Computer, Strategy
from kiosk.express.match import (
    COMPUTER_LEVELS,
    Attack,
    Match,
    Phase,
    Rolled,
    Setup,
    SetupError,
    Target,
)
from kiosk.express.pace import Pace, length
from kiosk.express.rules import Variant
from kiosk.express.seats import SOURCE, ComputerSeats
from kiosk.express.wire import EXPRESS, setup_from_dict, setup_to_dict
from kiosk.service import GameService, MatchUpdate, Source
from kiosk.store import Store

from .conftest import ANN, BO, CY, B, D

FAST = Pace.instant()


def test_the_levels_the_setup_knows_are_the_computers_levels():
    assert tuple(level.value for level in Strategy) == COMPUTER_LEVELS


def test_computer_seats_are_stored_with_the_setup():
    setup = Setup.create(["Ann", "Kiosk"], computers=[None, "hard"], seed=1)
    assert setup.computer(0) is None and setup.computer(1) == "hard"
    assert setup_from_dict(setup_to_dict(setup)) == setup
    people = Setup.create(["Ann", "Bo"], computers=[None, None], seed=1)
    assert people.computers == () and "computers" not in setup_to_dict(people)
    with pytest.raises(SetupError, match="level"):
        Setup.create(["Ann", "Kiosk"], computers=[None, "wizard"])
    with pytest.raises(SetupError, match="level"):
        Setup(("Ann", "Bo"), (ANN, BO), 1, computers=("easy",))


async def _until_over(service: GameService, seats: ComputerSeats, rounds: int = 2000) -> None:
    for _ in range(rounds):
        await asyncio.sleep(0)
        await seats.settled()
        if service.match.phase is Phase.OVER:
            return
    raise AssertionError("the computers did not finish the game")


@pytest.mark.parametrize("variant", list(Variant))
def test_computers_play_a_whole_game_by_the_same_commands(variant, caplog):
    caplog.set_level(logging.WARNING)
    sources: list[Source] = []

    async def main() -> Match:
        service = GameService(None, rng=random.Random(2))
        service.subscribe(lambda e: sources.append(e.source) if isinstance(e, MatchUpdate) else None)
        seats = ComputerSeats(service, asyncio.get_running_loop(), pace=FAST, rng=random.Random(4)).attach()
        service.new_game(
            EXPRESS,
            Setup.create(
                ["Easy", "Normal", "Hard"], variant=variant, seed=9, computers=["easy", "normal", "hard"]
            ),
        )
        await _until_over(service, seats)
        assert seats.decisions == len(service.match.log)
        return service.match

    match = asyncio.run(main())
    assert match.winner is not None and set(sources) == {SOURCE}
    assert "refused" not in caplog.text


class SpyLoop:
    """The loop as the seats use it, remembering every delay they ask for."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.delays: list[float] = []

    def call_later(self, delay: float, callback, *args):
        self.delays.append(delay)
        return self.loop.call_later(delay, callback, *args)

    def run_in_executor(self, executor, function, *args):
        return self.loop.run_in_executor(executor, function, *args)


def test_a_computer_waits_for_its_turn_and_for_the_table_to_show_the_last_attack():
    pace = Pace(move=0.5, tumble=0.8, land=0.9, aside=0.5, sunk=2.3, turn=1.0, think=1.5)

    async def main() -> None:
        service = GameService(None, rng=random.Random(2))
        loop = SpyLoop(asyncio.get_running_loop())
        seats = ComputerSeats(service, loop, pace=pace, rng=random.Random(4)).attach()
        service.new_game(
            EXPRESS, Setup.create(["Ann", "Kiosk"], lines=[ANN, BO], seed=5, computers=[None, "normal"])
        )
        assert seats.plays(1) and not seats.plays(0)
        assert loop.delays == [pace.think]  # a look at the new game, after a moment
        seats._timer.cancel()
        seats._timer = None
        seats._step()  # Ann's turn: nothing to do
        assert seats.idle and seats.decisions == 0
        events = service.submit(Attack(D, Target(1, B)))
        # It looks again once the table has shown Ann's attack, and a moment more.
        assert loop.delays[-1] == pytest.approx(length(events, pace) + pace.think)
        assert length(events, pace) > pace.tumble
        seats.close()

    asyncio.run(main())


def test_a_resumed_game_gets_its_computer_players_back(tmp_path):
    db = tmp_path / "k.db"
    service = GameService(Store(db), follow_ups=False)
    service.new_game(
        EXPRESS,
        Setup.create(["Ann", "Bo", "Kiosk"], lines=[ANN, BO, CY], seed=3, computers=[None, None, "hard"]),
    )
    assert service.store is not None
    service.store.close()
    rolls: list[tuple[int, Source]] = []  # who rolled, and where the command came from

    def heard(event: object) -> None:
        if isinstance(event, MatchUpdate):
            rolls.extend((e.side, event.source) for e in event.events if isinstance(e, Rolled))

    async def main() -> Match:
        again = GameService(Store(db))
        again.subscribe(heard)
        assert again.resume()
        seats = ComputerSeats(again, asyncio.get_running_loop(), pace=FAST).attach()
        assert seats.plays(2) and not seats.plays(0) and not seats.plays(1)
        people = Computer(Strategy.EASY, 1)  # the people's taps, chosen at random
        match = again.match
        for _ in range(500):
            await seats.settled()
            await asyncio.sleep(0)
            if match.phase is Phase.OVER:
                break
            if match.turn != 2:
                again.submit(people.decide(match.public_view()), Source.TOUCH)
        seats.close()
        return match

    match = asyncio.run(main())
    assert match.phase is Phase.OVER
    assert (2, SOURCE) in rolls  # the kiosk played its seat, and only its seat
    assert all((source is SOURCE) == (player == 2) for player, source in rolls)
