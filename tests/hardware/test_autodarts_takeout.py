"""A camera scorer's takeout and a Next tapped on a screen, in every order a bar produces them:
the fake Board Manager (frames shaped like its users' captures), the kiosk's client on it over a
real WebSocket, and a real game service with the dart game's guard on a hand clock (how late the
takeout comes is an `advance`, never a sleep).

The cameras cannot know of a tap; the kiosk knows which visit their darts went into. A takeout
of darts whose visit a tap, a phone or the timer ended is that visit's takeout, however late it
comes, and ends nothing; a takeout after a dart of the new visit ends the new visit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from hardware.autodarts import AutodartsBoard
from hardware.fake_autodarts import FakeBoardManager, segment
from kiosk import config
from kiosk.board import MISS
from kiosk.darts.double_next import DoubleNext
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Next, Phase, Place, Setup, Team, Undo, house_rules
from kiosk.darts.takeout import TakeoutTimer
from kiosk.inputs import Connected, InputEvent, TakeoutInput
from kiosk.service import GameService, Notice, NoticeKind, Source
from kiosk.store import Store
from tests.clocks import HandClock, guard_next
from tests.waits import eventually

LATE = "The camera scorer changed a dart after Next ended its visit: correct it on the kiosk if it matters."


class Bar:
    """A game of Sharks v Jets scored by the fake Board Manager's cameras."""

    def __init__(self, service: GameService, clock: HandClock, manager: FakeBoardManager) -> None:
        self.service = service
        self.clock = clock
        self.manager = manager
        self.inputs: list[InputEvent] = []
        self.notices: list[Notice] = []
        service.subscribe(lambda e: self.notices.append(e) if isinstance(e, Notice) else None)

    def sink(self, event: InputEvent) -> None:
        """The board's inputs, handled as the kiosk's queue hands them on (in order, one by one)."""
        self.service.handle_input(event)
        self.inputs.append(event)

    async def until(self, check: Callable[[], bool], what: str) -> None:
        await eventually(check, what)

    async def throw(self, *codes: str) -> None:
        for code in codes:
            darts = self.darts_seen()
            await self.manager.throw(code)
            await self.until(lambda d=darts: self.darts_seen() > d, f"dart {code} handled")

    def darts_seen(self) -> int:
        return sum(type(e).__name__ in ("DartInput", "MissInput") for e in self.inputs)

    def takeouts_seen(self) -> int:
        return sum(isinstance(e, TakeoutInput) for e in self.inputs)

    async def takeout(self) -> None:
        """The darts pulled: the cameras see the hand, then an empty board."""
        seen = self.takeouts_seen()
        await self.manager.takeout()
        await self.until(lambda: self.takeouts_seen() > seen, "the takeout handled")

    def tap_next(self, source: Source = Source.TOUCH) -> None:
        self.service.submit(Next(visit=self.match.visits), source)

    @property
    def match(self):
        return self.service.match

    def refusals(self) -> list[str]:
        return [n.message for n in self.notices if n.kind is NoticeKind.REFUSED]


def play(tmp_path, scene: Callable[[Bar], Awaitable[None]], *, timer: float = 0.0) -> None:
    async def run() -> None:
        service = GameService(Store(tmp_path / "k.db"))
        clock = guard_next(service)
        if timer:
            service.host(DARTS.name, [TakeoutTimer(service, lambda: timer)])
        manager = FakeBoardManager()
        url = await manager.start()
        bar = Bar(service, clock, manager)
        board = AutodartsBoard(url, bar.sink, backoff=(0.05, 0.2))
        board.start()
        try:
            await bar.until(lambda: any(isinstance(e, Connected) for e in bar.inputs), "connected")
            typed, problems = config.check_values({"rules.bull_off": "off"})
            assert not problems
            rules = house_rules(config.build(typed))
            service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
            for team in (0, 1):
                service.submit(Place(team, random_fleet(rules.board, rules.fleet, service.rng)))
            await scene(bar)
        finally:
            board.stop()
            await manager.stop()

    asyncio.run(run())


def jets_untouched(bar: Bar) -> None:
    """The Jets' visit (the second) is in play and not a dart of it thrown or padded."""
    state = bar.match.state()
    assert (state.visit, state.phase, state.side, state.dart) == (2, Phase.THROWING, 1, 1)
    assert state.darts[1] == 0


@pytest.mark.parametrize("late", [0.5, 3.0, 10.0, 600.0])
def test_the_takeout_after_a_tap_ends_nothing_however_late_it_comes(tmp_path, late):
    """Sharks' three darts, Next tapped on the kiosk, the darts pulled `late` seconds after: the
    Jets' visit goes on untouched and nobody is told off for it (no refusal, no error beep)."""

    async def scene(bar: Bar) -> None:
        await bar.throw("T20", "S1", "MISS")
        assert bar.match.phase is Phase.TAKEOUT  # status "Takeout" at the third dart: not pulled yet
        bar.tap_next()
        bar.clock.advance(late)
        await bar.takeout()
        jets_untouched(bar)
        assert bar.refusals() == []
        # the Jets throw; their takeout ends their visit
        await bar.throw("D5")
        assert bar.match.state().darts == (3, 1)
        await bar.takeout()
        assert bar.match.visits == 3 and bar.match.state().darts == (3, 3)

    play(tmp_path, scene)


def test_the_third_dart_s_takeout_status_waits_for_the_hand(tmp_path):
    """The Board Manager says "Takeout" at the third dart while the darts are in the board: the
    visit ends when they are pulled, so a Next tapped then ends that visit, not the next one."""

    async def scene(bar: Bar) -> None:
        await bar.throw("T20", "S1", "MISS")
        await bar.manager.push_state()  # the snapshot again, still "Takeout"
        await bar.manager.noise()
        assert bar.match.visits == 1 and bar.match.phase is Phase.TAKEOUT
        assert bar.takeouts_seen() == 0
        await bar.takeout()
        assert bar.match.visits == 2 and bar.match.state().darts == (3, 0)

    play(tmp_path, scene)


def test_a_dart_thrown_while_the_darts_are_in_the_board(tmp_path):
    """After a tap the Jets' thrower throws before the Sharks' darts are pulled. With two darts
    in the board the cameras count it as the third of their visit: it is the Jets' first dart,
    and the takeout after it ends the Jets' visit. With three in the board the Board Manager
    reports nothing (its visit is full); the takeout then ends nothing."""

    async def scene(bar: Bar) -> None:
        await bar.throw("T20", "S1")
        bar.tap_next()  # the Sharks' third dart padded as a miss
        bar.clock.advance(4)
        await bar.throw("D5")  # the Jets' dart, the cameras' third
        assert bar.match.state().visit == 2 and bar.match.state().darts == (3, 1)
        await bar.takeout()
        assert bar.match.visits == 3 and bar.match.state().darts == (3, 3)
        # the Sharks again: three darts, a tap, a Jets dart into a full board, the takeout
        await bar.throw("T1", "T2", "T3")
        bar.tap_next()
        await bar.manager.throw("D7")  # not reported: the Board Manager holds three
        bar.clock.advance(6)
        await bar.takeout()
        state = bar.match.state()
        assert (state.visit, state.side, state.dart, state.darts) == (4, 1, 1, (6, 3))
        assert bar.refusals() == []

    play(tmp_path, scene)


def test_the_takeout_then_a_tap(tmp_path):
    """The cameras end the visit; the thrower's tap that came with it is a double Next (refused,
    said); a tap a while later is meant and ends the visit in play."""

    async def scene(bar: Bar) -> None:
        await bar.throw("T20", "S1", "MISS")
        await bar.takeout()
        assert bar.match.visits == 2
        with pytest.raises(DoubleNext):
            bar.tap_next()
        jets_untouched(bar)
        bar.clock.advance(5)
        bar.tap_next()
        assert bar.match.visits == 3 and bar.match.state().darts == (3, 3)

    play(tmp_path, scene)


def test_a_takeout_seen_only_after_a_reconnect_ends_nothing(tmp_path):
    """Tap, the WebSocket drops, the darts are pulled meanwhile: back, the client finds the
    visit over (an empty board, or the Jets' first dart) and the Jets' visit goes on."""

    async def scene(bar: Bar) -> None:
        manager = bar.manager
        await bar.throw("T20", "S1", "MISS")
        bar.tap_next(Source.PHONE)
        connections = manager.connections
        await manager.drop_clients()
        manager.throws, manager.status, manager.event = [], "Throw", "Takeout finished"
        await bar.until(lambda: manager.connections > connections, "reconnected")
        await bar.until(lambda: bar.takeouts_seen() == 1, "the takeout seen on the resync")
        bar.clock.advance(8)
        jets_untouched(bar)
        # again, and the Jets' first dart lands while the client is away
        await bar.throw("D5")
        await bar.takeout()
        await bar.throw("T1", "T2", "T3")
        bar.tap_next(Source.HOST)
        connections = manager.connections
        await manager.drop_clients()
        manager.throws = [{"segment": segment("D9"), "coords": {"x": 0, "y": 0}}]
        manager.status, manager.event = "Throw", "Throw detected"
        await bar.until(lambda: manager.connections > connections, "reconnected")
        await bar.until(lambda: bar.match.state().darts == (6, 4), "the Jets' dart counted")
        state = bar.match.state()
        assert (state.visit, state.side, state.dart) == (4, 1, 2)
        assert bar.refusals() == []

    play(tmp_path, scene)


def test_a_correction_after_the_tap_corrects_the_ended_visit(tmp_path):
    """The cameras look again at the Sharks' third dart after the tap: the dart is corrected in
    the Sharks' visit, the Jets' visit stays in play, and the takeout ends nothing."""

    async def scene(bar: Bar) -> None:
        await bar.throw("T20", "S1", "MISS")
        bar.tap_next()
        await bar.manager.correct(2, "D5")
        await bar.until(lambda: any(type(e).__name__ == "CorrectInput" for e in bar.inputs), "the correction")
        assert bar.match.last_dart() is not None and bar.match.last_dart().code == "D5"
        bar.clock.advance(3)
        await bar.takeout()
        jets_untouched(bar)
        assert bar.refusals() == []

    play(tmp_path, scene)


def test_the_timer_s_next_then_the_takeout(tmp_path):
    """The takeout timer ends the visit by itself; the darts pulled after it end nothing."""

    async def scene(bar: Bar) -> None:
        await bar.throw("T20", "S1", "MISS")
        await bar.until(lambda: bar.match.visits == 2, "the timer's Next")
        bar.clock.advance(4)
        await bar.takeout()
        jets_untouched(bar)
        assert bar.refusals() == []

    play(tmp_path, scene, timer=0.01)


def test_undo_of_the_next_gives_the_takeout_its_visit_back(tmp_path):
    """Next tapped by mistake and undone (the Undo takes the visit's last dart back with it):
    the Sharks' visit is in play again, so the takeout ends it."""

    async def scene(bar: Bar) -> None:
        await bar.throw("T20", "S1", "MISS")
        bar.tap_next()
        bar.service.submit(Undo(), Source.TOUCH)
        assert bar.match.visits == 1 and bar.match.phase is Phase.THROWING
        bar.clock.advance(5)
        await bar.takeout()
        assert bar.match.visits == 2 and bar.match.state().darts == (3, 0)
        jets_untouched(bar)

    play(tmp_path, scene)


def test_a_correction_after_a_tap_that_padded_the_visit_is_said_not_misapplied(tmp_path):
    """Two darts, Next tapped (the third padded as a miss), then the cameras look again at their
    second dart: the game's Correct would change the padded miss, not that dart. Refused, and
    said, so the dart can be corrected on the kiosk; the Jets' visit stays in play."""

    async def scene(bar: Bar) -> None:
        await bar.throw("T20", "S1")
        bar.tap_next()
        await bar.manager.correct(1, "D5")
        await bar.until(lambda: bar.refusals(), "the correction refused")
        assert bar.refusals() == [LATE]
        assert bar.match.last_dart() == MISS  # the padded miss stays a miss
        await bar.takeout()
        jets_untouched(bar)

    play(tmp_path, scene)
