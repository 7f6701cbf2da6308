"""Shared shorthand for the Battleship Express tests: faces as letters, fixed lines."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from kiosk.express.match import Match, QueueDice, Setup
from kiosk.express.rules import Face, Rules, Ship, Variant

B, D, C, S, P = Ship.BATTLESHIP, Ship.DESTROYER, Ship.CARRIER, Ship.SUBMARINE, Ship.PATROL_BOAT
LETTERS = {
    "B": Face.BATTLESHIP,
    "D": Face.DESTROYER,
    "C": Face.CARRIER,
    "S": Face.SUBMARINE,
    "P": Face.PATROL_BOAT,
    "X": Face.BURST,
}

ANN = (C, B, D, S, P)
BO = (B, D, C, S, P)
CY = (P, S, C, D, B)
DEE = (D, P, B, C, S)


def faces(text: str) -> tuple[Face, ...]:
    """'BBX-' style shorthand: B D C S P for the ships' faces, X for a Burst; spaces ignored."""
    return tuple(LETTERS[letter] for letter in text.replace(" ", ""))


def game(
    *lines: tuple[Ship, ...],
    variant: Variant = Variant.ADMIRAL,
    points: int | None = None,
    rules: Rules | None = None,
    seed: int = 1,
) -> Match:
    lines = lines or (ANN, BO)
    names = ("Ann", "Bo", "Cy", "Dee")[: len(lines)]
    return Match(
        Setup.create(names, variant=variant, points_to_win=points, lines=lines, seed=seed, rules=rules)
    )


def queue(match: Match, text: str) -> None:
    match.apply(QueueDice(faces(text)))


def snapshot(match: Match) -> tuple:
    """Everything observable, including what the dice will show next."""
    cup = match._s.cup
    return (
        match.public_view(),
        tuple(match.log),
        tuple(cup.queue),
        cup.generated,
        tuple(match.tally(p) for p in range(len(match.players))),
    )


def view_of(pos) -> dict:
    """The public view a computer reads of a hand-made `Position` (the attack phase)."""
    return {
        "game": pos.variant.value,
        "rules": pos.rules.to_dict(),
        "lines": [[s.value for s in line] for line in pos.lines],
        "points": list(pos.points),
        "points_to_win": pos.points_to_win,
        "turn": pos.turn,
        "phase": "attack",
        "pending": None,
    }


def load_bench(script: str = "express") -> ModuleType:
    """bench/<script>.py as a module (the bench is a script, not a package)."""
    path = Path(__file__).resolve().parents[3] / "bench" / f"{script}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{script}", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[f"bench_{script}"] = bench
    spec.loader.exec_module(bench)
    return bench
