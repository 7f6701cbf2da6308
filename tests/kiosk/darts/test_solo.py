"""Solo mode: the kiosk plays one team by virtual darts (kiosk/solo.py), no Kivy.

Pauses are 0 here; the tests wait for the computer player to be idle, never for a time.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import ClassVar

import pytest

import kiosk.darts.kind
from kiosk import config
from kiosk.board import BullZone
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import (
    BullOffCloser,
    BullOffDart,
    BullOffMode,
    HouseRules,
    Match,
    Next,
    Phase,
    Place,
    RuleError,
    Setup,
    Team,
    Undo,
)
from kiosk.darts.solo import SOURCE, KioskSeat, SoloMode, ThrowPace, kiosk_team, seat_of
from kiosk.darts.wire import setup_from_dict, setup_to_dict
from kiosk.scatter import Skill
from kiosk.service import GameService
from kiosk.store import Store

FAST = ThrowPace(dart=0, takeout=0)


def _fleet(service: GameService):
    rules = service.match.setup.rules
    return random_fleet(rules.board, rules.fleet, service.rng)


class GuardedMatch(Match):
    """A match that remembers every read of a fleet: the solo code path must never make one."""

    reads: ClassVar[list[int]] = []

    def fleet(self, team: int):
        GuardedMatch.reads.append(team)
        raise AssertionError(f"fleet({team}) was read")


@pytest.fixture
def guarded(monkeypatch):
    GuardedMatch.reads = []
    monkeypatch.setattr(kiosk.darts.kind, "Match", GuardedMatch)
    return GuardedMatch


def _service(path, seed: int = 3) -> GameService:
    return GameService(Store(path), rng=random.Random(seed))


def _setup(skill: Skill = Skill.PRO, kiosk: int = 1, rules: HouseRules | None = None) -> Setup:
    human = Team("Sharks", ("Anna", "Ben"))
    machine = kiosk_team("Kiosk")
    teams = (human, machine) if kiosk == 1 else (machine, human)
    return Setup(teams, rules or HouseRules(), KioskSeat(kiosk, skill))


async def _settle(mode: SoloMode) -> None:
    for _ in range(5):
        await asyncio.sleep(0)
    if mode.player is not None:
        await mode.player.settled()


async def _play(
    service: GameService, mode: SoloMode, human: int, *, rounds: int = 3000, stop=lambda match: False
) -> None:
    """The human team: places at random, bull-off dart, and misses every visit (Next early),
    so the kiosk has to sink the whole human fleet by itself."""
    for _ in range(rounds):
        await _settle(mode)
        match = service.match
        if match.phase is Phase.OVER or stop(match):
            return
        if match.phase is Phase.PLACING:
            assert not match.state().placed[human]
            service.submit(Place(human, _fleet(service)))
        elif match.phase is Phase.BULL_OFF:
            if match.bull_off_undecided:
                service.submit(BullOffCloser(human))
            else:
                assert match.bull_off_zones()[human] is None, "the kiosk did not throw its bull-off"
                service.submit(BullOffDart(human, BullZone.OTHER))
        else:
            assert match.turn == human, f"the kiosk is stuck in {match.phase} on its turn"
            service.submit(Next())
    raise AssertionError("the game did not finish")


def test_the_setup_names_the_kiosk_team_and_survives_storage() -> None:
    assert seat_of(_setup(Skill.CASUAL, kiosk=0)) == KioskSeat(0, Skill.CASUAL)
    assert seat_of(_setup(Skill.NOVICE, kiosk=1)) == KioskSeat(1, Skill.NOVICE)
    assert seat_of(Setup((Team("Sharks", ("A",)), Team("Jets", ("B",))))) is None
    assert KioskSeat(1, Skill.NOVICE).sigma > KioskSeat(1, Skill.PRO).sigma
    assert setup_from_dict(setup_to_dict(_setup(Skill.PUB, kiosk=0))).computer == KioskSeat(0, Skill.PUB)
    with pytest.raises(RuleError):
        Match(Setup(_setup().teams, HouseRules(), KioskSeat(1, "wizard")))


def test_a_whole_solo_game_finishes_and_never_reads_a_fleet(tmp_path, guarded, caplog) -> None:
    caplog.set_level(logging.DEBUG)

    async def main() -> tuple[Match, SoloMode]:
        service = _service(tmp_path / "k.db")
        mode = SoloMode(service, asyncio.get_running_loop(), pace=FAST, rng=random.Random(5)).attach()
        service.new_game(DARTS, _setup(Skill.PRO))
        assert mode.player is not None and mode.player.seat == KioskSeat(1, Skill.PRO)
        await _play(service, mode, human=0)
        return service.match, mode

    match, mode = asyncio.run(main())
    assert isinstance(match, GuardedMatch)
    assert match.phase is Phase.OVER and match.winner == 1  # the humans only missed
    assert guarded.reads == []
    assert match.tally(1).darts >= 14 and mode.player.decisions >= match.tally(1).darts - 3
    assert mode.player.stopped and mode.player.idle
    # Its darts are scattered, not perfect: some land off target even at "pro".
    assert match.tally(1).hits < match.tally(1).darts
    # The kiosk's fleet is as secret as a team's: never in a log line.
    kiosk_fleet = Match.fleet(match, 1)
    assert kiosk_fleet is not None and kiosk_fleet.code not in caplog.text
    assert all(ship.code not in caplog.text for ship in kiosk_fleet.ships)


def test_the_kiosk_throws_its_bull_off_dart_and_darts_come_from_the_kiosk(tmp_path) -> None:
    sources: list[str] = []

    async def main() -> GameService:
        service = _service(tmp_path / "k.db")
        service.subscribe(lambda e: sources.append(e.source) if hasattr(e, "source") else None)
        mode = SoloMode(service, asyncio.get_running_loop(), pace=FAST, rng=random.Random(2)).attach()
        service.new_game(DARTS, _setup(Skill.PUB, rules=HouseRules(bull_off=BullOffMode.NORMAL)))
        await _play(
            service,
            mode,
            human=0,
            stop=lambda m: m.phase is not Phase.PLACING and m.phase is not Phase.BULL_OFF,
        )
        assert mode.player.bull_off is not None
        return service

    service = asyncio.run(main())
    assert service.match.bull_off_zones()[1] is not None
    assert SOURCE in sources


def test_undo_of_a_kiosk_dart_holds_the_kiosk_instead_of_throwing_again(tmp_path) -> None:
    rules = HouseRules(bull_off=BullOffMode.OFF)  # team 1 (here: the kiosk) starts

    async def main() -> None:
        service = _service(tmp_path / "k.db")
        mode = SoloMode(
            service, asyncio.get_running_loop(), pace=ThrowPace(dart=0, takeout=None), rng=random.Random(9)
        ).attach()
        service.new_game(DARTS, _setup(Skill.CASUAL, kiosk=0, rules=rules))
        service.submit(Place(1, _fleet(service)))
        await _settle(mode)
        match = service.match
        player = mode.player
        assert match.phase is Phase.TAKEOUT and match.turn == 0 and match.darts_thrown == 3
        assert len(player.darts) == 3
        for left in (2, 1, 0):
            service.submit(Undo())
            await _settle(mode)
            assert player.holding and match.darts_thrown == left  # taken back, not re-thrown
            assert len(player.darts) == left
        with pytest.raises(RuleError):
            service.submit(Undo())  # nothing left: the kiosk still does not throw by itself
        await _settle(mode)
        assert match.darts_thrown == 0 and player.idle
        player.resume()
        await _settle(mode)
        assert not player.holding and match.darts_thrown == 3 and match.phase is Phase.TAKEOUT
        service.submit(Next())  # its takeout pause is "never" here: the players tap Next
        await _settle(mode)
        assert match.turn == 1 and match.phase is Phase.THROWING and match.darts_thrown == 3

    asyncio.run(main())


def test_a_new_game_stops_the_old_player_and_two_human_teams_get_none(tmp_path) -> None:
    async def main() -> None:
        service = _service(tmp_path / "k.db")
        mode = SoloMode(
            service, asyncio.get_running_loop(), pace=ThrowPace(dart=5, takeout=5), rng=random.Random(1)
        ).attach()
        service.new_game(DARTS, _setup(Skill.PUB))
        first = mode.player
        service.submit(Place(0, _fleet(service)))
        await asyncio.sleep(0.01)
        assert first is not None and service.match.state().placed == (True, True)
        service.new_game(DARTS, Setup((Team("Sharks", ("A",)), Team("Jets", ("B",)))))
        assert first.stopped and first.idle and mode.player is None
        service.new_game(DARTS, _setup(Skill.NOVICE, kiosk=0))
        assert mode.player is not None and mode.player.seat == KioskSeat(0, Skill.NOVICE)
        mode.close()
        assert mode.player is None

    asyncio.run(main())


def test_a_resumed_solo_game_keeps_its_computer_player(tmp_path) -> None:
    path = tmp_path / "k.db"

    async def first_half() -> int:
        service = _service(path)
        mode = SoloMode(service, asyncio.get_running_loop(), pace=FAST, rng=random.Random(4)).attach()
        service.new_game(DARTS, _setup(Skill.PRO))
        await _play(service, mode, human=0, stop=lambda m: m.tally(1).darts >= 6)
        mode.close()
        darts = service.match.darts_thrown
        service.store.close()  # the power cut
        return darts

    async def after_restart(darts: int) -> Match:
        from kiosk.app.root import build_kiosk

        # The human team's Next comes a while after the kiosk's own (at once it would be
        # taken for a double tap: kiosk/darts/double_next.py).
        cfg = config.ConfigFile(
            None, {"web.enabled": False, "kiosk.database": str(path), "rules.double_next_seconds": 0}
        )
        kiosk = await build_kiosk(cfg, devices=False)
        try:
            assert kiosk.service.match.darts_thrown == darts
            solo = kiosk.participant(SoloMode)
            assert solo.player is not None and solo.player.seat == KioskSeat(1, Skill.PRO)
            solo.player.pace = FAST  # the kiosk's own pauses are for people
            solo.player.poke()
            await _play(kiosk.service, solo, human=0)
            return kiosk.service.match
        finally:
            await kiosk.stop()

    darts = asyncio.run(first_half())
    match = asyncio.run(after_restart(darts))
    assert match.phase is Phase.OVER and match.winner == 1
