"""What each audience of a classic table may see, as JSON-ready dicts.

The game's part is the game's own (`Match.public_view`, `Match.private_view`): a player's page
gets its private view (its fleet and the shots at it), everyone else the public one (both
radars: shots, hits and sunk ships only). The room's part says who is there; only the owner's
view holds the room's link.
"""

from __future__ import annotations

from typing import Any

from kiosk.classic.match import Match
from kiosk.classic.rooms import Membership, Role
from kiosk.store import RoomRow

PROTOCOL_VERSION = 1


def game_view(
    match: Match | None, game: int | None, side: int | None, paused: str | None = None
) -> dict[str, Any] | None:
    """The game as `side`'s page may see it (None: the public view); None without a game."""
    if match is None or game is None:
        return None
    body = match.private_view(side) if side is not None else match.public_view()
    setup = match.setup
    return {
        "version": PROTOCOL_VERSION,
        "game": game,
        "paused": paused,
        "you": side,
        "level": setup.level.value,
        "date": setup.date.isoformat() if setup.date is not None else None,
        "may_place": side is not None and match.may_place(side),
        # The commands applied so far: an answer overtaken on its way by the socket's newer
        # view (the computer's shot) is older, and the page keeps the newer one.
        "step": match.version,
        **body,
    }


def room_view(room: RoomRow | None, role: Role) -> dict[str, Any] | None:
    """The room as a member sees it: the owner its link and its friend's state; the friend
    whether it said Ready; a spectator that it watches."""
    if room is None:
        return None
    body: dict[str, Any] = {"role": role.value, "friend": room.friend is not None, "ready": room.ready}
    if role is Role.OWNER:
        body["link"] = f"/classic/r/{room.token}"
    return body


def member_view(membership: Membership) -> dict[str, Any] | None:
    return room_view(membership.room, membership.role)
