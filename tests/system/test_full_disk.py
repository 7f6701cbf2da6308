"""A real full disk (a small tmpfs, filled to the last byte) under the referee and under the
kiosk's service: play, fill the disk, see the pause and a clear error, free space, see play go
on, and nothing that was shown is lost."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from kiosk.app.root import build_kiosk
from kiosk.board import Profile, board_for
from kiosk.config import ConfigFile, check_values
from kiosk.darts.fleet import parse_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import DartThrown, HouseRules, Place, Setup, Team
from kiosk.inputs import DartInput
from kiosk.service import MatchUpdate, Notice, NoticeKind, NotSaved, ServiceEvent, Source
from kiosk.store import Store
from tests.line_game import LineGame
from tests.small_disk import fill, small_disk
from tests.waits import eventually

ROOT = Path(__file__).resolve().parents[2]
FOUR = board_for(Profile.FOUR_RING)
SHARKS = "D20-L20-T20-S20-BULL T1-T18-T4-T13 L6-L10-L15 D3-D19"
JETS = "D5-L5-T5-S5 T11-T14-T9 S6-S10 D1-D18-D4-D13-D6"
# Darts of the Sharks' first visits: misses and hits of the Jets' fleet, never a win.
DARTS_TO_THROW = ["T20", "D5", "L5", "T11", "T14", "S6", "D1", "D18", "S1", "S2", "S3", "S4"]


def test_the_referee_on_a_full_disk_answers_errors_and_plays_on_once_there_is_room(tmp_path):
    disk = tmp_path / "disk"
    with small_disk(disk, "2m"):
        db = disk / "game.db"
        ref = LineGame("referee", db)
        ref.ask({"cmd": "new", "teams": ["Sharks", "Jets"]})
        ref.ask({"cmd": "place", "team": 0, "fleet": SHARKS})
        ref.ask({"cmd": "place", "team": 1, "fleet": JETS})
        assert ref.ask({"cmd": "start", "first": 0})[0]["event"] == "visit"
        shown = [ref.ask({"cmd": "throw", "cell": cell})[0] for cell in DARTS_TO_THROW[:2]]
        filler = fill(disk)
        state = ref.ask({"cmd": "state"})
        refused = ref.ask({"cmd": "throw", "cell": DARTS_TO_THROW[2]})[0]
        assert refused["event"] == "error"
        assert "disk holding" in refused["message"] and "full" in refused["message"]
        assert ref.ask({"cmd": "state"}) == state  # the refused dart changed nothing
        new = ref.ask({"cmd": "new", "teams": ["A", "B"]})[0]
        assert new["event"] == "error" and "full" in new["message"]
        assert ref.ask({"cmd": "state"}) == state
        filler.unlink()
        third = ref.ask({"cmd": "throw", "cell": DARTS_TO_THROW[2]}, answers=2)
        assert third[1] == {"event": "takeout", "team": 0}
        shown.append(third[0])
        assert shown[-1]["event"] == "dart" and shown[-1]["cell"] == DARTS_TO_THROW[2]
        last = ref.ask({"cmd": "state"})
        code, err = ref.end()
        assert code == 0 and "Traceback" not in err, err

        again = LineGame("referee", db)
        assert again.ask({"cmd": "state"}) == last  # nothing shown is lost
        assert last[0]["darts"] == [len(shown), 0]
        assert again.end()[0] == 0


def _config(db: Path) -> ConfigFile:
    typed, problems = check_values({"kiosk.database": str(db), "rules.bull_off": "off"})
    assert not problems
    return ConfigFile(None, typed)


def test_the_kiosk_pauses_on_a_full_disk_and_resumes_by_itself(tmp_path):
    disk = tmp_path / "disk"
    with small_disk(disk, "2m"):
        db = disk / "dartship.db"
        announced: list[DartThrown] = []
        notices: list[Notice] = []

        def listen(event: ServiceEvent) -> None:
            if isinstance(event, MatchUpdate):
                announced.extend(e for e in event.events if isinstance(e, DartThrown))
            elif isinstance(event, Notice):
                notices.append(event)

        async def play() -> None:
            kiosk = await build_kiosk(_config(db), devices=False, web=False)
            service = kiosk.service
            service.subscribe(listen)
            try:
                service.new_game(
                    DARTS,
                    Setup(
                        (Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))),
                        HouseRules(bull_off=kiosk.settings.rules.bull_off),
                    ),
                )
                for team, text in ((0, SHARKS), (1, JETS)):
                    service.submit(Place(team, parse_fleet(text, FOUR, (2, 3, 4, 5))), Source.TOUCH)

                def board_dart(code: str) -> None:  # as the board's reader thread does
                    service.queue.put_nowait(DartInput(FOUR.parse(code), code))

                for code in DARTS_TO_THROW[:2]:
                    board_dart(code)
                await eventually(lambda: len(announced) == 2, "the second dart announced")
                filler = fill(disk)
                match = DARTS.in_play(service)
                assert match is not None
                before = match.state()
                board_dart(DARTS_TO_THROW[2])
                await eventually(lambda: service.paused is not None, "the kiosk paused")
                paused = [n for n in notices if n.kind is NoticeKind.PAUSED]
                assert paused and "full" in paused[0].message and "paused" in paused[0].message
                match = DARTS.in_play(service)
                assert match is not None and match.state() == before and len(announced) == 2
                try:  # the touchscreen is refused too, with the same words
                    service.submit(_throw(DARTS_TO_THROW[2]), Source.TOUCH)
                    raise AssertionError("a dart was played on a full disk")
                except NotSaved as err:
                    assert "full" in str(err)
                filler.unlink()
                # No input needed: the service tries the store again by itself.
                await eventually(lambda: service.paused is None, "the kiosk resumed")
                assert any(n.kind is NoticeKind.RESUMED for n in notices)
                board_dart(DARTS_TO_THROW[3])
                await eventually(lambda: len(announced) == 3, "the third dart announced")
            finally:
                await kiosk.stop()

        asyncio.run(play())
        store = Store(db)
        game = store.games.unfinished()
        assert game is not None
        stored = [e for e in _replayed_darts(store, game)]
        store.close()
        assert [(d.cell.code, d.result) for d in announced] == stored  # nothing shown is lost
        assert [d.cell.code for d in announced] == [*DARTS_TO_THROW[:2], DARTS_TO_THROW[3]]


def _throw(code: str):
    from kiosk.darts.match import Throw

    return Throw(FOUR.parse(code))


def _replayed_darts(store: Store, game: int) -> list[tuple[str, Any]]:
    """The darts the stored command log holds, with their results, by replaying it."""
    from kiosk.game import replay

    kind = store.games.kind_of(game)
    match = kind.new(store.games.setup(game))
    darts: list[tuple[str, Any]] = []
    for command in store.games.commands(game):
        darts += [(e.cell.code, e.result) for e in match.apply(command) if isinstance(e, DartThrown)]
    assert replay(kind, store.games.setup(game), store.games.commands(game)).state() == match.state()
    return darts
