"""The kiosk's side of the league, without a hub: the outbox written with the game's end, its
retry delays, the report and its check by replay, the league's daily fleet."""

from __future__ import annotations

import datetime
import json
import random
import threading
import time

import pytest

from kiosk.classic.match import daily_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Undo
from kiosk.league import report as reports
from kiosk.league.membership import MEMBERSHIP, Membership
from kiosk.league.outbox import PENDING, REFUSED, retry_delay
from kiosk.secret import kiosk_secret
from kiosk.store import Store
from tests import league_games as games

DAY = datetime.date(2026, 12, 1)


MEMBER = Membership("http://hub.example", 3, "k" * 43, 7, "The Anchor", 1, "Harbour League")


def _store(tmp_path) -> Store:
    store = Store(tmp_path / "k.db")
    store.use_league(MEMBER)
    return store


def test_a_game_enters_the_outbox_with_the_command_that_ends_it(tmp_path):
    store = _store(tmp_path)
    game = games.play_darts(store, [["Ann", "Bo"], ["Cy"]], random.Random(1), winner=1)
    assert store.outbox is not None
    (entry,) = store.outbox.due(now=1e12)
    report = json.loads(entry.report)
    assert entry.game == game and report["venue"] == 7 and report["kind"] == "darts"
    seqs = store.db.execute("SELECT COUNT(*) FROM commands WHERE game=?", [game]).fetchone()[0]
    assert len(report["log"]) == seqs and report["winner"] == 1
    # Now that the game is over the fleets are in the report, and they replay.
    assert sum(1 for c in report["log"] if c["secret"]) == 2
    assert reports.verify(report).winner == 1


def test_an_undone_win_leaves_the_outbox_and_a_win_again_comes_back(tmp_path):
    store = _store(tmp_path)
    game = games.play_darts(store, [["Ann"], ["Cy"]], random.Random(2))
    assert store.outbox is not None and len(store.outbox.due(1e12)) == 1
    first_uuid = store.outbox.due(1e12)[0].uuid
    match = store.games.load(game)
    events = match.apply(Undo())
    store.games.append(game, DARTS, Undo(), events, match)
    assert store.outbox.due(1e12) == [] and store.outbox.counts()[PENDING] == 0
    from kiosk.darts.match import Throw

    last = store.games.commands(game)[-2]
    assert isinstance(last, Throw)
    events = match.apply(last)
    store.games.append(game, DARTS, last, events, match)
    (again,) = store.outbox.due(1e12)
    assert again.uuid != first_uuid  # never sent: a new entry


def test_a_kiosk_in_no_league_queues_nothing(tmp_path):
    store = Store(tmp_path / "k.db")
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(3))
    assert store.db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0


def test_entries_wait_out_the_hold_and_their_backoff(tmp_path):
    store = _store(tmp_path)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(4))
    assert store.outbox is not None
    (entry,) = store.outbox.due(now=1e12)
    queued = store.db.execute("SELECT queued FROM outbox").fetchone()[0]
    assert store.outbox.due(now=queued + 10, hold_seconds=120) == []
    assert store.outbox.due(now=queued + 121, hold_seconds=120) != []
    rng = random.Random(0)
    delay = store.outbox.failed(entry, "no network", now=queued, rng=rng)
    assert 1.0 <= delay <= 2.0 and store.outbox.due(now=queued + 0.5) == []
    (again,) = store.outbox.due(now=queued + delay)
    assert again.attempts == 1


def test_retry_delays_double_with_jitter_up_to_five_minutes():
    rng = random.Random(1)
    for attempts in range(1, 30):
        ceiling = min(300.0, 2.0 * 2 ** (attempts - 1))
        delays = [retry_delay(attempts, rng) for _ in range(50)]
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert len(set(delays)) > 40  # jittered: kiosks that failed together do not retry together


def _report(tmp_path) -> dict:
    store = _store(tmp_path)
    games.play_classic(store, ["Ann", "Cy"], random.Random(5), winner=1)
    assert store.outbox is not None
    return json.loads(store.outbox.due(1e12)[0].report)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(winner=0), "the winner: the report says 0, the replay gives 1"),
        (lambda r: r["results"][1].update(hits=99), "Cy's hits: the report says 99, the replay gives"),
        (lambda r: r["results"].pop(), "missing from the report"),
        (lambda r: r["log"].pop(), "the replayed game is not over"),
        (lambda r: r["log"][0].update(secret="A1-A2"), "command 1 cannot be read"),
        (lambda r: r["log"].append(r["log"][-1]), "does not replay"),
        (lambda r: r.update(setup={"mode": "quantum"}), "the setup cannot be read"),
    ],
)
def test_a_report_whose_log_does_not_give_its_result_is_refused(tmp_path, change, message):
    report = _report(tmp_path)
    assert reports.verify(report).winner == 1
    change(report)
    with pytest.raises(reports.ReportError, match=message.replace("(", r"\(")):
        reports.verify(report)


@pytest.mark.parametrize("body", [b"not json", b"[]", b'{"version": 2}', b'{"version": 1, "uuid": 3}'])
def test_a_report_of_the_wrong_shape_is_refused(body):
    with pytest.raises(reports.ReportError):
        reports.parse(body)


async def test_a_kiosk_in_a_league_starts_the_phones_daily_on_the_leagues_fleet(tmp_path):
    import asyncio

    from kiosk.classic.rooms import PhoneRooms
    from kiosk.league import membership

    class Never:
        def __init__(self, *_args: object) -> None:
            pass

    store = Store(tmp_path / "k.db")
    rooms = PhoneRooms(store, asyncio.get_running_loop(), Never)
    own = rooms.start_daily("ann", DAY, "Ann").fleet(1)
    assert own == daily_fleet(kiosk_secret(store), DAY)  # in no league: the kiosk's own board
    # The boards as the sync task keeps them, with the hub's seeds of the day and the next.
    membership.keep_boards(
        store.meta, {"table": {}, "daily": {}, "venue": {}, "daily_seeds": {"2026-12-02": "ab" * 16}}
    )
    tomorrow = DAY + datetime.timedelta(days=1)
    match = rooms.start_daily("bo", tomorrow, "Bo")
    assert match.fleet(1) == daily_fleet(bytes.fromhex("ab" * 16), tomorrow)
    assert match.fleet(1) != daily_fleet(kiosk_secret(store), tomorrow)


def test_the_outbox_says_what_keeps_games_from_the_hub_and_leaving_gives_up_on_them(tmp_path):
    store = _store(tmp_path)
    outbox = store.outbox
    assert outbox is not None
    rng = random.Random(6)
    for seed in (1, 2, 3):
        games.play_darts(store, [["Ann"], ["Cy"]], random.Random(seed))
    first, second, third = outbox.due(now=1e12)
    assert outbox.last_problem() is None and outbox.last_sent() is None
    outbox.sent(first, '{"status": "new"}')
    assert outbox.last_sent() is not None and outbox.last_problem() is None
    outbox.refused(second, "HTTP 422: the replay gives another winner")
    assert outbox.last_problem() == "HTTP 422: the replay gives another winner"
    outbox.failed(third, "not reachable: connection refused", now=1e9, rng=rng)
    assert outbox.last_problem() == "not reachable: connection refused"  # the one waiting first
    assert outbox.give_up("not sent: the kiosk left the league") == 1
    assert outbox.counts() == {"pending": 0, "sent": 1, "refused": 2}
    assert outbox.last_problem() in (
        "not sent: the kiosk left the league",
        "HTTP 422: the replay gives another winner",
    )
    assert outbox.give_up("again") == 0  # nothing waits any more
    store.close()


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("ABCD-EFGH-JKMN", None),
        ("abcd efgh jkmn", None),
        ("ABCDEFGHJKMN", None),
        ("", "Type the pairing code"),
        ("ABCD-EFGH-JKM0", "has no 0"),
        ("ABCD-EFGH-JKLI", "has no I, L"),
        ("ABCD-EFGH", "has 12 letters and digits; this one has 8"),
        ("ABCD-EFGH-JKMN-P", "this one has 13"),
    ],
)
def test_a_typed_pairing_code_is_checked_before_any_hub_is_asked(typed, problem):
    from kiosk.league.membership import code_problem

    found = code_problem(typed)
    assert (found is None) if problem is None else (found is not None and problem in found)


def test_marking_an_entry_waits_its_turn_behind_the_writer_thread(tmp_path):
    # A store that gives up on SQLite's busy wait at once: only the store's write lock can make
    # the sync task's mark wait for the writer thread's group to commit.
    store = Store(tmp_path / "k.db", timeout=0.05)
    store.use_league(MEMBER)
    outbox = store.outbox
    assert outbox is not None
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(3))
    (entry,) = outbox.due(now=1e12)
    writing, release = threading.Event(), threading.Event()

    def slow_write(db) -> None:  # another game's commands, committed by the writer thread
        db.execute("INSERT INTO meta (key, value) VALUES ('kiosk.slow', 'x')")
        writing.set()
        release.wait(5)

    group = store.group.submit(slow_write)
    assert writing.wait(5)
    marked = threading.Thread(target=outbox.sent, args=(entry, '{"status": "new"}'))
    marked.start()
    time.sleep(0.3)  # six busy timeouts: SQLite alone would have said "database is locked"
    assert marked.is_alive() and outbox.counts()[PENDING] == 1  # waiting for the lock
    release.set()
    group.result(5)
    marked.join(5)
    assert outbox.counts() == {"pending": 0, "sent": 1, "refused": 0}
    assert store.meta.recall("slow") == "x"  # both writes kept
    store.close()


def test_the_counts_are_the_current_membership_s_only_after_a_leave_and_a_rejoin(tmp_path):
    store = _store(tmp_path)
    first = store.outbox
    assert first is not None
    for seed in (1, 2, 3):
        games.play_darts(store, [["Ann"], ["Cy"]], random.Random(seed))
    one, _two, _three = first.due(now=1e12)
    first.sent(one, '{"status": "new"}')
    assert first.give_up("not sent: the kiosk left the league") == 2
    store.use_league(None)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(4))  # in no league: not queued
    again = Membership("http://hub.example", 9, "n" * 43, 7, "The Anchor", 1, "Harbour League")
    store.use_league(again)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(5))
    now = store.outbox
    assert now is not None
    assert now.counts() == {"pending": 1, "sent": 0, "refused": 0}
    assert now.last_sent() is None and now.last_problem() is None
    assert first.counts() == {"pending": 0, "sent": 1, "refused": 2}
    # The new key sends only its own game; an old one never goes out with it.
    (due,) = now.due(now=1e12)
    assert json.loads(due.report)["uuid"] not in {e.uuid for e in (one, _two, _three)}
    assert now.give_up("left again") == 1 and first.counts()[REFUSED] == 2
    store.close()
    # The membership kept in the database is what queues, for any program that opens it.
    store = Store(tmp_path / "k.db")
    assert store.outbox is None  # nothing kept: _store never wrote a membership
    store.meta.remember(MEMBERSHIP, again.to_json())
    store.close()
    store = Store(tmp_path / "k.db")
    assert store.outbox is not None and store.outbox.member == again.ident
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(6))
    assert store.outbox.counts() == {"pending": 1, "sent": 0, "refused": 1}
    store.close()
