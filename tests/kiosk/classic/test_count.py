"""The exact fleet count and coverage against brute force, and uniformly random fleets against
the exact coverage (with a ship-by-ship sampler as the control the test must catch)."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from kiosk.classic.count import count_fleets, coverage
from kiosk.classic.fleet import LENGTHS, random_fleet, random_layout
from kiosk.classic.grid import GRID, Grid


def brute_force(grid: Grid, lengths) -> tuple[int, Counter]:
    """Every tuple of placements, one per ship in order (ships told apart), kept if disjoint;
    and per square how many kept tuples cover it."""
    kept, covered = 0, Counter()
    options = [set(grid.placements(n)) for n in lengths]  # a set: a 1-ship lies one way
    for ships in itertools.product(*options):
        squares = [s for ship in ships for s in ship]
        if len(squares) == len(set(squares)):
            kept += 1
            covered.update(squares)
    return kept, covered


SMALL = [
    (Grid(3, 3), (2,)),
    (Grid(3, 3), (2, 2)),
    (Grid(4, 4), (3, 2)),
    (Grid(4, 4), (3, 2, 2)),
    (Grid(5, 4), (3, 3, 2)),
    (Grid(4, 5), (4, 3, 2)),
    (Grid(5, 5), (4, 3, 3)),
    (Grid(3, 3), (3, 3, 3)),
    (Grid(2, 2), (2, 2, 2)),  # nothing fits
    (Grid(4, 3), (1, 2)),
]


@pytest.mark.parametrize(("grid", "lengths"), SMALL)
def test_the_count_matches_brute_force(grid, lengths):
    named, covered = brute_force(grid, lengths)
    count = count_fleets(lengths, grid)
    assert count.named == named
    repeats = 1
    for n in Counter(lengths).values():
        repeats *= {1: 1, 2: 2, 3: 6}[n]
    assert count.unnamed * repeats == named
    if named:
        assert coverage(lengths, grid) == {s: Fraction(covered[s], named) for s in grid.squares}


def test_ten_by_ten():
    count = count_fleets(LENGTHS)
    assert count.named == 30_093_975_536  # the Cruiser and the Submarine told apart
    assert count.unnamed == 15_046_987_768  # the two ships of 3 interchangeable
    assert count.named == 2 * count.unnamed


def test_twelve_by_ten_matches_the_published_figure():
    # An independent count: Poul-Henning Kamp's "Seabattle" page gives 101,832,786,704 ways to
    # place 5, 4, 3, 3, 2 on a 12 x 10 grid (found by a day of brute force).
    assert count_fleets(LENGTHS, Grid(12, 10)).named == 101_832_786_704


def test_no_fleet_fits():
    assert count_fleets((5,), Grid(4, 4)).named == 0
    with pytest.raises(ValueError, match="no legal fleet"):
        coverage((5,), Grid(4, 4))


def ship_by_ship(lengths, rng, grid):
    """The biased way: each ship uniformly among the placements the earlier ships left."""
    taken: frozenset = frozenset()
    ships = []
    for n in lengths:
        ship = rng.choice([p for p, cells in _cell_sets(grid, n) if taken.isdisjoint(cells)])
        taken |= set(ship)
        ships.append(ship)
    return ships


@functools.cache
def _cell_sets(grid, n):
    return [(p, frozenset(p)) for p in grid.placements(n)]


def misfit(samples, exact: dict) -> float:
    """Sum over squares of the squared z-score of how often a square was covered: about the
    number of squares for a sampler with the exact coverage, far more for a biased one."""
    n = len(samples)
    seen = Counter(s for fleet in samples for ship in fleet for s in ship)
    total = 0.0
    for square, p in exact.items():
        p = float(p)
        if 0 < p < 1:
            total += (seen[square] - n * p) ** 2 / (n * p * (1 - p))
    return total


def test_random_layouts_are_uniform_on_a_small_grid():
    grid, lengths = Grid(5, 5), (4, 3, 3, 2)
    exact = coverage(lengths, grid)
    rng = random.Random(11)
    uniform = misfit([random_layout(lengths, rng, grid) for _ in range(20_000)], exact)
    biased = misfit([ship_by_ship(lengths, rng, grid) for _ in range(20_000)], exact)
    # 25 squares: a fair sampler scores about 25 (the squares are correlated, the sum of
    # coverage being fixed); the ship-by-ship sampler is far off.
    assert uniform < 60
    assert biased > 200


def test_random_classic_fleets_have_the_exact_coverage():
    exact = coverage(LENGTHS, GRID)
    assert sum(exact.values()) == 17
    rng = random.Random(12)
    fleets = [[ship.cells for ship in random_fleet(rng).ships] for _ in range(20_000)]
    assert misfit(fleets, exact) < 160  # 100 squares
    biased = [ship_by_ship(LENGTHS, rng, GRID) for _ in range(20_000)]
    assert misfit(biased, exact) > 250
