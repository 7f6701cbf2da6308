"""One guard in front of the dart game's Next, whatever sends it: the touchscreen's button, the
board's buttons and a camera scorer's takeout, the teams' phones, the host's desk, the takeout
timer and the kiosk's own visits in solo mode.

Next ends a visit. Two that come together end two: the second ends the next team's visit with
three padded misses before it threw a dart (a double tap, a tap just after the timer's own Next,
a page not yet refreshed). In a bar that is a lost visit and an argument. So, before the match
sees a Next (the match stays pure: no clock; its log, its stored form and its replay are as
before):

* a Next that says which visit it ends is refused when that visit is over already. A screen's
  or a page's Next says it with `Next.visit` (the visit it showed); a camera scorer's takeout
  (`Next.takeout`) ends the visit the board's darts went into, which the guard follows here (the
  scorer cannot: it never hears of a Next tapped on a screen). So the darts of a visit a tap, a
  phone or the timer ended are pulled out without ending the next one, however late the cameras
  see the hand, and a takeout after a dart of the new visit ends the new visit. That refusal is
  no mistake of anyone's: it is written in the journal only (`AlreadyDone`), never shown;
* a Next from a person (`PEOPLE`) that comes within `rules.double_next_seconds` (1.5 s; 0: off)
  of the last Next taken from any source, with nothing else done in the game since (the new
  visit's first dart, an Undo), is taken for a double tap and refused. The timer's and the
  kiosk's own Nexts are never taken for one, but they start the window: the timer's Next
  followed by a tap is caught.

The guard is one of the dart game's participants (`kiosk/darts/room.py`), so it stands in front
of every command the service is given while a dart game is in play; its clock is handed in, so
the tests need no sleeps.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kiosk.darts.kind import DARTS
from kiosk.darts.match import Correct, DartThrown, Match, Next, VisitStarted
from kiosk.errors import AlreadyDone
from kiosk.game import RuleError
from kiosk.i18n import _
from kiosk.service import GameService, GameStarted, MatchUpdate, ServiceEvent, ServiceListener, Source

# Where a person's Next comes from (the board: its Next button, a camera scorer's takeout).
PEOPLE = frozenset({Source.TOUCH, Source.BOARD, Source.PHONE, Source.HOST})


class StaleNext(RuleError):
    """A Next for a visit that is over already."""


def refuse_stale(match: Match, visit: int | None) -> None:
    """Raise StaleNext for a Next that says it ends `visit` when that visit is over already
    (None: a Next that names none, for the visit in play). Asked first by the guard and by a
    team phone's Next before its turn check: the phone of the team that just threw, tapped
    again, is told its visit is over, not that Next is for the other team."""
    if visit is not None and visit != match.visits:
        raise StaleNext(_("That Next was for a visit already over: nothing was changed."))


class TakeoutOfVisitOver(StaleNext, AlreadyDone):
    """A camera scorer's takeout of darts whose visit is over already (a tap, a phone or the
    timer ended it): those darts' takeout, not a Next for the visit in play."""


def board_visit_over(match: Match, visit: int | None) -> None:
    """Raise TakeoutOfVisitOver when the visit the board's darts went into (None: none seen
    since the guard took part; 0: darts thrown before the first visit, the bull-off's or a
    warm-up's) is no longer the one in play."""
    if visit == 0 and match.visits != 0:
        raise TakeoutOfVisitOver(
            _(
                "The darts thrown before the first visit (the bull-off's, a warm-up's) were pulled "
                "out: the first visit goes on."
            )
        )
    if visit is not None and visit != match.visits:
        raise TakeoutOfVisitOver(
            _("The darts of visit {visit} were pulled out; that visit was already over.").format(visit=visit)
        )


class LateCorrect(RuleError):
    """A camera scorer's second look at its latest dart when that dart is no longer the game's
    last (a Next tapped after fewer darts padded the visit with misses)."""


def refuse_late_correct(match: Match, board: tuple[int, int] | None) -> None:
    """Raise LateCorrect when the game's last dart is not the board's latest (`board`: its visit
    and the game's darts with it): the game's Correct changes the last dart, which is then a
    miss padded by a Next, not the dart the cameras looked at again."""
    if board is not None and board[1] != sum(match.state().darts):
        raise LateCorrect(
            _(
                "The camera scorer changed a dart after Next ended its visit: correct it on the "
                "kiosk if it matters."
            )
        )


class DoubleNext(RuleError):
    """A person's Next right after the last one, before anything else happened."""


def _double_said(source: Source) -> str:
    """The refusal in the words of where the second Next came from. A board's Next (its button,
    or a camera scorer's takeout: the darts were pulled once, the scorer said so twice) cannot be
    "tapped again"; the way to end the visit now is the Next on a screen (the kiosk's, a phone's,
    the host's page)."""
    if source is Source.BOARD:
        return _(
            "The board sent Next twice at once: the new visit goes on. Tap Next on the screen to end it now."
        )
    return _("Next came twice at once: the new visit goes on. Tap Next again to end it now.")


class NextGuard(ServiceListener):
    def __init__(
        self,
        service: GameService,
        window: Callable[[], float],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`window` (seconds) is asked at each Next, so a change in the config counts at once;
        `clock` gives monotonic seconds."""
        self.service = service
        self.window = window
        self.clock = clock
        self._last: tuple[float, int] | None = None  # the last Next taken: when, the game's version after it
        # The board's latest dart: the visit it went into, and the darts of the game with it.
        self._board: tuple[int, int] | None = None

    def admit(self, command: object, source: Source) -> None:
        match = DARTS.in_play(self.service)
        if match is None:
            return
        if isinstance(command, Correct) and source is Source.BOARD:
            refuse_late_correct(match, self._board)
        if not isinstance(command, Next):
            return
        if command.takeout:
            board_visit_over(match, None if self._board is None else self._board[0])
        refuse_stale(match, command.visit)
        if source in PEOPLE and self._last is not None:
            at, version = self._last
            if version == match.version and self.clock() - at < self.window():
                raise DoubleNext(_double_said(source))

    def _heard(self, event: ServiceEvent) -> None:
        if isinstance(event, GameStarted):
            self._sync()
            return
        if not isinstance(event, MatchUpdate) or event.game != self.service.game:
            return
        match = DARTS.in_play(self.service)
        if match is None:
            return
        # Heard once the command is committed, before anything follows it: the log's last.
        if match.log and isinstance(match.log[-1], Next):
            self._last = (self.clock(), match.version)
        darts = sum(match.state().darts)
        if any(isinstance(e, VisitStarted) and e.visit == 1 for e in event.events):
            # The first visit begins (the bull-off decided, or the game started without one):
            # whatever darts are in the board then (the bull-off's, a warm-up's) went into no
            # visit, so their takeout ends none. Before, it ended the first one with three
            # padded misses before its team threw.
            self._board = (0, 0)
        elif event.source is Source.BOARD and any(
            isinstance(e, DartThrown) and not e.padded for e in event.events
        ):
            self._board = (match.visits, darts)  # a dart never ends its visit: it is the one in play
        elif self._board is not None and self._board > (match.visits, darts):
            self._board = (match.visits, darts)  # an Undo took the board's latest dart back

    def _sync(self) -> None:
        """A game picked up (resumed, or its kind's turn again): no Next of it seen yet, and no
        board dart (a takeout then ends the visit in play)."""
        self._last = None
        self._board = None

    def _let_go(self) -> None:
        self._sync()
