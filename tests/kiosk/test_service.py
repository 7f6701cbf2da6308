"""The service: commit before announcing, device inputs, bull-off from the board, takeout timer."""

import asyncio

import pytest

from kiosk import config
from kiosk.board import BULL, MISS, BullZone, Profile, board_for
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import DartThrown, HouseRules, Phase, Place, Setup, Team, VisitStarted, house_rules
from kiosk.darts.takeout import TakeoutTimer
from kiosk.inputs import BadLine, Button, ButtonInput, Connected, DartInput, Disconnected, MissInput
from kiosk.scatter import Skill
from kiosk.service import GameService, GameStarted, MatchUpdate, Notice, NoticeKind, Source
from kiosk.store import Store

FOUR = board_for(Profile.FOUR_RING)


def _service(tmp_path, **changes) -> GameService:
    service = GameService(Store(tmp_path / "k.db"))
    typed, problems = config.check_values(changes)
    assert not problems
    RULES[service] = house_rules(config.build(typed))
    return service


RULES: dict[GameService, HouseRules] = {}


def _placed(service: GameService) -> None:
    rules = RULES[service]
    service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
    for team in (0, 1):
        service.submit(Place(team, random_fleet(rules.board, rules.fleet, service.rng)))


def test_commit_happens_before_listeners_hear(tmp_path):
    service = _service(tmp_path, **{"rules.bull_off": "off"})
    seen = []

    def listener(event):
        if isinstance(event, MatchUpdate):
            stored = service.store.db.execute("SELECT COUNT(*) FROM commands").fetchone()[0]
            seen.append((event.events, stored))

    service.subscribe(listener)
    _placed(service)
    assert service.match.phase is Phase.THROWING  # both fleets in: started by itself
    counts = [stored for _events, stored in seen]
    assert counts == sorted(counts) and counts[-1] == 3  # place, place, start
    assert isinstance(seen[-1][0][-1], VisitStarted)


def test_bull_off_from_the_board(tmp_path):
    service = _service(tmp_path)
    _placed(service)
    assert service.match.phase is Phase.BULL_OFF
    service.handle_input(DartInput(BULL, "25", BullZone.OUTER))
    service.handle_input(DartInput(BULL, "50", BullZone.INNER))
    assert service.match.phase is Phase.THROWING and service.match.turn == 1


def test_device_inputs_become_commands_and_notices(tmp_path):
    service = _service(tmp_path, **{"rules.bull_off": "off"})
    notices = []
    service.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
    _placed(service)
    events = service.handle_input(DartInput(FOUR.parse("T20"), "T20"))
    assert isinstance(events[0], DartThrown) and events[0].cell == FOUR.parse("T20")
    assert service.handle_input(MissInput("MISS"))[0].cell == MISS
    service.handle_input(ButtonInput(Button.UNDO))
    assert service.match.darts_thrown == 1
    service.handle_input(ButtonInput(Button.NEXT))
    assert service.match.turn == 1
    service.handle_input(Disconnected("unplugged"))
    assert service.board_connected is False
    service.handle_input(Connected("/dev/dartboard"))
    service.handle_input(BadLine("\x00\x01garbage"))
    kinds = [n.kind for n in notices]
    assert kinds == [NoticeKind.DISCONNECTED, NoticeKind.CONNECTED, NoticeKind.DEVICE]


def test_refused_input_is_a_notice_not_a_crash(tmp_path):
    service = _service(tmp_path, **{"rules.bull_off": "off"})
    notices = []
    service.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
    _placed(service)
    service.handle_input(ButtonInput(Button.UNDO))  # nothing to undo yet
    assert notices and notices[0].kind is NoticeKind.REFUSED


def test_a_failing_listener_does_not_stop_the_game(tmp_path):
    service = _service(tmp_path, **{"rules.bull_off": "off"})

    def broken(_event):
        raise RuntimeError("screen on fire")

    service.subscribe(broken)
    _placed(service)
    service.handle_input(DartInput(FOUR.parse("T20"), "T20"))
    assert service.match.darts_thrown == 1


def test_resume_after_restart(tmp_path):
    service = _service(tmp_path, **{"rules.bull_off": "off"})
    _placed(service)
    service.handle_input(DartInput(FOUR.parse("T20"), "T20"))
    state = service.match.state()
    service.store.close()
    again = _service(tmp_path, **{"rules.bull_off": "off"})
    started = []
    again.subscribe(lambda e: started.append(e) if isinstance(e, GameStarted) else None)
    assert again.resume() and again.match.state() == state
    assert started == [GameStarted(again.game, resumed=True)]


@pytest.mark.asyncio
async def test_queue_and_takeout_timer(tmp_path):
    service = _service(tmp_path, **{"rules.bull_off": "off", "rules.takeout_seconds": 1})
    _placed(service)
    TakeoutTimer(service, lambda: 1).attach()
    task = asyncio.create_task(service.run())
    loop = asyncio.get_running_loop()
    for code in ("T20", "T1", "T18"):
        loop.call_soon_threadsafe(service.queue.put_nowait, DartInput(FOUR.parse(code), code))
    for _ in range(100):
        await asyncio.sleep(0.01)
        if service.match.phase is Phase.TAKEOUT:
            break
    assert service.match.phase is Phase.TAKEOUT
    for _ in range(300):
        await asyncio.sleep(0.01)
        if service.match.phase is Phase.THROWING:
            break
    assert service.match.phase is Phase.THROWING and service.match.turn == 1
    task.cancel()


def test_divert_gives_inputs_to_one_screen_and_back(tmp_path):
    service = _service(tmp_path, **{"rules.bull_off": "off"})
    _placed(service)
    taken = []
    give_back = service.divert(lambda e: taken.append(e) or isinstance(e, DartInput))
    service.handle_input(DartInput(FOUR.parse("T20"), "3,7"))
    service.handle_input(Disconnected("unplugged"))  # not consumed: the game still hears it
    assert service.match.darts_thrown == 0 and len(taken) == 2
    assert service.board_connected is False
    give_back()
    service.handle_input(DartInput(FOUR.parse("T20"), "T20"))
    assert service.match.darts_thrown == 1


def test_new_game_abandons_the_unfinished_one(tmp_path):
    service = _service(tmp_path, **{"rules.bull_off": "off"})
    _placed(service)
    first = service.game
    _placed(service)
    assert service.store.games.unfinished() == service.game != first
    status = service.store.db.execute("SELECT status FROM games WHERE id=?", [first]).fetchone()[0]
    assert status == "abandoned"


def test_solo_board_darts_belong_to_the_players_only(tmp_path):
    from kiosk.darts.match import BullOffDart, KioskSeat, Next

    service = _service(tmp_path)
    notices = []
    service.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
    service.new_game(
        DARTS,
        Setup((Team("Kiosk", ("Kiosk",)), Team("Jets", ("Cy",))), HouseRules(), KioskSeat(0, Skill.PRO)),
    )
    for team in (0, 1):
        service.submit(Place(team, random_fleet(FOUR, (2, 3, 4, 5), service.rng)))
    # The bull-off: the first board dart is the Jets' although the kiosk is named first.
    service.handle_input(DartInput(BULL, "50", BullZone.INNER))
    assert service.match.bull_off_zones() == (None, BullZone.INNER)
    service.handle_input(DartInput(BULL, "25", BullZone.OUTER))  # no second player dart
    assert service.match.bull_off_zones() == (None, BullZone.INNER)
    service.submit(BullOffDart(0, BullZone.MISS), Source.COMPUTER)
    assert service.match.turn == 1
    service.submit(Next())
    assert service.match.turn == 0  # the kiosk's visit: a real dart is not counted for it
    service.handle_input(DartInput(FOUR.parse("T20"), "T20"))
    assert service.match.darts_thrown == 3 and notices[-1].kind is NoticeKind.REFUSED


def _won(service: GameService) -> int:
    """Play a placed game (no bull-off) to its end: team 0 sinks every ship of team 1."""
    from kiosk.darts.match import Next, Throw

    match = service.match
    for cell in sorted(match.fleet(1).cells, key=lambda c: c.code):
        if match.phase is Phase.TAKEOUT:
            service.submit(Next())
        if match.turn == 1:
            service.submit(Next())  # the Jets' visit passes, padded with misses
        service.submit(Throw(cell))
    assert match.phase is Phase.OVER and match.winner == 0
    return service.game


def test_a_just_finished_game_is_resumed_an_older_one_is_not(tmp_path):
    """The kiosk comes back to the result of a game that ended moments before it stopped (to
    show it and let the winning dart be undone); the referee resumes any last game."""
    service = _service(tmp_path, **{"rules.bull_off": "off"})
    _placed(service)
    game = _won(service)
    state = service.match.state()
    service.store.close()

    again = _service(tmp_path, **{"rules.bull_off": "off"})
    assert not again.resume()  # by default only an unfinished game
    assert again.resume(finished_within=600) and again.game == game
    assert again.match.state() == state
    again.store.db.execute("UPDATE games SET finished='2001-01-01T00:00:00.000+00:00'")
    fresh = _service(tmp_path, **{"rules.bull_off": "off"})
    assert not fresh.resume(finished_within=600)
    assert fresh.resume(finished_within=None) and fresh.match.state() == state


def test_an_abandoned_last_game_brings_back_no_older_result(tmp_path):
    service = _service(tmp_path, **{"rules.bull_off": "off"})
    _placed(service)
    _won(service)
    _placed(service)
    # As a newer game would leave it (the test abandons it directly).
    service.store.db.execute("UPDATE games SET status='abandoned' WHERE id=?", [service.game])
    service.store.close()
    again = _service(tmp_path, **{"rules.bull_off": "off"})
    assert not again.resume(finished_within=None)
