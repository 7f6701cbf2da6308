"""The pairing throttle's in-memory mirror (`hub.throttle.Mirror`) never refuses a guess the
database would let through: checked against a model of the database's buckets that also counts
other hub processes' takes, over random takes, right codes and time."""

from __future__ import annotations

import random

import pytest

from hub.throttle import Allowance, Mirror, PairingLimits
from kiosk.bucket import Bucket

LIMITS = PairingLimits(per_address=Allowance(4, 0.2), in_all=Allowance(10, 2.0))


class Database:
    """The database's two kinds of bucket, as `throttle_take` keeps them: both or neither."""

    def __init__(self, now: float) -> None:
        self.all = Bucket.full(10, 2.0, now)
        self.addresses: dict[str, Bucket] = {}

    def take(self, address: str, now: float) -> bool:
        mine = self.addresses.setdefault(address, Bucket.full(4, 0.2, now))
        if mine.empty(now) or self.all.empty(now):
            return False
        mine.take(now)
        self.all.take(now)
        return True

    def give(self, address: str, now: float) -> None:
        self.addresses[address].give(now)
        self.all.give(now)


@pytest.mark.parametrize("seed", range(20))
def test_the_mirror_refuses_only_what_the_database_refuses(seed):
    rng = random.Random(seed)
    now = [0.0]
    mirror = Mirror(LIMITS, clock=lambda: now[0])
    database = Database(0.0)
    refused_here = 0
    for _ in range(3000):
        now[0] += rng.choice((0.0, 0.0, 0.01, 0.3, 2.0, 7.0))
        address = f"192.0.2.{rng.randrange(6)}"
        if rng.random() < 0.3:  # another hub process's guess: only the database sees it
            database.take(address, now[0])
            continue
        if mirror.refuses(address):
            refused_here += 1
            assert not database.take(address, now[0]), "the mirror refused what the database allows"
            continue
        if database.take(address, now[0]):
            mirror.took(address)
            if rng.random() < 0.1:  # a right code: its tokens back
                database.give(address, now[0])
                mirror.gave_back(address)
    assert refused_here > 0  # the mirror did answer on its own


def test_a_flood_of_addresses_keeps_the_mirror_bounded():
    now = [0.0]
    mirror = Mirror(PairingLimits(in_all=Allowance(10**9, 10**9)), clock=lambda: now[0])
    for n in range(3 * Mirror.KEPT):
        mirror.took(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
        now[0] += 0.01
    assert len(mirror.addresses) <= Mirror.KEPT
    assert mirror.refuses("10.0.0.0") is False  # forgotten: the database decides
