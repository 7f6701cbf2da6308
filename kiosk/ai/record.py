"""What one side knows about the enemy board: its shots and the ships it has sunk."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from kiosk.game import Result

if TYPE_CHECKING:
    from kiosk.darts.match import Match


class HasCells(Protocol):
    """A ship of either game: the dartboard's `Ship` or the classic grid's `GridShip`."""

    @property
    def cells(self) -> tuple[Hashable, ...]: ...


@dataclass(frozen=True)
class Record:
    """Shots by cell (REPEATs carry no news) and the sunk ships, whose cells are public.

    Works for any cell type (dartboard `Cell`, classic `Square`). The shots are copied into a
    read-only mapping so that a record handed to an executor cannot change under it.
    """

    shots: Mapping[Any, Result] = field(default_factory=dict)  # by cell, of any cell type
    sunk: tuple[HasCells, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "shots", MappingProxyType(dict(self.shots)))
        object.__setattr__(self, "sunk", tuple(self.sunk))

    @classmethod
    def from_match(cls, match: Match, team: int) -> Record:
        """What `team` knows about the enemy fleet in a match."""
        return cls(match.shots(team), match.sunk_ships(1 - team))

    def with_shot(self, cell: Hashable, result: Result, sunk: HasCells | None = None) -> Record:
        """The record after one more shot (REPEAT leaves the first result, as the match does)."""
        if result is Result.REPEAT or cell in self.shots:
            return self
        ships: Iterable[HasCells] = (*self.sunk, sunk) if sunk is not None else self.sunk
        return Record({**self.shots, cell: result}, tuple(ships))

    @property
    def known(self) -> frozenset[Hashable]:
        """Cells that have been shot (a known cell can never be worth a dart again)."""
        return frozenset(self.shots)
