"""Who of a team is named: the one rule of every dart screen, page and call.

A team may be typed without players ("Jets"); it then plays as one player of the team's own
name (the new-game screen's, a headless kiosk's and the kiosk's own team in solo mode). Such a
team has no named players: the scoreboard says "Jets throws", not "Jets: Jets throws", the host
page "In play: Jets", the caller "Jets to throw", the result card has no player row under it.
A team with named players (one or more) names the player on turn everywhere: "Sharks: Ann
throws", "In play: Sharks (Ann)", "Sharks: Ann to throw".
"""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.names import same_name


def named_players(team: str, players: Sequence[str]) -> tuple[str, ...]:
    """The players a screen names for the team called `team`: none where it has no named
    players (no player at all, or the team's own name, in any case, as its only one), else all of them."""
    if not players or (len(players) == 1 and same_name(players[0], team)):
        return ()
    return tuple(players)


def thrower(team: str, players: Sequence[str], player: str | None) -> str | None:
    """The player to name beside the team for a dart of `player`'s (the one on turn, or the
    one who threw it): None where the team alone is named."""
    return player if player is not None and named_players(team, players) else None
