"""What a paired kiosk keeps of its league, in its own store: who it is to the hub (SECRET: its
key never leaves the kiosk but as signatures), and the boards last fetched, with their age.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Protocol

from kiosk.errors import DartshipError
from kiosk.i18n import _

MEMBERSHIP = "league.membership"
BOARDS = "league.boards"
# A pairing code: 12 of these, shown as XXXX-XXXX-XXXX (no 0/O, 1/I/L: read aloud in a bar).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 12


def normal_code(code: str) -> str:
    """A pairing code as typed (any case, dashes, spaces) in its one form."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def typed_hub(text: str) -> str:
    """A hub's address as typed (on a touchscreen, `https://` is a chore) in its one form: no
    spaces or trailing slash; with no scheme, `http://` for a machine on the bar's network (an
    IP address, `localhost`, a name without a dot or ending `.local`), else `https://`."""
    hub = text.strip().rstrip("/")
    if not hub or "://" in hub:
        return hub
    where = hub.split("/", 1)[0]
    host = where[1 : where.find("]")] if where.startswith("[") else where.rsplit(":", 1)[0]
    try:
        ipaddress.ip_address(host)
        local = True
    except ValueError:
        local = host == "localhost" or "." not in host or host.endswith(".local")
    return ("http://" if local else "https://") + hub


def code_problem(code: str) -> str | None:
    """What is wrong with a typed pairing code before any hub is asked, or None."""
    typed = normal_code(code)
    if not typed:
        return _("Type the pairing code the league gave you (like ABCD-EFGH-JKMN).")
    wrong = sorted({ch for ch in typed if ch not in CODE_ALPHABET})
    if wrong:
        return _("A pairing code has no {chars}: check the code (0/O and 1/I/L are never in one).").format(
            chars=", ".join(wrong)
        )
    if len(typed) != CODE_LENGTH:
        return _("A pairing code has {n} letters and digits; this one has {m}.").format(
            n=CODE_LENGTH, m=len(typed)
        )
    return None


class Memory(Protocol):
    """The store's small key-value memory (`Meta.remember` / `recall`)."""

    def remember(self, key: str, value: str) -> None: ...

    def recall(self, key: str) -> str | None: ...


@dataclass(frozen=True)
class Membership:
    hub: str  # the hub's address the key was given by
    kiosk: int
    key: str  # SECRET
    venue: int
    venue_name: str
    league: int
    league_name: str

    def to_json(self) -> str:
        return json.dumps(self.__dict__)

    @property
    def ident(self) -> str:
        """This membership among all the kiosk ever had (the outbox keeps it with each entry):
        a digest of its key, which every pairing makes anew (two throwaway hubs both call their
        first kiosk 1; a hub's address may change). The digest tells nothing of the key."""
        return hashlib.sha256(f"dartship membership {self.key}".encode()).hexdigest()[:32]


def repaired(before: Membership, after: Membership) -> bool:
    """Whether `after` is `before` paired anew (a new key for the same venue of the same league
    at the same hub: a revoked or lost key replaced), so that what waits under `before` is
    `after`'s to send; another hub, league or venue is another membership."""
    return (
        before.ident != after.ident
        and before.hub.rstrip("/") == after.hub.rstrip("/")
        and (before.league, before.venue) == (after.league, after.venue)
    )


def kept(memory: Memory) -> Membership | None:
    """The membership kept in this database (written by a join, removed by a leave), whatever
    hub `league.hub` names; None in no league."""
    return parsed(memory.recall(MEMBERSHIP))


def parsed(raw: str | None) -> Membership | None:
    """A membership as kept (JSON), or None (none kept, or what is kept cannot be read)."""
    if not raw:
        return None
    try:
        return Membership(**json.loads(raw))
    except (ValueError, TypeError):
        return None


def membership(memory: Memory, hub: str) -> Membership | None:
    """The kiosk's membership with the hub at `hub`, if it paired with that one."""
    found = kept(memory)
    return found if found is not None and found.hub.rstrip("/") == hub.rstrip("/") else None


@dataclass(frozen=True)
class Boards:
    """The league's table, daily board and venue board as the hub last gave them."""

    fetched: datetime
    table: dict[str, Any]
    daily: dict[str, Any]
    venue: dict[str, Any]
    seeds: dict[str, Any]  # SECRET: ISO date -> the league's daily fleet seed

    def age_seconds(self, now: datetime | None = None) -> float:
        return max(0.0, ((now or datetime.now(UTC)) - self.fetched).total_seconds())


class BoardsError(DartshipError, ValueError):
    """The hub's boards are not of the shape the Stats screen reads; the message says where."""


# What the Stats screen reads of each row (`ui/touch/league_stats.py`); the hub sends more.
ROW_KEYS = {
    "table": ("rank", "player", "games", "wins", "points"),
    "daily": ("rank", "player", "venue", "shots"),
    "venue": ("rank", "player", "games", "wins", "points"),
}


def check_boards(answer: object) -> dict[str, Any]:
    """The hub's answer of boards if it is of their shape (an object; each board an object
    whose rows, if any, are objects with the keys the Stats screen shows, each a text or a
    number; the seeds texts by date), else BoardsError: a broken or hostile hub's answer is
    never kept, so the screen never meets it."""
    if not isinstance(answer, dict):
        raise BoardsError("the boards are not an object")
    seeds = answer.get("daily_seeds", {})
    if not isinstance(seeds, dict) or not all(isinstance(v, str) for v in seeds.values()):
        raise BoardsError("'daily_seeds' must be texts by date")
    for board, keys in ROW_KEYS.items():
        found = answer.get(board)
        if not isinstance(found, dict):
            raise BoardsError(f"{board!r} is not an object")
        rows = found.get("rows", [])
        if not isinstance(rows, list):
            raise BoardsError(f"{board!r}'s rows are not a list")
        for row in rows:
            if not isinstance(row, dict) or not all(
                isinstance(row.get(key), str | int) and not isinstance(row.get(key), bool) for key in keys
            ):
                raise BoardsError(f"a row of {board!r} lacks one of {', '.join(keys)}")
    return answer


def keep_boards(memory: Memory, answer: dict[str, Any], now: datetime | None = None) -> None:
    """Keep the hub's boards (BoardsError, nothing kept, if they are not of their shape)."""
    check_boards(answer)
    fetched = (now or datetime.now(UTC)).isoformat(timespec="seconds")  # when, for the screen
    memory.remember(BOARDS, json.dumps({"fetched": fetched, **answer}))


def daily_key(memory: Memory, day: date) -> bytes | None:
    """The key of the league's daily fleet for `day` (`kiosk.classic.match.daily_fleet`), or
    None (in no league, or the hub's seed of that day never fetched: the kiosk's own board)."""
    seed = daily_seed(memory, day)
    try:
        return bytes.fromhex(seed) if seed else None
    except ValueError:
        return None


def daily_seed(memory: Memory, day: date) -> str | None:
    """The league's daily challenge seed for `day`, as the hub gave it (yesterday's, today's and
    tomorrow's by the hub's clock come with the boards, so a kiosk offline at midnight, or a
    bar's day behind the hub's, still plays the league's board)."""
    kept = boards(memory)
    if kept is None:
        return None
    seed = kept.seeds.get(day.isoformat())
    return seed if isinstance(seed, str) else None


def boards(memory: Memory) -> Boards | None:
    """The boards last fetched, or None (never fetched, or what is kept cannot be read)."""
    raw = memory.recall(BOARDS)
    if raw is None:
        return None
    try:
        data = check_boards(json.loads(raw))
        return Boards(
            datetime.fromisoformat(data["fetched"]),
            dict(data["table"]),
            dict(data["daily"]),
            dict(data["venue"]),
            dict(data.get("daily_seeds", {})),
        )
    except (ValueError, KeyError, TypeError):
        return None


def forget(memory: Memory) -> None:
    """The kiosk leaves its league: its key and the boards kept are gone (written over: the
    memory keeps no deleted rows' values in the way)."""
    memory.remember(MEMBERSHIP, "")
    memory.remember(BOARDS, "")


@dataclass(frozen=True)
class LeagueStatus:
    """What Settings -> League shows: the membership (None: in no league), the outbox, the last
    contact with the hub and the last thing that went wrong."""

    member: Membership | None
    pending: int = 0
    sent: int = 0
    refused: int = 0
    last_sync: datetime | None = None  # the hub last answered (a game taken, boards fetched)
    last_error: str | None = None
