"""Per-game secret tokens: one per team, born with a game and dead with it.

A token is 128 random bits (`secrets.token_urlsafe(16)`). Lookups compare against every live
token with `hmac.compare_digest`, so the time a wrong guess takes says nothing about how close
it was.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

TOKEN_BYTES = 16
# token_urlsafe(16) is 22 characters; anything far from that is not worth comparing.
MAX_TOKEN_LENGTH = 64


@dataclass(frozen=True)
class GameTokens:
    """The secrets of one game: `teams[i]` opens team i's page."""

    game: int
    teams: tuple[str, str]

    @classmethod
    def issue(cls, game: int) -> GameTokens:
        first = secrets.token_urlsafe(TOKEN_BYTES)
        second = secrets.token_urlsafe(TOKEN_BYTES)
        while hmac.compare_digest(first, second):  # astronomically unlikely, but never share one
            second = secrets.token_urlsafe(TOKEN_BYTES)
        return cls(game, (first, second))

    def renewed(self, team: int) -> GameTokens:
        """The same game's tokens with `team`'s replaced (the team moves to another phone)."""
        fresh = secrets.token_urlsafe(TOKEN_BYTES)
        while any(hmac.compare_digest(fresh, old) for old in self.teams):
            fresh = secrets.token_urlsafe(TOKEN_BYTES)
        teams = (fresh, self.teams[1]) if team == 0 else (self.teams[0], fresh)
        return GameTokens(self.game, teams)

    def team_of(self, token: str) -> int | None:
        """The team this token belongs to, or None. Checks both so timing reveals nothing."""
        if not token or len(token) > MAX_TOKEN_LENGTH or not token.isascii():
            return None
        found: int | None = None
        for team, secret in enumerate(self.teams):
            if hmac.compare_digest(token.encode(), secret.encode()):
                found = team
        return found
