import random

import pytest

from kiosk.board import Profile, board_for
from kiosk.darts.fleet import parse_fleet, random_fleet
from kiosk.darts.match import HouseRules, Match, Place, Setup, Start, Team

SHARK_FLEET = "D20-L20-T20-S20-BULL T1-T18-T4-T13 L6-L10-L15 D3-D19"


def make_match(
    *, players=(("Ann", "Bo"), ("Cy",)), rules: HouseRules | None = None, seed: int = 1, start: int | None = 0
) -> Match:
    rules = rules or HouseRules()
    match = Match(Setup((Team("Sharks", tuple(players[0])), Team("Jets", tuple(players[1]))), rules))
    board = rules.board
    rng = random.Random(seed)
    if rules.profile is Profile.FOUR_RING and rules.fleet == (2, 3, 4, 5):
        match.apply(Place(0, parse_fleet(SHARK_FLEET, board, rules.fleet)))
    else:
        match.apply(Place(0, random_fleet(board, rules.fleet, rng)))
    match.apply(Place(1, random_fleet(board, rules.fleet, rng)))
    if start is not None:
        match.apply(Start(start))
    return match


def snapshot(match: Match) -> tuple:
    """Everything observable about a match, for exact comparisons."""
    return (
        match.state(),
        match.up_next(),
        tuple(sorted((c.code, r.value) for c, r in match.shots(0).items())),
        tuple(sorted((c.code, r.value) for c, r in match.shots(1).items())),
        match.sunk_ships(0),
        match.sunk_ships(1),
        match.tally(0),
        match.tally(1),
        tuple(sorted(match.player_tallies(0).items())),
        tuple(sorted(match.player_tallies(1).items())),
        match.bull_off_zones(),
        match.last_dart(),
    )


@pytest.fixture
def four():
    return board_for(Profile.FOUR_RING)
