"""The Autodarts Board Manager (PROTOCOLS.md 6): segments to cells, snapshots to the kiosk's
inputs, and the client against a fake Board Manager of ours over a real WebSocket."""

from __future__ import annotations

import asyncio
import json

import pytest

from hardware.autodarts import (
    AutodartsBoard,
    Landed,
    Snapshot,
    VisitFollower,
    base_url,
    events_url,
    frame,
    landed,
    probe,
)
from hardware.fake_autodarts import FakeBoardManager, segment
from kiosk.board import BullZone, Profile, board_for
from kiosk.inputs import (
    BadLine,
    ButtonInput,
    Connected,
    CorrectInput,
    DartInput,
    Disconnected,
    Info,
    MissInput,
    TakeoutInput,
)

FOUR = board_for(Profile.FOUR_RING)
THREE = board_for(Profile.THREE_RING)


def code(result: Landed | str) -> str:
    assert isinstance(result, Landed), result
    return result.cell.code if result.cell.code != "BULL" else f"BULL-{result.zone.value}"


SEGMENTS = [
    ({"name": "S20", "number": 20, "bed": "SingleInner", "multiplier": 1}, "S20"),
    ({"name": "S20", "number": 20, "bed": "SingleOuter", "multiplier": 1}, "L20"),
    ({"name": "D5", "number": 5, "bed": "Double", "multiplier": 2}, "D5"),
    ({"name": "T19", "number": 19, "bed": "Triple", "multiplier": 3}, "T19"),
    ({"name": "M11", "number": 11, "bed": "Outside", "multiplier": 0}, "MISS"),
    ({"name": "Miss", "number": 0, "bed": "", "multiplier": 0}, "MISS"),
    # the bull's several shapes
    ({"name": "25", "number": 25, "bed": "Single", "multiplier": 1}, "BULL-outer"),
    ({"name": "Bull", "number": 25, "bed": "Double", "multiplier": 2}, "BULL-inner"),
    ({"name": "50", "number": 50, "bed": "Double", "multiplier": 2}, "BULL-inner"),
    ({"name": "SB", "bed": "OuterBull"}, "BULL-outer"),
    ({"name": "DB", "bed": "InnerBull"}, "BULL-inner"),
    ({"name": "BULL", "number": "25", "bed": "Single"}, "BULL-outer"),
]


@pytest.mark.parametrize(
    ("seg", "expected"), SEGMENTS, ids=[s[1] + ":" + str(s[0].get("name")) for s in SEGMENTS]
)
def test_every_bed_and_the_bulls_shapes(seg, expected):
    assert code(landed(seg, FOUR)) == expected


def test_a_bare_single_plays_three_ring():
    bare = {"name": "S7", "number": 7, "bed": "Single", "multiplier": 1}
    assert code(landed(bare, THREE)) == "S7"
    four = landed(bare, FOUR)
    assert isinstance(four, Landed) and four.merged_single


@pytest.mark.parametrize(
    "seg",
    [
        None,
        7,
        {},
        {"name": "S21", "number": 21, "bed": "Triple"},
        {"name": "X", "number": 5, "bed": "Quadruple"},
        {"name": "T", "number": True, "bed": "Triple"},
    ],
)
def test_a_bad_segment_says_what_is_wrong(seg):
    assert isinstance(landed(seg, FOUR), str)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[1, 2]",
        '{"type": "state", "data": 3}',
        '{"type": "state", "data": {"throws": 5}}',
        "x" * 300_000,
    ],
)
def test_garbage_frames_are_reported_not_raised(text):
    assert isinstance(frame(text), str)


def test_other_frame_types_are_ignored_quietly():
    assert frame('{"type": "motion_state", "data": {"motion": true}}') is None
    assert frame('{"type": "something-new"}') is None


def test_urls():
    assert base_url("autodarts.local") == "http://autodarts.local:3180"
    assert base_url("http://10.0.0.5:3180/") == "http://10.0.0.5:3180"
    assert events_url("http://10.0.0.5:3180") == "ws://10.0.0.5:3180/api/events"


# --- the follower: snapshots in, inputs out ------------------------------------------------


def shot(*codes: str, status: str = "Throw", running: bool = True, event: str = "") -> Snapshot:
    return Snapshot(running, status, event, tuple(segment(c) for c in codes))


def said(events) -> list[str]:
    out = []
    for e in events:
        if isinstance(e, DartInput):
            out.append(e.cell.code)
        elif isinstance(e, MissInput):
            out.append("MISS")
        elif isinstance(e, CorrectInput):
            out.append(f"correct {e.cell.code}")
        elif isinstance(e, ButtonInput):
            out.append(e.button.value)
        elif isinstance(e, TakeoutInput):
            out.append("takeout")
        elif isinstance(e, Info):
            out.append("notice")
        elif isinstance(e, BadLine):
            out.append("bad")
    return out


def follower() -> VisitFollower:
    f = VisitFollower(FOUR, 3)
    assert f.follow(shot()) == []  # the first snapshot, an empty visit
    return f


def test_each_dart_is_counted_once_however_often_the_snapshot_repeats():
    f = follower()
    assert said(f.follow(shot("T20"))) == ["T20"]
    assert said(f.follow(shot("T20"))) == []
    assert said(f.follow(shot("T20", "MISS"))) == ["MISS"]
    assert said(f.follow(shot("T20", "MISS"))) == []
    assert said(f.follow(shot("T20", "MISS", "DB"))) == ["BULL"]


def test_the_last_dart_changed_is_a_correct_an_earlier_one_undo_and_replay():
    f = follower()
    f.follow(shot("T20"))
    assert said(f.follow(shot("S20"))) == ["correct S20"]
    f.follow(shot("S20", "D5"))
    assert said(f.follow(shot("L20", "D5"))) == ["undo", "undo", "L20", "D5"]
    # a correction and a new dart in one snapshot
    assert said(f.follow(shot("L20", "D1", "T3"))) == ["correct D1", "T3"]


def test_a_dart_taken_back_by_the_scorer_is_undone():
    f = follower()
    f.follow(shot("T20", "D5"))
    assert said(f.follow(shot("T20"))) == ["undo"]


def test_num_throws_back_to_zero_is_the_takeout_and_only_one_next():
    f = follower()
    f.follow(shot("T20", "T1", "T18"))
    assert said(f.follow(shot("T20", "T1", "T18", status="Takeout in progress"))) == ["takeout"]
    assert said(f.follow(shot())) == []  # the same takeout, finished: no second Next
    assert said(f.follow(shot("D3"))) == ["D3"]
    assert said(f.follow(shot())) == ["takeout"]  # a visit of one dart, then the takeout
    assert said(f.follow(shot())) == []


def test_status_takeout_at_the_third_dart_waits_for_the_hand():
    """The Board Manager says "Takeout" at a visit's third dart, event "Throw detected" (its
    users' captures): the darts are still in the board, so the visit is not ended then; a Next
    sent at once would leave the thrower's tap, as the darts come out, to end the next visit."""
    f = follower()
    f.follow(shot("T20", "T1"))
    third = shot("T20", "T1", "T18", status="Takeout", event="Throw detected")
    assert said(f.follow(third)) == ["T18"]
    assert said(f.follow(third)) == []  # repeated while the darts wait
    hand = shot("T20", "T1", "T18", status="Takeout in progress", event="Takeout started")
    assert said(f.follow(hand)) == ["takeout"]
    assert said(f.follow(shot(status="Throw", event="Takeout finished"))) == []
    f.follow(shot("D3"))
    assert said(f.follow(shot("D3", status="Throw", event="Takeout started"))) == ["takeout"]


def test_more_darts_than_a_visit_allows_are_refused_with_a_notice():
    f = follower()
    f.follow(shot("T20", "T1", "T18"))
    assert said(f.follow(shot("T20", "T1", "T18", "T4"))) == ["notice"]
    assert said(f.follow(shot("T20", "T1", "T18", "T4"))) == []  # said once


def test_a_resync_adds_only_the_darts_not_yet_counted():
    f = follower()
    f.follow(shot("T20"))
    assert said(f.follow(shot("T20", "S5", "D1"), resync=True)) == ["S5", "D1"]


def test_a_resync_on_another_visit_ends_the_one_counted():
    f = follower()
    f.follow(shot("T20", "S5"))
    assert said(f.follow(shot("D7"), resync=True)) == ["takeout", "D7"]


def test_the_first_snapshot_of_a_visit_under_way_is_said_not_counted():
    f = VisitFollower(FOUR, 3)
    first = f.follow(shot("T20", "S5"))
    assert said(first) == ["notice"]
    # the darts held, for the service to compare with the resumed visit (kiosk.inputs.HeldDarts)
    assert [type(e).__name__ for e in first] == ["HeldDarts"]
    assert first[0].cells == (FOUR.parse("T20"), FOUR.parse("S5"))
    assert said(f.follow(shot("T20", "S5", "D1"))) == ["D1"]


def test_an_unreadable_dart_is_a_miss_in_its_place_until_the_scorer_reads_it():
    f = follower()
    broken = Snapshot(True, "Throw", "", (segment("T20"), {"name": "?", "bed": "Nowhere"}, segment("D5")))
    assert said(f.follow(broken)) == ["bad", "T20", "MISS", "D5"]
    assert said(f.follow(broken)) == []  # said once
    assert said(f.follow(shot("T20", "T7", "D5"))) == ["undo", "undo", "T7", "D5"]


# --- the client against the fake Board Manager ---------------------------------------------


class Collect(list):
    def __init__(self) -> None:
        super().__init__()
        self.changed = asyncio.Event()

    def __call__(self, event) -> None:
        self.append(event)
        self.changed.set()

    async def until(self, wanted, timeout: float = 5.0) -> None:
        async def wait() -> None:
            while not wanted(self):
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(wait(), timeout)


def darts_of(events) -> list[str]:
    return [s for s in said(events) if s not in ("notice", "bad")]


async def noise(manager: FakeBoardManager, stop: asyncio.Event, per_second: int = 20) -> None:
    while not stop.is_set():
        await manager.noise()
        await asyncio.sleep(1 / per_second)


async def connected() -> tuple[FakeBoardManager, str, Collect, AutodartsBoard]:
    """A fake Board Manager and the kiosk's client on it, started (quick retries)."""
    manager = FakeBoardManager()
    url = await manager.start()
    got = Collect()
    board = AutodartsBoard(url, got, backoff=(0.05, 0.2))
    board.start()
    return manager, url, got, board


def test_a_visit_with_repeats_noise_garbage_corrections_and_a_reconnect():
    async def play() -> None:
        manager, _url, got, board = await connected()
        stop = asyncio.Event()
        chatter = asyncio.create_task(noise(manager, stop))
        try:
            await got.until(lambda g: any(isinstance(e, Connected) for e in g))
            await manager.throw("T20")
            await manager.push_state()  # the same snapshot again
            await manager.push("{not json")
            await manager.push(json.dumps({"type": "state", "data": {"throws": "x"}}))
            await manager.throw("SB")
            await manager.correct(1, "DB")  # the last dart looked at again
            await got.until(lambda g: "correct BULL" in said(g))
            await manager.drop_clients()  # the WebSocket goes; a dart lands meanwhile
            await got.until(lambda g: any(isinstance(e, Disconnected) for e in g))
            manager.throws.append({"segment": segment("D3"), "coords": {"x": 0, "y": 0}})
            await got.until(lambda g: "D3" in said(g))
            await manager.takeout()
            await got.until(lambda g: "takeout" in said(g))
            await manager.throw("MISS")
            await got.until(lambda g: "MISS" in said(g))
        finally:
            stop.set()
            await chatter
            board.stop()
            await manager.stop()
        assert darts_of(got) == ["T20", "BULL", "correct BULL", "D3", "takeout", "MISS"]
        assert sum(isinstance(e, BadLine) for e in got) == 2  # the two garbage frames, said
        assert manager.state_reads >= 2  # a resync on every connect
        assert manager.config_reads == 0  # the cloud key is never read

    asyncio.run(play())


def test_offline_is_shown_and_retried_until_the_scorer_is_back():
    async def play() -> None:
        manager, url, got, board = await connected()
        try:
            await got.until(lambda g: any(isinstance(e, Connected) for e in g))
            await manager.set_running(False, "Stopped")
            await got.until(lambda g: any(isinstance(e, Disconnected) for e in g))
            assert "offline" in next(e for e in got if isinstance(e, Disconnected)).reason
            await manager.throw("T5")  # while stopped: counted when it runs again
            await manager.set_running(True, "Throw")
            await got.until(lambda g: sum(isinstance(e, Connected) for e in g) == 2)
            port = int(url.rsplit(":", 1)[1])
            await manager.stop()  # the Board Manager goes away altogether
            await got.until(lambda g: sum(isinstance(e, Disconnected) for e in g) == 2)
            manager2 = FakeBoardManager()
            await manager2.start(port=port)
            await got.until(lambda g: sum(isinstance(e, Connected) for e in g) == 3, 10)
            await manager2.throw("D8")
            await got.until(lambda g: "D8" in said(g))
            # one Disconnected per outage, however often it was retried
            assert sum(isinstance(e, Disconnected) for e in got) == 2
            # both a camera scorer's, which the screen says in its words, not "check the cable"
            assert all(e.camera for e in got if isinstance(e, Disconnected))
            # T5 was reported once the scorer ran again: counted; the restarted Board Manager's
            # empty visit ended that one
            assert darts_of(got) == ["T5", "takeout", "D8"]
            await manager2.stop()
        finally:
            board.stop()

    asyncio.run(play())


def test_probe_reports_version_and_status():
    async def ask() -> None:
        manager = FakeBoardManager()
        url = await manager.start()
        await manager.throw("T20")
        found = await probe(url)
        assert (found.version, found.status, found.running, found.darts) == ("0.27.0", "Throw", True, 1)
        assert "0.27.0" in found.text
        await manager.stop()
        with pytest.raises(OSError):
            await probe(url, timeout=1)
        assert manager.config_reads == 0

    asyncio.run(ask())


def test_board_test_thread_mode_without_a_running_loop():
    """board-test starts the client from a plain thread: it runs a loop of its own."""
    import queue
    import threading

    events: queue.Queue = queue.Queue()
    ready = threading.Event()
    holder: dict = {}

    def serve() -> None:
        async def main() -> None:
            manager = FakeBoardManager()
            holder["url"] = await manager.start()
            holder["manager"] = manager
            holder["loop"] = asyncio.get_running_loop()
            ready.set()
            while "stop" not in holder:
                await asyncio.sleep(0.02)
            await manager.stop()

        asyncio.run(main())

    server = threading.Thread(target=serve)
    server.start()
    assert ready.wait(5)
    board = AutodartsBoard(holder["url"], events.put, backoff=(0.05, 0.2))
    board.start()
    try:
        assert isinstance(events.get(timeout=5), Connected)
        asyncio.run_coroutine_threadsafe(holder["manager"].throw("T17"), holder["loop"])
        dart = events.get(timeout=5)
        assert isinstance(dart, DartInput) and dart.cell.code == "T17"
        assert dart.zone is BullZone.OTHER
    finally:
        board.stop()
        holder["stop"] = True
        server.join(5)


def test_an_unreachable_board_manager_is_said_in_the_owners_words_and_language():
    """Settings' Test and the doctor say why the Board Manager gave no answer in words a bar's
    owner reads, in the kiosk's language: aiohttp's own text ("Cannot connect to host
    localhost:3180 ssl:default [Connect call failed ('127.0.0.1', 3180)]") came in English on a
    Finnish screen (build/artefacts/qa6/126-autodarts-test-fi.png)."""
    from kiosk import i18n

    async def ask() -> tuple[str, str]:
        quiet = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)  # answers nothing
        port = quiet.sockets[0].getsockname()[1]
        with pytest.raises(OSError) as silent:
            await probe(f"http://127.0.0.1:{port}", timeout=0.5)
        quiet.close()
        await quiet.wait_closed()
        with pytest.raises(OSError) as refused:  # nothing listens on that port now
            await probe(f"http://127.0.0.1:{port}", timeout=2)
        return str(silent.value), str(refused.value).replace(str(port), "PORT")

    silent, refused = asyncio.run(ask())
    assert silent.endswith(": no answer within 0.5 s")
    assert refused == (
        "cannot reach http://127.0.0.1:PORT: "
        "nothing answers on port PORT there: is the Board Manager running?"
    )
    before = i18n.language()
    try:
        i18n.set_language("fi")
        _silent, refused = asyncio.run(ask())
    finally:
        i18n.set_language(before)
    assert refused == (
        "http://127.0.0.1:PORT ei tavoitettavissa: "
        "portissa PORT ei vastaa mikään: onko Board Manager käynnissä?"
    )
