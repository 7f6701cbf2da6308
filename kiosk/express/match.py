"""A game of Battleship Express as a pure state machine (the shape of `kiosk.game.Game`).

`Match.apply(command) -> events`: no I/O, no clock. The dice come from the game's `DiceCup`
(faces typed in first, then the seed of the setup), so the state is a function of the setup and
the command log: replaying `log` gives the same dice, the same lines, the same everything,
including a Carrier's first roll that still waits for its target.

Every check runs before anything changes: a refused command raises an `ExpressRuleError` that
names the rule, and the game is exactly as it was.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.express.dice import DiceCup, new_seed, seeded_line
from kiosk.express.rules import (
    FLEET,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Face,
    Rules,
    Ship,
    ShipRules,
    Variant,
    max_points,
)
from kiosk.game import Outcome, PlayerResult, RuleError
from kiosk.i18n import _
from kiosk.names import kept_name, name_key

EXPOSED = 2  # only the first two ships of a line can be targeted (the seed's rule)
# The computer's levels by name (`kiosk.express.ai.Strategy` plays them; a test ties the two). A
# seat's level is stored with the setup, so a game resumed after a power cut gets its computer
# players back; the rules themselves never look at it.
COMPUTER_LEVELS = ("easy", "normal", "hard")


class ExpressRuleError(RuleError):
    """A command the rules of Battleship Express refuse now; the game is unchanged."""


class SetupError(ExpressRuleError):
    """Players, lines or points to win that make no game."""


class TurnError(ExpressRuleError):
    """Not that player's turn."""


class PhaseError(ExpressRuleError):
    """The game is over, or a Carrier's roll waits for its target (or none does)."""


class AttackerError(ExpressRuleError):
    """The attacking ship is not in the player's line."""


class TargetError(ExpressRuleError):
    """A target the rules do not allow (or a missing / superfluous one)."""


class DiceError(ExpressRuleError):
    """Typed-in faces that cannot be queued."""


class Phase(enum.Enum):
    ATTACK = "attack"
    TARGET = "target"  # the Carrier has rolled first and waits for its target
    OVER = "over"


@dataclass(frozen=True)
class Setup:
    """Everything a game is built from (stored with it: replaying needs nothing else)."""

    players: tuple[str, ...]
    lines: tuple[tuple[Ship, ...], ...]  # one per player, front first
    seed: int
    variant: Variant = Variant.ADMIRAL
    points_to_win: int = 5
    rules: Rules = field(default_factory=Rules)
    # Per player: the computer's level playing that seat, or None for a person; () for no
    # computer at all (the line protocol's games).
    computers: tuple[str | None, ...] = ()

    def __post_init__(self) -> None:
        # Names are kept as the replay reads them, whoever built the setup (`kiosk.names`).
        object.__setattr__(self, "players", tuple(kept_name(p) for p in self.players))
        count = len(self.players)
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise SetupError(_("Battleship Express is for 2 to 4 players"))
        if any(not name.strip() for name in self.players):
            raise SetupError(_("every player needs a name"))
        if len({name_key(name) for name in self.players}) != count:
            raise SetupError(_("two players have the same name"))
        if len(self.lines) != count:
            raise SetupError(_("every player needs one line of ships"))
        for name, line in zip(self.players, self.lines, strict=True):
            if sorted(line, key=FLEET.index) != list(FLEET):
                raise SetupError(_("{name}'s line must hold each of the five ships once").format(name=name))
        if not 1 <= self.points_to_win <= max_points(count):
            raise SetupError(
                _("points to win must be 1 to {most} with {players} players").format(
                    most=max_points(count), players=count
                )
            )
        if stalemate(self.lines, self.ship):
            raise SetupError(_("with these rules no ship can ever sink another"))
        if self.computers and (
            len(self.computers) != count
            or any(level is not None and level not in COMPUTER_LEVELS for level in self.computers)
        ):
            raise SetupError(
                _("a computer seat needs a level: {levels}").format(levels=", ".join(COMPUTER_LEVELS))
            )

    @classmethod
    def create(
        cls,
        players: Sequence[str],
        *,
        variant: Variant = Variant.ADMIRAL,
        points_to_win: int | None = None,
        lines: Sequence[Sequence[Ship]] | None = None,
        seed: int | None = None,
        rules: Rules | None = None,
        computers: Sequence[str | None] = (),
    ) -> Setup:
        """A setup with EXPRESS.md's defaults for what is not given: the points to win by the
        number of players, a fresh secret seed, and lines shuffled by that seed."""
        rules = rules or Rules()
        names = tuple(name.strip() for name in players)
        seed = new_seed() if seed is None else seed
        if points_to_win is None:
            # A wrong number of players is refused by the constructor, with its own message.
            valid = MIN_PLAYERS <= len(names) <= MAX_PLAYERS
            points_to_win = rules.default_points(len(names)) if valid else 1
        if lines is None:
            lines = [seeded_line(seed, player) for player in range(len(names))]
        seats = tuple(computers) if any(level is not None for level in computers) else ()
        return cls(names, tuple(tuple(line) for line in lines), seed, variant, points_to_win, rules, seats)

    def ship(self, ship: Ship) -> ShipRules:
        return self.rules.ship(self.variant, ship)

    def computer(self, player: int) -> str | None:
        """The level of the computer playing `player`'s seat, None for a person."""
        return self.computers[player] if self.computers else None


# ---- commands ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    side: int
    ship: Ship


@dataclass(frozen=True)
class QueueDice:
    """Faces to show before the generator's (real dice typed in, or a test's)."""

    faces: tuple[Face, ...]


@dataclass(frozen=True)
class Attack:
    ship: Ship
    target: Target | None = None  # None only for the Admiral's Carrier, which rolls first
    move: bool = False  # the Admiral's Carrier moves to the front only when asked
    side: int | None = None  # when given, must be the player on turn


@dataclass(frozen=True)
class Declare:
    """The Carrier's target, after its first roll."""

    target: Target
    side: int | None = None


Command = QueueDice | Attack | Declare


# ---- events -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceQueued:
    queued: int  # every face now waiting


@dataclass(frozen=True)
class Rolled:
    side: int
    ship: Ship
    roll: int
    faces: tuple[Face, ...]
    hits: int | None  # None: the Carrier's first roll, before its target is declared
    total: int | None
    target: Target | None = None
    recount: bool = False  # the Carrier's first roll again, now counted: not a new roll
    name: str = ""  # the attacker's name, for the shot log


@dataclass(frozen=True)
class Sunk:
    side: int  # whose ship
    ship: Ship
    by: int
    points: tuple[int, ...]


@dataclass(frozen=True)
class Won:
    side: int


@dataclass(frozen=True)
class TurnPassed:
    side: int  # who attacks next (the same player after a sink)


Event = DiceQueued | Rolled | Sunk | Won | TurnPassed


# ---- the match --------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    attacks: int = 0
    hits: int = 0
    sunk: int = 0  # enemy ships sunk
    turns: int = 0

    def plus(self, attacks: int = 0, hits: int = 0, sunk: int = 0, turns: int = 0) -> Tally:
        return Tally(self.attacks + attacks, self.hits + hits, self.sunk + sunk, self.turns + turns)


@dataclass(frozen=True)
class PendingRoll:
    """The Carrier's first roll, waiting for its target."""

    side: int
    ship: Ship
    faces: tuple[Face, ...]


@dataclass
class _State:
    lines: list[list[Ship]]
    points: list[int]
    lost: list[list[Ship]]  # each player's OWN ships sunk, in order
    tallies: list[Tally]
    cup: DiceCup
    turn: int = 0
    phase: Phase = Phase.ATTACK
    winner: int | None = None
    pending: PendingRoll | None = None


def stalemate(lines: Sequence[Sequence[Ship]], rules: Callable[[Ship], ShipRules]) -> bool:
    """No ship left can ever sink any enemy ship, whatever the order of the lines (in the
    Captain's game a Submarine cannot reach defense 4: Submarine against Submarine)."""
    return not any(
        rules(ship).can_sink(rules(enemy).defense)
        for player, line in enumerate(lines)
        for ship in line
        for other, enemies in enumerate(lines)
        if other != player
        for enemy in enemies
    )


def open_targets(lines: Sequence[Sequence[Ship]], attacker: int, anywhere: bool) -> list[Target]:
    """Every ship `attacker` may target: the first two of each opponent's line, or any ship."""
    return [
        Target(player, ship)
        for player, line in enumerate(lines)
        if player != attacker
        for ship in (line if anywhere else line[:EXPOSED])
    ]


class Match:
    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._log: list[Command] = []
        count = len(setup.players)
        self._s = _State(
            lines=[list(line) for line in setup.lines],
            points=[0] * count,
            lost=[[] for _p in range(count)],
            tallies=[Tally() for _p in range(count)],
            cup=DiceCup(setup.seed),
        )
        self._s.tallies[0] = Tally(turns=1)

    # -- reading --

    @property
    def log(self) -> Sequence[Command]:
        return tuple(self._log)

    @property
    def version(self) -> int:
        return len(self._log)

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def turn(self) -> int:
        return self._s.turn

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def winner(self) -> int | None:
        return self._s.winner

    @property
    def pending(self) -> PendingRoll | None:
        return self._s.pending

    @property
    def queued(self) -> int:
        return len(self._s.cup.queue)

    def line(self, player: int) -> tuple[Ship, ...]:
        return tuple(self._s.lines[player])

    def lines(self) -> tuple[tuple[Ship, ...], ...]:
        return tuple(tuple(line) for line in self._s.lines)

    def points(self) -> tuple[int, ...]:
        return tuple(self._s.points)

    def lost(self, player: int) -> tuple[Ship, ...]:
        return tuple(self._s.lost[player])

    def tally(self, player: int) -> Tally:
        return self._s.tallies[player]

    def targets(self, ship: Ship) -> list[Target]:
        """The targets the player on turn may give `ship` (for the Carrier: declare after rolling)."""
        return open_targets(self._s.lines, self._s.turn, self.setup.ship(ship).anywhere)

    def refusal(self, command: Command) -> ExpressRuleError | None:
        """Why the rules refuse `command` now (None: it would be accepted); nothing changes.
        The touchscreen uses it to dim a target and say why when it is tapped."""
        try:
            self._check(command)
        except ExpressRuleError as err:
            return err
        return None

    # -- the one door that changes the game --

    def apply(self, command: Command) -> list[Event]:
        """Carry out one command; an `ExpressRuleError` leaves the game exactly as it was."""
        self._check(command)
        match command:
            case QueueDice(faces):
                self._s.cup.add(faces)
                events: list[Event] = [DiceQueued(len(self._s.cup.queue))]
            case Attack():
                events = self._attack(command)
            case Declare(target):
                pending = self._s.pending
                assert pending is not None  # checked
                self._s.pending, self._s.phase = None, Phase.ATTACK
                events = self._resolve(pending.ship, target, pending.faces)
        self._log.append(command)
        return events

    # -- checks (no change) --

    def _check(self, command: Command) -> None:
        s = self._s
        if isinstance(command, QueueDice):
            if not command.faces:
                raise DiceError(_("give at least one face to queue"))
            if s.phase is Phase.OVER:
                raise PhaseError(_("the game is over"))
            return
        if s.phase is Phase.OVER:
            raise PhaseError(_("the game is over"))
        if command.side is not None and command.side != s.turn:
            raise TurnError(_("it is {name}'s turn").format(name=self.players[s.turn]))
        if isinstance(command, Attack):
            self._check_attack(command)
        else:
            if s.phase is not Phase.TARGET:
                raise PhaseError(
                    _("no roll waits for a target: a target is declared only after the Carrier's first roll")
                )
            assert s.pending is not None
            self._check_target(command.target, self.setup.ship(s.pending.ship))

    def _check_attack(self, attack: Attack) -> None:
        s = self._s
        name = self.players[s.turn]
        if s.phase is Phase.TARGET:
            raise PhaseError(_("{name}'s Carrier has rolled: declare its target first").format(name=name))
        if attack.ship not in s.lines[s.turn]:
            raise AttackerError(
                _("the {ship} is no longer in {name}'s line").format(ship=attack.ship.label, name=name)
            )
        rules = self.setup.ship(attack.ship)
        if rules.roll_first:
            if attack.target is not None:
                raise TargetError(
                    _("the {ship} rolls first and declares its target after the first roll").format(
                        ship=attack.ship.label
                    )
                )
        elif attack.target is None:
            raise TargetError(_("the attack must name its target"))
        else:
            self._check_target(attack.target, rules)

    def _check_target(self, target: Target, attacker: ShipRules) -> None:
        s = self._s
        if not 0 <= target.side < len(self.players):
            raise TargetError(_("there is no player {number}").format(number=target.side))
        if target.side == s.turn:
            raise TargetError(_("a player cannot attack their own line"))
        name = self.players[target.side]
        line = s.lines[target.side]
        if target.ship not in line:
            raise TargetError(
                _("the {ship} is no longer in {name}'s line").format(ship=target.ship.label, name=name)
            )
        if not attacker.anywhere and line.index(target.ship) >= EXPOSED:
            raise TargetError(
                _("the target must be one of the first two ships of {name}'s line").format(name=name)
            )

    # -- changes (after every check passed) --

    def _attack(self, attack: Attack) -> list[Event]:
        s = self._s
        rules = self.setup.ship(attack.ship)
        if not rules.stays or attack.move:
            line = s.lines[s.turn]
            line.remove(attack.ship)
            line.insert(0, attack.ship)
        s.tallies[s.turn] = s.tallies[s.turn].plus(attacks=1)
        if rules.roll_first:
            faces = s.cup.roll(rules.dice)
            s.pending, s.phase = PendingRoll(s.turn, attack.ship, faces), Phase.TARGET
            return [Rolled(s.turn, attack.ship, 1, faces, None, None, name=self.players[s.turn])]
        assert attack.target is not None  # checked
        return self._resolve(attack.ship, attack.target, None)

    def _resolve(self, ship: Ship, target: Target, first: tuple[Face, ...] | None) -> list[Event]:
        """The rolls of one attack: hits set aside, the rest re-rolled, until sunk or out of rolls
        or dice. `first`: the Carrier's roll already thrown."""
        s = self._s
        player, rules = s.turn, self.setup.ship(ship)
        defense = self.setup.ship(target.ship).defense
        dice, total = rules.dice, 0
        events: list[Event] = []
        for roll in range(1, rules.rolls + 1):
            if dice == 0:
                break
            recount = roll == 1 and first is not None
            faces = first if recount and first is not None else s.cup.roll(dice)
            count = rules.count(faces, target.ship)
            total += count.hits
            dice -= count.kept
            s.tallies[player] = s.tallies[player].plus(hits=count.hits)
            events.append(
                Rolled(player, ship, roll, faces, count.hits, total, target, recount, self.players[player])
            )
            if count.sinks or total >= defense:
                return events + self._sink(target)
        return events + self._pass()

    def _sink(self, target: Target) -> list[Event]:
        s = self._s
        by = s.turn
        s.lines[target.side].remove(target.ship)
        s.lost[target.side].append(target.ship)
        s.points[by] += 1
        s.tallies[by] = s.tallies[by].plus(sunk=1)
        events: list[Event] = [Sunk(target.side, target.ship, by, tuple(s.points))]
        afloat = [p for p, line in enumerate(s.lines) if line and p != by]
        if s.points[by] >= self.setup.points_to_win or not afloat:
            return events + self._end(by)
        if not s.lines[target.side] and not self.setup.rules.fleetless_skipped:
            return events + self._end(self._leader(by))
        if stalemate(s.lines, self.setup.ship):
            return events + self._end(self._leader(by))  # the game could never end otherwise
        if self.setup.rules.sinker_goes_again:
            return [*events, TurnPassed(by)]
        return events + self._pass()

    def _leader(self, sinker: int) -> int:
        """Most points; a tie goes to the sinker, else to the first tied player after the sinker
        in turn order (a game that ends before the points: a fleet gone under the house rule,
        or no sink possible any more)."""
        best = max(self._s.points)
        count = len(self.players)
        return next(p for p in ((sinker + k) % count for k in range(count)) if self._s.points[p] == best)

    def _end(self, winner: int) -> list[Event]:
        self._s.winner, self._s.phase = winner, Phase.OVER
        return [Won(winner)]

    def _pass(self) -> list[Event]:
        s = self._s
        count = len(self.players)
        # A player whose fleet is gone is skipped; the attacker still has ships, so one is found.
        s.turn = next(p for p in ((s.turn + k) % count for k in range(1, count + 1)) if s.lines[p])
        s.tallies[s.turn] = s.tallies[s.turn].plus(turns=1)
        return [TurnPassed(s.turn)]

    # -- views and outcome --

    def public_view(self) -> dict[str, Any]:
        """The whole table (Express hides nothing): what the screens and the computer read."""
        s = self._s
        pending = s.pending
        return {
            "game": self.setup.variant.value,
            "players": list(self.players),
            "lines": [[ship.value for ship in line] for line in s.lines],
            "points": list(s.points),
            "points_to_win": self.setup.points_to_win,
            "turn": s.turn,
            "phase": s.phase.value,
            "winner": s.winner,
            "pending": None
            if pending is None
            else {
                "player": pending.side,
                "ship": pending.ship.value,
                "roll": 1,
                "faces": [face.value for face in pending.faces],
            },
            "queued": len(s.cup.queue),
            "sunk": [[ship.value for ship in lost] for lost in s.lost],
            "stats": [
                {"attacks": t.attacks, "hits": t.hits, "sunk": t.sunk, "turns": t.turns} for t in s.tallies
            ],
            "rules": self.setup.rules.to_dict(),
            "version": self.version,
        }

    def private_view(self, side: int) -> dict[str, Any]:
        """The same as the public view: Battleship Express has no hidden information."""
        if not 0 <= side < len(self.players):
            raise ValueError(f"no player {side}")
        return {**self.public_view(), "side": side}

    def outcome(self) -> Outcome:
        s = self._s
        turns = sum(t.turns for t in s.tallies)
        if s.phase is not Phase.OVER:
            return Outcome(over=False, turns=turns)
        return Outcome(
            over=True,
            winner=s.winner,
            turns=turns,
            results=tuple(
                PlayerResult(
                    side=p,
                    player=name,
                    shots=t.attacks,
                    hits=t.hits,
                    sunk=t.sunk,
                    turns=t.turns,
                    won=p == s.winner,
                )
                for p, (name, t) in enumerate(zip(self.players, s.tallies, strict=True))
            ),
        )
