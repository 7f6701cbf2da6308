"""`dartship run`: the kiosk, on a screen or headless, built by the composition root.

One asyncio loop for everything: the service task, the web server and (unless --headless) the
Kivy app via `App.async_run(async_lib="asyncio")`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import resource
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kiosk import config as config_module
from kiosk.app import logs
from kiosk.app.root import Kiosk, StartError, build_kiosk
from kiosk.config import ConfigFile, InputKind
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Setup, Team, house_rules, rings_not_told
from kiosk.i18n import _, set_language
from kiosk.names import clean_name, same_name
from kiosk.store import StoreError

log = logging.getLogger("dartship")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dartship run", description=_("Start the kiosk."))
    parser.add_argument("--config", help=_("config file"))
    parser.add_argument(
        "--headless",
        action="store_true",
        help=_("no screen: serve the phone page only (tests, phones-only setups)"),
    )
    parser.add_argument(
        "--simulator", action="store_true", help=_("use the simulated board whatever the config says")
    )
    parser.add_argument("--db", help=_("SQLite file (overrides kiosk.database)"))
    parser.add_argument("--port", type=int, help=_("port of the phone page (overrides web.port)"))
    parser.add_argument(
        "--teams", default="Sharks,Jets", help=_("headless: the two team names of the game started at once")
    )
    parser.add_argument(
        "--players",
        default="",
        help=_(
            "headless: the players of each team, teams apart by ';' "
            '("Anna,Ben;Cleo"); without it each team is one player'
        ),
    )
    return parser


def configure(args: argparse.Namespace) -> ConfigFile:
    """The config in effect. A broken file never keeps the kiosk from starting: every bad key
    keeps its default and is logged (`dartship config check` and `doctor` say the same). What the
    command line sets is in effect but never saved by Settings."""
    raw: dict[str, Any] = {}
    if args.simulator:
        raw["board.input"] = InputKind.SIMULATOR.value
    if args.db:
        raw["kiosk.database"] = args.db
    if args.port is not None:
        raw["web.port"] = args.port
    overrides, problems = config_module.check_values(raw)
    if problems:
        raise config_module.ConfigError(problems)
    config = config_module.read(args.config, strict=False, overrides=overrides)
    for problem in config.problems:
        log.error(_("config problem, using the default instead: %s"), problem)
    return config


def _teams(names_text: str, players_text: str) -> tuple[Team, Team]:
    """The headless game's teams from --teams and --players."""
    names = [n for n in (clean_name(t) for t in names_text.split(",")) if n]
    # Different as the touchscreen's new game tells them apart: "Jets" and "jets" are one name.
    if len(names) != 2 or same_name(names[0], names[1]):
        raise SystemExit(_("--teams needs two different names, like Sharks,Jets"))
    if not players_text.strip():
        # One player each, named after the team (the screens then name only the team).
        return Team(names[0], (names[0],)), Team(names[1], (names[1],))
    rosters = [
        tuple(n for n in (clean_name(p) for p in side.split(",")) if n) for side in players_text.split(";")
    ]
    if len(rosters) != 2 or not all(rosters) or any(len(set(roster)) != len(roster) for roster in rosters):
        raise SystemExit(
            _(
                "--players needs each team's players, teams apart by ';', like "
                '"Anna,Ben;Cleo" (no name twice in a team)'
            )
        )
    return Team(names[0], rosters[0]), Team(names[1], rosters[1])


async def run_headless(config: ConfigFile, teams: tuple[Team, Team]) -> int:
    kiosk = await build_kiosk(config, headless=True)
    try:
        # A just-finished game stays: the host page shows its result and starts the next.
        if kiosk.service.match is None:
            kiosk.service.new_game(
                DARTS, Setup(teams, house_rules(config.settings, kiosk.service.board_profile()))
            )
            if not kiosk.service.board_rings_told():
                log.warning(
                    "%s %s",
                    rings_not_told(),
                    _(
                        "The game set up now may count rings the board lacks: after that first dart, "
                        "tap New game, same teams on the host page."
                    ),
                )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        print(_("Dartship is running headless. Stop with Ctrl+C."), flush=True)
        kiosk.ready()
        beat = loop.create_task(_heartbeat(kiosk, stop))
        await stop.wait()
        beat.cancel()
    finally:
        await kiosk.stop()
    return 0


async def _heartbeat(kiosk: Kiosk, stop: asyncio.Event) -> None:
    interval = kiosk.supervisor.watchdog_seconds() or 5.0
    while not stop.is_set():
        kiosk.heartbeat()
        await asyncio.sleep(interval)


def screen_found(environ: Mapping[str, str] = os.environ, dev: Path = Path("/dev")) -> bool:
    """Whether a window can be seen: a desktop session, or a screen device for SDL's KMS/DRM
    (the Pi's console). Without either SDL still runs somewhere nobody looks."""
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY") or any(dev.glob("dri/card*")))


async def run_screen(config: ConfigFile) -> int:
    if not screen_found():
        message = _(
            "No screen found (no $DISPLAY, no $WAYLAND_DISPLAY, no /dev/dri/card*): the "
            "kiosk runs, but nobody will see it. For phones only, start it with "
            "--headless (./run-kiosk --headless); on the Pi, start it on the console or "
            "as the dartship service."
        )
        log.warning("%s", message)
        print(message, file=sys.stderr, flush=True)
    kiosk = await build_kiosk(config)
    try:
        from ui.touch.app import run_app

        await run_app(kiosk)
    finally:
        await kiosk.stop()
    return 0


FILES_WANTED = 8192  # dartship.service sets LimitNOFILE= to this (docs/raspberry-pi.md)


def raise_file_limit(wanted: int = FILES_WANTED) -> int:
    """Raise the soft limit of open files towards `wanted`, as far as the hard limit lets us
    (started by hand or by an older unit, it is often 1024: a phone flood would reach it);
    returns the limit in effect. The phone page's connection caps are set below it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (OSError, ValueError) as err:
            log.warning("cannot raise the open-file limit from %d to %d: %s", soft, target, err)
    return soft


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    logs.setup()
    raise_file_limit()
    try:
        config = configure(args)
    except config_module.ConfigError as err:  # a bad --port or --db on the command line
        for problem in err.problems:
            print(problem, file=sys.stderr)
        return 2
    set_language(config.settings.kiosk.language)
    try:
        if args.headless:
            return asyncio.run(run_headless(config, _teams(args.teams, args.players)))
        return asyncio.run(run_screen(config))
    except (StoreError, StartError) as err:
        print(f"dartship run: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
