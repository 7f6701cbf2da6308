"""The kiosk's league: `dartship league join|status`, and the sync task the root starts.

The sync task sends what the outbox holds (`kiosk.league.outbox`), signed with the kiosk's key,
one report at a time; it marks a report sent only when the hub answered that it has it, keeps
the hub's reason for a refusal (and logs it), and tries again later, with backoff and jitter,
whatever did not get through. Every few minutes, and after the hub took a game of its own, it
fetches the league's table and daily board for the Stats screen. It runs beside the games and
never holds them up: a kiosk plays, starts and ends games the same with the hub away.

aiohttp (its client: ~0.7 s of imports on this machine, more on a Pi) is imported only where a
hub is asked: the root builds `KioskLeague` on every kiosk, and one in no league never pays for it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import socket
import sqlite3
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kiosk.errors import DartshipError
from kiosk.i18n import _, language, recording, set_language
from kiosk.league import membership as members
from kiosk.league import reasons, signing
from kiosk.league.outbox import PENDING, REFUSED, SENT, Entry, Outbox
from kiosk.lines import untrusted_json
from kiosk.store import Store, StoreError

if TYPE_CHECKING:
    import aiohttp

    from kiosk.config import ConfigFile

log = logging.getLogger("dartship.league")

IDLE_SECONDS = 5.0  # how often an idle outbox is looked at again
BOARDS_SECONDS = 300.0  # how often the league's boards are fetched
TIMEOUT_SECONDS = 20.0
# A hub's answer is read up to this much: a league's boards are ~100 bytes a player (40 000
# players), a confirmation or a refusal a few hundred. Whatever sends more is no hub.
MAX_ANSWER = 4 * 1024 * 1024
# Refused for good: a result the replay does not give, another result under this game's
# number, a report too large. Everything else (no network, the hub or its database down, busy,
# a revoked or unknown key that a new pairing fixes) is tried again later.
FINAL = {409, 413, 422}


class NotAHub(DartshipError, ValueError):
    """What answered is not a league hub (a captive portal, a proxy, a broken or hostile hub):
    its answer is larger than any hub's, not the JSON a hub sends, or not of its shape."""

    def __init__(self, hub: str, answer: str) -> None:
        with recording():
            message = _("What answers at {hub} is not a league hub (its answer: {answer})").format(
                hub=hub, answer=answer[:80]
            )
        super().__init__(str(message))
        self.reason = reasons.keep(message)


async def _read(answer: aiohttp.ClientResponse, hub: str) -> str:
    """An answer's body as text (bytes that are not UTF-8 replaced), or NotAHub past MAX_ANSWER."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in answer.content.iter_any():
        size += len(chunk)
        if size > MAX_ANSWER:
            raise NotAHub(hub, f"more than {MAX_ANSWER} bytes")
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", errors="replace")


def _json(text: str, hub: str) -> Any:
    try:
        return untrusted_json(text)
    except ValueError:
        raise NotAHub(hub, text) from None


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
        store.use_league(member)  # as kept: the store queued this membership's games already
        self.outbox: Outbox = store.outbox_of(member)
        self._boards_due = 0.0
        self.wake = asyncio.Event()
        self.problem: str | None = None  # why the last request did not get through (`reasons`)

    @property
    def last_error(self) -> str | None:
        """Why the last request did not get through, in the language the kiosk speaks now."""
        return reasons.told(self.problem)

    def _url(self, path: str) -> str:
        return self.member.hub.rstrip("/") + path

    async def run(self) -> None:
        import aiohttp

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
        self._follow_repair()
        confirmed = 0
        while True:
            due = self.outbox.due(time.time(), self.hold_seconds)
            if not due:
                return confirmed
            for entry in due:
                if await self.send(session, entry):
                    confirmed += 1

    def _follow_repair(self) -> None:
        """`dartship league join` paired this kiosk anew while it runs (the old key revoked or
        lost): send with the new key from now on, and what was queued under the old one
        meanwhile too, instead of failing with the old key until the kiosk restarts."""
        try:
            now = members.kept(self.store.meta)
        except (sqlite3.Error, StoreError) as err:
            log.info("league: the membership kept could not be read: %s", err)
            return
        if now is None or not members.repaired(self.member, now):
            return
        moved = self.outbox.hand_over(now)
        log.warning("league: paired anew as kiosk %s; %d waiting games go with the new key", now.kiosk, moved)
        self.member = now
        self.store.use_league(now)
        self.outbox = self.store.outbox_of(now)
        self.problem = None

    async def _request(
        self, session: aiohttp.ClientSession, method: str, path: str, body: bytes = b""
    ) -> tuple[int, str]:
        headers = signing.signed_headers(self.member.kiosk, self.member.key, method, path, body)
        headers["Content-Type"] = "application/json"
        headers["Accept-Language"] = language()  # the hub's reasons in the kiosk's language
        async with session.request(method, self._url(path), data=body, headers=headers) as answer:
            return answer.status, await _read(answer, self.member.hub)

    async def send(self, session: aiohttp.ClientSession, entry: Entry) -> bool:
        """One report; True once the hub confirmed it."""
        import aiohttp

        try:
            status, text = await self._request(session, "POST", "/api/games", entry.report.encode())
            if status in (200, 201):
                _confirmed(_json(text, self.member.hub), entry, self.member.hub)
        except (aiohttp.ClientError, TimeoutError, OSError, NotAHub) as err:
            self.problem = err.reason if isinstance(err, NotAHub) else _unreachable(err)
            delay = self.outbox.failed(entry, self.problem, time.time(), self.rng)
            log.info("league: game %s not sent (%s); next try in %.0f s", entry.uuid, err, delay)
            return False
        if status in (200, 201):
            self.outbox.sent(entry, text)
            self.problem = None
            return True
        self.problem = reason = reasons.of_hub(status, text)
        if status in FINAL:
            self.outbox.refused(entry, reason)
            log.error(
                "league: the hub refused game %s (outbox game %s): %s",
                entry.uuid,
                entry.game,
                reasons.told(reason),
            )
            return False
        delay = self.outbox.failed(entry, reason, time.time(), self.rng)
        level = logging.WARNING if status in (401, 403) else logging.INFO
        log.log(
            level,
            "league: game %s not taken (%s); next try in %.0f s",
            entry.uuid,
            reasons.told(reason),
            delay,
        )
        return False

    async def refresh(self, session: aiohttp.ClientSession) -> bool:
        """Fetch the league's boards for the Stats screen; False (the old ones kept) if not."""
        import aiohttp

        self._boards_due = time.monotonic() + self.boards_seconds
        try:
            status, text = await self._request(session, "GET", "/api/kiosk/boards")
            if status != 200:
                self.problem = reasons.of_hub(status, text)
                log.info("league: boards not fetched: %s", self.last_error)
                return False
            try:
                members.keep_boards(self.store.meta, _json(text, self.member.hub))
            except members.BoardsError as err:
                log.warning("league: the boards the hub sent are not kept: %s", err)
                raise NotAHub(self.member.hub, text) from None
        except (aiohttp.ClientError, TimeoutError, OSError, NotAHub, StoreError) as err:
            self.problem = err.reason if isinstance(err, NotAHub) else _unreachable(err)
            log.info("league: boards not fetched: %s", err)
            return False
        self.problem = None
        return True


def _confirmed(answer: object, entry: Entry, hub: str) -> None:
    """The hub's 200/201 says it has this very game (`{"game": uuid, "status": ...}`), or
    NotAHub: a captive portal's page, a proxy's "OK", another game's answer confirm nothing,
    and the game stays in the outbox."""
    if not (
        isinstance(answer, dict)
        and answer.get("game") == entry.uuid
        and answer.get("status") in ("new", "duplicate")
    ):
        raise NotAHub(hub, json.dumps(answer)[:80])


def _unreachable(err: BaseException) -> str:
    """The reason kept when the hub cannot be reached (`why_unreachable`)."""
    with recording():
        return reasons.keep(_("the hub cannot be reached: {error}").format(error=why_unreachable(err)))


def why_unreachable(err: BaseException) -> str:
    """Why the hub could not be reached, in the kiosk's language: the common causes by name
    (what a bar owner can check: the name, the address and port, the network, the
    certificate), any other in the error's own words."""
    import errno
    import ssl

    import aiohttp

    cause = err.os_error if isinstance(err, aiohttp.ClientConnectorError) else err
    if isinstance(err, aiohttp.ClientConnectorCertificateError) or isinstance(
        cause, ssl.SSLCertVerificationError
    ):
        return _("its certificate is not trusted")
    if isinstance(err, aiohttp.ClientSSLError) or isinstance(cause, ssl.SSLError):
        return _("the secure connection failed")
    if isinstance(err, aiohttp.ClientConnectorDNSError) or isinstance(cause, socket.gaierror):
        return _("no computer has that name on this network")
    if isinstance(err, TimeoutError) or isinstance(cause, TimeoutError):
        return _("no answer within {seconds:.0f} s").format(seconds=TIMEOUT_SECONDS)
    if isinstance(cause, ConnectionRefusedError):
        return _("nothing answers at that address and port")
    if isinstance(cause, OSError) and cause.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return _("the network does not reach it")
    if isinstance(err, aiohttp.ServerDisconnectedError) or isinstance(cause, ConnectionResetError):
        return _("it hung up before answering")
    return str(err) or type(err).__name__


def _reason(status: int, text: str) -> str:
    """The hub's refusal as the kiosk tells it now: "HTTP 403: ..."."""
    return reasons.told(reasons.of_hub(status, text)) or f"HTTP {status}"


class KioskLeague:
    """The kiosk's membership of a league (a `kiosk.ports.LeagueDesk`, for Settings -> League):
    joining, leaving, the status from the store, and the sync task while the kiosk is paired.
    Built once by the composition root; everything runs on the kiosk's one loop."""

    def __init__(self, store: Store, config: ConfigFile, name: str | None = None) -> None:
        self.store = store
        self.config = config
        self.name = name or socket.gethostname()
        self.sync: LeagueSync | None = None
        self._task: asyncio.Task[None] | None = None
        self._joining = False

    def start(self) -> None:
        """Start sending, if `league.hub` names a hub this kiosk joined (said in the log if not)."""
        hub = self.config.settings.league.hub
        if not hub:
            kept = members.kept(self.store.meta)
            if kept is not None:
                log.warning(
                    "this database joined %s at %s, but league.hub is empty: finished games are "
                    "queued, not sent (set league.hub = %s, or leave the league in Settings)",
                    kept.league_name,
                    kept.hub,
                    kept.hub,
                )
            return
        member = members.membership(self.store.meta, hub)
        if member is None:
            log.warning(
                "league.hub is %s but this kiosk has not joined it: dartship league join CODE --hub %s",
                hub,
                hub,
            )
            return
        self._start(member)

    def _start(self, member: members.Membership) -> None:
        self.stop()
        self.sync = LeagueSync(self.store, member, hold_seconds=self.config.settings.league.hold_seconds)
        log.info("league: kiosk %s of %s (%s)", member.kiosk, member.venue_name, member.league_name)
        self._task = asyncio.get_running_loop().create_task(self.sync.run(), name="dartship-league")

    def stop(self) -> None:
        """Stop sending (the store goes on queueing while the membership is kept)."""
        if self._task is not None:
            self._task.cancel()
        self._task = None
        self.sync = None

    def status(self) -> members.LeagueStatus:
        try:
            hub = self.config.settings.league.hub
            member = members.membership(self.store.meta, hub) if hub else None
            if member is None:
                return members.LeagueStatus(None)
            outbox = self.store.outbox_of(member)
            counts = outbox.counts()
            kept = members.boards(self.store.meta)
            contacts = [t for t in (outbox.last_sent(), kept.fetched if kept else None) if t is not None]
            error = self.sync.last_error if self.sync is not None else None
            return members.LeagueStatus(
                member,
                counts[PENDING],
                counts[SENT],
                counts[REFUSED],
                max(contacts) if contacts else None,
                error or outbox.last_problem(),
            )
        except (sqlite3.Error, StoreError, ValueError) as err:
            return members.LeagueStatus(None, last_error=str(err))

    async def join(self, code: str, hub: str, anew: bool = False) -> members.Membership:
        """Pair with the hub at `hub` using a one-time code. `anew`: the kiosk is in a league and
        the code is a new one for the same venue (its key revoked or lost): what waits goes with
        the new key; a code for another venue or league changes nothing (leave first)."""
        import aiohttp

        from kiosk import config as config_module

        problem = members.code_problem(code)
        if problem:
            raise ValueError(problem)
        hub = members.typed_hub(hub)
        bad = config_module.check_values({"league.hub": hub})[1]
        if not hub or bad:
            raise ValueError(
                _("The hub's address: {problem}").format(
                    problem=bad[0].message if bad else _("type it, like https://league.example.org")
                )
            )
        if self.status().member is not None and not anew:
            raise ValueError(_("This kiosk is in a league already: leave it first."))
        before = members.kept(self.store.meta)
        if self._joining:
            raise ValueError(_("The kiosk is asking a hub already: wait for its answer."))
        self._joining = True
        try:
            member = await pair(hub, members.normal_code(code), self.name, before, same_venue=anew)
        except (aiohttp.ClientError, OSError) as err:
            raise OSError(why_unreachable(err)) from err
        except OtherVenue as err:
            assert before is not None  # only a kiosk paired anew is told so
            raise ValueError(_other_bar(err.venue_name, err.league_name, before)) from err
        finally:
            self._joining = False
        if anew and before is not None and not members.repaired(before, member):
            # A hub that pairs without looking at "venue" used the code: refused here.
            raise ValueError(_other_bar(member.venue_name, member.league_name, before))
        keep_membership(self.store, member)
        self._start(member)
        try:
            self.config.save({"league.hub": member.hub})
        except (config_module.ConfigError, OSError) as err:
            # Paired and sending now; only the next start would not know the hub.
            log.error("league: joined, but league.hub could not be saved: %s", err)
            raise ValueError(
                _(
                    "Joined {league}, but the settings file could not be written ({error}): "
                    "the kiosk sends its games until it stops. Fix the file and save Settings."
                ).format(league=member.league_name, error=err)
            ) from err
        return member

    def leave(self) -> int:
        from kiosk import config as config_module

        member = members.kept(self.store.meta)  # whatever league.hub says now
        self.stop()
        self.store.use_league(None)
        waiting = 0
        if member is not None:
            with recording():
                reason = reasons.keep(_("not sent: the kiosk left the league"))
            waiting = self.store.outbox_of(member).give_up(reason)
            log.warning(
                "league: this kiosk left %s (kiosk %s of %s); %d games were never sent",
                member.league_name,
                member.kiosk,
                member.venue_name,
                waiting,
            )
        members.forget(self.store.meta)
        try:
            self.config.save({"league.hub": ""})
        except (config_module.ConfigError, OSError) as err:
            log.error("league: left, but league.hub could not be cleared: %s", err)
        return waiting


def _other_bar(venue: str, league: str, before: members.Membership) -> str:
    log.warning(
        "league: a code for %s of %s was refused here: this kiosk is %s of %s",
        venue,
        league,
        before.venue_name,
        before.league_name,
    )
    return _(
        "That code is for {venue} in {league}; this kiosk is {mine} in {ours}. Nothing "
        "was changed: to play for another bar or league, leave this one first."
    ).format(venue=venue, league=league, mine=before.venue_name, ours=before.league_name)


def keep_membership(store: Store, member: members.Membership) -> None:
    """Keep a new membership in the database: from now on its games are queued for it. What an
    earlier one kept here still waits for goes with the new key if it is the same venue of the
    same league at the same hub paired anew (`members.repaired`); else it is never sent
    (another league, another venue): kept as refused with that reason, as a leave does."""
    before = members.kept(store.meta)
    if before is not None and members.repaired(before, member):
        # A new key for the same venue (the old one revoked or lost): what waits goes with it.
        moved = store.outbox_of(before).hand_over(member)
        if moved:
            log.warning("league: paired anew; %d waiting games go with the new key", moved)
    elif before is not None and before.ident != member.ident:
        with recording():
            reason = reasons.keep(_("not sent: the kiosk joined another league"))
        given_up = store.outbox_of(before).give_up(reason)
        if given_up:
            log.warning(
                "league: %d games of %s will never be sent (joined anew)", given_up, before.league_name
            )
    store.meta.remember(members.MEMBERSHIP, member.to_json())
    store.use_league(member)


# ---- dartship league ---------------------------------------------------------------------


class OtherVenue(DartshipError, ValueError):
    """A code for another venue than the one a kiosk paired anew is in: the hub used nothing."""

    def __init__(self, venue_name: str, league_name: str, reason: str) -> None:
        super().__init__(reason)
        self.venue_name = venue_name
        self.league_name = league_name


async def pair(
    hub: str, code: str, name: str, before: members.Membership | None = None, same_venue: bool = False
) -> members.Membership:
    """Pair with the hub using a one-time code; the membership (not yet kept anywhere).
    ValueError with the hub's reason, or OSError when it cannot be reached. `before`: the
    membership this kiosk has at that hub, whose key signs the request so that the hub revokes it
    once the new one is given (where the code is for the same venue); `same_venue`: only a code
    for `before`'s venue pairs (OtherVenue for another's, which stays unused)."""
    import aiohttp

    hub = hub.rstrip("/")
    mine = before if before is not None and before.hub.rstrip("/") == hub else None
    fields: dict[str, object] = {"code": code, "name": name}
    if mine is not None and same_venue:
        fields["venue"] = mine.venue
    body = json.dumps(fields).encode()
    headers = {"Accept-Language": language(), "Content-Type": "application/json"}
    if mine is not None:
        headers.update(signing.signed_headers(mine.kiosk, mine.key, "POST", "/api/pair", body))
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)) as session,
        session.post(hub + "/api/pair", data=body, headers=headers) as answer,
    ):
        text = await _read(answer, hub)
        if answer.status == 409 and mine is not None:
            other = _other_venue(text)
            if other is not None:
                raise OtherVenue(*other, _reason(answer.status, text))
        if answer.status != 201:
            raise ValueError(_("The hub refused: {reason}").format(reason=_reason(answer.status, text)))
    try:
        data: dict[str, Any] = _json(text, hub)
        member = members.Membership(
            hub=hub,
            kiosk=int(data["kiosk"]),
            key=str(data["key"]),
            venue=int(data["venue"]),
            venue_name=str(data["venue_name"]),
            league=int(data["league"]),
            league_name=str(data["league_name"]),
        )
    except (ValueError, KeyError, TypeError) as err:
        raise ValueError(
            _("What answers at {hub} is not a league hub (its answer: {answer})").format(
                hub=hub, answer=text[:80]
            )
        ) from err
    if mine is not None and members.repaired(mine, member):
        if data.get("replaced") == mine.kiosk:
            log.warning(
                "league: kiosk %s's old key is revoked at the hub (now kiosk %s)", mine.kiosk, member.kiosk
            )
        else:
            log.warning(
                "league: the hub did not revoke kiosk %s's old key: its admin can (hub admin revoke %s)",
                mine.kiosk,
                mine.kiosk,
            )
    return member


def _other_venue(text: str) -> tuple[str, str] | None:
    """The venue and league an `other_venue` refusal names, if that is what it is (read as every
    hub answer is: 100 000 brackets are no refusal)."""
    try:
        data = untrusted_json(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("code") != "other_venue":
        return None
    venue, league = data.get("venue_name"), data.get("league_name")
    if not isinstance(venue, str) or not isinstance(league, str):
        return None
    return venue, league


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dartship league",
        description=_("This kiosk in a league: join a hub, or see what is waiting for it."),
    )
    config_help = _("config file (default: $DARTSHIP_CONFIG or /etc/dartship/config.toml)")
    parser.add_argument("--config", help=config_help)
    # After the action too, as every other command of the kiosk takes it (`dartship doctor
    # --config FILE`): `dartship league status --config FILE`. SUPPRESS: an action that is not
    # given it keeps the one given before the action.
    config = argparse.ArgumentParser(add_help=False)
    config.add_argument("--config", default=argparse.SUPPRESS, help=config_help)
    sub = parser.add_subparsers(dest="action", required=True)
    join = sub.add_parser(
        "join", parents=[config], help=_("pair with the league's hub using a one-time code")
    )
    join.add_argument("code")
    join.add_argument("--hub", required=True, help=_("the hub's address, like https://league.example.org"))
    join.add_argument("--name", default=socket.gethostname(), help=_("this kiosk's name"))
    sub.add_parser("status", parents=[config], help=_("the league this kiosk is in and its outbox"))
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


def _join(cfg: ConfigFile, store: Store, args: argparse.Namespace) -> int:
    import aiohttp

    from kiosk import config

    args.hub = members.typed_hub(args.hub)
    problem = config.check_values({"league.hub": args.hub})[1]
    typed = members.code_problem(args.code)
    if problem or typed:
        print(f"dartship league: {problem[0] if problem else typed}", file=sys.stderr)
        return 2
    try:
        before = members.kept(store.meta)  # its key signs: revoked at the hub if the same venue
        member = asyncio.run(pair(args.hub, members.normal_code(args.code), args.name, before))
    except ValueError as err:
        print(f"dartship league: {err}", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, TimeoutError) as err:
        print(
            _("dartship league: the hub cannot be reached: {error}").format(error=why_unreachable(err)),
            file=sys.stderr,
        )
        return 1
    keep_membership(store, member)
    cfg.save({"league.hub": member.hub})
    print(
        _(
            "This kiosk joined {league} as kiosk {kiosk} of {venue}. Games finished from now on "
            "go to the league (the kiosk starts sending them at its next start)."
        ).format(league=member.league_name, kiosk=member.kiosk, venue=member.venue_name)
    )
    return 0


def _status(cfg: ConfigFile, store: Store) -> int:
    hub = cfg.settings.league.hub
    member = members.membership(store.meta, hub) if hub else None
    if member is None:
        print(_("This kiosk is in no league (dartship league join CODE --hub URL)."))
        return 0
    outbox = store.outbox_of(member)
    print(
        _("League {league}, venue {venue}, kiosk {kiosk} at {hub}").format(
            league=member.league_name, venue=member.venue_name, kiosk=member.kiosk, hub=member.hub
        )
    )
    print(_("Outbox: {pending} waiting, {sent} sent, {refused} refused").format(**outbox.counts()))
    problem = outbox.last_problem()
    if problem:
        print(_("Last error: {error}").format(error=problem))
    kept = members.boards(store.meta)
    if kept is not None:
        print(_("Boards fetched {minutes} minutes ago").format(minutes=int(kept.age_seconds() // 60)))
    return 0
