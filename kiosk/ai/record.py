"""What one side knows about the enemy board: its shots and the ships it has sunk."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from kiosk.game import Result


class HasCells(Protocol):
    """A ship of any game that shoots at cells (a dartboard ship, a classic grid ship)."""

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
