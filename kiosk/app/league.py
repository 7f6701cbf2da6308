"""The kiosk's league: `dartship league join|status`, and the sync task the root starts.

The sync task sends what the outbox holds (`kiosk.league.outbox`), signed with the kiosk's key,
one report at a time; it marks a report sent only when the hub answered that it has it, keeps
the hub's reason for a refusal (and logs it), and tries again later, with backoff and jitter,
whatever did not get through. Every few minutes, and after the hub took a game of its own, it
fetches the league's table and daily board for the Stats screen. It runs beside the games and
never holds them up: a kiosk plays, starts and ends games the same with the hub away.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import socket
import sys
import time
from collections.abc import Sequence
from typing import Any

import aiohttp

from kiosk.i18n import _, set_language
from kiosk.league import membership as members
from kiosk.league import signing
from kiosk.league.outbox import Entry, Outbox
from kiosk.store import Store, StoreError

log = logging.getLogger("dartship.league")

IDLE_SECONDS = 5.0  # how often an idle outbox is looked at again
BOARDS_SECONDS = 300.0  # how often the league's boards are fetched
TIMEOUT_SECONDS = 20.0
# Refused for good: a result the replay does not give, another result under this game's
# number, a report too large. Everything else (no network, the hub or its database down, busy,
# a revoked or unknown key that a new pairing fixes) is tried again later.
FINAL = {409, 413, 422}


class LeagueSync:
    """Empties one kiosk's outbox into its hub and keeps the league's boards."""

    def __init__(
        self,
        store: Store,
        member: members.Membership,
        *,
        hold_seconds: float = 0.0,
        rng: random.Random | None = None,
        idle_seconds: float = IDLE_SECONDS,
        boards_seconds: float = BOARDS_SECONDS,
    ) -> None:
        self.store = store
        self.member = member
        self.hold_seconds = hold_seconds
        self.rng = rng or random.Random()
        self.idle_seconds = idle_seconds
        self.boards_seconds = boards_seconds
        self.outbox = Outbox(store.db, member.venue)
        store.outbox = self.outbox
        self._boards_due = 0.0
        self.wake = asyncio.Event()

    def _url(self, path: str) -> str:
        return self.member.hub.rstrip("/") + path

    async def run(self) -> None:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)) as session:
            while True:
                if await self.flush(session):
                    self._boards_due = 0.0  # the kiosk's own games changed the boards
                if time.monotonic() >= self._boards_due:
                    await self.refresh(session)
                self.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), self._pause())

    def _pause(self) -> float:
        upcoming = self.outbox.next_due(self.hold_seconds)
        if upcoming is None:
            return self.idle_seconds
        return min(self.idle_seconds, max(0.05, upcoming - time.time()))

    async def flush(self, session: aiohttp.ClientSession) -> int:
        """Send every report due now; how many the hub confirmed."""
        confirmed = 0
        while True:
            due = self.outbox.due(time.time(), self.hold_seconds)
            if not due:
                return confirmed
            for entry in due:
                if await self.send(session, entry):
                    confirmed += 1

    async def _request(
        self, session: aiohttp.ClientSession, method: str, path: str, body: bytes = b""
    ) -> tuple[int, str]:
        headers = signing.signed_headers(self.member.kiosk, self.member.key, method, path, body)
        headers["Content-Type"] = "application/json"
        async with session.request(method, self._url(path), data=body, headers=headers) as answer:
            return answer.status, await answer.text()

    async def send(self, session: aiohttp.ClientSession, entry: Entry) -> bool:
        """One report; True once the hub confirmed it."""
        try:
            status, text = await self._request(session, "POST", "/api/games", entry.report.encode())
        except (aiohttp.ClientError, TimeoutError, OSError) as err:
            delay = self.outbox.failed(entry, f"not reachable: {err}", time.time(), self.rng)
            log.info("league: game %s not sent (%s); next try in %.0f s", entry.uuid, err, delay)
            return False
        if status in (200, 201):
            self.outbox.sent(entry, text)
            return True
        reason = _reason(status, text)
        if status in FINAL:
            self.outbox.refused(entry, reason)
            log.error("league: the hub refused game %s (outbox game %s): %s", entry.uuid, entry.game, reason)
            return False
        delay = self.outbox.failed(entry, reason, time.time(), self.rng)
        level = logging.WARNING if status in (401, 403) else logging.INFO
        log.log(level, "league: game %s not taken (%s); next try in %.0f s", entry.uuid, reason, delay)
        return False

    async def refresh(self, session: aiohttp.ClientSession) -> bool:
        """Fetch the league's boards for the Stats screen; False (the old ones kept) if not."""
        self._boards_due = time.monotonic() + self.boards_seconds
        try:
            status, text = await self._request(session, "GET", "/api/kiosk/boards")
            if status != 200:
                log.info("league: boards not fetched: %s", _reason(status, text))
                return False
            members.keep_boards(self.store.meta, json.loads(text))
        except (aiohttp.ClientError, TimeoutError, OSError, ValueError, StoreError) as err:
            log.info("league: boards not fetched: %s", err)
            return False
        return True


def _reason(status: int, text: str) -> str:
    try:
        message = json.loads(text).get("error", text)
    except (ValueError, AttributeError):
        message = text
    return f"HTTP {status}: {str(message)[:300]}"


def start(store: Store, hub: str, hold_seconds: float) -> asyncio.Task[None] | None:
    """The sync task of a kiosk in a league (its membership with `hub` in the store), or None
    (said in the log) if it never joined that hub."""
    member = members.membership(store.meta, hub)
    if member is None:
        log.warning(
            "league.hub is %s but this kiosk has not joined it: dartship league join CODE --hub %s", hub, hub
        )
        return None
    sync = LeagueSync(store, member, hold_seconds=hold_seconds)
    log.info("league: kiosk %s of %s (%s)", member.kiosk, member.venue_name, member.league_name)
    return asyncio.get_running_loop().create_task(sync.run(), name="dartship-league")


# ---- dartship league ---------------------------------------------------------------------


async def pair(hub: str, code: str, name: str) -> members.Membership:
    """Pair with the hub using a one-time code; the membership (not yet kept anywhere).
    ValueError with the hub's reason, or OSError when it cannot be reached."""
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)) as session,
        session.post(hub.rstrip("/") + "/api/pair", json={"code": code, "name": name}) as answer,
    ):
        text = await answer.text()
        if answer.status != 201:
            raise ValueError(_reason(answer.status, text))
        data: dict[str, Any] = json.loads(text)
    return members.Membership(
        hub=hub.rstrip("/"),
        kiosk=int(data["kiosk"]),
        key=str(data["key"]),
        venue=int(data["venue"]),
        venue_name=str(data["venue_name"]),
        league=int(data["league"]),
        league_name=str(data["league_name"]),
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dartship league",
        description=_("This kiosk in a league: join a hub, or see what is waiting for it."),
    )
    parser.add_argument(
        "--config", help=_("config file (default: $DARTSHIP_CONFIG or /etc/dartship/config.toml)")
    )
    sub = parser.add_subparsers(dest="action", required=True)
    join = sub.add_parser("join", help=_("pair with the league's hub using a one-time code"))
    join.add_argument("code")
    join.add_argument("--hub", required=True, help=_("the hub's address, like https://league.example.org"))
    join.add_argument("--name", default=socket.gethostname(), help=_("this kiosk's name"))
    sub.add_parser("status", help=_("the league this kiosk is in and its outbox"))
    return parser


def main(argv: Sequence[str]) -> int:
    from kiosk import config

    args = _parser().parse_args(list(argv))
    try:
        cfg = config.read(args.config)
    except config.ConfigError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        return 2
    set_language(cfg.settings.kiosk.language)
    try:
        store = Store(cfg.settings.database_path())
    except StoreError as err:
        print(f"dartship league: {err}", file=sys.stderr)
        return 2
    try:
        if args.action == "join":
            return _join(cfg, store, args)
        return _status(cfg, store)
    finally:
        store.close()


def _join(cfg: Any, store: Store, args: argparse.Namespace) -> int:
    from kiosk import config

    problem = config.check_values({"league.hub": args.hub})[1]
    if problem:
        print(f"dartship league: {problem[0]}", file=sys.stderr)
        return 2
    try:
        member = asyncio.run(pair(args.hub, args.code, args.name))
    except ValueError as err:
        print(_("dartship league: the hub refused: {reason}").format(reason=err), file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, TimeoutError) as err:
        print(_("dartship league: the hub cannot be reached: {error}").format(error=err), file=sys.stderr)
        return 1
    store.meta.remember(members.MEMBERSHIP, member.to_json())
    cfg.save({"league.hub": member.hub})
    print(
        _(
            "This kiosk joined {league} as kiosk {kiosk} of {venue}. Games finished from now on "
            "go to the league (the kiosk starts sending them at its next start)."
        ).format(league=member.league_name, kiosk=member.kiosk, venue=member.venue_name)
    )
    return 0


def _status(cfg: Any, store: Store) -> int:
    hub = cfg.settings.league.hub
    member = members.membership(store.meta, hub) if hub else None
    if member is None:
        print(_("This kiosk is in no league (dartship league join CODE --hub URL)."))
        return 0
    counts = Outbox(store.db, member.venue).counts()
    print(
        _("League {league}, venue {venue}, kiosk {kiosk} at {hub}").format(
            league=member.league_name, venue=member.venue_name, kiosk=member.kiosk, hub=member.hub
        )
    )
    print(_("Outbox: {pending} waiting, {sent} sent, {refused} refused").format(**counts))
    kept = members.boards(store.meta)
    if kept is not None:
        print(_("Boards fetched {minutes} minutes ago").format(minutes=int(kept.age_seconds() // 60)))
    return 0
