"""Looking ahead: which of the likeliest cells leads to the most hits in the next few darts.

Greedy play (the likeliest cell now) ignores what a dart's answer tells. Here each of the `k`
likeliest open cells is scored by short rollouts on the posterior's own fleets ("particles"):
for a fleet drawn from the posterior as the truth, shoot the candidate, then play greedily for
`horizon` more darts, where "greedily" means the likeliest cell among the particles that agree
with every answer so far; the score is the mean number of hits. All candidates are played
against the same truths, so their difference is measured with little noise, and the particles
are the posterior itself, so nothing is assumed about where ships like to be.
"""

from __future__ import annotations

import numpy as np

from kiosk.ai.posterior import Estimate

TOP_K = 5
HORIZON = 4
PARTICLES = 512
TRUTHS = 48


def rollout_scores(est: Estimate, known: np.ndarray, candidates: np.ndarray,
                   gen: np.random.Generator, *, horizon: int | None = None,
                   particles: int | None = None, truths: int | None = None) -> np.ndarray:
    """Per candidate cell, the mean hits of it plus `horizon` greedy darts (see the module)."""
    horizon = HORIZON if horizon is None else horizon
    particles = PARTICLES if particles is None else particles
    truths = TRUTHS if truths is None else truths
    assert est.occupancy is not None and est.weights is not None
    w = est.weights / est.weights.sum()
    rows = gen.choice(len(w), size=particles, p=w)
    occ = est.occupancy[rows].astype(np.float32)  # (S, C)
    n_s, n_c = occ.shape
    t = np.arange(min(truths, n_s))  # the particles are posterior draws: the first few are truths
    k = len(candidates)
    cand = np.repeat(candidates, len(t))  # (R,)
    truth = np.tile(t, k)  # (R,)
    n_r = len(cand)
    answer = occ[truth, cand]  # (R,)
    hits = answer.copy()
    mask = (answer[:, None] == occ[:, cand].T).astype(np.float32)  # (R, S)
    shot = np.broadcast_to(known, (n_r, n_c)).copy()
    shot[np.arange(n_r), cand] = True
    for _ in range(horizon):
        heat = mask @ occ
        heat[shot] = -1.0
        cell = heat.argmax(axis=1)
        answer = occ[truth, cell]
        hits += answer
        mask *= answer[:, None] == occ[:, cell].T
        shot[np.arange(n_r), cell] = True
    return hits.reshape(k, len(t)).mean(axis=1)


GAMMA = 0.8


def tree_scores(est: Estimate, known: np.ndarray, candidates: np.ndarray,
                gen: np.random.Generator, *, horizon: int | None = None,
                particles: int | None = None, gamma: float | None = None) -> np.ndarray:
    """Per candidate, the expected discounted hits of it and `horizon` greedy darts after it,
    over every answer (exact on the particles, no sampled truths)."""
    horizon = HORIZON if horizon is None else horizon
    particles = PARTICLES if particles is None else particles
    gamma = GAMMA if gamma is None else gamma
    assert est.occupancy is not None and est.weights is not None
    w = est.weights / est.weights.sum()
    if len(w) > particles:
        rows = gen.choice(len(w), size=particles, p=w)
        occ = est.occupancy[rows].astype(np.float32)
        weight = np.full(particles, 1.0 / particles, dtype=np.float32)
    else:
        occ = est.occupancy.astype(np.float32)
        weight = w.astype(np.float32)
    k = len(candidates)
    n_c = occ.shape[1]
    values = np.asarray(est.probabilities, dtype=np.float64)[candidates].copy()
    col = occ[:, candidates].T  # (k, S)
    masks = np.concatenate([weight * col, weight * (1 - col)])  # (2k, S)
    owner = np.concatenate([np.arange(k), np.arange(k)])
    shot = np.broadcast_to(known, (2 * k, n_c)).copy()
    shot[np.arange(2 * k), np.concatenate([candidates, candidates])] = True
    for depth in range(1, horizon + 1):
        mass = masks.sum(axis=1)
        live = mass > 1e-9
        masks, owner, shot, mass = masks[live], owner[live], shot[live], mass[live]
        if not len(masks):
            break
        joint = masks @ occ  # (B, C): P(branch and cell is a ship)
        joint[shot] = -1.0
        cell = joint.argmax(axis=1)
        gain = joint[np.arange(len(cell)), cell]
        np.add.at(values, owner, gamma**depth * np.maximum(gain, 0.0))
        if depth == horizon:
            break
        col = occ[:, cell].T
        masks = np.concatenate([masks * col, masks * (1 - col)])
        owner = np.concatenate([owner, owner])
        shot = np.concatenate([shot, shot])
        shot[np.arange(len(shot)), np.concatenate([cell, cell])] = True
    return values
