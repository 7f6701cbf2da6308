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
    "fake-autodarts": ("hardware.fake_autodarts:main",
                       "a fake Autodarts Board Manager (camera scorer) on a TCP port"),
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
    parser = argparse.ArgumentParser(
        prog="dartship", description=_("Battleship on a dartboard: the kiosk and its tools."),
        epilog="\n".join(f"  {name:<12} {text}" for name, (_t, text) in DELEGATED.items()),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for line in _lines().values():  # each game's line protocol
        line.arguments(sub.add_parser(line.command, help=line.help()))
    config = sub.add_parser("config", help=_("check or show the config"))
    config.add_argument("action", choices=("check", "show", "reference"))
    config.add_argument("--config", help=_("config file (default: $DARTSHIP_CONFIG or "
                                           "/etc/dartship/config.toml)"))
    for name, (_target, text) in DELEGATED.items():
        sub.add_parser(name, help=text, add_help=False)
    return parser


def _lines() -> dict[str, LineProtocol]:
    """The hosted games' line protocols by command (`dartship referee`, ...)."""
    return {room.line.command: room.line for room in REGISTRY.rooms() if room.line is not None}


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
    _parser().print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
