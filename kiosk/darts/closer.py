""" "Who was closer?" asked of both teams' phones: decided when both name the same team.

Where the board cannot tell two bull-off darts apart, the players say who was closer. On the
touchscreen (or the host page) one tap decides: everybody stands at that screen. With phones only,
each team answers on its own phone, and one team alone must not decide in its own favour: the
answer counts once both phones name the same team. Until then each team sees the other's answer
and may change its own. The host page can still decide alone (the host is the referee).

The votes are not part of the game's record: they only lead to the one command that is
(`BullOffCloser`). They belong to the question: a new question (a new bull-off round, an undo,
another game) starts with none. What a phone answered survives a restart: the open question's
votes are kept in the store's meta (the kiosk's own small state) before the phone hears "counted".
"""

from __future__ import annotations

import enum
import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from kiosk.darts.kind import DARTS
from kiosk.darts.match import BullOffCloser, RuleError
from kiosk.i18n import _
from kiosk.service import GameService, NotSaved, Source
from kiosk.store import StoreError

log = logging.getLogger(__name__)
KEY = "darts.closer_votes"  # the store's meta key of the open question's votes


class Vote(enum.Enum):
    WAITING = "waiting"  # counted; the other team has not answered yet
    DISAGREE = "disagree"  # counted; the other team named the other team
    DECIDED = "decided"  # both agreed: the bull-off is decided


@dataclass(frozen=True)
class Question:
    """One asking of "who was closer?": the game and the match's version when it was asked."""

    game: int
    version: int


class CloserVotes:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self._question: Question | None = None
        self._votes: list[int | None] = [None, None]
        self.on_change: list[Callable[[], None]] = []
        self._recall()

    def _recall(self) -> None:
        """The votes kept before a restart (a kill -9, a power cut): they count again while
        their question is still the open one (`votes` drops them otherwise)."""
        store = self.service.store
        try:
            kept = store.meta.recall(KEY) if store is not None else None
        except (sqlite3.Error, StoreError) as err:
            log.warning("the answers to 'who was closer?' could not be read back (%s)", err)
            return
        if not kept:
            return
        try:
            data = json.loads(kept)
            question = Question(int(data["game"]), int(data["version"]))
            votes = [v if v in (0, 1) and type(v) is int else None for v in data["votes"]][:2]
        except (ValueError, TypeError, KeyError):
            return  # nothing kept, or not what we write: no answers
        if len(votes) == 2:
            self._question, self._votes = question, votes

    def _keep(self) -> None:
        """Write the open question's votes (or none) before anyone is told they count."""
        store = self.service.store
        if store is None:
            return
        question = self._question
        value = (
            json.dumps({"game": question.game, "version": question.version, "votes": self._votes})
            if question is not None
            else ""
        )
        try:
            store.meta.remember(KEY, value)
        except (sqlite3.Error, OSError, StoreError) as err:
            raise NotSaved(_("cannot save: {reason}").format(reason=err)) from None

    def _current(self) -> Question | None:
        """The open question, if the game in play asks one now."""
        match, game = DARTS.in_play(self.service), self.service.game
        if match is None or game is None or not match.bull_off_undecided:
            return None
        # Asked when the second dart came in; every later command answers or undoes it.
        return Question(game, match.version)

    def votes(self) -> tuple[int | None, int | None]:
        """Each team's answer to the open question (None: not answered, or no question)."""
        if self._current() != self._question:
            return (None, None)
        return (self._votes[0], self._votes[1])

    def vote(self, voter: int, closer: int) -> Vote:
        """`voter`'s phone says `closer` was closer. RuleError when nothing is asked or a team
        is not 0 or 1; the service's errors (a store that cannot save) pass through."""
        if voter not in (0, 1) or closer not in (0, 1) or isinstance(closer, bool):
            raise RuleError(_("team must be 0 or 1"))
        question = self._current()
        if question is None:
            raise RuleError(_("nobody has asked who was closer"))
        before = (self._question, list(self._votes))
        if question != self._question:
            self._question, self._votes = question, [None, None]
        self._votes[voter] = closer
        other = self._votes[1 - voter]
        if other is None or other != closer:
            try:
                self._keep()
            except NotSaved:
                self._question, self._votes = before
                raise
            self._changed()
            return Vote.WAITING if other is None else Vote.DISAGREE
        self.service.submit(BullOffCloser(closer), Source.PHONE)
        self._question, self._votes = None, [None, None]
        try:
            self._keep()
        except NotSaved as err:
            # The bull-off is decided and stored; the old votes belong to a question no longer
            # asked, so `votes` ignores them even if they stay in the store.
            log.warning("the answers to 'who was closer?' could not be cleared (%s)", err)
        return Vote.DECIDED

    def _changed(self) -> None:
        for listener in list(self.on_change):
            listener()
