"""The guard in front of the dart game's Next (kiosk/darts/double_next.py): a Next that comes
twice, from any source, ends one visit, not two; the clock is a hand clock (no sleeps)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from kiosk import config
from kiosk.board import BullZone, board_for
from kiosk.darts.double_next import DoubleNext, NextGuard, StaleNext, TakeoutOfVisitOver
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Next, Phase, Place, Setup, Team, Throw, Undo, house_rules
from kiosk.darts.takeout import TakeoutTimer
from kiosk.darts.wire import command_to_dict
from kiosk.inputs import Button, ButtonInput, DartInput, TakeoutInput
from kiosk.service import GameService, Notice, NoticeKind, Source
from kiosk.store import Store
from tests.clocks import guard_next
from tests.waits import eventually

BOARD = board_for()
DOUBLE = "Next came twice at once: the new visit goes on. Tap Next again to end it now."
BOARD_DOUBLE = (
    "The board sent Next twice at once: the new visit goes on. Tap Next on the screen to end it now."
)
STALE = "That Next was for a visit already over: nothing was changed."


def _new_game(service: GameService, bull_off: str = "off") -> None:
    """A dart game, both fleets placed: the Sharks' first visit in play (no bull-off)."""
    typed, problems = config.check_values({"rules.bull_off": bull_off})
    assert not problems
    rules = house_rules(config.build(typed))
    service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
    for team in (0, 1):
        service.submit(Place(team, random_fleet(rules.board, rules.fleet, service.rng)))


def _taken_out(service: GameService) -> None:
    """A dart game (no bull-off) whose first visit, the Sharks', is thrown: darts out now."""
    _new_game(service)
    for code in ("S1", "S2", "S3"):
        service.submit(Throw(BOARD.parse(code)))
    assert service.match.phase is Phase.TAKEOUT and service.match.visits == 1


@pytest.fixture
def service(tmp_path) -> GameService:
    return GameService(Store(tmp_path / "k.db"))


def test_a_double_tap_ends_one_visit_and_a_while_later_next_is_taken(service):
    clock = guard_next(service)
    _taken_out(service)
    service.submit(Next(visit=1), Source.TOUCH)
    match = service.match
    assert match.visits == 2 and match.turn == 1
    # The second tap, for the visit now drawn (the screen showed the Jets' visit in between).
    with pytest.raises(DoubleNext, match="Next came twice at once"):
        service.submit(Next(visit=2), Source.TOUCH)
    state = match.state()
    assert state.phase is Phase.THROWING and state.visit == 2 and state.dart == 1
    assert state.darts == (3, 0)  # the Jets' visit not padded with misses
    clock.advance(1.4)
    with pytest.raises(DoubleNext):
        service.submit(Next(visit=2), Source.HOST)  # within the window, from another source too
    clock.advance(0.2)  # 1.6 s after the Next: meant
    service.submit(Next(visit=2), Source.TOUCH)
    assert match.visits == 3 and match.state().darts == (3, 3)


def test_a_next_for_a_visit_already_over_is_refused_from_any_source(service):
    clock = guard_next(service)
    _taken_out(service)
    service.submit(Next(visit=1), Source.PHONE)
    clock.advance(60)  # long after: the window is not what refuses it
    for source in Source:
        with pytest.raises(StaleNext, match="visit already over"):
            service.submit(Next(visit=1), source)
    assert service.match.visits == 2 and service.match.state().darts == (3, 0)
    with pytest.raises(StaleNext):
        service.submit(Next(visit=7), Source.TOUCH)  # not the visit in play either
    service.submit(Next(), Source.TOUCH)  # a Next that says no visit: the one in play
    assert service.match.visits == 3


def test_the_timer_s_next_then_a_tap_within_the_window_is_refused(service):
    """The takeout timer ends the visit by itself; the team's tap that came with it (they
    pulled the darts and tapped, the timer was quicker) leaves the next visit alone."""
    clock = guard_next(service)
    timer = TakeoutTimer(service, lambda: 0.01)
    service.host(DARTS.name, [timer])

    async def play() -> None:
        _taken_out(service)
        assert timer.running
        await eventually(lambda: service.match.visits == 2, "the timer's Next")

    asyncio.run(play())
    match = service.match
    assert match.log[-1] == Next(visit=1)  # the timer said which visit it ended
    for source in (Source.TOUCH, Source.PHONE, Source.HOST, Source.BOARD):
        with pytest.raises(DoubleNext):
            service.submit(Next(visit=2), source)
    assert match.state().visit == 2 and match.state().dart == 1 and match.state().darts == (3, 0)
    clock.advance(2)
    service.submit(Next(visit=2), Source.TOUCH)
    assert match.visits == 3


def test_the_board_s_next_button_pressed_twice_is_said_not_done(service):
    """A Next button on the board (or a camera scorer's takeout just after a tap) comes as an
    input: refused, the kiosk's screen and phones are told why."""
    guard_next(service)
    notices: list[Notice] = []
    service.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
    _taken_out(service)
    service.handle_input(ButtonInput(Button.NEXT))
    service.handle_input(ButtonInput(Button.NEXT))
    assert service.match.visits == 2 and service.match.state().darts == (3, 0)
    assert notices[-1] == Notice(NoticeKind.REFUSED, BOARD_DOUBLE)  # no "Tap Next again" for a board
    with pytest.raises(DoubleNext) as refused:  # a tap on a screen's Next, as quick: its own words
        service.submit(Next(visit=2), Source.TOUCH)
    assert str(refused.value) == DOUBLE


def test_a_next_after_something_happened_is_no_double_tap(service):
    guard_next(service)
    _taken_out(service)
    service.submit(Next(visit=1), Source.TOUCH)
    service.submit(Throw(BOARD.parse("T20")), Source.BOARD)
    service.submit(Next(visit=2), Source.TOUCH)  # at once, but a dart came between: early Next
    assert service.match.visits == 3 and service.match.state().darts == (3, 3)
    service.submit(Throw(BOARD.parse("T19")), Source.BOARD)
    service.submit(Undo(), Source.TOUCH)  # the new visit has no dart again, but Undo was done
    service.submit(Next(visit=3), Source.TOUCH)
    assert service.match.visits == 4


def test_the_kiosk_s_own_and_the_timer_s_nexts_are_never_taken_for_a_double_tap(service):
    guard_next(service)
    _taken_out(service)
    service.submit(Next(visit=1), Source.TOUCH)
    service.submit(Next(visit=2), Source.COMPUTER)  # the kiosk's own visit, in solo mode
    assert service.match.visits == 3


def test_a_window_of_0_is_off_and_the_window_is_read_at_each_next(service):
    window = [0.0]
    service.host(DARTS.name, [NextGuard(service, lambda: window[0], lambda: 5.0)])
    _taken_out(service)
    service.submit(Next(visit=1), Source.TOUCH)
    service.submit(Next(visit=2), Source.TOUCH)  # off: taken at once, as before the guard
    assert service.match.visits == 3
    window[0] = 1.5  # a change in the config counts at the next Next
    with pytest.raises(DoubleNext):
        service.submit(Next(visit=3), Source.TOUCH)


def test_a_service_without_the_guard_takes_every_next():
    """The line protocols (`dartship referee`) play their scripts as written: no guard."""
    service = GameService(None)
    _taken_out(service)
    service.submit(Next(visit=1), Source.TOUCH)
    service.submit(Next(visit=2), Source.TOUCH)
    assert service.match.visits == 3


def test_the_stored_game_is_as_before_and_replays_the_same(service, tmp_path):
    """The visit a Next was for is the guard's, not the game's: the store keeps `next` as it
    always did, and the game resumed from it equals the one played."""
    clock = guard_next(service)
    _taken_out(service)
    service.submit(Next(visit=1), Source.TOUCH)
    clock.advance(2)
    service.submit(Next(visit=2), Source.TOUCH)
    assert command_to_dict(Next(visit=2)) == command_to_dict(Next()) == {"cmd": "next"}
    rows = service.store.db.execute("SELECT body FROM commands WHERE game=? ORDER BY seq", [service.game])
    stored = [row[0] for row in rows]
    assert sum('"next"' in body for body in stored) == 2 and not any("visit" in body for body in stored)
    state = service.match.state()
    service.store.close()
    again = GameService(Store(tmp_path / "k.db"))
    assert again.resume() and again.match.state() == state
    assert again.match.log[-2:] == [Next(), Next()]


def test_a_camera_takeout_of_a_visit_already_over_is_written_in_the_journal_only(service, caplog):
    """The board's darts went into the Sharks' visit; a tap ended it; the cameras' takeout of
    those darts ends nothing and is no one's mistake: no notice (no toast, no error beep), a
    line in the journal. The stored Next is the same `next` as any."""
    clock = guard_next(service)
    notices: list[Notice] = []
    service.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
    _new_game(service)
    for code in ("S1", "S2", "S3"):
        service.handle_input(DartInput(BOARD.parse(code), code))
    service.submit(Next(visit=1), Source.TOUCH)
    clock.advance(30)
    with caplog.at_level(logging.INFO, logger="dartship.service"):
        service.handle_input(TakeoutInput())
    assert service.match.visits == 2 and service.match.state().darts == (3, 0)
    assert notices == []
    assert "The darts of visit 1 were pulled out; that visit was already over." in caplog.text
    with pytest.raises(TakeoutOfVisitOver):  # a RuleError like any other refusal, for a caller
        service.submit(Next(takeout=True), Source.BOARD)
    assert command_to_dict(Next(takeout=True)) == {"cmd": "next"}


def test_a_takeout_with_no_board_dart_seen_ends_the_visit_in_play(service, tmp_path):
    """A game resumed after a restart, its darts entered on the kiosk: the guard has seen no dart
    of the board, so the takeout ends the visit in play (as a board's Next button does)."""
    _taken_out(service)  # the darts submitted, not from the board
    service.store.close()
    again = GameService(Store(tmp_path / "k.db"))
    guard_next(again)
    assert again.resume()
    again.handle_input(TakeoutInput())
    assert again.match.visits == 2


def test_the_darts_in_the_board_when_the_first_visit_begins_end_no_visit(service, caplog):
    """The bull-off's darts (or a warm-up's) pulled out after the first visit began: the first
    team's visit goes on (it was padded with three misses before it threw, qa9); the journal
    says why. The first visit's own darts and takeout then end it."""
    guard_next(service)
    notices: list[Notice] = []
    service.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
    for bull_off in ("normal", "off"):
        _new_game(service, bull_off=bull_off)
        if bull_off == "normal":
            service.handle_input(DartInput(BOARD.parse("BULL"), "50", zone=BullZone.INNER))
            service.handle_input(DartInput(BOARD.parse("BULL"), "25", zone=BullZone.OUTER))
        assert service.match.phase is Phase.THROWING and service.match.visits == 1
        with caplog.at_level(logging.INFO, logger="dartship.service"):
            service.handle_input(TakeoutInput())
        assert service.match.visits == 1 and service.match.state().darts == (0, 0), bull_off
        assert "were pulled out: the first visit goes on." in caplog.text
        for code in ("S1", "S2", "S3"):
            service.handle_input(DartInput(BOARD.parse(code), code))
        service.handle_input(TakeoutInput())
        assert service.match.visits == 2 and service.match.state().darts == (3, 0), bull_off
    assert notices == []


def test_the_bull_off_s_takeout_ends_nothing_and_says_nothing(service):
    """The bull-off's darts pulled: no visit to end, and no "Next is only for a visit in play"
    refusal with its error beep for something nobody asked."""
    guard_next(service)
    notices: list[Notice] = []
    service.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
    _new_game(service, bull_off="normal")
    assert service.match.phase is Phase.BULL_OFF
    service.handle_input(TakeoutInput())
    assert service.match.phase is Phase.BULL_OFF and notices == []
