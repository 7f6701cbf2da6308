"""The kiosk's one config file: TOML, every key with a default, validated with messages that
name the key and what it allows.

Keys are dotted (`rules.darts_per_visit`); `Config` is read-only, `Config.with_changes` gives a
new one (the Settings screen uses it) and `dump` writes TOML back.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.darts.board import Profile
from kiosk.darts.fleet import PRESETS, PlacementError, parse_lengths
from kiosk.darts.match import BullOffMode, HouseRules
from kiosk.i18n import LANGUAGES, _

DEFAULT_PATHS = (Path("/etc/dartship/config.toml"),)


class ConfigError(ValueError):
    """A config that cannot be used. `problems` lists every bad key with its message."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Option:
    key: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    check: Callable[[Any], str | None] | None = None  # returns a message when the value is bad

    @property
    def kind(self) -> type:
        return type(self.default)


def _range(lo: float, hi: float) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if lo <= value <= hi else _("must be from {lo} to {hi}").format(lo=lo, hi=hi)
    return check


def _fleet(value: Any) -> str | None:
    try:
        parse_lengths(value)
    except PlacementError as err:
        return str(err)
    return None


def _pins(value: Any) -> str | None:
    if not all(type(p) is int and 0 <= p <= 27 for p in value):
        return _("must be a list of BCM GPIO numbers 0 to 27")
    if len(set(value)) != len(value):
        return _("names a pin twice")
    return None


def _pin(value: Any) -> str | None:
    return None if -1 <= value <= 27 else _("must be a BCM GPIO number 0 to 27, or -1 for none")


def _port(value: Any) -> str | None:
    return None if 1 <= value <= 65535 else _("must be a TCP port 1 to 65535")


def _pin_code(value: Any) -> str | None:
    return None if value.isdigit() and 4 <= len(value) <= 8 else _("must be 4 to 8 digits")


OPTIONS: tuple[Option, ...] = (
    # House rules (RULES.md): the defaults of a new game.
    Option("rules.fleet", "default", "ship lengths: a preset (default = 2,3,4,5; classic-five = "
           "5,4,3,3,2) or a list like \"5,4,3,2\"", check=_fleet),
    Option("rules.darts_per_visit", 3, "darts per visit", check=_range(1, 9)),
    Option("rules.bull_off", "normal", "who starts: normal (closest to the bull), official "
           "(a bull starts; both/neither throw again), off (first team named)",
           choices=tuple(m.value for m in BullOffMode)),
    Option("rules.takeout_seconds", 0, "seconds after a visit before the next starts by itself "
           "(0 = wait for Next)", check=_range(0, 120)),
    # The board and its input.
    Option("board.input", "simulator", "where darts come from",
           choices=("simulator", "serial", "matrix")),
    Option("board.profile", "four-ring", "what the board can report",
           choices=tuple(p.value for p in Profile)),
    Option("board.port", "/dev/dartboard", "serial port: a device or any pyserial URL "
           "(socket://host:port, loop://)"),
    Option("board.baud", 115200, "serial speed", check=_range(300, 4_000_000)),
    Option("board.dialect", "dartship", "the serial board's dialect",
           choices=("dartship", "numeric", "x", "semicolon", "colon", "rc", "granboard")),
    Option("board.map", "", "board map file (raw contact -> cell), made by `dartship learn`"),
    Option("matrix.rows", [5, 6, 16, 20, 26, 7, 8], "BCM pins driven low one at a time",
           check=_pins),
    Option("matrix.cols", [4, 17, 27, 22, 23, 24, 25, 9, 10, 11], "BCM pins read with pull-ups",
           check=_pins),
    Option("matrix.lockout_ms", 20, "after a dart, ignore the matrix this long", check=_range(0, 1000)),
    Option("matrix.debounce_scans", 3, "scans a contact must be closed to count",
           check=_range(1, 50)),
    Option("matrix.scan_hz", 1000, "full scans per second", check=_range(10, 20000)),
    Option("buttons.next", -1, "Next button pin (-1 = none)", check=_pin),
    Option("buttons.undo", -1, "Undo button pin (-1 = none)", check=_pin),
    Option("buttons.miss", -1, "Miss button pin (-1 = none)", check=_pin),
    Option("miss_sensor.pin", -1, "piezo or tilt switch pin (-1 = none)", check=_pin),
    Option("miss_sensor.grace_ms", 150, "a felt dart with no contact within this is a MISS",
           check=_range(10, 2000)),
    Option("buzzer.kind", "none", "buzzer type", choices=("none", "active", "tonal")),
    Option("buzzer.pin", -1, "buzzer pin (-1 = none)", check=_pin),
    Option("buzzer.mute", False, "silence the buzzer"),
    Option("simulator.skill", "pub", "scatter of the virtual thrower",
           choices=("pro", "pub", "casual", "novice")),
    Option("solo.dart_seconds", 1.2, "solo mode: pause before each of the kiosk's darts",
           check=_range(0, 10)),
    Option("solo.takeout_seconds", 3.0, "solo mode: after its visit the kiosk presses Next "
           "after this many seconds", check=_range(0, 60)),
    # Screen, phones, kiosk.
    Option("display.fullscreen", False, "fill the screen (on the Pi: true)"),
    Option("display.width", 1280, "window width when not fullscreen", check=_range(320, 7680)),
    Option("display.height", 720, "window height when not fullscreen", check=_range(240, 4320)),
    Option("display.rotation", 0, "screen rotation in degrees", choices=(0, 90, 180, 270)),
    Option("display.kiosk_mode", False, "hide the cursor, ignore Escape"),
    Option("web.enabled", True, "serve the phone page"),
    Option("web.host", "0.0.0.0", "address the phone page listens on"),
    Option("web.port", 8080, "port of the phone page", check=_port),
    Option("kiosk.language", "en", "language of the screen", choices=LANGUAGES),
    Option("kiosk.pin", "1234", "PIN for Settings", check=_pin_code),
    Option("kiosk.database", "", "SQLite file (empty: dartship.db in the data folder)"),
)
OPTION_BY_KEY = {o.key: o for o in OPTIONS}


def _check(option: Option, value: Any) -> tuple[Any, str | None]:
    where = option.key
    kind = option.kind
    if kind is float and type(value) is int:
        value = float(value)
    if option.key == "rules.fleet" and isinstance(value, list):
        pass
    elif kind is int and type(value) is not int:
        return value, _("{key}: must be a whole number, got {value!r}").format(key=where, value=value)
    elif kind is not int and not isinstance(value, kind):
        return value, _("{key}: must be {kind}, got {value!r}").format(
            key=where, kind={str: _("text"), bool: _("true or false"), list: _("a list")}.get(
                kind, kind.__name__), value=value)
    if option.choices and value not in option.choices:
        return value, _("{key}: {value!r} is not allowed; use one of: {choices}").format(
            key=where, value=value, choices=", ".join(str(c) for c in option.choices))
    if option.check:
        message = option.check(value)
        if message:
            return value, f"{where}: {message}"
    return value, None


class Config(Mapping[str, Any]):
    """The effective config: every key of OPTIONS, from the file or its default."""

    def __init__(self, values: Mapping[str, Any] | None = None, path: Path | None = None, *,
                 strict: bool = True, problems: list[str] | None = None) -> None:
        """`strict=False` keeps the default of every bad key and lists it in `problems`."""
        merged = {o.key: o.default for o in OPTIONS}
        problems = list(problems or [])
        for key, value in (values or {}).items():
            option = OPTION_BY_KEY.get(key)
            if option is None:
                problems.append(_("{key}: unknown setting").format(key=key))
                continue
            value, message = _check(option, value)
            if message:
                problems.append(message)
            else:
                merged[key] = value
        if problems and strict:
            raise ConfigError(problems)
        self._values = merged
        self.path = path
        self.problems = tuple(problems)

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def changed(self) -> dict[str, Any]:
        """Only the keys that differ from the defaults."""
        return {k: v for k, v in self._values.items() if v != OPTION_BY_KEY[k].default}

    def with_changes(self, **changes: Any) -> Config:
        """A new config with some keys changed (`rules__fleet="classic-five"` style or a dict)."""
        values = self.changed()
        values.update({k.replace("__", "."): v for k, v in changes.items()})
        return Config(values, self.path)

    def updated(self, changes: Mapping[str, Any]) -> Config:
        values = self.changed()
        values.update(changes)
        return Config(values, self.path)

    def house_rules(self) -> HouseRules:
        return HouseRules(
            fleet=parse_lengths(self["rules.fleet"]),
            darts_per_visit=self["rules.darts_per_visit"],
            bull_off=BullOffMode(self["rules.bull_off"]),
            profile=Profile(self["board.profile"]),
        )

    def database_path(self) -> Path:
        if self["kiosk.database"]:
            return Path(self["kiosk.database"]).expanduser()
        return data_dir() / "dartship.db"


def data_dir() -> Path:
    """Where the kiosk keeps its database: $STATE_DIRECTORY (systemd), else XDG data home."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "dartship"


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in table.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat


def parse(text: str, path: Path | None = None, *, strict: bool = True) -> Config:
    where = str(path) if path else "config"
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        problem = _("{where}: not valid TOML: {error}").format(where=where, error=err)
        if strict:
            raise ConfigError([problem]) from None
        return Config(path=path, strict=False, problems=[problem])
    return Config(_flatten(table), path, strict=strict)


def default_path() -> Path | None:
    env = os.environ.get("DARTSHIP_CONFIG")
    if env:
        return Path(env)
    for candidate in (*DEFAULT_PATHS, data_dir() / "config.toml"):
        if candidate.exists():
            return candidate
    return None


def load(path: Path | str | None = None, *, strict: bool = True) -> Config:
    """Read the config file (or the defaults when there is none).

    The kiosk itself loads with `strict=False`: a broken file never keeps it from starting; every
    bad key keeps its default and is listed in `Config.problems` (`dartship config check` and
    `doctor` stay strict).
    """
    path = Path(path) if path else default_path()
    if path is None:
        return Config()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if path in DEFAULT_PATHS:
            return Config(path=path)
        problem = _("{path}: no such config file").format(path=path)
    except (OSError, UnicodeDecodeError) as err:
        problem = _("{path}: cannot read: {error}").format(path=path, error=err)
    else:
        return parse(text, path, strict=strict)
    if strict:
        raise ConfigError([problem])
    return Config(path=path, strict=False, problems=[problem])


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def dump(config: Config, only_changed: bool = False) -> str:
    """The config as TOML, grouped by section, with each key's help as a comment."""
    lines: list[str] = []
    section = None
    keys = config.changed() if only_changed else dict(config)
    for option in OPTIONS:
        if option.key not in keys:
            continue
        head, name = option.key.split(".", 1)
        if head != section:
            if lines:
                lines.append("")
            lines.append(f"[{head}]")
            section = head
        lines.append(f"# {option.help}")
        lines.append(f"{name} = {_toml_value(config[option.key])}")
    return "\n".join(lines) + "\n"


def save(config: Config, path: Path) -> None:
    """Write atomically: a power cut leaves the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(dump(config, only_changed=True))
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


PRESET_NAMES = tuple(PRESETS)
