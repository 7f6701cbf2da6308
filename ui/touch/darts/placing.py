"""A fleet being placed on the touchscreen: pure logic, no Kivy (so it is tested directly).

A tap on a free cell puts the next ship there, starting at that cell and running the first way
it fits; "Turn" walks the last ship through the other ways it fits from the same cell
(clockwise, anticlockwise, inwards, outwards). A drag lays a ship on exactly the cells dragged
over. A tap on a placed ship picks it up again. Every refusal is a message, never an exception.

`kept()` is the draft as the store keeps it over a restart (`kiosk.placing_drafts`): its ships,
the length chosen next, and the last ship with the cell it was laid from (so Turn goes on where
it was); `FleetDraft.from_kept` reads one back, refusing in words that name no cell.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from kiosk.board import Board, Cell, CellError
from kiosk.darts.fleet import (
    Fleet,
    PlacementError,
    Ship,
    make_fleet,
    make_ship,
    parse_ship,
    random_fleet,
    ship_placements,
)
from kiosk.game import RuleError
from kiosk.i18n import _


class FleetDraft:
    def __init__(self, board: Board, lengths: Sequence[int]) -> None:
        self.board = board
        self.lengths = tuple(sorted(lengths, reverse=True))
        self.ships: list[Ship] = []
        self.chosen: int | None = None  # length the next tap places; None: the longest left
        self._anchor: Cell | None = None
        self._last: Ship | None = None

    # -- what is left --

    def remaining(self) -> list[int]:
        left = Counter(self.lengths) - Counter(s.length for s in self.ships)
        return sorted(left.elements(), reverse=True)

    @property
    def next_length(self) -> int | None:
        left = self.remaining()
        if self.chosen in left:
            return self.chosen
        return left[0] if left else None

    @property
    def complete(self) -> bool:
        return not self.remaining()

    def cells(self) -> frozenset[Cell]:
        return frozenset(c for s in self.ships for c in s.cells)

    @property
    def last(self) -> Ship | None:
        return self._last if self._last in self.ships else None

    def choose(self, length: int) -> None:
        self.chosen = length

    # -- placing --

    def _free(self, ship: Ship, ignore: Ship | None = None) -> bool:
        taken = {c for s in self.ships if s is not ignore for c in s.cells}
        return not taken.intersection(ship.cells)

    def _from(self, anchor: Cell, length: int, ignore: Ship | None = None) -> list[Ship]:
        """Every free way to lay a ship of `length` with one end at `anchor`, in a fixed order."""
        found = []
        for ship in ship_placements(self.board, length):
            ends = (ship.cells[0], ship.cells[-1])
            if anchor in ends and self._free(ship, ignore):
                # The anchor's own end first, so the ship grows away from the finger.
                found.append(ship)
        return sorted(found, key=lambda s: (s.orientation.value, s.cells[0] != anchor, s.code))

    def tap(self, cell: Cell) -> str | None:
        """Place the next ship at `cell`, or pick up the ship there. Returns a refusal."""
        if not cell.on_board:
            return _("tap a cell of the board")
        for ship in self.ships:
            if cell in ship.cells:
                self.ships.remove(ship)
                self.chosen = ship.length
                return None
        length = self.next_length
        if length is None:
            return _("all ships are placed: lock in, or tap a ship to move it")
        options = self._from(cell, length)
        if not options:
            return _("no room for a ship of {n} starting at {cell}").format(n=length, cell=cell.code)
        self._add(options[0], cell)
        return None

    def turn(self) -> str | None:
        """Lay the last ship the next way it fits from the same cell."""
        ship, anchor = self.last, self._anchor
        if ship is None or anchor is None:
            return _("tap a cell first, then turn the ship")
        options = self._from(anchor, ship.length, ignore=ship)
        if len(options) <= 1:
            return _("this ship fits only one way from {cell}").format(cell=anchor.code)
        nxt = options[(options.index(ship) + 1) % len(options)] if ship in options else options[0]
        self.ships[self.ships.index(ship)] = nxt
        self._last = nxt
        return None

    def drag(self, cells: Sequence[Cell]) -> str | None:
        """Lay a ship on exactly these cells, in the order the finger crossed them."""
        cells = [c for c in cells if c.on_board]
        try:
            ship = make_ship(cells, self.board)
        except PlacementError as err:
            return str(err)
        if self.complete:
            # The same words as a tap on a complete fleet: nothing is wrong, all are placed.
            return _("all ships are placed: lock in, or tap a ship to move it")
        if ship.length not in self.remaining():
            left = ", ".join(str(n) for n in self.remaining())
            return _("no ship of {n} is left to place (still to place: {left})").format(
                n=ship.length, left=left
            )
        clash = next((s for s in self.ships if set(s.cells) & set(ship.cells)), None)
        if clash is not None:
            return _("overlap: {ship} would cross {other}").format(ship=ship.code, other=clash.code)
        self._add(ship, cells[0])
        return None

    def _add(self, ship: Ship, anchor: Cell) -> None:
        self.ships.append(ship)
        self._last, self._anchor = ship, anchor
        self.chosen = None

    def randomise(self, rng: random.Random) -> None:
        self.ships = list(random_fleet(self.board, self.lengths, rng).ships)
        self._last = self._anchor = None
        self.chosen = None

    def clear(self) -> None:
        self.ships.clear()
        self._last = self._anchor = None
        self.chosen = None

    def fleet(self) -> Fleet:
        """The finished fleet; PlacementError says what is missing."""
        if not self.complete:
            left = ", ".join(str(n) for n in self.remaining())
            raise PlacementError(_("place every ship first (still to place: {left})").format(left=left))
        return make_fleet(self.ships, self.lengths)

    # -- kept over a restart --

    def kept(self) -> dict[str, object]:
        """What a restart needs to give this draft back as it is (JSON-able)."""
        last = self.last
        return {
            "ships": [ship.code for ship in self.ships],
            "chosen": self.chosen,
            "last": self.ships.index(last) if last is not None else None,
            "anchor": self._anchor.code if last is not None and self._anchor is not None else None,
        }

    @classmethod
    def from_kept(cls, kept: Mapping[str, object], board: Board, lengths: Sequence[int]) -> FleetDraft:
        """The draft `kept()` wrote, on this game's board and fleet; RuleError for anything else,
        in words that name no cell (the words may reach the journal)."""
        draft = cls(board, lengths)
        texts, chosen, last, anchor = (kept.get(key) for key in ("ships", "chosen", "last", "anchor"))
        if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
            raise RuleError(_("its ships are missing"))
        try:
            ships = [parse_ship(text, board) for text in texts]
        except PlacementError:
            raise RuleError(_("its ships are not ships of this board")) from None
        left = Counter(draft.lengths)
        left.subtract(ship.length for ship in ships)
        cells = [cell for ship in ships for cell in ship.cells]
        if min(left.values(), default=0) < 0 or len(set(cells)) != len(cells):
            raise RuleError(_("its ships are not this game's fleet"))
        if chosen is not None and (isinstance(chosen, bool) or chosen not in draft.lengths):
            raise RuleError(_("the ship chosen next is not one of this game's"))
        draft.ships, draft.chosen = ships, chosen if isinstance(chosen, int) else None
        if last is None:
            return draft
        if not isinstance(last, int) or isinstance(last, bool) or not 0 <= last < len(ships):
            raise RuleError(_("its last ship is not one of its ships"))
        try:
            start = board.parse(anchor, allow_miss=False) if isinstance(anchor, str) else None
        except CellError:
            start = None
        if start is None or start not in ships[last].cells:
            raise RuleError(_("its last ship is not one of its ships"))
        draft._last, draft._anchor = ships[last], start
        return draft
