"""`dartship run`: the composition root that wires store, service, devices, phones and screen.

One asyncio loop for everything: the service task, the web server and (unless --headless) the
Kivy app via `App.async_run(async_lib="asyncio")`. Device threads reach the loop only through
`call_soon_threadsafe`. Kivy, the web server and the hardware modules are imported here, lazily,
and nowhere else in `kiosk`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk import config as config_module
from kiosk.app import logs
from kiosk.app.sdnotify import Notifier
from kiosk.darts.match import Setup, Team
from kiosk.i18n import _, set_language
from kiosk.service import GameService
from kiosk.store import Store, StoreError

log = logging.getLogger("dartship")


@dataclass
class Kiosk:
    """Everything `dartship run` started, so that it can be stopped in order."""

    config: config_module.Config
    store: Store
    service: GameService
    devices: list[Any] = field(default_factory=list)  # objects with stop()
    web: Any = None  # ui.handheld server, or None
    buzzer: Any = None
    # The touchscreen's learn wizard (hardware.learn.LearnWizard): ui may not import hardware.
    learn_wizard_factory: Any = None
    service_task: asyncio.Task | None = None
    solo: Any = None  # kiosk.solo.SoloMode: plays the kiosk's team in solo games
    notifier: Notifier = field(default_factory=Notifier)

    def ready(self) -> None:
        """The screen (or, headless, the web server) is up: tell systemd."""
        self.notifier.ready(_("kiosk running"))

    def heartbeat(self) -> None:
        """Called from the loop that must stay alive (Kivy's clock on a screen): WATCHDOG=1.

        Pinging from the UI loop itself means a frozen screen is restarted, not just a dead
        process.
        """
        self.notifier.watchdog()

    async def stop(self) -> None:
        if self.solo is not None:
            self.solo.close()
        for device in self.devices:
            with contextlib.suppress(Exception):
                device.stop()
        if self.buzzer is not None:
            with contextlib.suppress(Exception):
                self.buzzer.close()
        if self.web is not None:
            with contextlib.suppress(Exception):
                await self.web.stop()
        if self.service_task is not None:
            self.service_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.service_task
        self.notifier.stopping()
        self.store.close()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dartship run", description=_("Start the kiosk."))
    parser.add_argument("--config", help=_("config file"))
    parser.add_argument("--headless", action="store_true",
                        help=_("no screen: serve the phone page only (tests, phones-only setups)"))
    parser.add_argument("--simulator", action="store_true",
                        help=_("use the simulated board whatever the config says"))
    parser.add_argument("--db", help=_("SQLite file (overrides kiosk.database)"))
    parser.add_argument("--port", type=int, help=_("port of the phone page (overrides web.port)"))
    parser.add_argument("--teams", default="Sharks,Jets",
                        help=_("headless: the two team names of the game started at once"))
    return parser


def configure(args: argparse.Namespace) -> config_module.Config:
    """The effective config. A broken file never keeps the kiosk from starting: every bad key
    keeps its default and is logged (`dartship config check` and `doctor` say the same)."""
    cfg = config_module.load(args.config, strict=False)
    for problem in cfg.problems:
        log.error(_("config problem, using the default instead: %s"), problem)
    changes: dict[str, Any] = {}
    if args.simulator:
        changes["board.input"] = "simulator"
    if args.db:
        changes["kiosk.database"] = args.db
    if args.port:
        changes["web.port"] = args.port
    return cfg.updated(changes) if changes else cfg


def _attach_devices(kiosk: Kiosk, loop: asyncio.AbstractEventLoop) -> None:
    """Real or simulated devices, as the config says; their events reach the service's queue."""
    from hardware import factory

    queue = kiosk.service.queue

    def sink(event: Any) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, event)

    for build in (factory.build_board_input, factory.build_buttons, factory.build_miss_sensor):
        device = build(kiosk.config, sink)
        if device is not None:
            device.start()
            kiosk.devices.append(device)
    kiosk.buzzer = factory.build_buzzer(kiosk.config)
    from hardware.learn import LearnWizard

    kiosk.learn_wizard_factory = LearnWizard
    if kiosk.buzzer is not None:
        from kiosk.announce import buzzer_listener

        kiosk.service.subscribe(buzzer_listener(kiosk.buzzer))


async def start(cfg: config_module.Config, *, with_devices: bool = True,
                headless: bool = False) -> Kiosk:
    """Open the store, resume an unfinished game, start devices and the phone page."""
    store = Store(cfg.database_path())
    service = GameService(store, cfg)
    kiosk = Kiosk(cfg, store, service)
    loop = asyncio.get_running_loop()
    kiosk.service_task = loop.create_task(service.run(), name="dartship-service")
    # Before resume: a solo game picked up after a power cut gets its computer player back.
    # (Imported here: the AI brings numpy, which `dartship referee` and friends do not need.)
    from kiosk.darts.solo import Pace, SoloMode

    pace = Pace(dart=cfg["solo.dart_seconds"], takeout=cfg["solo.takeout_seconds"])
    kiosk.solo = SoloMode(service, loop, pace=pace).attach()
    if service.resume():
        log.info("resumed game %s", service.game)
    if with_devices:
        _attach_devices(kiosk, loop)
    if cfg["web.enabled"]:
        from ui.handheld.server import start_web

        # Headless, the terminal is the only place the team links can be read.
        kiosk.web = await start_web(service, cfg, print_links=headless)
    return kiosk


def _team_names(text: str) -> tuple[str, str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) != 2 or names[0] == names[1]:
        raise SystemExit(_("--teams needs two different names, like Sharks,Jets"))
    return names[0], names[1]


async def run_headless(cfg: config_module.Config, teams: tuple[str, str]) -> int:
    kiosk = await start(cfg, headless=True)
    try:
        if kiosk.service.match is None or kiosk.service.match.winner is not None:
            kiosk.service.new_game(Setup(tuple(Team(n, (n,)) for n in teams),  # type: ignore[arg-type]
                                         cfg.house_rules()))
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
    interval = kiosk.notifier.watchdog_seconds() or 5.0
    while not stop.is_set():
        kiosk.heartbeat()
        await asyncio.sleep(interval)


async def run_screen(cfg: config_module.Config) -> int:
    kiosk = await start(cfg)
    try:
        from ui.touch.app import run_app

        await run_app(kiosk)
    finally:
        await kiosk.stop()
    return 0


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    logs.setup()
    try:
        cfg = configure(args)
    except config_module.ConfigError as err:  # a bad --port or --db on the command line
        for problem in err.problems:
            print(problem, file=sys.stderr)
        return 2
    set_language(cfg["kiosk.language"])
    try:
        if args.headless:
            return asyncio.run(run_headless(cfg, _team_names(args.teams)))
        return asyncio.run(run_screen(cfg))
    except StoreError as err:
        print(f"dartship run: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
