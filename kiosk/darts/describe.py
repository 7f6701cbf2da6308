"""The dart game's values in the players' words, for every face that shows them (the touchscreen
and the host page of a headless kiosk say the same thing the same way)."""

from __future__ import annotations

from kiosk.board import BullZone, Cell
from kiosk.i18n import _


def zone_text(zone: BullZone | None) -> str:
    """A bull-off dart as far as the board could tell (None: not thrown yet)."""
    if zone is None:
        return _("to throw")
    return {
        BullZone.INNER: _("inner bull"),
        BullZone.OUTER: _("outer bull"),
        BullZone.BULL: _("bull"),
        BullZone.OTHER: _("not the bull"),
        BullZone.MISS: _("missed the board"),
    }[zone]


def bull_off_dart(zone: BullZone | None, cell: Cell | None) -> str:
    """Where a bull-off dart landed: "S20 – not the bull" (the players judge who was closer by
    it), or just the zone where the board named no cell."""
    if zone is BullZone.OTHER and cell is not None and cell.on_board:
        return _("{cell} – {zone}").format(cell=cell.code, zone=zone_text(zone))
    return zone_text(zone)


def cell_text(cell: Cell) -> str:
    """A dart's cell as the players say it: MISS is "off the board", not a code."""
    return cell.code if cell.on_board else _("off the board")
