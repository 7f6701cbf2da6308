"""Where the dice come from: typed-in faces first, then the game's seed.

A generated die is a pure function of the game's seed and how many dice were generated before
it (BLAKE2b of both), not of Python's `random`: a stored game must roll the same dice when it is
replayed years later on another Python, and a game paused mid-attack must show the same faces
after a power cut. The seed is drawn with `secrets` when a game is set up without one, so the
dice cannot be guessed from the clock.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from collections.abc import Iterable

from kiosk.express.rules import FACES, FLEET, Face, Ship


def new_seed() -> int:
    return secrets.randbits(63)


def _draw(seed: int, label: str) -> int:
    # 128 bits reduced modulo 6 (or 5, 4, ...): the bias is below 1e-37.
    digest = hashlib.blake2b(f"dartship-express:{seed}:{label}".encode(), digest_size=16).digest()
    return int.from_bytes(digest, "big")


def generated_face(seed: int, number: int) -> Face:
    """The `number`-th die (0-based) the seed generates."""
    return FACES[_draw(seed, f"die:{number}") % len(FACES)]


def seeded_line(seed: int, player: int) -> tuple[Ship, ...]:
    """A random line (front first) for `player`, reproducible from the seed (Fisher-Yates)."""
    ships = list(FLEET)
    for last in range(len(ships) - 1, 0, -1):
        pick = _draw(seed, f"line:{player}:{last}") % (last + 1)
        ships[last], ships[pick] = ships[pick], ships[last]
    return tuple(ships)


class DiceCup:
    """The dice of one game: faces queued by the players first, then the seeded generator."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.queue: deque[Face] = deque()
        self.generated = 0

    def add(self, faces: Iterable[Face]) -> None:
        self.queue.extend(faces)

    def roll(self, dice: int) -> tuple[Face, ...]:
        faces: list[Face] = []
        for _die in range(dice):
            if self.queue:
                faces.append(self.queue.popleft())
            else:
                faces.append(generated_face(self.seed, self.generated))
                self.generated += 1
        return tuple(faces)
