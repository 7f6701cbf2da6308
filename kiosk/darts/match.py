"""A whole game of battleship on a dartboard, as a pure state machine.

`Match.apply(command) -> events`: no I/O, no clock, no randomness of its own. The state is a
function of the *history* (the accepted placements, bull-off darts, darts and visit ends);
undo and correct rewrite the history and replay it, which is why they restore everything
exactly. `Match.log` keeps every accepted command, undo and correct included: replaying it
through `apply` rebuilds the same match (that is how a stored game is resumed).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from kiosk.board import MISS, Board, BullZone, Cell, Profile, board_for
from kiosk.config import BullOffMode, Settings
from kiosk.darts import players as naming
from kiosk.darts.fleet import DEFAULT_FLEET, Fleet, PlacementError, Ship, make_fleet
from kiosk.game import Outcome, PlayerResult, ReplayError, Result, RuleError
from kiosk.i18n import _, said_of
from kiosk.names import kept_name
from kiosk.scatter import Skill

__all__ = ["ReplayError", "RuleError"]  # the house's errors, re-exported for the dart game's users


class Phase(enum.Enum):
    PLACING = "placing"
    BULL_OFF = "bull_off"
    THROWING = "throwing"
    TAKEOUT = "takeout"
    OVER = "over"


def no_dart_now(phase: Phase) -> str:
    """Why a dart does not count in this phase, in the players' words."""
    if phase is Phase.PLACING:
        return _("the fleets are not all placed yet: darts do not count")
    if phase is Phase.BULL_OFF:
        return _("the bull-off is on: one dart each at the bull")
    if phase is Phase.TAKEOUT:
        return _("the visit is over: take the darts out and press Next")
    return _("the game is over: darts no longer count")


class BullOffOutcome(enum.Enum):
    """What two bull-off darts decide."""

    FIRST = "first"  # the first team named starts
    SECOND = "second"
    AGAIN = "again"  # official mode: both or neither hit the Bull, throw again
    UNDECIDED = "undecided"  # the sensor cannot tell: the players say who was closer


@dataclass(frozen=True)
class Team:
    name: str
    players: tuple[str, ...]

    def __post_init__(self) -> None:
        # Names are kept as the replay reads them, whoever built the team (`kiosk.names`).
        object.__setattr__(self, "name", kept_name(self.name))
        object.__setattr__(self, "players", tuple(kept_name(p) for p in self.players))

    @property
    def named(self) -> tuple[str, ...]:
        """The players the screens name (`kiosk.darts.players`): none for a team without
        named players."""
        return naming.named_players(self.name, self.players)

    def thrower(self, player: str | None) -> str | None:
        """The player to name beside the team for `player`'s dart, or None (the team alone)."""
        return naming.thrower(self.name, self.players, player)


@dataclass(frozen=True)
class HouseRules:
    fleet: tuple[int, ...] = DEFAULT_FLEET
    darts_per_visit: int = 3
    bull_off: BullOffMode = BullOffMode.NORMAL
    profile: Profile = Profile.FOUR_RING

    @property
    def board(self) -> Board:
        return board_for(self.profile)


def rings_not_told() -> str:
    """What a new dart game's screens say while the board has not told its rings
    (`GameService.board_rings_told`: a serial board in dialect `auto` that has sent nothing yet):
    its first dart may say it has three rings, and a game set up for four before then keeps ships
    on outer singles it can never report (qa9: the first game on a new dARts board)."""
    return _("Board: not told yet. Throw one dart at the board first: it tells the kiosk its rings.")


def house_rules(settings: Settings, reported: Profile | None = None) -> HouseRules:
    """The house rules a new dart game starts with: the settings' `rules` and the board's
    profile: the one the board reports (`GameService.board_profile`) where it says one, since a
    dialect that cannot tell the inner from the outer single reports three rings whatever
    `board.profile` says (a four-ring game could never hit its outer singles), else
    `board.profile`."""
    from kiosk.darts.fleet import parse_lengths

    return HouseRules(
        fleet=parse_lengths(settings.rules.fleet),
        darts_per_visit=settings.rules.darts_per_visit,
        bull_off=settings.rules.bull_off,
        profile=reported or settings.board.profile,
    )


@dataclass(frozen=True)
class KioskSeat:
    """The kiosk itself playing one team (solo mode): which team, and how well it throws."""

    side: int
    skill: Skill

    @property
    def sigma(self) -> float:
        return self.skill.sigma


@dataclass(frozen=True)
class Setup:
    teams: tuple[Team, Team]
    rules: HouseRules = HouseRules()
    computer: KioskSeat | None = None  # solo mode: the team the kiosk plays

    def on_board(self, reported: Profile | None) -> Setup:
        """This game again on the board as it reports now (a rematch after the board's dialect
        was told: three rings where it cannot tell the singles apart)."""
        if reported is None or reported is self.rules.profile:
            return self
        return replace(self, rules=replace(self.rules, profile=reported))


# ---- commands ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    side: int
    fleet: Fleet


@dataclass(frozen=True)
class Unplace:
    """A team takes its fleet back to change it (only while the other is not locked in too)."""

    side: int


@dataclass(frozen=True)
class Start:
    """Begin the game: `first` names who starts, or None to hold the bull-off of the rules."""

    first: int | None = None


@dataclass(frozen=True)
class BullOffDart:
    """A team's bull-off dart: `zone` decides; `cell` is where it landed, when the board said
    (shown to the players who must tell who was closer)."""

    side: int
    zone: BullZone
    cell: Cell | None = None


@dataclass(frozen=True)
class BullOffCloser:
    """The players' answer to "who was closer?"."""

    side: int


@dataclass(frozen=True)
class Throw:
    cell: Cell


@dataclass(frozen=True)
class Next:
    """Darts are out: pad the visit with misses if needed and start the next visit.

    `visit`: the visit it is meant to end, as the sender showed it (None: the one in play). The
    guard in front of the match checks it (kiosk/darts/double_next.py: a Next for a visit over
    already is refused); the match itself does not look at it and the store does not keep it,
    so a stored game replays as it always did.

    `takeout`: a camera scorer's takeout, which ends the visit the board's darts went into (the
    guard knows which; the scorer does not know of a Next tapped meanwhile). Checked by the
    guard like `visit`, never stored."""

    visit: int | None = None
    takeout: bool = False


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class Correct:
    cell: Cell


Command = Place | Unplace | Start | BullOffDart | BullOffCloser | Throw | Next | Undo | Correct


# ---- events -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    side: int


@dataclass(frozen=True)
class Unplaced:
    side: int


@dataclass(frozen=True)
class BullOffThrown:
    side: int
    zone: BullZone
    cell: Cell | None = None


@dataclass(frozen=True)
class BullOffUndecided:
    """The sensor cannot tell: ask the players who was closer."""


@dataclass(frozen=True)
class BullOffAgain:
    """Official bull-off: both or neither hit the Bull, throw again."""


@dataclass(frozen=True)
class VisitStarted:
    side: int
    player: str
    visit: int  # 1-based, counted over both teams


@dataclass(frozen=True)
class DartThrown:
    side: int
    player: str
    dart: int
    cell: Cell
    result: Result
    ship: Ship | None = None  # only for SUNK: the ship is revealed
    padded: bool = False


@dataclass(frozen=True)
class Won:
    side: int


@dataclass(frozen=True)
class TakeoutNeeded:
    side: int


@dataclass(frozen=True)
class Ignored:
    reason: str


@dataclass(frozen=True)
class Undone:
    cell: Cell


@dataclass(frozen=True)
class Corrected:
    old: Cell
    new: Cell
    result: Result
    ship: Ship | None = None


Event = (
    Placed
    | Unplaced
    | BullOffThrown
    | BullOffUndecided
    | BullOffAgain
    | VisitStarted
    | DartThrown
    | Won
    | TakeoutNeeded
    | Ignored
    | Undone
    | Corrected
)


# ---- history items (what the state is a function of) -----------------------------------


@dataclass(frozen=True)
class _Dart:
    cell: Cell
    padded: bool = False


@dataclass(frozen=True)
class _EndVisit:
    pass


# What the state is a function of: forward commands as given, darts and visit ends as done.
HistoryItem = Place | Unplace | Start | BullOffDart | BullOffCloser | Throw | Next | _Dart | _EndVisit


def command_word(command: Command) -> str:
    """A command as a reason names it, in the reader's language, by its kind alone (a
    placement's repr would show its fleet, a team's secret)."""
    match command:
        case Place():
            return _("placing a fleet")
        case Unplace():
            return _("taking a fleet back")
        case Start():
            return _("the start")
        case BullOffDart():
            return _("a bull-off dart")
        case BullOffCloser():
            return _("Who was closer?")
        case Throw():
            return _("a dart")
        case Next():
            return _("Next")
        case Undo():
            return _("Undo")
        case Correct():
            return _("Correct")


def _step_word(item: HistoryItem) -> str:
    """A step of the history as a reason names it: a dart by its cell (public once thrown), a
    command by its kind (`command_word`)."""
    if isinstance(item, _Dart):
        return _("the dart at {cell}").format(cell=item.cell.code)
    if isinstance(item, _EndVisit):
        return _("the end of a visit")
    return command_word(item)


# ---- read-only views --------------------------------------------------------------------


@dataclass(frozen=True)
class MatchState:
    """Everything the scoreboard shows; equal states compare equal."""

    phase: Phase
    side: int | None
    player: str | None
    dart: int | None
    sunk: tuple[tuple[int, ...], tuple[int, ...]]
    darts: tuple[int, int]
    hits: tuple[int, int]
    winner: int | None
    visit: int
    placed: tuple[bool, bool]


@dataclass(frozen=True)
class Tally:
    darts: int = 0
    hits: int = 0
    sunk: int = 0
    visits: int = 0

    @property
    def hit_rate(self) -> float:
        return self.hits / self.darts if self.darts else 0.0

    def plus(self, darts: int = 0, hits: int = 0, sunk: int = 0, visits: int = 0) -> Tally:
        return Tally(self.darts + darts, self.hits + hits, self.sunk + sunk, self.visits + visits)


@dataclass
class _Side:
    fleet: Fleet | None = None
    shots: dict[Cell, Result] = field(default_factory=dict)  # this side's shots at the enemy
    sunk_by_enemy: list[int] = field(default_factory=list)  # ship indices of OWN fleet, in order
    visits: int = 0


class Match:
    def __init__(self, setup: Setup) -> None:
        if len(setup.teams) != 2:
            raise RuleError(_("a game needs exactly two teams"))
        for team in setup.teams:
            if not team.players:
                raise RuleError(_("team {name} has no players").format(name=team.name))
        if not 1 <= setup.rules.darts_per_visit <= 9:
            raise RuleError(_("darts per visit must be 1 to 9"))
        seat = setup.computer
        if seat is not None and (seat.side not in (0, 1) or not isinstance(seat.skill, Skill)):
            raise RuleError(
                _("the kiosk plays team 0 or 1 at a skill of {skills}").format(
                    skills=", ".join(s.value for s in Skill)
                )
            )
        self.setup = setup
        self.log: list[Command] = []
        self._history: list[HistoryItem] = []
        self._reset()

    # -- public API --

    @property
    def board(self) -> Board:
        return self.setup.rules.board

    @property
    def teams(self) -> tuple[Team, Team]:
        return self.setup.teams

    @property
    def phase(self) -> Phase:
        return self._phase

    def apply(self, command: Command) -> list[Event]:
        """Carry out one command; `RuleError` leaves the match exactly as it was. A dart while
        the darts are pulled out is answered `Ignored` and not logged (it changes nothing)."""
        if isinstance(command, Undo):
            events = self._undo()
        elif isinstance(command, Correct):
            events = self._correct(command.cell)
        elif isinstance(command, Throw) and self._phase is Phase.TAKEOUT:
            return [Ignored("takeout")]
        else:
            events = self._advance(command)
        self.log.append(command)
        return events

    @property
    def version(self) -> int:
        """Changes with every accepted command: pending work for an older version is stale."""
        return len(self.log)

    # -- the views every game has (kiosk/game.py) --

    def public_view(self) -> dict[str, Any]:
        """Only public facts: the setup, the scoreboard, every shot (each dart is announced to
        the whole bar) and the ships already sunk."""
        state = self.state()
        rules = self.setup.rules
        return {
            # `named`: whether the screens name the player on turn (kiosk.darts.players).
            "teams": [
                {"name": t.name, "players": list(t.players), "named": bool(t.named)} for t in self.teams
            ],
            "rules": {
                "fleet": list(rules.fleet),
                "darts_per_visit": rules.darts_per_visit,
                "board": rules.profile.value,
            },
            "state": {
                "phase": state.phase.value,
                "team": state.side,
                # Whose visit it is, or was until the darts are out (takeout): `team` is then
                # the next one. The phones' Next is for this team.
                "turn": self.turn,
                "player": state.player,
                "dart": state.dart,
                "visit": state.visit,
                "winner": state.winner,
                "placed": list(state.placed),
                "darts": list(state.darts),
                "hits": list(state.hits),
                "sunk": [list(lengths) for lengths in state.sunk],
            },
            # shots[i]: team i's shots at the other team's board.
            "shots": [
                {cell.code: result.value for cell, result in self.shots(team).items()} for team in (0, 1)
            ],
            # The bull-off darts of this round, where the board said they landed (the whole bar
            # watched them land), and whether the players must now say who was closer.
            "bull_off": {
                "darts": [
                    None if zone is None else {"zone": zone.value, "cell": cell.code if cell else None}
                    for zone, cell in zip(self.bull_off_zones(), self.bull_off_cells(), strict=True)
                ],
                "undecided": self.bull_off_undecided,
            },
            # sunk_ships[i]: team i's OWN ships the enemy has sunk (public once sunk).
            "sunk_ships": [
                [[c.code for c in ship.cells] for ship in self.sunk_ships(team)] for team in (0, 1)
            ],
        }

    def private_view(self, side: int) -> dict[str, Any]:
        """The public view and exactly one private thing: the side's OWN fleet (and where the
        enemy hit it). Only ever shown to that side."""
        fleet = self.fleet(side)
        return {
            **self.public_view(),
            "you": side,
            "fleet": [[c.code for c in ship.cells] for ship in fleet.ships] if fleet else [],
            "damage": sorted(cell.code for cell in self.damage(side)),
        }

    def outcome(self) -> Outcome:
        over = self._phase is Phase.OVER
        results = (
            tuple(
                PlayerResult(
                    team, player, tally.darts, tally.hits, tally.sunk, tally.visits, self._winner == team
                )
                for team in (0, 1)
                for player, tally in self.player_tallies(team).items()
            )
            if over
            else ()
        )
        return Outcome(over, self._winner, self._visit, results)

    def state(self) -> MatchState:
        team, player, dart = self.up_next()
        return MatchState(
            phase=self._phase,
            side=team,
            player=player,
            dart=dart,
            sunk=(self.sunk_lengths(0), self.sunk_lengths(1)),
            darts=(self.tally(0).darts, self.tally(1).darts),
            hits=(self.tally(0).hits, self.tally(1).hits),
            winner=self._winner,
            visit=self._visit,
            placed=(self._sides[0].fleet is not None, self._sides[1].fleet is not None),
        )

    def up_next(self) -> tuple[int | None, str | None, int | None]:
        """Who throws the next dart and which dart of the visit it is (None outside play)."""
        if self._phase is Phase.THROWING:
            return self._turn, self.current_player(), self._dart + 1
        if self._phase is Phase.TAKEOUT and self._turn is not None:
            team = 1 - self._turn
            players = self.teams[team].players
            return team, players[self._sides[team].visits % len(players)], 1
        return None, None, None

    def current_player(self) -> str | None:
        if self._turn is None:
            return None
        players = self.teams[self._turn].players
        return players[(self._sides[self._turn].visits - 1) % len(players)]

    @property
    def turn(self) -> int | None:
        return self._turn

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def dart_in_visit(self) -> int:
        """How many darts of the current visit have been thrown."""
        return self._dart

    @property
    def darts_thrown(self) -> int:
        return sum(1 for item in self._history if isinstance(item, _Dart))

    def bull_off_zones(self) -> tuple[BullZone | None, BullZone | None]:
        return (self._bull[0], self._bull[1])

    def bull_off_cells(self) -> tuple[Cell | None, Cell | None]:
        """Where each team's bull-off dart of this round landed, where the board said."""
        return (self._bull_cells[0], self._bull_cells[1])

    @property
    def bull_off_undecided(self) -> bool:
        return self._bull_undecided

    def sunk_lengths(self, team: int) -> tuple[int, ...]:
        """Lengths of `team`'s OWN ships sunk so far, in the order they sank."""
        fleet = self._sides[team].fleet
        if fleet is None:
            return ()
        return tuple(fleet.ships[i].length for i in self._sides[team].sunk_by_enemy)

    def sunk_ships(self, team: int) -> tuple[Ship, ...]:
        """`team`'s own ships that the enemy has sunk: public once sunk."""
        fleet = self._sides[team].fleet
        if fleet is None:
            return ()
        return tuple(fleet.ships[i] for i in self._sides[team].sunk_by_enemy)

    def shots(self, team: int) -> dict[Cell, Result]:
        """`team`'s shots at the enemy board, by cell (REPEATs leave the first result)."""
        return dict(self._sides[team].shots)

    def fleet(self, team: int) -> Fleet | None:
        """PRIVATE: `team`'s own fleet. Only that team's views may show it."""
        return self._sides[team].fleet

    def damage(self, team: int) -> frozenset[Cell]:
        """Cells of `team`'s own fleet that the enemy has hit."""
        enemy = self._sides[1 - team]
        return frozenset(c for c, r in enemy.shots.items() if r.scores)

    def tally(self, team: int) -> Tally:
        return self._team_tally[team]

    def player_tallies(self, team: int) -> dict[str, Tally]:
        return {p: self._player_tally.get((team, p), Tally()) for p in self.teams[team].players}

    @property
    def visits(self) -> int:
        return self._visit

    def visit_darts(self) -> tuple[Cell, ...]:
        """The darts of the visit in play (or just thrown, in its takeout), oldest first: none
        before the first visit."""
        if self._phase not in (Phase.THROWING, Phase.TAKEOUT):
            return ()
        darts: list[Cell] = []
        for item in reversed(self._history):
            if not isinstance(item, _Dart):
                break  # the visit's start: the last visit's end, or the game's start
            darts.append(item.cell)
        return tuple(reversed(darts))

    def darts_in_board(self) -> tuple[Cell, ...]:
        """The darts the board may hold now, oldest first: the visit in play's, or before its
        first dart the visit just ended (ended with Next while its darts were still in the
        board: they are pulled out before the next dart); none before the first visit."""
        darts = self.visit_darts()
        if darts or self._phase is not Phase.THROWING:
            return darts
        ended: list[Cell] = []
        for item in reversed(self._history[:-1] if self._history[-1:] == [_EndVisit()] else []):
            if not isinstance(item, _Dart):
                break
            ended.append(item.cell)
        return tuple(reversed(ended))

    def last_dart(self) -> Cell | None:
        for item in reversed(self._history):
            if isinstance(item, _Dart):
                return item.cell
        return None

    # -- the machine --

    def _reset(self) -> None:
        self._phase = Phase.PLACING
        self._sides = [_Side(), _Side()]
        self._turn: int | None = None
        self._dart = 0
        self._visit = 0
        self._winner: int | None = None
        self._bull: list[BullZone | None] = [None, None]
        self._bull_cells: list[Cell | None] = [None, None]
        self._bull_undecided = False
        self._team_tally = [Tally(), Tally()]
        self._player_tally: dict[tuple[int, str], Tally] = {}

    def _advance(self, command: Command) -> list[Event]:
        """Check and carry out a forward command, recording it in the history."""
        if isinstance(command, Place):
            return self._place(command)
        if isinstance(command, Unplace):
            return self._unplace(command.side)
        if isinstance(command, Start):
            return self._start(command.first)
        if isinstance(command, BullOffDart):
            return self._bull_off_dart(command)
        if isinstance(command, BullOffCloser):
            return self._bull_off_closer(command.side)
        if isinstance(command, Throw):
            return self._throw(command.cell)
        if isinstance(command, Next):
            return self._next()
        raise RuleError(_("unknown command"))

    def _check_team(self, team: object) -> int:
        if type(team) is not int or team not in (0, 1):
            raise RuleError(_("team must be 0 or 1"))
        return team

    def _place(self, command: Place) -> list[Event]:
        team = self._check_team(command.side)
        if self._phase is not Phase.PLACING:
            raise RuleError(_("the game has started: fleets can no longer be placed"))
        if all(side.fleet is not None for side in self._sides):
            raise RuleError(_("both fleets are locked in"))
        fleet = command.fleet
        for ship in fleet.ships:
            if any(cell not in self.board for cell in ship.cells):
                raise RuleError(_("ship {ship} is not on this board").format(ship=ship.code))
        try:
            make_fleet(fleet.ships, self.setup.rules.fleet)
        except PlacementError as err:
            raise RuleError(said_of(err)) from None
        self._sides[team].fleet = fleet
        self._history.append(command)
        return [Placed(team)]

    def _unplace(self, team: int) -> list[Event]:
        team = self._check_team(team)
        if self._phase is not Phase.PLACING or all(side.fleet is not None for side in self._sides):
            raise RuleError(_("both fleets are locked in"))
        if self._sides[team].fleet is None:
            raise RuleError(_("this team has not placed its fleet"))
        self._sides[team].fleet = None
        self._history.append(Unplace(team))
        return [Unplaced(team)]

    def _start(self, first: int | None) -> list[Event]:
        if self._phase is not Phase.PLACING:
            raise RuleError(_("the game has already started"))
        missing = [self.teams[i].name for i in (0, 1) if self._sides[i].fleet is None]
        if missing:
            raise RuleError(_("waiting for the fleet of {teams}").format(teams=", ".join(missing)))
        if first is not None:
            self._check_team(first)
        elif self.setup.rules.bull_off is BullOffMode.OFF:
            first = 0
        self._history.append(Start(first))
        if first is None:
            self._phase = Phase.BULL_OFF
            return []
        return self._begin(first)

    def _begin(self, first: int) -> list[Event]:
        self._turn = 1 - first  # _new_visit flips it
        return self._new_visit()

    def _bull_off_dart(self, command: BullOffDart) -> list[Event]:
        team = self._check_team(command.side)
        if self._phase is not Phase.BULL_OFF:
            raise RuleError(_("there is no bull-off now"))
        if not isinstance(command.zone, BullZone):
            raise RuleError(_("a bull-off dart needs a zone"))
        if self._bull_undecided:
            raise RuleError(_("tap who was closer"))
        if self._bull[team] is not None:
            # One dart each: a second would let a side replace a bad first dart with a better one.
            raise RuleError(
                _("{team} has thrown its bull-off dart: one dart each").format(team=self.teams[team].name)
            )
        if command.cell is not None and command.cell != MISS and command.cell not in self.board:
            raise RuleError(_("{cell} is not a cell of this board").format(cell=command.cell.code))
        self._history.append(command)
        self._bull[team] = command.zone
        self._bull_cells[team] = command.cell
        events: list[Event] = [BullOffThrown(team, command.zone, command.cell)]
        if None in self._bull:
            return events
        first, second = self._bull
        assert first is not None and second is not None
        outcome = self._decide_bull_off(first, second)
        if outcome is BullOffOutcome.AGAIN:
            self._bull = [None, None]
            self._bull_cells = [None, None]
            return [*events, BullOffAgain()]
        if outcome is BullOffOutcome.UNDECIDED:
            self._bull_undecided = True
            return [*events, BullOffUndecided()]
        return events + self._begin(0 if outcome is BullOffOutcome.FIRST else 1)

    def _decide_bull_off(self, a: BullZone, b: BullZone) -> BullOffOutcome:
        bull = (BullZone.INNER, BullZone.OUTER, BullZone.BULL)
        first, second = BullOffOutcome.FIRST, BullOffOutcome.SECOND
        if self.setup.rules.bull_off is BullOffMode.OFFICIAL:
            if (a in bull) == (b in bull):
                return BullOffOutcome.AGAIN
            return first if a in bull else second
        rank = {BullZone.INNER: 3, BullZone.OUTER: 2, BullZone.OTHER: 1, BullZone.MISS: 0}
        if BullZone.BULL in (a, b):
            # A bull of unknown part beats only what is surely not a bull.
            other = b if a is BullZone.BULL else a
            if other in bull:
                return BullOffOutcome.UNDECIDED
            return first if a is BullZone.BULL else second
        if rank[a] == rank[b]:
            return BullOffOutcome.UNDECIDED
        return first if rank[a] > rank[b] else second

    def _bull_off_closer(self, team: int) -> list[Event]:
        team = self._check_team(team)
        if self._phase is not Phase.BULL_OFF or not self._bull_undecided:
            raise RuleError(_("nobody has asked who was closer"))
        self._history.append(BullOffCloser(team))
        self._bull_undecided = False
        return self._begin(team)

    def _new_visit(self) -> list[Event]:
        assert self._turn is not None
        self._turn = 1 - self._turn
        self._dart = 0
        self._visit += 1
        side = self._sides[self._turn]
        side.visits += 1
        self._phase = Phase.THROWING
        player = self.current_player()
        assert player is not None
        self._bump(self._turn, player, visits=1)
        return [VisitStarted(self._turn, player, self._visit)]

    def _bump(self, team: int, player: str, **deltas: int) -> None:
        self._team_tally[team] = self._team_tally[team].plus(**deltas)
        key = (team, player)
        self._player_tally[key] = self._player_tally.get(key, Tally()).plus(**deltas)

    def _throw(self, cell: Cell, padded: bool = False) -> list[Event]:
        if self._phase is not Phase.THROWING:
            raise RuleError(no_dart_now(self._phase))
        if cell != MISS and cell not in self.board:
            raise RuleError(_("{cell} is not a cell of this board").format(cell=cell.code))
        assert self._turn is not None
        team, player = self._turn, self.current_player()
        assert player is not None
        side, enemy = self._sides[team], self._sides[1 - team]
        assert enemy.fleet is not None
        self._history.append(_Dart(cell, padded))
        self._dart += 1
        ship: Ship | None = None
        if not cell.on_board:
            result = Result.MISS
        elif cell in side.shots:
            result = Result.REPEAT
        else:
            index = enemy.fleet.ship_index_at(cell)
            if index is None:
                result = Result.MISS
            else:
                candidate = enemy.fleet.ships[index]
                done = all(c == cell or side.shots.get(c, Result.MISS).scores for c in candidate.cells)
                result = Result.SUNK if done else Result.HIT
                if done:
                    ship = candidate
                    enemy.sunk_by_enemy.append(index)
            side.shots[cell] = result
        self._bump(team, player, darts=1, hits=int(result.scores), sunk=int(ship is not None))
        events: list[Event] = [DartThrown(team, player, self._dart, cell, result, ship, padded)]
        if ship is not None and len(enemy.sunk_by_enemy) == len(enemy.fleet.ships):
            self._winner = team
            self._phase = Phase.OVER
            events.append(Won(team))
        elif self._dart >= self.setup.rules.darts_per_visit and not padded:
            self._phase = Phase.TAKEOUT
            events.append(TakeoutNeeded(team))
        return events

    def _next(self) -> list[Event]:
        if self._phase is Phase.TAKEOUT:
            self._history.append(_EndVisit())
            return self._new_visit()
        if self._phase is not Phase.THROWING:
            raise RuleError(_("Next is only for a visit in play"))
        events: list[Event] = []
        while self._dart < self.setup.rules.darts_per_visit:
            events += self._throw(MISS, padded=True)
        self._history.append(_EndVisit())
        return events + self._new_visit()

    def _rebuild(self, history: list[HistoryItem]) -> list[Event]:
        """Replay a prefix of the history from scratch. Every item applied once, so every item
        must apply again: one that does not is a bug, said loudly (never skipped)."""
        self._reset()
        self._history = []
        events: list[Event] = []
        for index, item in enumerate(history):
            try:
                if isinstance(item, _Dart):
                    events += self._throw(item.cell, item.padded)
                elif isinstance(item, _EndVisit):
                    self._phase_end_visit()
                else:
                    events += self._advance(item)
            except RuleError as err:
                raise ReplayError(
                    _("step {number} of the game ({step}) no longer applies: {error}").format(
                        number=index + 1, step=_step_word(item), error=err
                    )
                ) from err
        return events

    def _phase_end_visit(self) -> None:
        if self._phase not in (Phase.TAKEOUT, Phase.THROWING):
            raise RuleError(_("the visit is already over"))
        self._history.append(_EndVisit())
        self._new_visit()

    def _last_dart_index(self) -> int:
        for i in range(len(self._history) - 1, -1, -1):
            if isinstance(self._history[i], _Dart):
                return i
        raise RuleError(_("no dart to take back"))

    def _undo(self) -> list[Event]:
        i = self._last_dart_index()
        dart = self._history[i]
        assert isinstance(dart, _Dart)
        self._rebuild(self._history[:i])
        return [Undone(dart.cell)]

    def _correct(self, cell: Cell) -> list[Event]:
        if cell != MISS and cell not in self.board:
            raise RuleError(_("{cell} is not a cell of this board").format(cell=cell.code))
        i = self._last_dart_index()
        old = self._history[i]
        assert isinstance(old, _Dart)
        history = self._history
        self._rebuild(history[:i])
        events = self._throw(cell)
        for item in history[i + 1 :]:
            if isinstance(item, _EndVisit) and self._phase in (Phase.TAKEOUT, Phase.THROWING):
                self._phase_end_visit()
            elif isinstance(item, _Dart) and self._phase is Phase.THROWING:
                self._throw(item.cell, item.padded)
        dart = next(e for e in events if isinstance(e, DartThrown))
        extra = [e for e in events if isinstance(e, Won)]
        return [Corrected(old.cell, cell, dart.result, dart.ship), *extra]
