"""The root object: everything a running kiosk is, typed by its ports.

Built once by the composition root (`kiosk.app.root.build_kiosk`) and handed to the faces (the
touchscreen, tests, benches); they see devices only through the ports of `kiosk/ports.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from kiosk.caller import Caller
from kiosk.config import ConfigFile, Settings
from kiosk.i18n import _
from kiosk.ports import (
    BoardInput,
    Buzzer,
    Device,
    LeagueDesk,
    LearnerFactory,
    MappedBoard,
    PhoneServer,
    ScorerProbe,
    Supervisor,
    Thrower,
    Unsupervised,
)
from kiosk.rooms import Room
from kiosk.service import GameService, ServiceListener
from kiosk.store import Store
from kiosk.tenant import DatabaseLock

P = TypeVar("P", bound=ServiceListener)


@dataclass
class Kiosk:
    """Everything a running kiosk is, typed by its ports; stopped in order by `stop()`."""

    config: ConfigFile
    store: Store
    service: GameService
    rooms: tuple[Room, ...] = ()  # the games it hosts, in the order Home offers them
    board: BoardInput | None = None  # None: built without devices
    simulator: Thrower | None = None  # the board, when it is the simulator
    buttons: Device | None = None
    buzzer: Buzzer | None = None
    caller: Caller | None = None  # the voice: what the screen shows, said
    learner: LearnerFactory | None = None  # the learn wizard, where hardware support is there
    probe_scorer: ScorerProbe | None = None  # Settings' "test" of an Autodarts Board Manager
    league: LeagueDesk | None = None  # Settings -> League: join, leave, the status
    web: PhoneServer | None = None
    supervisor: Supervisor = field(default_factory=Unsupervised)
    service_task: asyncio.Task[None] | None = None
    on_stop: list[Callable[[], None]] = field(default_factory=list)  # undone first by stop()
    lock: DatabaseLock | None = None  # the database is this kiosk's until stop() (kiosk.tenant)

    @property
    def settings(self) -> Settings:
        return self.config.settings

    def ready(self) -> None:
        """The screen (or, headless, the web server) is up: tell systemd."""
        self.supervisor.ready(_("kiosk running"))
        if self.caller is not None:
            self.caller.face_up()  # Kivy and SDL are set up: the caller may open the audio

    def heartbeat(self) -> None:
        """Called from the loop that must stay alive (Kivy's clock on a screen): WATCHDOG=1.

        Pinging from the UI loop itself means a frozen screen is restarted, not just a dead
        process.
        """
        self.supervisor.watchdog()

    def participant(self, cls: type[P]) -> P:
        """The one participant of this class the service hosts (a game's computer seat, its
        timer: the game's own screens ask for theirs); LookupError if none."""
        for participant in self.service.participants():
            if isinstance(participant, cls):
                return participant
        raise LookupError(f"no {cls.__name__} takes part in this kiosk's games")

    def use_board_map(self, path: Path) -> bool:
        """Learn board saved a map at `path`: the running board counts with it from its next
        contact (True), where it reads a map (`MappedBoard`); False: this board reads none (the
        simulator, a camera scorer), the map is for a board set up later. ValueError: the map
        cannot be read (the board keeps the one it had)."""
        if not isinstance(self.board, MappedBoard):
            return False
        self.board.use_map(path)
        return True

    def devices(self) -> list[Device]:
        return [d for d in (self.board, self.buttons) if d is not None]

    async def stop(self) -> None:
        for undo in self.on_stop:
            undo()
        self.service.dismiss()
        for device in self.devices():
            with contextlib.suppress(Exception):
                device.stop()
        if self.buzzer is not None:
            with contextlib.suppress(Exception):
                self.buzzer.close()
        if self.caller is not None:
            with contextlib.suppress(Exception):
                self.caller.close()
        if self.web is not None:
            with contextlib.suppress(Exception):
                await self.web.stop()
        if self.service_task is not None:
            self.service_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.service_task
        self.supervisor.stopping()
        self.store.close()
        if self.lock is not None:
            self.lock.release()
