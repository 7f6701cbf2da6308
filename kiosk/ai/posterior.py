"""Where the unsunk enemy ships can be: marginals of the posterior over whole fleets.

The prior is the uniform distribution over legal fleets (what `random_fleet` draws). What the
shots revealed cuts it down to the fleets *consistent with the record*:

* no unsunk ship uses a missed cell or a cell of a sunk (revealed) ship;
* every hit cell outside the sunk ships belongs to exactly one unsunk ship;
* every unsunk ship still has an unshot cell: had all its cells been hit, the last hit would
  have been announced SUNK (this is what "a SUNK completes the ship" means for the others);
* ships never share a cell.

Every consistent fleet is equally likely, so the probability of a cell is the share of
consistent fleets that put an unsunk ship on it. The ships are handled as *labelled* slots (one
per unsunk ship): a fleet with two ships of equal length is counted twice, and every fleet is,
so the uniform distribution over labelled fleets is the uniform distribution over fleets.

How it is computed (see docs/ai.md):

1. **Covers.** Enumerate every way some of the slots can cover all the unsunk hits (each hit
   covered exactly once). With no hits there is one cover: the empty one. Touching ships are
   why hits are ambiguous; the covers list every reading.
2. For a cover, the other slots ("free" ships) must avoid every known cell and the cover. Let
   n_i be the number of placements left for free slot i; the product of the n_i bounds the
   number of fleets the cover completes to.
3. **Exact** when the sum of those bounds is small: every completion is enumerated.
4. **Sampled** otherwise, by exact rejection sampling: draw a cover with probability
   proportional to its product of n_i, then each free ship uniformly from its n_i placements,
   and keep the fleet only if the free ships do not overlap. Every consistent fleet is proposed
   with the same probability (prod n_i / total x prod 1/n_i = 1 / total), and rejection
   keeps that uniform, so accepted fleets are unbiased draws; nothing is re-rolled ship by ship
   (which would favour fleets with fewer clashes).
"""

from __future__ import annotations

import enum
import functools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

# Completions to enumerate at most before sampling instead (keeps a decision within budget).
EXACT_LIMIT = 6_000
# Hit covers to enumerate at most; more means a record so confused that sampling the covers'
# proposal would be slow too, and the structural fallback is used.
MAX_COVERS = 40_000
DEFAULT_SAMPLES = 1_500
# Proposals per round at least, and in all (a record whose fleets are rarely drawn without an
# overlap stops there with fewer samples, or falls back if none was accepted).
BATCH = 1_024
MAX_PROPOSALS = 40_000


class Method(enum.Enum):
    EXACT = "exact"
    SAMPLED = "sampled"
    # No consistent fleet was found (a record that contradicts the rules, or an astronomically
    # unlucky sampler): the per-ship placement counts are used so the game can go on.
    FALLBACK = "fallback"


@dataclass(frozen=True, eq=False)
class Space:
    """A board as the engine sees it: `size` cells and every placement of each ship length.

    `placements[length]` holds each legal placement as a tuple of cell indices.
    """

    size: int
    placements: Mapping[int, tuple[tuple[int, ...], ...]]

    @functools.cached_property
    def masks(self) -> dict[int, tuple[int, ...]]:
        """Placements as bit masks (bit i = cell i), for fast overlap tests in Python."""
        return {n: tuple(sum(1 << c for c in p) for p in ps) for n, ps in self.placements.items()}

    @functools.cached_property
    def matrices(self) -> dict[int, np.ndarray]:
        """Placements as 0/1 rows over the cells, for vectorised counting and sampling."""
        out = {}
        for n, ps in self.placements.items():
            m = np.zeros((len(ps), self.size), dtype=np.uint8)
            for i, p in enumerate(ps):
                m[i, list(p)] = 1
            out[n] = m
        return out

    @functools.cached_property
    def packed(self) -> dict[int, np.ndarray]:
        """Placements as rows of 64-bit words (bit i of word w = cell 64 w + i): overlap tests
        of thousands of sampled fleets at once are a few AND operations."""
        words = (self.size + 63) // 64
        low = (1 << 64) - 1
        return {
            n: np.array([[(m >> (64 * w)) & low for w in range(words)] for m in ms], dtype=np.uint64).reshape(
                len(ms), words
            )
            for n, ms in self.masks.items()
        }

    @functools.cached_property
    def through(self) -> dict[int, tuple[tuple[int, ...], ...]]:
        """For each length and cell, the placements that cover that cell."""
        out = {}
        for n, ps in self.placements.items():
            per_cell: list[list[int]] = [[] for _ in range(self.size)]
            for i, p in enumerate(ps):
                for c in p:
                    per_cell[c].append(i)
            out[n] = tuple(tuple(x) for x in per_cell)
        return out


@dataclass(frozen=True)
class Evidence:
    """What the record says, as cell indices.

    `blocked`: cells no unsunk ship may use (misses, sunk ships). `hits`: hit cells of unsunk
    ships. `lengths`: the unsunk ships. Cells in neither mask are unshot.
    """

    blocked: frozenset[int]
    hits: frozenset[int]
    lengths: tuple[int, ...]

    @functools.cached_property
    def blocked_mask(self) -> int:
        return sum(1 << c for c in self.blocked)

    @functools.cached_property
    def hit_mask(self) -> int:
        return sum(1 << c for c in self.hits)


@dataclass(frozen=True, eq=False)
class Estimate:
    """Per cell, the probability that an unsunk ship lies on it and it has not been shot.

    Shot cells are 0, so the probabilities sum to the number of unsunk ship cells still to hit.
    `fleets` is the number of consistent fleets counted (exact) or drawn (sampled).
    `occupancy` (one 0/1 row per distinct fleet, over all cells) with `weights` is the
    posterior itself, for decisions that look further than one cell (see `targeting`).
    """

    probabilities: np.ndarray
    method: Method
    fleets: int
    occupancy: np.ndarray | None = None
    weights: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class _Covers:
    """The covers of the hits: per cover, the placement of each slot, -1 for a free slot.

    Slots of equal length are interchangeable, so a cover always uses the first free slot of a
    length; `labels` counts the labelled covers each one stands for (a cover using k of the m
    slots of a length stands for m!/(m-k)! of them), which is its weight next to the others.
    """

    slots: np.ndarray  # (n_covers, n_slots) int
    used: list[int]  # per cover, the mask of its cells
    labels: np.ndarray  # (n_covers,) float


def marginals(
    space: Space,
    evidence: Evidence,
    rng: random.Random,
    *,
    samples: int | None = None,
    method: Method | None = None,
    exact_limit: int | None = None,
) -> Estimate:
    """The heat of every cell. `method` forces EXACT or SAMPLED (tests compare the two);
    `samples` (fleets to draw when sampling) defaults to `DEFAULT_SAMPLES` and `exact_limit`
    (completions to enumerate at most, else sample) to `EXACT_LIMIT`, both read at call time."""
    lengths = tuple(sorted(evidence.lengths, reverse=True))
    evidence = Evidence(evidence.blocked, evidence.hits, lengths)
    if not lengths:
        return Estimate(np.zeros(space.size), Method.EXACT, 1)
    covers = _find_covers(space, evidence)
    if covers is None or not covers.used:
        return _fallback(space, evidence)
    free = _free_placements(space, evidence, covers)
    per_slot = _free_counts(covers, free)
    counts = per_slot.prod(axis=1) * covers.labels
    bound = float(counts.sum())
    if bound == 0:
        return _fallback(space, evidence)
    limit = EXACT_LIMIT if exact_limit is None else exact_limit
    if method is Method.EXACT or (method is None and bound <= limit):
        return _exact(space, evidence, covers, free, per_slot)
    return _sampled(
        space, evidence, covers, free, per_slot, rng, DEFAULT_SAMPLES if samples is None else samples
    )


def _find_covers(space: Space, ev: Evidence) -> _Covers | None:
    """Every set of (slot, placement) that covers each unsunk hit exactly once."""
    lengths = ev.lengths
    known = ev.blocked_mask | ev.hit_mask
    forbidden = ev.blocked_mask
    rows: list[tuple[int, ...]] = []
    used_masks: list[int] = []
    # A ship can cover at most length-1 hits: it must keep an unshot cell.
    spare = [n - 1 for n in lengths]

    chosen = [-1] * len(lengths)
    # Per (length, hit cell): the placements through it that avoid every blocked cell and keep
    # an unshot cell, found once per call rather than at every node of the search.
    options: dict[tuple[int, int], list[tuple[int, int]]] = {}

    def through(n: int, cell: int) -> list[tuple[int, int]]:
        key = (n, cell)
        if key not in options:
            masks = space.masks[n]
            options[key] = [
                (i, masks[i])
                for i in space.through[n][cell]
                if not masks[i] & forbidden and masks[i] & ~known
            ]
        return options[key]

    def extend(left: int, used: int, free: tuple[int, ...], capacity: int) -> bool:
        if not left:
            rows.append(tuple(chosen))
            used_masks.append(used)
            return len(rows) <= MAX_COVERS
        if left.bit_count() > capacity:
            return True
        cell = (left & -left).bit_length() - 1
        tried: set[int] = set()
        for slot in free:
            n = lengths[slot]
            # Free slots of one length are interchangeable: try only the first (see `_Covers`).
            if n in tried:
                continue
            tried.add(n)
            rest = tuple(s for s in free if s != slot)
            for index, mask in through(n, cell):
                if mask & used:
                    continue
                chosen[slot] = index
                ok = extend(left & ~mask, used | mask, rest, capacity - spare[slot])
                chosen[slot] = -1
                if not ok:
                    return False
        return True

    if not extend(ev.hit_mask, 0, tuple(range(len(lengths))), sum(spare)):
        return None
    slots = np.array(rows, dtype=np.int64).reshape(len(rows), len(lengths))
    labels = np.ones(len(rows))
    for n, m in Counter(lengths).items():
        if m > 1:
            k = (slots[:, [s for s, x in enumerate(lengths) if x == n]] >= 0).sum(axis=1)
            labels *= np.array([math.perm(m, int(j)) for j in k], dtype=np.float64)
    return _Covers(slots, used_masks, labels)


def _free_placements(space: Space, ev: Evidence, covers: _Covers) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """For each slot: its open placements (those avoiding every known cell) and, per cover,
    which of them the cover leaves free, as a (n_covers, n_open) bool matrix.

    Rows of covers that place the slot themselves are meaningless: see `_free_counts`.
    """
    known = np.zeros(space.size, dtype=bool)
    known[list(ev.blocked | ev.hits)] = True
    used = np.zeros((len(covers.used), space.size), dtype=np.float32)
    for slot, n in enumerate(ev.lengths):
        placed = covers.slots[:, slot]
        rows = placed >= 0
        used[rows] += space.matrices[n][placed[rows]]
    by_length: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for n in set(ev.lengths):
        matrix = space.matrices[n]
        open_ = np.flatnonzero(~(matrix[:, known].any(axis=1)))
        clash = used @ matrix[open_].T.astype(np.float32)  # (covers, open)
        by_length[n] = (clash == 0, open_)
    return {slot: by_length[n] for slot, n in enumerate(ev.lengths)}


def _free_counts(covers: _Covers, free: dict[int, tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Per cover and slot, the placements left to the slot (1 where the cover places it)."""
    out = np.ones(covers.slots.shape, dtype=np.float64)
    for slot, (allowed, _) in free.items():
        counts = allowed.sum(axis=1)
        out[:, slot] = np.where(covers.slots[:, slot] >= 0, 1, counts)
    return out


def _exact(
    space: Space,
    ev: Evidence,
    covers: _Covers,
    free: dict[int, tuple[np.ndarray, np.ndarray]],
    per_slot: np.ndarray,
) -> Estimate:
    """Enumerate every consistent fleet (free ships placed on top of each cover), vectorised:
    ship by ship, every partial fleet is repeated once per placement its cover leaves to the
    next ship, and those that overlap are dropped. There are at most `EXACT_LIMIT` rows."""
    packed = space.packed
    rows = np.arange(len(covers.used))  # per partial fleet, its cover
    union = np.zeros((len(rows), packed[ev.lengths[0]].shape[1]), dtype=np.uint64)
    chosen: list[np.ndarray] = []
    for slot, n in enumerate(ev.lengths):
        fixed = covers.slots[rows, slot]
        allowed, open_ = free[slot]
        # Rows whose cover places this ship keep it; the others are repeated once per
        # placement their cover leaves free (row-major nonzero: row by row, in order).
        keep = np.flatnonzero(fixed >= 0)
        loose = np.flatnonzero(fixed < 0)
        parent, column = np.nonzero(allowed[rows[loose]])
        repeat = np.concatenate([keep, loose[parent]])
        placement = np.concatenate([fixed[keep], open_[column]])
        rows, union = rows[repeat], union[repeat]
        chosen = [c[repeat] for c in chosen]
        mask = packed[n][placement]
        ok = np.ones(len(rows), dtype=bool)
        for w in range(mask.shape[1]):
            ok &= (union[:, w] & mask[:, w]) == 0
        union = union[ok] | mask[ok]
        rows, placement = rows[ok], placement[ok]
        chosen = [c[ok] for c in chosen] + [placement]
    weights = covers.labels[rows]
    total = float(weights.sum())
    if total == 0:
        return _fallback(space, ev)
    heat = np.zeros(space.size)
    for slot, n in enumerate(ev.lengths):
        heat += np.bincount(chosen[slot], weights=weights, minlength=len(packed[n])) @ space.matrices[n]
    heat /= total
    heat[list(ev.blocked | ev.hits)] = 0
    occupancy = _unpack_words(union, space.size)
    return Estimate(heat, Method.EXACT, round(total), occupancy, weights)


def _sampled(
    space: Space,
    ev: Evidence,
    covers: _Covers,
    free: dict[int, tuple[np.ndarray, np.ndarray]],
    per_slot: np.ndarray,
    rng: random.Random,
    samples: int,
) -> Estimate:
    gen = np.random.default_rng(rng.getrandbits(64))
    counts = per_slot.prod(axis=1) * covers.labels
    p = counts / counts.sum()
    packed = space.packed
    slots = range(len(ev.lengths))
    chosen: list[list[np.ndarray]] = [[] for _ in slots]
    fleets: list[np.ndarray] = []
    accepted = 0
    proposed = 0
    proposals = np.zeros(space.size)
    while accepted < samples and proposed < MAX_PROPOSALS:
        # Enough proposals for the samples still missing at the acceptance seen so far.
        rate = max(accepted / proposed, 0.02) if proposed else 0.5
        size = int(min(max((samples - accepted) / rate * 1.1, BATCH), MAX_PROPOSALS - proposed))
        pick = gen.choice(len(p), size=size, p=p) if len(p) > 1 else np.zeros(size, np.int64)
        union = np.zeros((size, packed[ev.lengths[0]].shape[1]), dtype=np.uint64)
        ok = np.ones(size, dtype=bool)
        drawn = []
        for slot, n in enumerate(ev.lengths):
            fixed = covers.slots[pick, slot]
            allowed, open_ = free[slot]
            if covers.slots[0, slot] >= 0 and len(p) == 1:
                placement = fixed
            elif len(p) == 1:
                # One cover (no unsunk hits, say): its allowed placements, drawn directly.
                options = open_[allowed[0]]
                placement = options[gen.integers(0, len(options), size)]
            else:
                # Uniform over the placements the picked cover leaves free: uniform over the
                # open ones, drawn again where the cover takes it (rejection keeps it uniform;
                # a picked cover has at least one, or its weight would be 0).
                placement = fixed.copy()
                todo = np.flatnonzero(fixed < 0)
                while len(todo):
                    index = gen.integers(0, len(open_), len(todo))
                    good = allowed[pick[todo], index]
                    placement[todo[good]] = open_[index[good]]
                    todo = todo[~good]
            mask = packed[n][placement]
            for w in range(mask.shape[1]):
                ok &= (union[:, w] & mask[:, w]) == 0
            union |= mask
            drawn.append(placement)
        proposed += size
        for slot, n in enumerate(ev.lengths):
            proposals += np.bincount(drawn[slot], minlength=len(packed[n])) @ space.matrices[n]
            chosen[slot].append(drawn[slot][ok])
        fleets.append(union[ok])
        accepted += int(ok.sum())
    known = list(ev.blocked | ev.hits)
    if accepted == 0:
        heat = proposals / proposed
        heat[known] = 0
        heat *= _free_cells(ev) / max(heat.sum(), 1e-12)
        return Estimate(heat, Method.FALLBACK, 0)
    # The heat straight from which placement each accepted fleet used (no 0/1 rows needed).
    heat = np.zeros(space.size)
    for slot, n in enumerate(ev.lengths):
        used = np.concatenate(chosen[slot])
        heat += np.bincount(used, minlength=len(packed[n])) @ space.matrices[n]
    heat /= accepted
    heat[known] = 0
    occupancy = _unpack_words(np.concatenate(fleets), space.size)
    return Estimate(heat, Method.SAMPLED, accepted, occupancy, np.ones(accepted))


def _unpack_words(words: np.ndarray, size: int) -> np.ndarray:
    """Rows of 64-bit words (bit i of word w = cell 64 w + i) as 0/1 rows over the cells."""
    bits = np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=1, bitorder="little")
    return bits[:, :size]


def _free_cells(ev: Evidence) -> int:
    return sum(ev.lengths) - len(ev.hits)


def _fallback(space: Space, ev: Evidence) -> Estimate:
    """No consistent fleet found: spread each unsunk ship over its placements on unshot cells.

    Only cells some ship could still reach get heat, so the game goes on sensibly even on a
    record that breaks the rules (a mis-registered dart that was never corrected).
    """
    known = ev.blocked_mask | ev.hit_mask
    heat = np.zeros(space.size)
    for n in ev.lengths:
        options = [m for m in space.masks[n] if not m & ev.blocked_mask and m & ~known]
        for mask in options:
            mask &= ~known
            while mask:
                low = mask & -mask
                heat[low.bit_length() - 1] += 1 / len(options)
                mask ^= low
    total = heat.sum()
    if total > 0:
        heat *= max(_free_cells(ev), 0) / total
    return Estimate(heat, Method.FALLBACK, 0)


def evidence_of(
    index: Mapping[object, int],
    lengths: Sequence[int],
    misses: Sequence[object],
    hits: Sequence[object],
    sunk: Sequence[Sequence[object]],
) -> Evidence:
    """Evidence from cells: `sunk` lists the cells of each sunk ship."""
    remaining = Counter(lengths)
    for ship in sunk:
        remaining[len(ship)] -= 1
        if remaining[len(ship)] < 0:
            raise ValueError(f"a sunk ship of length {len(ship)} is not in the fleet {lengths}")
    sunk_cells = {index[c] for ship in sunk for c in ship}
    blocked = frozenset({index[c] for c in misses} | sunk_cells)
    hit_cells = frozenset(index[c] for c in hits) - sunk_cells
    return Evidence(blocked, hit_cells, tuple(sorted(remaining.elements(), reverse=True)))
