"""The open WebSockets, grouped by audience, each with its own ordered outbox.

The service calls its listeners synchronously inside the loop; a broadcast only puts the
already-serialised message into each socket's outbox, and one writer task per socket sends it.
Each socket speaks the language of the request that opened it: a message with words in it is
made once per language its audience speaks (`Spoken`), never in the language of whoever caused
it.
A phone that stops reading (its outbox full) is closed rather than allowed to hold memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import WSCloseCode, web

log = logging.getLogger("dartship.handheld")

OUTBOX_SIZE = 64
CLOSE_GAME_OVER = 4000  # the game this socket watched is no longer the kiosk's game
CLOSE_REPLACED = 4001  # a newer phone of the same team took this socket's place
# Separate budgets, so that spectators (anyone, no token) can never use up the team sockets:
# spectators beyond theirs are turned away (503); a team's sockets are only opened with the
# team's secret token, so a team's newest phone always gets in and its oldest socket gives way.
SPECTATOR_SOCKETS = 256
TEAM_SOCKETS = 16  # per team: more phones than a team has players


class Audience(enum.Enum):
    SPECTATOR = "spectator"
    TEAM_0 = "team0"
    TEAM_1 = "team1"

    @classmethod
    def of_team(cls, team: int) -> Audience:
        return (cls.TEAM_0, cls.TEAM_1)[team]


@dataclass(frozen=True)
class Hangup:
    """Put in an outbox: close the socket once everything before it is sent."""

    code: int
    reason: bytes


Outgoing = str | Hangup | None  # None: stop sending, the socket is already going away
# A message as each language says it (its serialised text for that language).
Spoken = Callable[[str], str]


@dataclass(eq=False)
class Subscriber:
    socket: web.WebSocketResponse
    audience: Audience
    game: int
    language: str = "en"  # the language of the request that opened it
    outbox: asyncio.Queue[Outgoing] = field(default_factory=lambda: asyncio.Queue(OUTBOX_SIZE))

    def offer(self, message: Outgoing) -> bool:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            return False
        return True

    async def pump(self) -> None:
        """Send the outbox in order until told to stop, to hang up, or the socket fails."""
        while True:
            message = await self.outbox.get()
            if message is None:
                return
            try:
                if isinstance(message, Hangup):
                    await self.socket.close(code=message.code, message=message.reason)
                    return
                await self.socket.send_str(message)
            except (ConnectionError, RuntimeError):
                return


class Hub:
    def __init__(self, spectators: int = SPECTATOR_SOCKETS, per_team: int = TEAM_SOCKETS) -> None:
        # Oldest first (a dict keeps the order sockets came in).
        self._subscribers: dict[Audience, dict[Subscriber, None]] = {a: {} for a in Audience}
        self.budget = {a: per_team for a in Audience} | {Audience.SPECTATOR: spectators}

    def count(self, audience: Audience) -> int:
        return len(self._subscribers[audience])

    def listening(self, audience: Audience) -> bool:
        return bool(self._subscribers[audience])

    def make_room(self, audience: Audience) -> bool:
        """Room for one more socket of this audience? Spectators: while their budget lasts. A
        team: always, its oldest socket closed (code 4001) when the team's budget is used up."""
        group = self._subscribers[audience]
        if audience is Audience.SPECTATOR:
            return len(group) < self.budget[audience]
        while len(group) >= self.budget[audience]:
            oldest = next(iter(group))
            self.remove(oldest)
            log.info("a %s phone replaced the team's oldest socket", audience.value)
            if not oldest.offer(Hangup(CLOSE_REPLACED, b"replaced by a newer phone")):
                asyncio.get_running_loop().create_task(
                    oldest.socket.close(code=CLOSE_REPLACED, message=b"replaced")
                )
        return True

    def add(self, subscriber: Subscriber) -> None:
        self._subscribers[subscriber.audience][subscriber] = None

    def remove(self, subscriber: Subscriber) -> None:
        self._subscribers[subscriber.audience].pop(subscriber, None)

    def send(self, audience: Audience, message: str | Spoken) -> None:
        """`message` to every socket of `audience`: a text as it is, a `Spoken` one made once
        for each language its sockets speak."""
        made: dict[str, str] = {}
        for subscriber in list(self._subscribers[audience]):
            if isinstance(message, str):
                text = message
            elif subscriber.language in made:
                text = made[subscriber.language]
            else:
                text = made[subscriber.language] = message(subscriber.language)
            if not subscriber.offer(text):
                log.warning("a %s phone stopped reading: disconnected", audience.value)
                self.remove(subscriber)
                asyncio.get_running_loop().create_task(
                    subscriber.socket.close(code=WSCloseCode.TRY_AGAIN_LATER)
                )

    def hang_up(self, audiences: tuple[Audience, ...], farewell: str) -> None:
        """Send `farewell`, then close: their tokens died with the game they watched."""
        for audience in audiences:
            for subscriber in list(self._subscribers[audience]):
                self.remove(subscriber)
                if not (
                    subscriber.offer(farewell) and subscriber.offer(Hangup(CLOSE_GAME_OVER, b"game over"))
                ):
                    asyncio.get_running_loop().create_task(
                        subscriber.socket.close(code=CLOSE_GAME_OVER, message=b"game over")
                    )

    async def close_all(self) -> None:
        """Shutting down: close every socket now."""
        for group in self._subscribers.values():
            for subscriber in list(group):
                self.remove(subscriber)
                with contextlib.suppress(Exception):
                    await subscriber.socket.close(code=WSCloseCode.GOING_AWAY, message=b"kiosk stopping")
