"""`dartship hub`: run the league's hub, try it (`--demo`), or administer it (`admin ...`).

dartship hub --database postgresql://user@host/db [--host 127.0.0.1] [--port 8090]
dartship hub --demo
dartship hub admin --database URL token NAME [--league ID]
dartship hub admin --database URL league NAME [--win 3] [--loss 0]
dartship hub admin --database URL season LEAGUE NAME --starts 2027-01-01
dartship hub admin --database URL venue LEAGUE NAME
dartship hub admin --database URL code VENUE
dartship hub admin --database URL revoke KIOSK
dartship hub admin --database URL list
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import logging
import os
import signal
import sys
from collections.abc import Sequence

import psycopg

from hub import admin, db

log = logging.getLogger("dartship.hub")
DATABASE_ENV = "DARTSHIP_HUB_DATABASE"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dartship hub", description="The league's hub: many kiosks, one PostgreSQL."
    )
    parser.add_argument(
        "--database", default=os.environ.get(DATABASE_ENV), help=f"PostgreSQL URL (or ${DATABASE_ENV})"
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (behind a reverse proxy with TLS: keep 127.0.0.1)",
    )
    parser.add_argument("--port", type=int, default=8090)
    parser.add_argument("--pool", type=int, default=10, help="database connections")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="a throwaway PostgreSQL, a league, a venue and a pairing code: try the league on one machine",
    )
    return parser


def _admin_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dartship hub admin")
    parser.add_argument("--database", default=os.environ.get(DATABASE_ENV))
    sub = parser.add_subparsers(dest="action", required=True)
    token = sub.add_parser("token", help="an admin token for the HTTP admin API (shown once)")
    token.add_argument("name")
    token.add_argument("--league", type=int, help="only for this league")
    league = sub.add_parser("league", help="a new league (and its first season)")
    league.add_argument("name")
    league.add_argument("--win", type=int, default=3, help="points for a win")
    league.add_argument("--loss", type=int, default=0, help="points for a loss")
    season = sub.add_parser("season", help="a new season of a league")
    season.add_argument("league", type=int)
    season.add_argument("name")
    season.add_argument("--starts", type=datetime.date.fromisoformat, required=True)
    venue = sub.add_parser("venue", help="a new venue (a bar) of a league")
    venue.add_argument("league", type=int)
    venue.add_argument("name")
    code = sub.add_parser("code", help="a one-time pairing code for a kiosk of a venue")
    code.add_argument("venue", type=int)
    revoke = sub.add_parser("revoke", help="refuse a kiosk's key from now on")
    revoke.add_argument("kiosk", type=int)
    sub.add_parser("list", help="leagues, venues and kiosks")
    return parser


async def _administer(args: argparse.Namespace) -> int:
    async with await psycopg.AsyncConnection.connect(args.database, autocommit=True) as conn:
        await db.migrate(conn)
        if args.action == "token":
            print(await admin.create_token(conn, args.name, args.league))
        elif args.action == "league":
            league = await admin.create_league(conn, args.name, points_win=args.win, points_loss=args.loss)
            print(f"league {league}")
        elif args.action == "season":
            await admin.add_season(conn, args.league, args.name, args.starts)
            print(f"season {args.name} from {args.starts}")
        elif args.action == "venue":
            print(f"venue {await admin.create_venue(conn, args.league, args.name)}")
        elif args.action == "code":
            print(await admin.pairing_code(conn, args.venue))
        elif args.action == "revoke":
            await admin.revoke(conn, args.kiosk)
            print(f"kiosk {args.kiosk} revoked")
        else:
            print("\n".join(await admin.listing(conn)) or "no leagues yet")
    return 0


async def serve(
    url: str, host: str, port: int, pool_size: int = 10, ready: asyncio.Event | None = None
) -> None:
    """Run a hub on `url` until cancelled."""
    from aiohttp import web

    from hub.web import make_app, runner_options

    # SIGTERM (systemd, docker, `timeout`) ends the hub as Ctrl-C does: cleanly.
    task = asyncio.current_task()
    if task is not None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    pool = await db.open_pool(url, pool_size)
    runner = web.AppRunner(make_app(pool), **runner_options())
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        log.info("hub listening on http://%s:%s", host, port)
        if ready is not None:
            ready.set()
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await pool.close()


async def _demo(args: argparse.Namespace) -> int:
    from hub.cluster import Cluster

    cluster = Cluster()
    print(f"starting a throwaway PostgreSQL in {cluster.folder} ...", flush=True)
    try:
        url = cluster.start()
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await db.migrate(conn)
            league = await admin.create_league(conn, "Demo league")
            venue = await admin.create_venue(conn, league, "Demo bar")
            code = await admin.pairing_code(conn, venue)
            token = await admin.create_token(conn, "demo")
        hub = f"http://{args.host}:{args.port}"
        print(
            f"database:     {url}\nleague {league}: Demo league, venue {venue}: Demo bar\n"
            f"admin token:  {token}\npairing code: {code}\n"
            f"pair a kiosk: dartship league join {code} --hub {hub}\n"
            f"league table: {hub}/leagues/{league}\n(Ctrl-C ends the hub and deletes the "
            "database)",
            flush=True,
        )
        await serve(url, args.host, args.port, args.pool)
    finally:
        cluster.remove()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        if argv[:1] == ["admin"]:
            args = _admin_parser().parse_args(argv[1:])
            if not args.database:
                print(f"dartship hub admin: --database (or ${DATABASE_ENV}) is needed", file=sys.stderr)
                return 2
            return asyncio.run(_administer(args))
        args = _parser().parse_args(argv)
        if args.demo:
            return asyncio.run(_demo(args))
        if not args.database:
            print(f"dartship hub: --database (or ${DATABASE_ENV}) is needed, or --demo", file=sys.stderr)
            return 2
        asyncio.run(serve(args.database, args.host, args.port, args.pool))
    except KeyboardInterrupt:
        return 130
    except asyncio.CancelledError:  # SIGTERM
        return 0
    except admin.AdminError as err:
        print(f"dartship hub admin: {err}", file=sys.stderr)
        return 2
    except (psycopg.Error, OSError, RuntimeError) as err:
        print(f"dartship hub: {err}", file=sys.stderr)
        return 2
    return 0
