"""The ONE composition root: `build_kiosk(config)` builds everything a kiosk is, once.

`dartship run` (screen or headless), `dartship screenshots`, the benches and the system tests
all get their kiosk from here, so what is tested is what runs. Hardware, the web server and Kivy
are imported here lazily (and the screen only by `kiosk.app.run`): `dartship referee` never pays
for them.

The loop: everything runs on the one asyncio loop that is running when `build_kiosk` is awaited
(Kivy's, in the live app). Device threads reach it only through the sink
(`kiosk.funnel.InputFunnel`: `loop.call_soon_threadsafe`, noise bounded).
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from kiosk.announce import buzzer_listener
from kiosk.app.sdnotify import Notifier
from kiosk.caller import Caller
from kiosk.classic.computer import ComputerSeat, ShotPace, pool
from kiosk.classic.match import ComputerLevel
from kiosk.classic.table import ensure_fleets
from kiosk.config import CallerOutput, ConfigFile, InputKind, Settings, SettingsChanged
from kiosk.darts.solo import SoloMode, ThrowPace
from kiosk.darts.takeout import TakeoutTimer
from kiosk.errors import DartshipError
from kiosk.express.pace import Pace
from kiosk.express.seats import ComputerSeats
from kiosk.funnel import InputFunnel
from kiosk.house import Kiosk
from kiosk.i18n import _, set_language
from kiosk.service import GameService
from kiosk.store import Store, StoreError
from kiosk.tenant import DatabaseLock

log = logging.getLogger("dartship")

# A game that ended this recently is brought back on its result card when the kiosk starts (a
# crash or power cut right after the winning dart must not hide the result, nor the chance to
# undo a misread winning dart); an older one is history (docs/decisions.md).
RESULT_KEPT_SECONDS = 10 * 60
# A kiosk without a screen has no Next button unless the phones press it; the next visit then
# starts by itself after this long (unless rules.takeout_seconds is set in the config).
HEADLESS_TAKEOUT_SECONDS = 30


class StartError(DartshipError, RuntimeError):
    """The kiosk cannot start (its port is taken, say); the message says what to do."""


def takeout_seconds(config: ConfigFile, headless: bool) -> float:
    """The takeout timer in effect: the config's, or for a headless kiosk whose config leaves
    it unset, `HEADLESS_TAKEOUT_SECONDS` (phones-only play never waits for ever)."""
    seconds = config.settings.rules.takeout_seconds
    if headless and not seconds and not config.written("rules.takeout_seconds"):
        return HEADLESS_TAKEOUT_SECONDS
    return seconds


def classic_computer(level: ComputerLevel, rng: random.Random) -> Any:
    """The classic computer of a level (`kiosk.classic.ai.Computer`): the AI, and numpy with
    it, is imported when the computer first plays, not at every start."""
    from kiosk.classic.ai import Computer

    return Computer(level, rng)


async def build_kiosk(config: ConfigFile, *, devices: bool = True, web: bool | None = None,
                      headless: bool = False, rng: random.Random | None = None,
                      pace: ThrowPace | None = None, classic_pace: ShotPace | None = None,
                      express_pace: Pace | None = None,
                      voice_cache: Path | None = None) -> Kiosk:
    """Open the store, start the phone page, resume the game in play, start the devices.

    `devices=False` builds no board, buttons or buzzer (tests that feed the service
    themselves); `web` overrides `web.enabled`; `headless` prints the phone links (no screen
    shows them) and serves the host's desk; `pace` overrides the computer player's pauses (0 in
    tests and screenshots), `classic_pace` the classic computer's (screen and phone rooms),
    `express_pace` Battleship Express's (the table's beats: the screen's dice, its computer
    seats and its buzzer keep one time); `voice_cache` where the caller's renderings go (the
    data folder's, or `build_offline`'s own folder). StartError (nothing left running) when
    the phone page's port is taken: another kiosk runs, most likely.
    """
    settings = config.settings
    loop = asyncio.get_running_loop()
    port = settings.web.port if (settings.web.enabled if web is None else web) else None
    store, lock = open_store(settings, port)  # refused here if another kiosk holds it
    service = GameService(store, rng=rng or random.Random())
    pace = pace or ThrowPace(dart=settings.solo.dart_seconds, takeout=settings.solo.takeout_seconds)
    # Before resume: a solo game picked up after a power cut gets its computer player back.
    solo = SoloMode(service, loop, pace=pace,
                    rng=random.Random(service.rng.getrandbits(64))).attach()
    takeout = TakeoutTimer(service, lambda: takeout_seconds(config, headless)).attach()
    classic_pace = classic_pace or ShotPace(shot=settings.solo.shot_seconds)
    classic = ComputerSeat(service, loop, classic_computer, pace=classic_pace,
                           rng=random.Random(service.rng.getrandbits(64)),
                           executor=pool("choose", 2), ponder_executor=pool("ponder", 1)).attach()
    express_seats = ComputerSeats(service, loop, pace=express_pace,
                                  rng=random.Random(service.rng.getrandbits(64))).attach()
    kiosk = Kiosk(config, store, service, solo, takeout, express_seats, classic=classic,
                  supervisor=Notifier(), lock=lock)
    kiosk.service_task = loop.create_task(service.run(), name="dartship-service")
    desk = None
    if settings.web.enabled if web is None else web:
        # First: a port already taken (another kiosk) stops us before anything is resumed or
        # any board is opened twice.
        desk = await _start_web(kiosk, headless, classic_pace)
        lock.set_port(_port_of(kiosk.web.base_url) if kiosk.web is not None else None)
    if service.resume(finished_within=RESULT_KEPT_SECONDS):
        log.info("resumed game %s", service.game)
        ensure_fleets(service, service.rng)  # a classic game a power cut left half placed
    if devices:
        _attach_devices(kiosk, loop, voice_cache)
    if desk is not None:
        desk.thrower = kiosk.simulator  # the host's throw pad, in simulator mode
    kiosk.on_stop.append(config.subscribe(lambda change: _settings_changed(kiosk, change)))
    return kiosk


def open_store(settings: Settings, port: int | None = None) -> tuple[Store, DatabaseLock]:
    """The configured database, and the lock that makes it this kiosk's (`DatabaseInUse`,
    naming the other kiosk, when one holds it: taken before anything is read or written). One
    that cannot be used otherwise (read-only, not ours, newer, a folder that does not exist)
    falls back to the default one, saying why, so a bad kiosk.database never keeps the kiosk
    from starting. The default one failing too is an error to show."""
    path = settings.database_path()
    lock = DatabaseLock(path, "dartship run", port)
    try:
        return Store(path), lock
    except StoreError as err:
        lock.release()
        if not settings.kiosk.database:
            raise
        default = replace(settings.kiosk, database="")
        fallback = replace(settings, kiosk=default).database_path()
        if fallback == path:
            raise
        log.error("kiosk.database: %s; the kiosk uses %s instead (check it: dartship config "
                  "check)", err, fallback)
    lock = DatabaseLock(fallback, "dartship run", port)
    try:
        return Store(fallback), lock
    except StoreError:
        lock.release()
        raise


def _port_of(url: str) -> int | None:
    return urlsplit(url).port


async def _start_web(kiosk: Kiosk, headless: bool, classic_pace: ShotPace) -> Any:
    """The phone page (and, headless, the host's desk, returned); StartError if it cannot
    listen, with everything built so far stopped."""
    from ui.handheld.server import start_web

    settings = kiosk.settings
    try:
        # Headless, the terminal is the only place the team links can be read.
        server = await start_web(kiosk.service, settings, print_links=headless,
                                 computer=classic_computer, classic_pace=classic_pace)
    except OSError as err:
        await kiosk.stop()
        raise StartError(_(
            "The phone page cannot listen on {host}:{port} ({error}). Is another kiosk running? "
            "Stop it, or give this one another port (--port, or web.port in the config).").format(
                host=settings.web.host, port=settings.web.port, error=err.strerror or err)) from None
    kiosk.web = server
    return server.desk


def build_offline(folder: Path, *, language: str = "en", seed: int = 7,
                  size: tuple[int, int] = (800, 480)) -> tuple[Kiosk, asyncio.AbstractEventLoop]:
    """A simulator kiosk on a loop of its own that the caller drives (`dartship screenshots` and
    the touchscreen tests drive Kivy's frames by hand): the phone page on 127.0.0.1 and a port
    the system picks (its QR codes appear as in a bar; it answers while the caller runs the
    loop), no pauses of the computer player, every random choice from `seed`, the database in
    `folder`, a window of `size` set as the live kiosk sets it (display.width and height)."""
    set_language(language)
    # The caller's voice goes to the journal only: screenshots and tests make no sound.
    values = {"board.input": InputKind.SIMULATOR, "kiosk.language": language,
              "caller.output": CallerOutput.LOG,
              "kiosk.database": str(folder / "dartship.db"), "display.width": size[0],
              "display.height": size[1], "web.host": "127.0.0.1", "web.port": 0}
    config = ConfigFile(folder / "config.toml", values)
    loop = asyncio.new_event_loop()
    kiosk = loop.run_until_complete(build_kiosk(config, web=True, rng=random.Random(seed),
                                                pace=ThrowPace(dart=0, takeout=0),
                                                classic_pace=ShotPace(shot=0),
                                                express_pace=Pace.instant(),
                                                voice_cache=folder / "voice-cache"))
    return kiosk, loop


def _attach_devices(kiosk: Kiosk, loop: asyncio.AbstractEventLoop,
                    voice_cache: Path | None = None) -> None:
    """Real or simulated devices, as the settings say; their events reach the service's queue."""
    from hardware import factory
    from hardware.learn import LearnWizard
    from hardware.simulator import SimulatedBoard

    sink = InputFunnel(loop, kiosk.service.queue)  # from the devices' threads, noise bounded
    settings = kiosk.settings
    kiosk.board = factory.build_board_input(
        settings, sink, rng=random.Random(kiosk.service.rng.getrandbits(64)))
    if isinstance(kiosk.board, SimulatedBoard):
        kiosk.simulator = kiosk.board
    kiosk.buttons = factory.build_buttons(settings, sink)
    for device in kiosk.devices():
        device.start()
    kiosk.buzzer = factory.build_buzzer(settings)
    kiosk.learner = LearnWizard
    if kiosk.buzzer is not None:
        kiosk.on_stop.append(kiosk.service.subscribe(buzzer_listener(
            kiosk.buzzer, kiosk.service, delay=kiosk.express_seats.sound_delay)))
    voice, speaker = factory.build_voice(settings, voice_cache)
    caller = settings.caller
    # The same delay as the buzzer's: voice and buzzer go with the word on the screen.
    kiosk.caller = Caller(kiosk.service, voice, speaker, enabled=caller.enabled,
                          volume=caller.volume / 100, say_cell=caller.say_cell,
                          delay=kiosk.express_seats.sound_delay, wait_for_face=True).attach()


def _settings_changed(kiosk: Kiosk, change: SettingsChanged) -> None:
    """What changes at once when the owner saves Settings (the rest at the next start)."""
    new = change.new
    if kiosk.buzzer is not None:
        kiosk.buzzer.muted = new.buzzer.mute
    if kiosk.simulator is not None:
        kiosk.simulator.skill = new.simulator.skill
    if kiosk.caller is not None:
        caller = new.caller
        kiosk.caller.apply(caller.enabled, caller.volume / 100, caller.say_cell, caller.voices())
