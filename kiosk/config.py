"""The kiosk's settings: one TOML file, typed sections, one owner that saves and tells.

* The option table IS the section dataclasses below: every field is a key (`rules.fleet`), its
  type says what it allows, its metadata gives the help and the allowed values. `config check`,
  `doctor`, the Settings screen and the README's table all read `OPTIONS`, built from them
  (tests/kiosk/test_config.py ties the README to it).
* `Settings` is a frozen value read by attribute (`settings.rules.darts_per_visit`); a change
  makes a new one.
* `ConfigFile` is the one owner of the file: it knows where it lives, which values came from the
  command line (`--port`, `--db`, `--simulator`: in effect, never written back), saves changes
  keeping the owner's comments, order and unknown keys (tomlkit), and tells its subscribers.
* A broken file never keeps the kiosk from starting: `strict=False` keeps each bad key's default
  and lists the problem (`config check` and `doctor` stay strict).
"""

from __future__ import annotations

import difflib
import enum
import os
import re
import reprlib
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from kiosk.board import Profile
from kiosk.errors import DartshipError
from kiosk.i18n import LANGUAGES, _
from kiosk.scatter import Skill
from kiosk.speech import DEFAULT_VOICES, VOICE_NAME

SYSTEM_CONFIG = Path("/etc/dartship/config.toml")
MAX_DEPTH = 2  # `section.key`: the option table has no deeper tables


class InputKind(enum.Enum):
    """Where darts come from."""

    SIMULATOR = "simulator"
    SERIAL = "serial"
    MATRIX = "matrix"
    AUTODARTS = "autodarts"


class SerialDialect(enum.Enum):
    """The serial boards' dialects (PROTOCOLS.md 1); hardware/dialects.py implements each."""

    AUTO = "auto"
    DARTSHIP = "dartship"
    NUMERIC = "numeric"
    X = "x"
    SEMICOLON = "semicolon"
    COLON = "colon"
    RC = "rc"
    GRANBOARD = "granboard"
    BRACKET = "bracket"


class CallerOutput(enum.Enum):
    """Where the caller's voice goes."""

    AUDIO = "audio"  # the audio device (HDMI or headphones), through SDL2
    LOG = "log"  # the journal only: what it would say, no sound


class BuzzerKind(enum.Enum):
    NONE = "none"
    ACTIVE = "active"
    TONAL = "tonal"


@dataclass(frozen=True)
class Problem:
    """One bad key (or the file itself, as `key`) and what is wrong with it."""

    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.key}: {self.message}"


class ConfigError(DartshipError, ValueError):
    """A config that cannot be used. `issues` lists every bad key with its message."""

    def __init__(self, issues: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in issues))
        self.issues = issues

    @property
    def problems(self) -> list[str]:
        return [str(p) for p in self.issues]


# ---- what a value may be -----------------------------------------------------------------

T = TypeVar("T")
Check = Callable[[Any], "str | None"]  # a message when the (typed) value is bad


def _range(lo: float, hi: float) -> Check:
    def check(value: float) -> str | None:
        return None if lo <= value <= hi else _("must be from {lo} to {hi}").format(lo=lo, hi=hi)

    return check


def _baud(value: int) -> str | None:
    if value == 0 or 300 <= value <= 4_000_000:
        return None
    return _("must be 0 (told from the board) or from 300 to 4000000")


def _http_url(value: object) -> str | None:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(str(value).strip())
        parts.port  # noqa: B018 (raises for a port that is not a number)
    except ValueError as err:
        return _("is not a URL: {error}").format(error=err)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return _("must be a URL like http://HOST:3180")
    return None


def _by_the_rooms(key: str) -> Check:
    """A key whose values a game judges (its room's `setting_checks`): the dart game, the
    fleets of `rules.fleet`. Asked when a value is checked, so the config imports no game."""

    def check(value: object) -> str | None:
        for room in _judges():
            judge = room.setting_checks().get(key)
            if judge is not None and (problem := judge(value)) is not None:
                return problem
        return None

    return check


class _Judges(Protocol):
    """What the config asks of a game's room (`kiosk.rooms.Room`): the keys it judges."""

    @property
    def setting_checks(self) -> Callable[[], Mapping[str, Callable[[object], str | None]]]: ...

    @property
    def settings_problems(self) -> Callable[[Settings, frozenset[str]], Sequence[tuple[str, str]]]: ...


def _judges() -> list[_Judges]:
    """The hosted games' rooms (`kiosk/hosted.py`), as far as the config asks them."""
    from kiosk import hosted

    return [cast(_Judges, hosted.room(name)) for name in hosted.HOSTED]


class BullOffMode(enum.Enum):
    """rules.bull_off: who starts a dart game (the dart game's rules use these values)."""

    NORMAL = "normal"
    OFFICIAL = "official"
    OFF = "off"


# rules.fleet's presets by name (the dart game's fleets of these names: a test ties the two).
FLEET_PRESETS = ("default", "classic-five")


def _pins(value: Sequence[int]) -> str | None:
    if not all(0 <= p <= 27 for p in value):
        return _("must be a list of BCM GPIO numbers 0 to 27")
    if len(set(value)) != len(value):
        return _("names a pin twice")
    return None


def _pin(value: int) -> str | None:
    return None if -1 <= value <= 27 else _("must be a BCM GPIO number 0 to 27, or -1 for none")


def _port(value: int) -> str | None:
    return None if 0 <= value <= 65535 else _("must be a TCP port 1 to 65535, or 0 for any free one")


def _pin_code(value: str) -> str | None:
    return None if value.isdigit() and 4 <= len(value) <= 8 else _("must be 4 to 8 digits")


_HOST_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def _host(value: str) -> str | None:
    """An IP address or a host name that could exist (not `999.1.1.1`, not `my host`)."""
    import ipaddress  # here: `dartship referee` never checks a host

    try:
        ipaddress.ip_address(value)
        return None
    except ValueError:
        pass
    labels = value.rstrip(".").split(".")
    if (
        value
        and len(value) <= 253
        and all(_HOST_LABEL.match(label) for label in labels)
        and not labels[-1].isdigit()
    ):
        return None
    return _("must be an IP address (like 0.0.0.0 or 192.168.1.20) or a host name")


def setting(default: T, help: str, *, choices: tuple[T, ...] = (), check: Check | None = None) -> T:
    """One key of a section: its default, its help line, and what it allows beyond its type."""
    return field(default=default, metadata={"help": help, "choices": choices, "check": check})


# ---- the sections (the option table) ------------------------------------------------------


@dataclass(frozen=True)
class RulesSettings:
    """House rules (RULES.md): the defaults of a new game."""

    fleet: str = setting(
        "default",
        'ship lengths: a preset (default = 2,3,4,5; classic-five = 5,4,3,3,2) or a list like "5,4,3,2"',
        check=_by_the_rooms("rules.fleet"),
    )
    darts_per_visit: int = setting(3, "darts per visit", check=_range(1, 9))
    bull_off: BullOffMode = setting(
        BullOffMode.NORMAL,
        "who starts: normal (closest to the "
        "bull), official (a bull starts; both/neither throw again), "
        "off (first team named)",
    )
    takeout_seconds: int = setting(
        0,
        "seconds after a visit before the next starts by itself "
        "(0 = wait for Next; left out, a headless kiosk waits 30)",
        check=_range(0, 120),
    )
    double_next_seconds: float = setting(
        1.5,
        "a person's Next this soon after the last Next, before the new visit's first dart, "
        "is a double tap: refused, the new visit goes on (0 = off)",
        check=_range(0, 10),
    )


@dataclass(frozen=True)
class BoardSettings:
    input: InputKind = setting(InputKind.SIMULATOR, "where darts come from")
    profile: Profile = setting(Profile.FOUR_RING, "what the board can report")
    port: str = setting(
        "/dev/dartboard", "serial port: a device or any pyserial URL (socket://host:port, loop://)"
    )
    baud: int = setting(
        0, "serial speed (0: told from the board's first lines, 115200 then 9600)", check=_baud
    )
    dialect: SerialDialect = setting(
        SerialDialect.AUTO,
        "the serial board's dialect (auto: told from its first lines and remembered for the port)",
    )
    autodarts: str = setting(
        "http://localhost:3180", "the Autodarts Board Manager (board.input = autodarts)", check=_http_url
    )
    map: str = setting("", "board map file (raw contact -> cell), made by `dartship learn`")


@dataclass(frozen=True)
class MatrixSettings:
    rows: tuple[int, ...] = setting(
        (5, 6, 16, 20, 26, 7, 8), "BCM pins driven low one at a time", check=_pins
    )
    cols: tuple[int, ...] = setting(
        (4, 17, 27, 22, 23, 24, 25, 9, 10, 11), "BCM pins read with pull-ups", check=_pins
    )
    lockout_ms: int = setting(20, "after a dart, ignore the matrix this long", check=_range(0, 1000))
    debounce_scans: int = setting(3, "scans a contact must be closed to count", check=_range(1, 50))
    scan_hz: int = setting(1000, "full scans per second", check=_range(10, 20000))


@dataclass(frozen=True)
class ButtonsSettings:
    next: int = setting(-1, "Next button pin (-1 = none)", check=_pin)
    undo: int = setting(-1, "Undo button pin (-1 = none)", check=_pin)
    miss: int = setting(-1, "Miss button pin (-1 = none)", check=_pin)


@dataclass(frozen=True)
class MissSensorSettings:
    pin: int = setting(-1, "piezo or tilt switch pin (-1 = none)", check=_pin)
    grace_ms: int = setting(150, "a felt dart with no contact within this is a MISS", check=_range(10, 2000))


@dataclass(frozen=True)
class BuzzerSettings:
    kind: BuzzerKind = setting(BuzzerKind.NONE, "buzzer type")
    pin: int = setting(-1, "buzzer pin (-1 = none)", check=_pin)
    mute: bool = setting(False, "silence the buzzer")


def _voice(value: str) -> str | None:
    if VOICE_NAME.match(value):
        return None
    return _("must be an espeak-ng voice like en-gb, de or fi+f3 (see espeak-ng --voices)")


@dataclass(frozen=True)
class CallerSettings:
    enabled: bool = setting(True, "speak the calls (hit, sunk, whose turn) on the audio output")
    volume: int = setting(80, "the caller's volume in percent", check=_range(0, 100))
    say_cell: bool = setting(False, 'say the thrown cell before its result ("T20, hit")')
    phone_duels: bool = setting(
        True, "call the sinks and the winner of duels played in phone rooms (never a square)"
    )
    voice_en: str = setting(DEFAULT_VOICES["en"], "espeak-ng voice for English", check=_voice)
    voice_de: str = setting(DEFAULT_VOICES["de"], "espeak-ng voice for German", check=_voice)
    voice_fi: str = setting(DEFAULT_VOICES["fi"], "espeak-ng voice for Finnish", check=_voice)
    recordings: str = setting(
        "",
        "folder of recorded WAVs named by phrase, said instead of the "
        "synthetic voice (empty: recordings/ in the data folder)",
    )
    output: CallerOutput = setting(
        CallerOutput.AUDIO, "where the voice goes: the audio device, or only the journal"
    )

    def voice(self, language: str) -> str:
        return str(getattr(self, f"voice_{language}", DEFAULT_VOICES["en"]))

    def voices(self) -> dict[str, str]:
        return {language: self.voice(language) for language in DEFAULT_VOICES}

    def recordings_path(self) -> Path:
        return Path(self.recordings).expanduser() if self.recordings else data_dir() / "recordings"


@dataclass(frozen=True)
class SimulatorSettings:
    skill: Skill = setting(Skill.PUB, "scatter of the virtual thrower")


@dataclass(frozen=True)
class SoloSettings:
    dart_seconds: float = setting(
        1.2, "solo mode: pause before each of the kiosk's darts", check=_range(0, 10)
    )
    takeout_seconds: float = setting(
        3.0, "solo mode: after its visit the kiosk presses Next after this many seconds", check=_range(0, 60)
    )
    shot_seconds: float = setting(
        1.0,
        "classic solo (screen and phones): pause before each of the computer's shots",
        check=_range(0, 10),
    )


@dataclass(frozen=True)
class DisplaySettings:
    fullscreen: bool = setting(False, "fill the screen (on the Pi: true)")
    width: int = setting(1280, "window width when not fullscreen", check=_range(320, 7680))
    height: int = setting(720, "window height when not fullscreen", check=_range(240, 4320))
    rotation: int = setting(0, "screen rotation in degrees", choices=(0, 90, 180, 270))
    kiosk_mode: bool = setting(False, "hide the cursor, ignore Escape (else Escape asks before quitting)")


@dataclass(frozen=True)
class WebSettings:
    enabled: bool = setting(True, "serve the phone page")
    host: str = setting("0.0.0.0", "address the phone page listens on", check=_host)
    port: int = setting(8080, "port of the phone page (0: any free one, printed at start)", check=_port)


@dataclass(frozen=True)
class KioskSettings:
    language: str = setting("en", "language of the screen", choices=LANGUAGES)
    pin: str = setting("1234", "PIN for Settings", check=_pin_code)
    database: str = setting("", "SQLite file (empty: dartship.db in the data folder)")


def _hub_url(value: str) -> str | None:
    if value == "" or re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", value):
        return None
    return _(
        "must be a web address (http:// or https://), like https://league.example.org (empty: no league)"
    )


@dataclass(frozen=True)
class LeagueSettings:
    hub: str = setting(
        "",
        "the league hub's address, set by `dartship league join` (empty: the kiosk is in no league)",
        check=_hub_url,
    )
    hold_seconds: int = setting(
        120,
        "a finished game goes to the league after this long (the time to undo a misread winning dart)",
        check=_range(0, 3600),
    )


SECTIONS: dict[str, type] = {
    "rules": RulesSettings,
    "board": BoardSettings,
    "matrix": MatrixSettings,
    "buttons": ButtonsSettings,
    "miss_sensor": MissSensorSettings,
    "buzzer": BuzzerSettings,
    "caller": CallerSettings,
    "simulator": SimulatorSettings,
    "solo": SoloSettings,
    "display": DisplaySettings,
    "web": WebSettings,
    "kiosk": KioskSettings,
    "league": LeagueSettings,
}


@dataclass(frozen=True)
class Settings:
    """Every setting in effect, by attribute. Frozen: a change makes a new one."""

    rules: RulesSettings = field(default_factory=RulesSettings)
    board: BoardSettings = field(default_factory=BoardSettings)
    matrix: MatrixSettings = field(default_factory=MatrixSettings)
    buttons: ButtonsSettings = field(default_factory=ButtonsSettings)
    miss_sensor: MissSensorSettings = field(default_factory=MissSensorSettings)
    buzzer: BuzzerSettings = field(default_factory=BuzzerSettings)
    caller: CallerSettings = field(default_factory=CallerSettings)
    simulator: SimulatorSettings = field(default_factory=SimulatorSettings)
    solo: SoloSettings = field(default_factory=SoloSettings)
    display: DisplaySettings = field(default_factory=DisplaySettings)
    web: WebSettings = field(default_factory=WebSettings)
    kiosk: KioskSettings = field(default_factory=KioskSettings)
    league: LeagueSettings = field(default_factory=LeagueSettings)

    def get(self, key: str) -> object:
        """A value by its dotted key (the Settings screen and `config show` go by key)."""
        section, name = OPTION_BY_KEY[key].section, OPTION_BY_KEY[key].name
        return getattr(getattr(self, section), name)

    def with_values(self, values: Mapping[str, Any]) -> Settings:
        """A copy with some keys set to (already typed and checked) values."""
        by_section: dict[str, dict[str, Any]] = {}
        for key, value in values.items():
            option = OPTION_BY_KEY[key]
            by_section.setdefault(option.section, {})[option.name] = value
        changes = {name: replace(getattr(self, name), **parts) for name, parts in by_section.items()}
        return replace(self, **changes)

    def items(self) -> Iterator[tuple[str, Any]]:
        for option in OPTIONS:
            yield option.key, self.get(option.key)

    def changed(self) -> dict[str, Any]:
        """Only the keys that differ from the defaults."""
        return {k: v for k, v in self.items() if v != OPTION_BY_KEY[k].default}

    def database_path(self) -> Path:
        if self.kiosk.database:
            return Path(self.kiosk.database).expanduser()
        return data_dir() / "dartship.db"


# ---- the option table, read off the sections ---------------------------------------------


@dataclass(frozen=True)
class Option:
    key: str
    section: str
    name: str
    kind: Any  # the field's type: int, float, bool, str, an Enum class or tuple[int, ...]
    default: Any
    help: str
    choices: tuple[Any, ...]  # typed values; for an enum, its members
    check: Check | None

    @property
    def allowed(self) -> tuple[str, ...]:
        """The allowed values as written in the file (for messages, doctor, the README)."""
        return tuple(str(to_toml(c)) for c in self.choices)

    def parse(self, raw: object) -> object:
        """The typed value of what the file says; ValueError with the message when bad."""
        value = _typed(self, raw)
        if self.choices and value not in self.choices:
            raise ValueError(
                _("{value!r} is not allowed; use one of: {choices}").format(
                    value=_Shown(raw), choices=", ".join(self.allowed)
                )
            )
        if self.check is not None:
            message = self.check(value)
            if message:
                raise ValueError(message)
        return value


class _Shown:
    """A value as a message shows it (`{value!r}`): shortened, a file may hold a long list."""

    _repr = reprlib.Repr()
    _repr.maxlist = _repr.maxtuple = 8
    _repr.maxstring = _repr.maxother = 60

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        return self._repr.repr(self.value)


def _typed(option: Option, raw: object) -> object:
    shown = _Shown(raw)
    kind = option.kind
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        for member in kind:
            if raw == member.value:
                return member
        raise ValueError(
            _("{value!r} is not allowed; use one of: {choices}").format(
                value=shown, choices=", ".join(option.allowed)
            )
        )
    if kind is bool:
        if type(raw) is not bool:
            raise ValueError(_("must be true or false, got {value!r}").format(value=shown))
        return raw
    if kind is int:
        if type(raw) is not int:
            raise ValueError(_("must be a whole number, got {value!r}").format(value=shown))
        return raw
    if kind is float:
        if not isinstance(raw, int | float) or isinstance(raw, bool):
            raise ValueError(_("must be a number, got {value!r}").format(value=shown))
        return float(raw)
    if kind is str:
        if option.key == "rules.fleet" and isinstance(raw, list):
            if not all(type(n) is int for n in raw):
                raise ValueError(_("fleet must be a list of whole numbers"))
            return ",".join(str(n) for n in raw)
        if option.key == "kiosk.pin" and type(raw) is int and raw >= 0:
            return str(raw)  # `pin = 1234` unquoted is what owners write
        if not isinstance(raw, str):
            raise ValueError(_("must be text, got {value!r}").format(value=shown))
        return raw
    # tuple[int, ...]: a list of whole numbers
    if not isinstance(raw, list | tuple) or not all(type(n) is int for n in raw):
        raise ValueError(_("must be a list of whole numbers, got {value!r}").format(value=shown))
    return tuple(raw)


def to_toml(value: object) -> object:
    """A typed value as the file writes it."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def _options() -> tuple[Option, ...]:
    table: list[Option] = []
    for section, cls in SECTIONS.items():
        hints = typing.get_type_hints(cls)
        for f in fields(cls):
            kind = hints[f.name]
            choices = f.metadata["choices"]
            if isinstance(kind, type) and issubclass(kind, enum.Enum):
                choices = tuple(kind)
            table.append(
                Option(
                    f"{section}.{f.name}",
                    section,
                    f.name,
                    kind,
                    f.default,
                    f.metadata["help"],
                    tuple(choices),
                    f.metadata["check"],
                )
            )
    return tuple(table)


OPTIONS: tuple[Option, ...] = _options()
OPTION_BY_KEY: dict[str, Option] = {o.key: o for o in OPTIONS}
PRESET_NAMES = FLEET_PRESETS


def check_values(values: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    """Typed values of the good keys, and a problem for every bad or unknown one."""
    good: dict[str, Any] = {}
    problems: list[Problem] = []
    for key, raw in values.items():
        option = OPTION_BY_KEY.get(key)
        if option is None:
            problems.append(Problem(key, _unknown(key)))
            continue
        try:
            good[key] = option.parse(raw)
        except ValueError as err:
            problems.append(Problem(key, str(err)))
    return good, problems


def _unknown(key: str) -> str:
    """ "unknown setting", with the key meant where one is near: a typo ("caller.volumen"), or
    the right name in the wrong section ("kiosk.voice_de")."""
    name = key.rpartition(".")[2]
    near = [k for k in OPTION_BY_KEY if k.rpartition(".")[2] == name]
    if not near:
        near = difflib.get_close_matches(key, list(OPTION_BY_KEY), n=1, cutoff=0.8)
    if len(near) == 1:
        return _("unknown setting; did you mean {key}?").format(key=near[0])
    return _("unknown setting")


# ---- files -------------------------------------------------------------------------------


def data_dir() -> Path:
    """Where the kiosk keeps its data: $STATE_DIRECTORY (systemd), else the XDG data home."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0])
    base = os.environ.get("XDG_DATA_HOME")
    if not base:
        try:
            base = str(Path.home() / ".local" / "share")
        except RuntimeError:  # no home directory at all ($HOME unset, no passwd entry)
            return Path.cwd() / "dartship-data"
    return Path(base) / "dartship"


def voice_cache_dir() -> Path:
    """Where the caller's rendered phrases are kept: in the data folder (install.sh renders them
    there as the kiosk's user)."""
    return data_dir() / "voice-cache"


def candidates() -> tuple[Path, ...]:
    """Where a config file is looked for, first match wins (after --config, $DARTSHIP_CONFIG)."""
    return (SYSTEM_CONFIG, data_dir() / "config.toml")


def default_path() -> Path | None:
    env = os.environ.get("DARTSHIP_CONFIG")
    if env:
        return Path(env)
    for candidate in candidates():
        try:
            if candidate.exists():
                return candidate
        except OSError:  # an unreadable folder on the way: not there for us
            continue
    return None


def _flatten(
    table: Mapping[str, Any], problems: list[Problem], prefix: str = "", depth: int = 1
) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in table.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            if depth >= MAX_DEPTH:
                problems.append(
                    Problem(
                        dotted, _("a table nested deeper than section.key; the settings are all section.key")
                    )
                )
                continue
            flat.update(_flatten(value, problems, dotted + ".", depth + 1))
            continue
        too_deep = _nested_too_deep(dotted, value)
        if too_deep is not None:
            problems.append(too_deep)
        else:
            flat[dotted] = value
    return flat


def _nested_too_deep(key: str, value: object) -> Problem | None:
    """An array (or a table inside one) nested deeper than the key takes, named by its path
    (`matrix.rows[2]`). No key takes more than a flat list of numbers. Walked without recursion:
    the file may nest as deep as the TOML reader allows."""
    option = OPTION_BY_KEY.get(key)
    takes_list = option is not None and (option.kind not in (int, float, bool, str) or key == "rules.fleet")
    allowed = 1 if takes_list else 0
    stack: list[tuple[str, Any, int]] = [(key, value, 0)]
    while stack:
        path, item, depth = stack.pop()
        if isinstance(item, list | dict):
            if depth >= allowed:
                what = (
                    _("a list of numbers")
                    if takes_list
                    else _("a single value (text, a number, true or false)")
                )
                return Problem(path, _("nested deeper than this setting takes ({what})").format(what=what))
            entries = item.items() if isinstance(item, dict) else enumerate(item)
            stack.extend((f"{path}[{name}]", inner, depth + 1) for name, inner in entries)
    return None


def _from_text(text: str, where: str) -> tuple[dict[str, Any], list[Problem]]:
    import tomllib  # here, and tomlkit where a file is written: only a start that reads a file pays

    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        return {}, [Problem(where, _("not valid TOML: {error}").format(error=err))]
    except RecursionError:
        return {}, [Problem(where, _("not valid TOML: nested too deeply"))]
    problems: list[Problem] = []
    flat = _flatten(table, problems)
    good, bad = check_values(flat)
    for problem in between_keys(build(good), good):
        good.pop(problem.key, None)  # lenient: that key keeps its default
        bad.append(problem)
    return good, problems + bad


def between_keys(settings: Settings, keys: Iterable[str]) -> list[Problem]:
    """What no key shows alone, as the games judge it (each room's `settings_problems`: the
    dart game's fleet that cannot be played on the board's profile). Judged only when one of
    `keys` (those set) is involved: the defaults go together."""
    chosen = frozenset(keys)
    return [
        Problem(key, message)
        for room in _judges()
        for key, message in room.settings_problems(settings, chosen)
    ]


def build(values: Mapping[str, Any]) -> Settings:
    """Settings from typed values by key (defaults for the rest)."""
    return Settings().with_values(values)


def parse(text: str, path: Path | None = None, *, strict: bool = True) -> Settings:
    return parse_file(text, path, strict=strict).settings


def parse_file(text: str, path: Path | None = None, *, strict: bool = True) -> ConfigFile:
    good, problems = _from_text(text, str(path) if path else "config")
    if problems and strict:
        raise ConfigError(problems)
    return ConfigFile(path, good, problems=problems)


def read(
    path: Path | str | None = None, *, strict: bool = True, overrides: Mapping[str, Any] | None = None
) -> ConfigFile:
    """The config file's owner (the defaults when there is no file).

    The kiosk itself reads with `strict=False`: a broken file never keeps it from starting;
    every bad key keeps its default and is listed in `problems` (`dartship config check` and
    `doctor` stay strict). `overrides` (typed values by key) come from the command line: in
    effect, never saved.
    """
    chosen = Path(path) if path else default_path()
    problems: list[Problem] = []
    if chosen is None:
        return ConfigFile(None, {}, overrides=overrides)
    try:
        text = chosen.read_text(encoding="utf-8")
    except FileNotFoundError:
        if chosen == SYSTEM_CONFIG:
            return ConfigFile(chosen, {}, overrides=overrides)
        problems.append(Problem(str(chosen), _("no such config file")))
    except (OSError, UnicodeDecodeError) as err:
        problems.append(Problem(str(chosen), _("cannot read: {error}").format(error=err)))
    else:
        good, problems = _from_text(text, str(chosen))
        if problems and strict:
            raise ConfigError(problems)
        return ConfigFile(chosen, good, overrides=overrides, problems=problems)
    if strict:
        raise ConfigError(problems)
    return ConfigFile(chosen, {}, overrides=overrides, problems=problems)


def load(path: Path | str | None = None, *, strict: bool = True) -> Settings:
    """The settings of the config file (see `read`)."""
    return read(path, strict=strict).settings


def load_with(path: Path | str | None, changes: Mapping[str, Any]) -> Settings:
    """The file's settings with some keys given on a tool's command line (as TOML values,
    checked like the file's). ConfigError names every bad key."""
    typed, problems = check_values(changes)
    if problems:
        raise ConfigError(problems)
    return load(path).with_values(typed)


def reference_table() -> str:
    """The README's table of every key (`dartship config reference` prints it)."""
    import tomlkit

    rows = ["| key | default | what it does | allowed |", "|---|---|---|---|"]
    for o in OPTIONS:
        default = tomlkit.item(to_toml(o.default)).as_string()
        allowed = ", ".join(f"`{a}`" for a in o.allowed)
        rows.append(f"| `{o.key}` | `{default}` | {o.help} | {allowed} |")
    return "\n".join(rows) + "\n"


def dump(settings: Settings, only_changed: bool = False) -> str:
    """Settings as a whole new TOML file, grouped by section, each key's help as a comment."""
    import tomlkit

    doc = tomlkit.document()
    keys = settings.changed() if only_changed else dict(settings.items())
    for section in SECTIONS:
        options = [o for o in OPTIONS if o.section == section and o.key in keys]
        if not options:
            continue
        table = tomlkit.table()
        for option in options:
            table.add(tomlkit.comment(option.help))
            table.add(option.name, to_toml(settings.get(option.key)))
        doc.add(section, table)
    return tomlkit.dumps(doc)


@dataclass(frozen=True)
class SettingsChanged:
    """What a save changed: old and new settings, and the keys whose values differ."""

    old: Settings
    new: Settings
    keys: frozenset[str]
    path: Path


class ConfigFile:
    """The one owner of the config file and of the settings in effect."""

    def __init__(
        self,
        path: Path | None,
        values: Mapping[str, Any],
        *,
        overrides: Mapping[str, Any] | None = None,
        problems: list[Problem] | None = None,
    ) -> None:
        self.path = path
        self.problems: tuple[Problem, ...] = tuple(problems or ())
        self.overrides: dict[str, Any] = dict(overrides or {})
        self._from_file = build(values)
        self._written = frozenset(values)
        self._listeners: list[Callable[[SettingsChanged], None]] = []

    @property
    def settings(self) -> Settings:
        """The settings in effect: the file's, then the command line's on top."""
        return self._from_file.with_values(self.overrides)

    def overridden(self, key: str) -> bool:
        """True for a key set on the command line: shown, in effect, never saved."""
        return key in self.overrides

    def written(self, key: str) -> bool:
        """True for a key the owner set (in the file or on the command line), even to its
        default: where a default depends on how the kiosk runs, a written value still wins."""
        return key in self._written or key in self.overrides

    def save_path(self) -> Path:
        """Where a save goes: the file the settings came from, else the data folder's."""
        return self.path or data_dir() / "config.toml"

    def subscribe(self, listener: Callable[[SettingsChanged], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def save(self, raw: Mapping[str, Any]) -> SettingsChanged:
        """Check `raw` values (as typed on a screen: TOML-like), write the file, tell everyone.

        Raises ConfigError (nothing saved) for any bad key or a key set on the command line,
        OSError when the file cannot be written (nothing changed either).
        """
        typed, problems = check_values(raw)
        problems += [Problem(k, _("is set on the command line")) for k in raw if self.overridden(k)]
        new_file = self._from_file.with_values(typed)
        problems += between_keys(new_file, typed) if not problems else []
        if problems:
            raise ConfigError(problems)
        old = self.settings
        path = self.save_path()
        # A key the file holds a bad value for is written even when the screen shows its default
        # unchanged (that default is what the kiosk ran on): else the bad value stays in the
        # file, and every start after the save says the same problem again.
        broken = {p.key for p in self.problems}
        changes = {k: v for k, v in typed.items() if self._from_file.get(k) != v or k in broken}
        write_changes(path, changes)
        self._from_file = new_file
        self._written |= frozenset(changes)
        # What the save wrote is good now, and so is the file itself (one that was no TOML is
        # kept aside as .broken, and a new one written).
        self.problems = tuple(p for p in self.problems if p.key not in changes and p.key != str(path))
        if self.path is None:
            self.path = path
        new = self.settings
        change = SettingsChanged(
            old, new, frozenset(k for k, _v in new.items() if old.get(k) != new.get(k)), path
        )
        for listener in list(self._listeners):
            listener(change)
        return change


def write_changes(path: Path, values: Mapping[str, Any]) -> None:
    """Set these keys in the file, keeping everything else as the owner wrote it; atomic (a
    power cut leaves the old file or the new one, never half of one).

    A section may be written as a table (`[web]`), an inline table (`web = {port = 8080}`) or
    dotted keys (`web.port = 8080`): a key is set where its section is, so the section's other
    keys stay. What is written is read back as `read` reads it before it replaces the file:
    ConfigError, nothing changed, if it would not give these values."""
    import tomllib
    from collections.abc import MutableMapping

    import tomlkit
    import tomlkit.exceptions
    import tomlkit.items

    try:
        text = path.read_text(encoding="utf-8")
        tomllib.loads(text)  # a file the kiosk cannot read is no file of settings to rewrite
        doc = tomlkit.parse(text)
    except FileNotFoundError:
        doc = tomlkit.document()
    except (UnicodeDecodeError, RecursionError, tomllib.TOMLDecodeError, tomlkit.exceptions.TOMLKitError):
        # A file that is not TOML (or not even text) is not ours to rewrite: keep it beside
        # the new one.
        path.replace(path.with_suffix(path.suffix + ".broken"))
        doc = tomlkit.document()
    for key, value in values.items():
        option = OPTION_BY_KEY[key]
        table = doc.get(option.section)
        if not isinstance(table, MutableMapping):  # none yet, or a value that is no section
            table = tomlkit.table()
            doc[option.section] = table
        if option.name not in table and isinstance(table, tomlkit.items.Table):
            table.add(tomlkit.comment(option.help))
        table[option.name] = to_toml(value)
    written = tomlkit.dumps(doc)
    good, _problems = _from_text(written, str(path))
    if any(good.get(key) != value for key, value in values.items()):
        refused = _("the file cannot be rewritten to hold this; nothing was saved")
        raise ConfigError([Problem(str(path), refused)])
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(written)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
