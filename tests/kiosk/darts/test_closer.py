""" "Who was closer?" from both teams' phones, and where the bull-off darts landed."""

from __future__ import annotations

import pytest

from kiosk.board import BULL, BullZone, Cell, Ring, board_for
from kiosk.darts.closer import CloserVotes, Vote
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS, command_for_input
from kiosk.darts.match import (
    BullOffCloser,
    BullOffDart,
    HouseRules,
    Match,
    Phase,
    Place,
    RuleError,
    Setup,
    Team,
)
from kiosk.darts.wire import command_from_dict, command_to_dict, event_to_dict
from kiosk.inputs import DartInput
from kiosk.service import GameService, MatchUpdate, Notice, NoticeKind, Source
from kiosk.store import Store

FOUR = board_for()


def _undecided(tmp_path) -> GameService:
    """A stored game whose two bull-off darts both missed the bull: the board cannot tell."""
    service = GameService(Store(tmp_path / "k.db"))
    rules = HouseRules()
    service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
    for team in (0, 1):
        service.submit(Place(team, random_fleet(rules.board, rules.fleet, service.rng)))
    service.handle_input(DartInput(FOUR.parse("S20"), "S20", BullZone.OTHER))
    service.handle_input(DartInput(FOUR.parse("T3"), "T3", BullZone.OTHER))
    assert service.match.bull_off_undecided
    return service


def test_both_phones_must_name_the_same_team(tmp_path):
    service = _undecided(tmp_path)
    votes = CloserVotes(service)
    sources = []
    service.subscribe(lambda e: sources.append(e.source) if isinstance(e, MatchUpdate) else None)
    assert votes.vote(0, 0) is Vote.WAITING
    assert votes.votes() == (0, None)
    assert votes.vote(1, 1) is Vote.DISAGREE  # the Jets think they were closer
    assert service.match.phase is Phase.BULL_OFF and votes.votes() == (0, 1)
    assert votes.vote(1, 0) is Vote.DECIDED  # they give in
    assert service.match.phase is Phase.THROWING and service.match.turn == 0
    assert sources[-1] is Source.PHONE
    assert votes.votes() == (None, None)
    with pytest.raises(RuleError):
        votes.vote(0, 0)  # nobody asks any more


def test_a_team_alone_never_decides_and_bad_answers_change_nothing(tmp_path):
    service = _undecided(tmp_path)
    votes = CloserVotes(service)
    for _again in range(3):
        assert votes.vote(0, 0) is Vote.WAITING
    assert service.match.phase is Phase.BULL_OFF
    for voter, closer in ((0, 2), (2, 0), (0, True), (-1, 1)):
        with pytest.raises(RuleError):
            votes.vote(voter, closer)
    assert votes.votes() == (0, None)


def test_votes_belong_to_their_question(tmp_path):
    """The host (or the touchscreen) decides meanwhile: the phones' answers are void."""
    service = _undecided(tmp_path)
    votes = CloserVotes(service)
    votes.vote(0, 1)
    service.submit(BullOffCloser(1), Source.HOST)
    assert votes.votes() == (None, None)
    with pytest.raises(RuleError):
        votes.vote(1, 1)


def test_a_board_dart_during_the_question_is_refused_out_loud(tmp_path):
    service = _undecided(tmp_path)
    notices = []
    service.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
    version = service.match.version
    service.handle_input(DartInput(BULL, "DB", BullZone.INNER))
    assert service.match.version == version
    assert notices and notices[-1].kind is NoticeKind.REFUSED and "closer" in notices[-1].message


def test_bull_off_darts_keep_their_cell_in_the_view_the_log_and_the_events(tmp_path):
    service = _undecided(tmp_path)
    match = service.match
    assert [c.code for c in match.bull_off_cells()] == ["S20", "T3"]
    view = match.public_view()
    assert view["bull_off"] == {
        "darts": [{"zone": "other", "cell": "S20"}, {"zone": "other", "cell": "T3"}],
        "undecided": True,
    }
    # Stored with the command and read back: a restart shows the same.
    again = service.store.games.load(service.game)
    assert again.bull_off_cells() == match.bull_off_cells()
    dart = BullOffDart(0, BullZone.OTHER, FOUR.parse("S20"))
    body = command_to_dict(dart)
    assert body == {"cmd": "bull", "team": 0, "zone": "other", "cell": "S20"}
    assert command_from_dict(body, HouseRules()) == dart
    # Logs from before the cell was kept read as before.
    assert command_from_dict({"cmd": "bull", "team": 1, "zone": "inner"}, HouseRules()) == BullOffDart(
        1, BullZone.INNER
    )
    events = Match(match.setup)
    for command in match.log[:3]:  # both placements and the start (a follow-up)
        events.apply(command)
    thrown = events.apply(BullOffDart(0, BullZone.OTHER, FOUR.parse("S20")))
    assert event_to_dict(thrown[0]) == {"event": "bull_off", "team": 0, "zone": "other", "cell": "S20"}


def test_a_board_dart_in_the_bull_off_carries_its_cell():
    match = Match(Setup((Team("A", ("a",)), Team("B", ("b",))), HouseRules()))
    rng = __import__("random").Random(2)
    for team in (0, 1):
        match.apply(Place(team, random_fleet(FOUR, (2, 3, 4, 5), rng)))
    from kiosk.darts.match import Start

    match.apply(Start(None))
    command = command_for_input(match, DartInput(FOUR.parse("D5"), "D5", BullZone.OTHER))
    assert command == BullOffDart(0, BullZone.OTHER, FOUR.parse("D5"))
    with pytest.raises(RuleError):  # a cell this board does not have (three-ring has no L5)
        three = Match(
            Setup(match.setup.teams, HouseRules(fleet=(2, 3), profile=board_for("three-ring").profile))
        )
        for team in (0, 1):
            three.apply(Place(team, random_fleet(three.board, (2, 3), rng)))
        three.apply(Start(None))
        three.apply(BullOffDart(0, BullZone.OTHER, Cell(Ring.LARGE, 5)))


def test_an_answer_survives_a_restart_and_counts_with_the_other_teams(tmp_path):
    """The Jets answer, the kiosk is killed (kill -9, a power cut) and started again: the
    Jets' answer is still there, and the Sharks naming the same team decides."""
    service = _undecided(tmp_path)
    assert CloserVotes(service).vote(1, 1) is Vote.WAITING
    service.store.close()

    again = GameService(Store(tmp_path / "k.db"))
    assert again.resume()
    votes = CloserVotes(again)
    assert votes.votes() == (None, 1)
    assert votes.vote(0, 1) is Vote.DECIDED
    assert again.match.phase is Phase.THROWING and again.match.turn == 1
    # Once decided, a later start keeps no answer of a question nobody asks any more.
    again.store.close()
    third = GameService(Store(tmp_path / "k.db"))
    assert third.resume()
    assert CloserVotes(third).votes() == (None, None)


def test_answers_kept_for_another_question_or_unreadable_do_not_count(tmp_path):
    """What the store keeps counts only for the question still open: an answer kept for an
    older one (another game, an earlier version of this one) or a value we never write is none."""
    import json

    from kiosk.darts.closer import KEY

    service = _undecided(tmp_path)
    game, version = service.game, service.match.version
    for kept in (
        json.dumps({"game": game, "version": version - 1, "votes": [0, None]}),
        json.dumps({"game": game + 1, "version": version, "votes": [0, None]}),
        json.dumps({"game": game, "version": version, "votes": [True, "x"]}),
        "not json",
        json.dumps([1, 2]),
    ):
        service.store.meta.remember(KEY, kept)
        assert CloserVotes(service).votes() == (None, None), kept
    service.store.meta.remember(KEY, json.dumps({"game": game, "version": version, "votes": [None, 0]}))
    assert CloserVotes(service).votes() == (None, 0)
