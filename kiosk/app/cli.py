"""The `dartship` command: one entry point, each subcommand imported only when it runs.

Imports stay lazy so that `dartship referee` and `dartship board-test` start in a blink without
Kivy or the web server. This module and `kiosk.app.run` are the composition root: the only places
in `kiosk` that may reach into `hardware` and `ui`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from kiosk.i18n import _
from kiosk.lines import read_config
from kiosk.rooms import REGISTRY, LineProtocol

# Subcommands that parse their own arguments: name -> ("module:function", one-line help).
DELEGATED: dict[str, tuple[str, str]] = {
    "run": ("kiosk.app.run:main", "start the kiosk (simulator mode where no board is configured)"),
    "board-test": ("hardware.cli:board_test_main", "print every event of the board input as JSON"),
    "fake-board": ("hardware.cli:fake_board_main", "a simulated serial board on a pty or TCP port"),
    "fake-autodarts": (
        "hardware.fake_autodarts:main",
        "a fake Autodarts Board Manager (camera scorer) on a TCP port",
    ),
    "learn": ("hardware.cli:learn_main", "make a board map: throw at every cell in turn"),
    "doctor": ("kiosk.app.doctor:main", "check config, database, board, GPIO, display and network"),
    "backup": ("kiosk.app.backup:main", "copy the database (online backup), keep the newest N"),
    "screenshots": ("kiosk.app.screenshots:main", "render every kiosk screen to DIR/<screen>.png"),
    "hub": ("hub.cli:main", "the league's hub (a server: PostgreSQL), its demo and its admin"),
    "league": ("kiosk.app.league:main", "join this kiosk to a league: league join CODE --hub URL"),
    "caller": ("kiosk.app.caller_cli:main", "render the caller's phrases ahead, or list them"),
}


def _delegate(name: str, argv: Sequence[str]) -> int:
    target, _help = DELEGATED[name]
    module_name, function = target.split(":")
    module = importlib.import_module(module_name)
    return int(getattr(module, function)(list(argv)) or 0)


def _parser() -> argparse.ArgumentParser:
    # Each command once, in the list of commands (the delegated ones parse their own options).
    parser = argparse.ArgumentParser(
        prog="dartship",
        description=_("Battleship on a dartboard: the kiosk and its tools."),
        formatter_class=lambda prog: argparse.HelpFormatter(prog, max_help_position=20),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for line in _lines().values():  # each game's line protocol
        line.arguments(sub.add_parser(line.command, help=line.help()))
    host = sub.add_parser("host-link", help=_("print the host page's link (phones-only bars)"))
    host.add_argument(
        "--renew", action="store_true", help=_("a new link: the old one stops working (stop the kiosk first)")
    )
    host.add_argument("--config", help=_("config file"))
    host.add_argument("--db", help=_("SQLite file (overrides kiosk.database)"))
    config = sub.add_parser("config", help=_("check or show the config"))
    config.add_argument("action", choices=("check", "show", "reference"))
    config.add_argument(
        "--config", help=_("config file (default: $DARTSHIP_CONFIG or /etc/dartship/config.toml)")
    )
    for name, (_target, text) in DELEGATED.items():
        sub.add_parser(name, help=text, add_help=False)
    return parser


def _lines() -> dict[str, LineProtocol]:
    """The hosted games' line protocols by command (`dartship referee`, ...)."""
    return {room.line.command: room.line for room in REGISTRY.rooms() if room.line is not None}


def _host_link(args: argparse.Namespace) -> int:
    """The host page's link as the kiosk serves it: its kept secret, the running kiosk's port
    (from its lock) or the configured one. Reading works while the kiosk runs; renewing (a
    write) only when none holds the database."""
    from kiosk import hostlink
    from kiosk.store import Store, StoreError
    from kiosk.tenant import DatabaseInUse, DatabaseLock, Holder
    from ui.handheld.address import lan_address, url_host

    cfg = read_config(args.config)
    if cfg is None:
        return 2
    settings = cfg.settings
    db = args.db or str(settings.database_path())
    holder: Holder | None = None
    lock = None
    try:
        try:
            lock = DatabaseLock(db, "dartship host-link")
        except DatabaseInUse as err:
            if args.renew:
                print(
                    _(
                        "dartship host-link: {who} runs on {db}: stop it first (sudo systemctl "
                        "stop dartship), renew, then start it again"
                    ).format(who=err.holder.describe() if err.holder else _("a kiosk"), db=db),
                    file=sys.stderr,
                )
                return 2
            holder = err.holder
        store = Store(db)
        try:
            if args.renew:
                secret: str | None = hostlink.renew(store.meta)
            elif lock is not None:
                secret = hostlink.host_secret(store.meta)  # kept for the kiosk's next start
            else:
                secret = store.meta.recall(hostlink.KEY)
        finally:
            store.close()
    except StoreError as err:
        print(f"dartship host-link: {err}", file=sys.stderr)
        return 2
    finally:
        if lock is not None:
            lock.release()
    if secret is None:
        print(
            _(
                "dartship host-link: the running kiosk has no host page (it has a screen; the "
                "host page is for kiosks started with --headless)"
            ),
            file=sys.stderr,
        )
        return 2
    port = holder.port if holder is not None and holder.port else settings.web.port
    address = url_host(lan_address(settings.web.host))
    print(_("Host page (keep it to yourself): {url}").format(url=f"http://{address}:{port}/host/{secret}"))
    if args.renew:
        print(_("The old host link no longer works."))
    return 0


def _config(args: argparse.Namespace) -> int:
    from kiosk import config

    cfg = read_config(args.config)
    if cfg is None:
        return 2
    if args.action == "show":
        sys.stdout.write(config.dump(cfg.settings))
    elif args.action == "reference":
        sys.stdout.write(config.reference_table())
    else:
        from kiosk.app import preflight

        # What `run` would stumble over beyond each key's own form (it would fall back).
        found = preflight.problems(cfg.settings)
        for problem in found:
            print(problem, file=sys.stderr)
        if found:
            return 2
        where = cfg.path or _("built-in defaults (no config file)")
        print(_("config OK: {where}").format(where=where))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in DELEGATED:
        return _delegate(argv[0], argv[1:])
    args = _parser().parse_args(argv)
    lines = _lines()
    if args.command in lines:
        return lines[args.command].run(args)
    if args.command == "config":
        return _config(args)
    if args.command == "host-link":
        return _host_link(args)
    _parser().print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
