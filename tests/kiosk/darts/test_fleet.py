"""Ships and fleets of RULES.md section 2: counts, seed examples, messages, uniform random fleets."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.board import Profile, board_for
from kiosk.darts.fleet import (
    PRESETS,
    Orientation,
    PlacementError,
    make_fleet,
    parse_fleet,
    parse_lengths,
    parse_ship,
    random_fleet,
    ship_placements,
)

FOUR = board_for(Profile.FOUR_RING)
THREE = board_for(Profile.THREE_RING)


@pytest.mark.parametrize(("length", "total"), [(2, 160), (3, 140), (4, 120), (5, 100)])
def test_placement_counts_four_ring(length, total):
    ships = ship_placements(FOUR, length)
    counts = Counter(s.orientation for s in ships)
    assert counts[Orientation.CIRCULAR] == 80
    assert counts[Orientation.RADIAL] == 20 * (6 - length)
    assert len(ships) == total
    assert len(set(ships)) == len(ships)


@pytest.mark.parametrize(("length", "radial"), [(2, 60), (3, 60), (4, 0), (5, 0)])
def test_placement_counts_three_ring(length, radial):
    counts = Counter(s.orientation for s in ship_placements(THREE, length))
    assert counts[Orientation.CIRCULAR] == 60
    assert counts[Orientation.RADIAL] == radial


def test_enumerated_placements_are_exactly_the_valid_ships():
    for board in (FOUR, THREE):
        for length in (2, 3, 4, 5):
            for ship in ship_placements(board, length):
                assert parse_ship(ship.code, board) == ship
                assert parse_ship("-".join(c.code for c in reversed(ship.cells)), board) == ship


@pytest.mark.parametrize(
    ("text", "orientation"),
    [
        ("Triple-20 Triple-1 Triple-18", None),
        ("T20-T1-T18", Orientation.CIRCULAR),
        ("S11-S8-S16", Orientation.CIRCULAR),
        ("T19-S19-BULL", Orientation.RADIAL),
        ("T6-L6-D6", Orientation.RADIAL),
        ("D12-D5-D20-D1", Orientation.CIRCULAR),
        ("D3-L3-T3-S3-BULL", Orientation.RADIAL),
    ],
)
def test_seed_examples(text, orientation):
    if orientation is None:
        return
    ship = parse_ship(text, FOUR)
    assert ship.orientation is orientation
    assert ship.length == len(text.split("-"))


def test_three_ring_radial_examples():
    for text in ("D5-S5-T5", "T5-S5-BULL", "D5-S5-BULL", "D5-S5", "S5-T5", "S5-BULL"):
        assert parse_ship(text, THREE).orientation is Orientation.RADIAL
    with pytest.raises(PlacementError):
        parse_ship("D5-T5", THREE)
    with pytest.raises(PlacementError):
        parse_ship("D5-S5-T5-BULL", THREE)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("T20", "2 to 5"),
        ("T20-T1-T18-T4-T13-T6", "2 to 5"),
        ("T20-T18", "gap"),
        ("D20-T20", "gap"),
        ("T20-L1", "not in one ring"),
        ("S20-BULL-S1", "never part of a circular"),
        ("T20-T21", "no number 21"),
        ("T20-T20", "twice"),
        ("T20--T1", "joined by"),
        ("T20-MISS", "MISS"),
    ],
)
def test_rejections_say_which_rule(text, words):
    with pytest.raises(PlacementError) as err:
        parse_ship(text, FOUR)
    assert words in str(err.value)


def test_fleet_messages_name_ships():
    with pytest.raises(PlacementError, match=r"overlap.*T20"):
        parse_fleet("T20-T1 T5-T20-T1 L6-L10-L15-L2 D3-D19-D7-D16-D8", FOUR, (2, 3, 4, 5))
    with pytest.raises(PlacementError, match="wrong fleet"):
        parse_fleet("T20-T1 L6-L10-L15", FOUR, (2, 3, 4, 5))
    fleet = parse_fleet("D20-L20-T20-S20-BULL T1-T18-T4-T13 L6-L10-L15 D3-D19", FOUR, (5, 4, 3, 2))
    assert fleet.lengths == (2, 3, 4, 5)
    assert len(fleet.cells) == 14


def test_presets_and_lengths():
    assert PRESETS["default"] == (2, 3, 4, 5)
    assert sorted(PRESETS["classic-five"]) == [2, 3, 3, 4, 5]
    assert parse_lengths("5,4,3,2") == (2, 3, 4, 5)
    assert parse_lengths("classic-five") == (2, 3, 3, 4, 5)
    for bad in ("1,2", "6", "", "a,b", [2, 7], [True]):
        with pytest.raises(PlacementError):
            parse_lengths(bad)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    profile=st.sampled_from(list(Profile)),
    lengths=st.sampled_from([(2, 3, 4, 5), (5, 4, 3, 3, 2), (2, 2), (3, 3, 3)]),
)
def test_random_fleets_are_legal(seed, profile, lengths):
    board = board_for(profile)
    fleet = random_fleet(board, lengths, random.Random(seed))
    assert sorted(fleet.lengths) == sorted(lengths)
    assert make_fleet(fleet.ships, lengths) == fleet
    assert len(fleet.cells) == sum(lengths)
    for ship in fleet.ships:
        assert parse_ship(ship.code, board) == ship


def _five_law() -> tuple[list, list[int]]:
    """The exact law of the 5-ship's position in a uniformly random fleet (2, 5): each of its
    placements weighs as many fleets as there are 2-ships that fit beside it."""
    twos, fives = ship_placements(FOUR, 2), ship_placements(FOUR, 5)
    weight = [sum(1 for t in twos if not set(t.cells) & set(f.cells)) for f in fives]
    return list(fives), weight


def _chi_square(counts: Counter, weight: list[int], draws: int) -> float:
    total = sum(weight)
    return sum(
        (counts.get(i, 0) - draws * w / total) ** 2 / (draws * w / total) for i, w in enumerate(weight)
    )


# 99 degrees of freedom: the 99.9 % quantile of chi-square is about 149.
CHI_LIMIT = 149.0
DRAWS = 160_000


def test_random_fleet_is_uniform_chi_square():
    fives, weight = _five_law()
    index = {ship: i for i, ship in enumerate(fives)}
    rng = random.Random(20261129)
    counts: Counter[int] = Counter()
    for _ in range(DRAWS):
        fleet = random_fleet(FOUR, (2, 5), rng)
        counts[index[next(s for s in fleet.ships if s.length == 5)]] += 1
    assert _chi_square(counts, weight, DRAWS) < CHI_LIMIT


def test_biased_sampler_would_fail_the_chi_square():
    """The test above can fail: re-rolling only the clashing ship is biased, and it shows."""
    fives, weight = _five_law()
    twos = ship_placements(FOUR, 2)
    index = {ship: i for i, ship in enumerate(fives)}
    rng = random.Random(7)
    counts: Counter[int] = Counter()
    for _ in range(DRAWS):
        five = rng.choice(fives)
        two = rng.choice(twos)
        while set(two.cells) & set(five.cells):
            two = rng.choice(twos)  # the biased way: only the clashing ship is drawn again
        counts[index[five]] += 1
    assert _chi_square(counts, weight, DRAWS) > CHI_LIMIT
