"""Fleets being placed on the touchscreen, kept over a restart: one draft per team of the game in
play, in the store's drafts (`kiosk.store.Drafts`), written at every change so that a kill -9
loses none of it.

What a draft holds (the ships laid so far) is the game's business: its screen gives a JSON-able
body to `keep` and reads one back through `kept`'s `read`. Here each body is wrapped with the
game and the team it belongs to, so a draft is only ever brought back to its own team of its own
game. A draft that is broken, of an older format, or of another game is said once in the journal
(in words that never name a cell) and put away; the other teams' drafts stay kept.

Hidden information: a draft names a team's ships. Nothing here logs, shows or returns its body
except to the screen that asked for that team's own draft.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import NoReturn, TypeVar

from kiosk.game import RuleError
from kiosk.i18n import _
from kiosk.service import GameService
from kiosk.store import StoreError

log = logging.getLogger("dartship.drafts")

FORMAT = 1
_FAILURES = (sqlite3.Error, OSError, StoreError)
T = TypeVar("T")


class DraftRefused(RuleError):
    """A kept draft that cannot be brought back; the message says why, naming no cell."""


class PlacingDrafts:
    """The drafts of one kind of game's placement (`kind`: "darts", "classic"), one per team."""

    def __init__(self, service: GameService, kind: str) -> None:
        self._service = service
        self._prefix = f"{kind}.placing."
        self._failing = False  # the last keep failed: said already, until one is kept again

    def _name(self, team: int) -> str:
        return f"{self._prefix}{team}"

    def keep(self, team: int, body: Mapping[str, object]) -> str | None:
        """Keep `team`'s draft of the game in play; the reason it could not be kept the first
        time it cannot (a full disk fails every change: said once, in the journal and to the
        players, until a draft is kept again), else None."""
        store, game = self._service.store, self._service.game
        if store is None or game is None:
            return None
        draft = {"format": FORMAT, "game": game, "team": team, "fleet": dict(body)}
        try:
            store.drafts.keep(self._name(team), draft)
        except _FAILURES as err:
            if self._failing:
                return None
            self._failing = True
            log.warning("team %d's fleet being placed could not be kept (%s)", team + 1, err)
            return str(err)
        if self._failing:
            self._failing = False
            log.info("team %d's fleet being placed is kept again", team + 1)
        return None

    def kept(self, team: int, read: Callable[[Mapping[str, object]], T], who: str) -> T | None:
        """`team`'s draft of the game in play, read by `read` (which raises RuleError for a body
        it refuses, in words naming no cell); None when none is kept. A draft that cannot be
        brought back is said once in the journal, put away, and raised as DraftRefused."""
        store, game = self._service.store, self._service.game
        if store is None or game is None:
            return None
        try:
            found = store.drafts.kept(self._name(team))
        except _FAILURES as err:
            self._refuse(team, who, str(err))
        if found is None:
            return None
        if found.get("format") != FORMAT:
            self._refuse(team, who, _("it is not a draft this kiosk wrote"))
        if found.get("game") != game or found.get("team") != team:
            self._refuse(team, who, _("it belongs to another game"))
        body = found.get("fleet")
        if not isinstance(body, dict):
            self._refuse(team, who, _("its ships are missing"))
        try:
            return read(body)
        except RuleError as err:
            self._refuse(team, who, str(err))

    def _refuse(self, team: int, who: str, reason: str) -> NoReturn:
        log.warning("%s's fleet being placed, kept before the restart, is dropped: %s", who, reason)
        self.put_away(team)
        raise DraftRefused(reason)

    def put_away(self, team: int | None = None) -> None:
        """Forget `team`'s draft (None: every team's of this kind)."""
        store = self._service.store
        if store is None:
            return
        try:
            for name in store.drafts.names():
                if name == self._name(team) if team is not None else name.startswith(self._prefix):
                    store.drafts.put_away(name)
        except _FAILURES as err:
            log.warning("a fleet being placed could not be put away (%s)", err)

    def sweep(self, read: Callable[[int, Mapping[str, object]], object], teams: Sequence[str]) -> list[str]:
        """Once a screen shows the game in play (after a start or a restart): every draft that
        `read` (team, body) refuses, that is broken, of an older format, of another game, or of
        no team of `teams` (their names), is said once in the journal and put away; the good
        ones stay kept for their teams. Without a game in play, all are put away quietly.
        Returns what to tell the players (`refused`'s words), one line per team refused."""
        store, game = self._service.store, self._service.game
        said: list[str] = []
        if store is None:
            return said
        try:
            names = [name for name in store.drafts.names() if name.startswith(self._prefix)]
            for name in names:
                team = _team_of(name[len(self._prefix) :])
                if game is None:
                    store.drafts.put_away(name)
                elif team is None or team >= len(teams):
                    log.warning("a fleet being placed, kept before the restart, is dropped: it is no team's")
                    store.drafts.put_away(name)
                else:
                    try:
                        self.kept(team, functools.partial(read, team), teams[team])
                    except DraftRefused as err:
                        said.append(refused(teams[team], err))
        except _FAILURES as err:
            log.warning("the fleets being placed could not be looked through (%s)", err)
        return said


def refused(team: str, reason: object) -> str:
    """What the players read of a team's draft that could not be brought back (no cell)."""
    return _("{team}: the fleet being placed before the restart could not be brought back ({reason})").format(
        team=team, reason=reason
    )


def not_kept(reason: object) -> str:
    """What the players read when a draft cannot be kept."""
    return _("The fleet being placed cannot be kept over a restart: {reason}").format(reason=reason)


def _team_of(text: str) -> int | None:
    return int(text) if text.isdigit() else None
