"""The contracts devices and faces implement, in gpiozero's way: a port says what an
implementation MUST do and what it MAY do; `hardware/` implements the devices (a real backend
and a simulated one for each), `ui/handheld` the phone server. The screen sees devices only
through these, and the composition root (`kiosk.app.root`) is the only place that picks an
implementation.

Threads: a device is handed a `Sink` when it is built and calls it from its own thread with
immutable `kiosk.inputs` events. The root's sink is
`lambda event: loop.call_soon_threadsafe(queue.put_nowait, event)`; a device never touches a game
or a widget. Tests pass `queue.Queue().put`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

from kiosk.board import BullZone, Cell, Profile
from kiosk.inputs import Button, InputEvent
from kiosk.league.membership import LeagueStatus, Membership
from kiosk.scatter import Landing, Skill
from kiosk.sound import Sound
from kiosk.speech import Words

Sink = Callable[[InputEvent], None]


class Device(Protocol):
    """Anything with a thread or a pin to let go of.

    MUST: `start()` returns at once (the work runs in the device's own thread or in callbacks)
    and reports `Connected`/`Info` through the sink as it learns them; `stop()` releases threads,
    pins and ports, may be called more than once and before `start()`, and never raises.
    """

    def start(self) -> None: ...

    def stop(self) -> None: ...


class BoardInput(Device, Protocol):
    """Where darts come from: a serial board, the GPIO matrix or the simulator.

    MUST: deliver every dart as `DartInput`/`MissInput`, a board button as `ButtonInput`, and
    anything it cannot read as `BadLine`/`UnmappedInput`/`StuckInput`/`Info` (never raise in its
    thread, never stop reading because of bad input); `name` says what it is for the screen and
    `doctor` ("serial /dev/ttyACM0", "simulator (30 mm scatter)"); `profile` is what the board can
    report, and `rings_told` whether the board has said so yet (False only while a serial board
    in dialect `auto` has sent no line: its first one may change `profile`); `takes_out` whether
    the board itself ends a visit when its darts are pulled out (a camera scorer sees the hand and
    reports the takeout), so the screens do not ask for Next. MAY: report
    `Connected`/`Disconnected` (a board that can be unplugged must).
    """

    @property
    def name(self) -> str: ...

    @property
    def profile(self) -> Profile: ...

    @property
    def rings_told(self) -> bool: ...

    @property
    def takes_out(self) -> bool: ...


@runtime_checkable
class MappedBoard(Protocol):
    """A board input that reads its contacts through a board map (the GPIO matrix, a serial
    board): Settings -> Learn board hands it the map it saved, so the darts count with it at once.

    MUST: `use_map(path)` reads the map file at `path` and reads every contact after it with that
    map (and the map's profile, where the map decides it); it is safe while the board's thread
    reads, returns at once, and tells what the map lacks in the journal (the Learn screen that
    saved it says so on the screen). A map it cannot read raises ValueError (the reason, for the
    owner) and the board keeps the map it had.
    """

    def use_map(self, path: Path) -> None: ...


class Thrower(BoardInput, Protocol):
    """The simulator's board: darts from taps, typed cells and a virtual thrower.

    MUST: every method delivers what it makes through the same sink as a real board's darts
    (so the game sees no difference), and returns at once. `throw_at` aims at the cell's centre
    (`MISS`: off the board) and lands with the scatter of `skill`; `land` puts a dart exactly in
    a cell (a tap on the drawn board; `zone` says which part of the bull, where the screen can
    tell); `enter` takes a typed cell and returns the error message
    for a token that is not a cell (nothing is delivered then); `press` is a button.
    """

    skill: Skill

    def throw_at(self, target: Cell) -> Landing: ...

    def land(self, cell: Cell, raw: str = "tap", zone: BullZone | None = None) -> None: ...

    def enter(self, text: str) -> str | None: ...

    def press(self, button: Button) -> None: ...


class Buzzer(Protocol):
    """Sounds for the announcements.

    MUST: `play` returns at once (a pattern plays in the background; a new one cuts the old one
    short); a muted buzzer plays nothing; `close` releases the pin. MAY: ignore sounds it has no
    pattern for.
    """

    muted: bool

    def play(self, sound: Sound) -> None: ...

    def close(self) -> None: ...


class Voice(Protocol):
    """The caller's voice: a WAV file for each piece of a call (`kiosk.speech.Words`), in a
    language.

    MUST: `find(words, language)` answers at once, without rendering: the bar's own recording
    of `words.phrase` where there is one, else the synthetic rendering already in the cache,
    else None; `render(words, language)` makes the rendering (a subprocess: it blocks, so it is
    called from a thread, never the loop) and returns its path, or None when it cannot (said in
    the journal once, never raised); `problem()` is why it cannot speak at all (None: it can);
    `voices` is the voice of each language (changing it takes effect at the next rendering).
    Every method is safe from several threads at once. MAY: render ahead what it is given.
    """

    voices: dict[str, str]

    def find(self, words: Words, language: str) -> Path | None: ...

    def render(self, words: Words, language: str) -> Path | None: ...

    def problem(self) -> str | None: ...


class Speaker(Protocol):
    """Where the caller's sound comes out: the audio output.

    MUST: `open()` readies the audio device and returns None, or one line saying why there is
    none (every `play` then returns False at once); `play(path, volume)` plays one WAV file at
    `volume` (0 to 1) and returns True once it has played, or at once after `stop()` (called
    from another thread); it never raises (a file it cannot play is False) and blocks, so it is
    called from the caller's own thread, never the loop; `close()` lets the device go. MAY:
    keep recently played files loaded.
    """

    @property
    def name(self) -> str: ...

    def open(self) -> str | None: ...

    def play(self, path: Path, volume: float) -> bool: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


class LearnAnswer(Protocol):
    @property
    def message(self) -> str: ...


class Learner(Protocol):
    """The learn wizard as the Settings screen drives it (logic only: no I/O of its own).

    MUST: `prompt` is what to throw at now (None when every cell is done), `progress` is (cells
    done, cells in all); each action answers with a message for the screen and changes nothing
    it does not say; `map_text()` is the board map as a file (TOML) and `problems()` what it still
    lacks.
    """

    @property
    def prompt(self) -> str | None: ...

    @property
    def progress(self) -> tuple[int, int]: ...

    def contact(self, raw: str) -> LearnAnswer: ...

    def skip(self) -> LearnAnswer: ...

    def back(self) -> LearnAnswer: ...

    def redo(self) -> LearnAnswer: ...

    def problems(self) -> list[str]: ...

    def map_text(self) -> str: ...


LearnerFactory = Callable[[Profile], Learner]


class ScorerProbe(Protocol):
    """Asks a camera scorer (the Autodarts Board Manager at `url`) what it is and how it is.

    MUST: return one line for the owner (its version, whether it is scoring, the darts of the
    visit); raise OSError when it cannot be reached and ValueError when what answers is not
    one or is not scoring; never wait longer than a few seconds; never read its secrets.
    """

    async def __call__(self, url: str) -> str: ...


class PhoneServer(Protocol):
    """The phone page as the touchscreen sees it: the links of the game in play, their QR
    codes, and which team's link a phone holds.

    MUST: `team_url` is None for a side with no phone link (no game, the kiosk's own team in solo
    mode); a URL that is not None opens that team's private page and nothing else, and only on
    the one phone that holds it (the first to use it); `phone_held(team)` says whether a phone
    holds it; `move(team)` cuts that phone off at once and returns the team's new link (None:
    the team has no link); `subscribe(listener)` calls `listener()` on the loop whenever a link
    changes or a phone takes one, and returns the unsubscribe function; `qr_png` returns PNG
    bytes of a QR code of `url`; `page_url(path)` is the address of a page any phone may open (a
    game's own page, such as classic's solo games, daily challenge and rooms for friends).
    `stop()` closes every connection.
    """

    @property
    def base_url(self) -> str: ...

    def team_url(self, team: int) -> str | None: ...

    def spectator_url(self) -> str | None: ...

    def page_url(self, path: str) -> str: ...

    def phone_held(self, team: int) -> bool: ...

    def move(self, team: int) -> str | None: ...

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]: ...

    def qr_png(self, url: str, scale: int = 8) -> bytes: ...

    async def stop(self) -> None: ...


class LeagueDesk(Protocol):
    """The kiosk's membership of a league, as Settings -> League works it (`kiosk.app.league`
    implements it: the shell may speak HTTP, the screen may not).

    MUST: `status()` answers at once from the kiosk's own store (never the network) and never
    raises; `join` pairs with the hub at `hub` using a one-time `code` and, once the hub gave
    the kiosk its key, keeps it, writes `league.hub` to the config and starts sending, raising
    ValueError (the message for the owner: a bad code or address, the hub's refusal) or OSError
    (the hub cannot be reached) and changing nothing then; it never waits longer than about
    20 s. `leave` stops sending, forgets the key and the boards and clears `league.hub`; the
    games stay in the kiosk's statistics, its outbox keeps what was never sent; it returns how
    many games were still waiting. While in a league `join` MUST refuse (ValueError) unless
    `anew`: then a code for the same venue of the same league at the same hub pairs the kiosk
    anew (a revoked or lost key replaced) and what waits is sent with the new key; a code for
    any other venue is refused (ValueError) and nothing kept here changes.
    """

    def status(self) -> LeagueStatus: ...

    async def join(self, code: str, hub: str, anew: bool = False) -> Membership: ...

    def leave(self) -> int: ...


class Supervisor(Protocol):
    """What watches the kiosk from outside (systemd): told once the first frame is drawn (or,
    headless, the phone page is up), pinged from the loop that must stay alive, told when the
    kiosk stops. MUST never raise and never block."""

    def ready(self, status: str = "") -> bool: ...

    def watchdog(self) -> bool: ...

    def stopping(self) -> bool: ...

    def watchdog_seconds(self) -> float | None: ...


class Unsupervised:
    """Nobody watches (tests, screenshots): every call does nothing."""

    def ready(self, status: str = "") -> bool:
        return False

    def watchdog(self) -> bool:
        return False

    def stopping(self) -> bool:
        return False

    def watchdog_seconds(self) -> float | None:
        return None
