"""A classic game as the front ends start and pick it up: the touchscreen and the phone rooms.

RULES.md section 4: "a random fleet is placed at the start; before the first shot the player may
re-place it". So `start` places every fleet at once: the computer's (solo; daily: the date's,
derived from the kiosk's secret), the players' (random; kept where a duel grows out of a solo
game). Placing goes through the service like any
command (each fleet a secret in the store), after `new_game` has returned: every listener has
heard of the new game before it hears of a fleet (a phone of the old game must never get a view
of the new one).

`ensure_fleets` puts right a game whose fleets a power cut left half placed (between the new
game's row and its first `Place`): whoever resumes a classic game calls it.
"""

from __future__ import annotations

import random

from kiosk.classic.fleet import Fleet, random_fleet
from kiosk.classic.match import Mode, Place, Setup, daily_fleet
from kiosk.classic.wire import CLASSIC
from kiosk.league import membership
from kiosk.secret import kiosk_secret
from kiosk.service import GameService, Source


def start(
    service: GameService,
    setup: Setup,
    rng: random.Random,
    *,
    fleet: Fleet | None = None,
    source: Source = Source.TOUCH,
) -> int:
    """A new classic game with every fleet standing: player 0's `fleet` if given (a duel that
    grows out of a solo game keeps it), random ones for the rest. Returns the game's id."""
    game = service.new_game(CLASSIC, setup)
    for command, who in _missing_places(service, rng, source, {0: fleet} if fleet is not None else {}):
        service.submit(command, who)
    return game


async def start_grouped(
    service: GameService,
    setup: Setup,
    rng: random.Random,
    *,
    fleet: Fleet | None = None,
    source: Source = Source.TOUCH,
) -> int:
    """`start` with the commits grouped with other tables' (`GameService.play`): the loop never
    waits for the disk, the caller does."""
    game = await service.start_game(CLASSIC, setup)
    for command, who in _missing_places(service, rng, source, {0: fleet} if fleet is not None else {}):
        await service.play(command, who)
    return game


def ensure_fleets(service: GameService, rng: random.Random, source: Source = Source.SYSTEM) -> None:
    """Place the fleets a resumed game should already have (see the module's docstring)."""
    if CLASSIC.in_play(service) is not None:
        for command, who in _missing_places(service, rng, source, {}):
            service.submit(command, who)


def _missing_places(
    service: GameService, rng: random.Random, source: Source, given: dict[int, Fleet]
) -> list[tuple[Place, Source]]:
    """The fleets the game in play still lacks, each with who places it."""
    match = CLASSIC.in_play(service)
    assert match is not None
    placed = match.public_view()["placed"]
    places = []
    for side in _sides_with_fleet(match.setup):
        if not placed[side]:
            who = Source.COMPUTER if side == match.setup.computer else source
            places.append((Place(side, given.get(side) or _fleet_of(service, match.setup, side, rng)), who))
    return places


def _fleet_of(service: GameService, setup: Setup, side: int, rng: random.Random) -> Fleet:
    if setup.mode is Mode.DAILY and setup.date is not None:
        # A kiosk in a league plays the league's board of the day (its key from the hub).
        league = membership.daily_key(service.store.meta, setup.date) if service.store else None
        return daily_fleet(league or kiosk_secret(service.store), setup.date)
    return random_fleet(rng)


def _sides_with_fleet(setup: Setup) -> tuple[int, ...]:
    """Daily: only the computer's (the date's, by the kiosk's secret); solo and duel: both."""
    return (1,) if setup.mode is Mode.DAILY else (0, 1)
