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
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.announce import buzzer_listener, sound_delay
from kiosk.app.sdnotify import Notifier
from kiosk.caller import Caller
from kiosk.config import CallerOutput, ConfigFile, InputKind, Settings, SettingsChanged
from kiosk.errors import DartshipError
from kiosk.funnel import InputFunnel
from kiosk.house import Kiosk
from kiosk.i18n import _, set_language
from kiosk.rooms import REGISTRY, Seating
from kiosk.service import GameService
from kiosk.store import Store, StoreError
from kiosk.tenant import DatabaseLock

if TYPE_CHECKING:
    from kiosk.board import Profile
    from kiosk.ports import Learner, PhoneServer
    from ui.handheld.server import WebServer

log = logging.getLogger("dartship")

# A game that ended this recently is brought back on its result card when the kiosk starts (a
# crash or power cut right after the winning dart must not hide the result, nor the chance to
# undo a misread winning dart); an older one is history (docs/decisions.md).
RESULT_KEPT_SECONDS = 10 * 60


class StartError(DartshipError, RuntimeError):
    """The kiosk cannot start (its port is taken, say); the message says what to do."""


async def build_kiosk(
    config: ConfigFile,
    *,
    devices: bool = True,
    web: bool | None = None,
    headless: bool = False,
    rng: random.Random | None = None,
    instant: bool = False,
    voice_cache: Path | None = None,
) -> Kiosk:
    """Open the store, start the phone page, resume the game in play, start the devices.

    `devices=False` builds no board, buttons or buzzer (tests that feed the service
    themselves); `web` overrides `web.enabled`; `headless` prints the phone links (no screen
    shows them) and serves the host's desk; `instant`: the games' participants make no pauses
    (the computer players' and the dice's; tests and screenshots); `voice_cache` where the
    caller's renderings go (the data folder's, or `build_offline`'s own folder). StartError
    (nothing left running) when the phone page's port is taken: another kiosk runs, most likely.
    """
    settings = config.settings
    loop = asyncio.get_running_loop()
    port = settings.web.port if (settings.web.enabled if web is None else web) else None
    store, lock = open_store(settings, port)  # refused here if another kiosk holds it
    service = GameService(store, rng=rng or random.Random())
    rooms = REGISTRY.rooms()
    # Before resume: a game picked up after a power cut gets its participants back (the service
    # attaches a room's participants while a game of its kind is in play).
    for room in rooms:
        seating = Seating(
            service,
            loop,
            config,
            random.Random(service.rng.getrandbits(64)),
            headless=headless,
            instant=instant,
        )
        service.host(room.name, room.participants(seating))
    kiosk = Kiosk(config, store, service, rooms=rooms, supervisor=Notifier(), lock=lock)
    kiosk.service_task = loop.create_task(service.run(), name="dartship-service")
    from kiosk.app.league import KioskLeague

    kiosk.league = league = KioskLeague(store, config)
    league.start()  # a kiosk with no league.hub: nothing runs, nothing is queued
    kiosk.on_stop.append(league.stop)
    kiosk.probe_scorer = _probe_scorer
    server = None
    if settings.web.enabled if web is None else web:
        # First: a port already taken (another kiosk) stops us before anything is resumed or
        # any board is opened twice.
        server = await _start_web(kiosk, headless, instant)
        lock.set_port(server.port)
    if service.resume(finished_within=RESULT_KEPT_SECONDS) and service.kind is not None:
        log.info("resumed game %s", service.game)
        REGISTRY.room(service.kind.name).resumed(service, service.rng)
    if devices:
        _attach_devices(kiosk, loop, voice_cache)
    if server is not None:
        server.use_thrower(kiosk.simulator)  # the host's throw pad, in simulator mode
        if kiosk.caller is not None:
            kiosk.on_stop.append(_caller_hears_phones(kiosk.caller, server))
            server.hear_tables(kiosk.caller.hear_table)  # a phone room's duel
    kiosk.on_stop.append(config.subscribe(lambda change: _settings_changed(kiosk, change)))
    return kiosk


async def _probe_scorer(url: str) -> str:
    """Settings' test of an Autodarts Board Manager (hardware, imported when asked)."""
    from hardware.autodarts import probe_text

    return await probe_text(url)


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
        log.error(
            "kiosk.database: %s; the kiosk uses %s instead (check it: dartship config check)", err, fallback
        )
    lock = DatabaseLock(fallback, "dartship run", port)
    try:
        return Store(fallback), lock
    except StoreError:
        lock.release()
        raise


async def _start_web(kiosk: Kiosk, headless: bool, instant: bool) -> WebServer:
    """The phone page (and, headless, the host's desk), returned; StartError if it cannot
    listen, with everything built so far stopped."""
    from ui.handheld.server import phone_rooms, start_web

    settings = kiosk.settings
    try:
        # Headless, the terminal is the only place the team links can be read.
        server = await start_web(
            kiosk.service, settings, print_links=headless, phones=phone_rooms(kiosk.rooms), instant=instant
        )
    except OSError as err:
        await kiosk.stop()
        raise StartError(
            _(
                "The phone page cannot listen on {host}:{port} ({error}). Is another kiosk running? "
                "Stop it, or give this one another port (--port, or web.port in the config)."
            ).format(host=settings.web.host, port=settings.web.port, error=err.strerror or err)
        ) from None
    kiosk.web = server
    return server


def build_offline(
    folder: Path, *, language: str = "en", seed: int = 7, size: tuple[int, int] = (800, 480)
) -> tuple[Kiosk, asyncio.AbstractEventLoop]:
    """A simulator kiosk on a loop of its own that the caller drives (`dartship screenshots` and
    the touchscreen tests drive Kivy's frames by hand): the phone page on 127.0.0.1 and a port
    the system picks (its QR codes appear as in a bar; it answers while the caller runs the
    loop), no pauses of the computer player, every random choice from `seed`, the database in
    `folder`, a window of `size` set as the live kiosk sets it (display.width and height)."""
    set_language(language)
    # The caller's voice goes to the journal only: screenshots and tests make no sound.
    values = {
        "board.input": InputKind.SIMULATOR,
        "kiosk.language": language,
        "caller.output": CallerOutput.LOG,
        "kiosk.database": str(folder / "dartship.db"),
        "display.width": size[0],
        "display.height": size[1],
        "web.host": "127.0.0.1",
        "web.port": 0,
    }
    config = ConfigFile(folder / "config.toml", values)
    loop = asyncio.new_event_loop()
    kiosk = loop.run_until_complete(
        build_kiosk(
            config, web=True, rng=random.Random(seed), instant=True, voice_cache=folder / "voice-cache"
        )
    )
    return kiosk, loop


def _learn_wizard(profile: Profile) -> Learner:
    """Settings' Learn board: the wizard, imported when the owner first opens it."""
    from hardware.learn import LearnWizard

    return LearnWizard(profile)


def _attach_devices(kiosk: Kiosk, loop: asyncio.AbstractEventLoop, voice_cache: Path | None = None) -> None:
    """Real or simulated devices, as the settings say; their events reach the service's queue."""
    from hardware import factory
    from hardware.simulator import SimulatedBoard

    sink = InputFunnel(loop, kiosk.service.queue)  # from the devices' threads, noise bounded
    settings = kiosk.settings
    kiosk.board = factory.build_board_input(
        settings, sink, rng=random.Random(kiosk.service.rng.getrandbits(64))
    )
    if isinstance(kiosk.board, SimulatedBoard):
        kiosk.simulator = kiosk.board
    board, configured = kiosk.board, settings.board.profile
    # What the board cannot tell outweighs board.profile (a numeric board runs three rings);
    # otherwise board.profile as it is now (Settings changes it without a restart).
    kiosk.service.board_profile = lambda: board.profile if board.profile is not configured else None
    kiosk.service.board_rings_told = lambda: board.rings_told
    kiosk.service.board_takes_out = lambda: board.takes_out
    kiosk.buttons = factory.build_buttons(settings, sink)
    for device in kiosk.devices():
        device.start()
    kiosk.buzzer = factory.build_buzzer(settings)
    kiosk.learner = _learn_wizard
    if kiosk.buzzer is not None:
        kiosk.on_stop.append(
            kiosk.service.subscribe(
                buzzer_listener(kiosk.buzzer, kiosk.service, delay=sound_delay(kiosk.service.participants()))
            )
        )
    voice, speaker = factory.build_voice(settings, voice_cache)
    caller = settings.caller
    # The same delay as the buzzer's: voice and buzzer go with the word on the screen.
    kiosk.caller = Caller(
        kiosk.service,
        voice,
        speaker,
        enabled=caller.enabled,
        volume=caller.volume / 100,
        say_cell=caller.say_cell,
        phone_duels=caller.phone_duels,
        delay=sound_delay(kiosk.service.participants()),
        wait_for_face=True,
    ).attach()


def _caller_hears_phones(caller: Caller, web: PhoneServer) -> Callable[[], None]:
    """The caller knows when the phones hold their links: a classic duel's first turn is
    called once the hand-over is done, with or without anyone at the touchscreen (returns the
    unsubscribe)."""
    caller.handed_over = lambda: all(web.team_url(side) is None or web.phone_held(side) for side in (0, 1))
    return web.subscribe(caller.phones_changed)


def _settings_changed(kiosk: Kiosk, change: SettingsChanged) -> None:
    """What changes at once when the owner saves Settings (the rest at the next start)."""
    new = change.new
    if kiosk.buzzer is not None:
        kiosk.buzzer.muted = new.buzzer.mute
    if kiosk.simulator is not None:
        kiosk.simulator.skill = new.simulator.skill
    if kiosk.caller is not None:
        caller = new.caller
        kiosk.caller.apply(
            caller.enabled, caller.volume / 100, caller.say_cell, caller.voices(), caller.phone_duels
        )
