"""`dartship doctor`: what is wrong with this kiosk, and how to fix it.

Checks the config, the database, the board connection (serial port or GPIO), the display and
the address phones will use. Every check reads the machine only through an `Environment`
(the folders standing for /dev, /sys and /proc, the environment variables, who the kiosk runs
as, and a few probes), so tests run the same checks against a fake machine.

Nothing here writes: the database is opened `immutable` (no lock, no -wal/-shm file, which a
root-run doctor would otherwise leave behind owned by root), the serial port is opened only when
no program holds it (opening resets an Arduino), and the phone port is bound only when nobody
listens on it.

Run it as `sudo dartship doctor` on the Pi: it then judges access as the kiosk's own user and
groups (the ones `dartship.service` runs with), not as root.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import grp
import importlib.util
import os
import pwd
import socket
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from kiosk import config as config_module
from kiosk import store_faults
from kiosk.app.findings import Finding, Report, Severity
from kiosk.i18n import _, language, set_language
from kiosk.store import APPLICATION_ID, SCHEMA_VERSION
from kiosk.store_faults import Verdict, human_size

SERVICE_USER = "dartship"
# The groups systemd/dartship.service gives the kiosk (SupplementaryGroups=).
SERVICE_GROUPS = ("video", "render", "input", "gpio", "dialout", "audio")
STATE_DIR = Path("/var/lib/dartship")


@dataclass(frozen=True)
class Identity:
    """Who the kiosk runs as: the access to a device or folder is judged for this user."""

    name: str
    uid: int
    gids: frozenset[int]

    def can(self, path: Path, mode: int) -> bool:
        """Whether this user may open `path` with `mode` (os.R_OK | os.W_OK ...), by its bits."""
        try:
            st = path.stat()
        except OSError:
            return False
        if self.uid == 0:
            return True
        bits = st.st_mode
        if st.st_uid == self.uid:
            allowed = (bits >> 6) & 7
        elif st.st_gid in self.gids:
            allowed = (bits >> 3) & 7
        else:
            allowed = bits & 7
        wanted = (4 if mode & os.R_OK else 0) | (2 if mode & os.W_OK else 0) | (1 if mode & os.X_OK else 0)
        return allowed & wanted == wanted

    @classmethod
    def current(cls) -> Identity:
        return cls(
            pwd.getpwuid(os.getuid()).pw_name if _has_uid(os.getuid()) else str(os.getuid()),
            os.getuid(),
            frozenset([os.getgid(), *os.getgroups()]),
        )

    @classmethod
    def service(cls, user: str = SERVICE_USER) -> Identity | None:
        """The kiosk's user as the unit runs it: its groups plus SupplementaryGroups."""
        try:
            entry = pwd.getpwnam(user)
        except KeyError:
            return None
        gids = {entry.pw_gid}
        names = set(SERVICE_GROUPS)
        for group in grp.getgrall():
            if user in group.gr_mem or group.gr_name in names:
                gids.add(group.gr_gid)
        return cls(user, entry.pw_uid, frozenset(gids))


def _has_uid(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


def _missing_groups() -> tuple[str, ...]:
    missing = []
    for name in SERVICE_GROUPS:
        try:
            grp.getgrnam(name)
        except KeyError:
            missing.append(name)
    return tuple(missing)


def _lan_ip() -> str | None:
    """The address this machine's default route leaves from (a UDP connect sends nothing)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: routed like the internet, never reached
            address = sock.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def _open_serial(port: str, baud: int) -> None:
    import serial

    with serial.serial_for_url(port, baudrate=baud, timeout=0.2):
        pass


def _probe_autodarts(url: str) -> str:
    """The Board Manager's version and state, as one line; raises OSError or ValueError."""
    import asyncio

    from hardware.autodarts import probe_text

    return asyncio.run(probe_text(url))


def _known_board(cfg: config_module.Settings, port: str) -> tuple[str, int] | None:
    """What `dialect = "auto"` found on this port, if the kiosk has told it yet."""
    from hardware.known_boards import KnownBoards

    found = KnownBoards(cfg.database_path().parent / "boards.json").get(port)
    return (found.dialect, found.baud) if found is not None else None


def _service_headless() -> bool:
    """Whether dartship.service starts the kiosk phones-only (`dartship run --headless`, as
    an owner's `systemctl edit dartship` override may): then it needs no screen."""
    import subprocess

    try:
        shown = subprocess.run(
            ["systemctl", "show", "dartship.service", "--property", "ExecStart", "--value"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return False  # no systemd here (a laptop, a container): say what the screen check finds
    return "--headless" in shown.split()


def _bind(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp does
        sock.bind((host, port))


def _has_module(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


@dataclass
class Environment:
    """The machine as the checks see it. `Environment.system()` is the real one."""

    env: Mapping[str, str]
    identity: Identity
    dev: Path = Path("/dev")
    sys: Path = Path("/sys")
    proc: Path = Path("/proc")
    config_paths: tuple[Path, ...] = (config_module.SYSTEM_CONFIG,)
    state_dir: Path = STATE_DIR
    installed: bool = False  # the kiosk's user exists: the unit's groups must exist too
    missing_groups: tuple[str, ...] = ()
    lan_ip: Callable[[], str | None] = _lan_ip
    open_serial: Callable[[str, int], None] = _open_serial
    probe_autodarts: Callable[[str], str] = _probe_autodarts
    known_board: Callable[[config_module.Settings, str], tuple[str, int] | None] = _known_board
    bind: Callable[[str, int], None] = _bind
    has_module: Callable[[str], bool] = _has_module
    service_headless: Callable[[], bool] = _service_headless

    @classmethod
    def system(cls) -> Environment:
        service = Identity.service()
        return cls(
            env=dict(os.environ),
            identity=service or Identity.current(),
            installed=service is not None,
            missing_groups=_missing_groups(),
        )


# -- config --


def config_path(env: Environment, given: str | None) -> Path | None:
    if given:
        return Path(given)
    if env.env.get("DARTSHIP_CONFIG"):
        return Path(env.env["DARTSHIP_CONFIG"])
    return next((p for p in env.config_paths if p.exists()), None)


def check_config(env: Environment, report: Report, given: str | None = None) -> config_module.Settings | None:
    path = config_path(env, given)
    if path is None:
        report.add(
            "config",
            Severity.OK,
            _("no config file: built-in defaults (simulated board, window)"),
            _("the install script writes /etc/dartship/config.toml; `dartship config show` prints every key"),
        )
        defaults = config_module.Settings()
        check_pin(defaults, None, report)  # no file: the PIN is the default, written or not
        return defaults
    try:
        cfg = config_module.load(path)
    except config_module.ConfigError as err:
        for problem in err.problems:
            report.add(
                "config",
                Severity.FAIL,
                problem,
                _(
                    "edit {path}; `dartship config show` prints every key with its default and what it allows"
                ).format(path=path),
            )
        if path.exists() and not os.access(path, os.R_OK):
            report.add(
                "config",
                Severity.FAIL,
                _("{path} is readable by the kiosk's user only").format(path=path),
                _("run the doctor with sudo: sudo dartship doctor"),
            )
        return None
    report.add("config", Severity.OK, _("{path}: every key is valid").format(path=path))
    check_pin(cfg, path, report)
    return cfg


def check_pin(cfg: config_module.Settings, path: Path | None, report: Report) -> None:
    """The Settings PIN as installed is known to everyone who read the README, whether the file
    says it or says nothing (the default is in effect then)."""
    if cfg.kiosk.pin == config_module.OPTION_BY_KEY["kiosk.pin"].default:
        fix = (
            _("set kiosk.pin in {path}, or change it in Settings").format(path=path)
            if path
            else _("change it in Settings, or set kiosk.pin in a config file")
        )
        report.add(
            "config",
            Severity.WARN,
            _("the Settings PIN is still the default one: anybody at the bar can open Settings"),
            fix,
        )


# -- database --


def database_path(cfg: config_module.Settings, env: Environment) -> Path:
    """The file the kiosk uses: kiosk.database, else the service's StateDirectory, else XDG."""
    if cfg.kiosk.database:
        return Path(cfg.kiosk.database).expanduser()
    if env.env.get("STATE_DIRECTORY"):
        return Path(env.env["STATE_DIRECTORY"].split(":")[0]) / "dartship.db"
    if env.installed or env.state_dir.is_dir():
        return env.state_dir / "dartship.db"
    base = env.env.get("XDG_DATA_HOME") or str(
        Path(env.env.get("HOME", "~")).expanduser() / ".local" / "share"
    )
    return Path(base) / "dartship" / "dartship.db"


FULL_BYTES = 512 << 10  # less free than this on the database's disk: the next games cannot be stored
LOW_BYTES = 50 << 20  # less than this: a few busy nights, the journal and the backups fill it


def _free_space_fix() -> str:
    return _("free space: `sudo du -xh / | sort -h | tail`, `sudo journalctl --vacuum-size=50M`, old backups")


def check_disk(path: Path, report: Report) -> bool:
    """The disk the database is on: not mounted read-only (an SD card is, after errors), not
    full. Permission bits and the file say nothing of either: the doctor said "writable" of a
    database on a read-only or full disk, where the kiosk can store no dart. False: it failed."""
    folder = store_faults.nearest_existing(path.parent)
    disk = store_faults.disk_of(folder)
    if disk is None:
        return True  # nothing to say: the checks below say what is wrong with the folder
    read_only, free = disk
    if read_only:
        report.add(
            "database",
            Severity.FAIL,
            _("the disk holding {folder} is mounted read-only: the kiosk can store no game").format(
                folder=folder
            ),
            _(
                "an SD card goes read-only after write errors: `dmesg | grep -i error`, then reboot; "
                "if it happens again, copy the backups off and replace the card"
            ),
        )
        return False
    if free < FULL_BYTES:
        report.add(
            "database",
            Severity.FAIL,
            _(
                "the disk holding {folder} is full ({free} free): the kiosk cannot store the next games"
            ).format(folder=folder, free=human_size(free)),
            _free_space_fix(),
        )
        return False
    if free < LOW_BYTES:
        report.add(
            "database",
            Severity.WARN,
            _("only {free} free on the disk holding {folder}").format(folder=folder, free=human_size(free)),
            _free_space_fix(),
        )
    return True


def check_database(cfg: config_module.Settings, env: Environment, report: Report) -> None:
    path = database_path(cfg, env)
    who = env.identity.name
    if not check_disk(path, report):
        return
    if not path.exists():
        if path.is_symlink():
            report.add(
                "database",
                Severity.FAIL,
                _("{path} is a broken link").format(path=path),
                _("remove the link or set kiosk.database"),
            )
            return
        parent = store_faults.nearest_existing(path.parent)
        if parent.is_dir() and env.identity.can(parent, os.W_OK | os.X_OK):
            report.add(
                "database",
                Severity.OK,
                _("{path} does not exist yet: the kiosk creates it at its first start").format(path=path),
            )
        else:
            report.add(
                "database",
                Severity.FAIL,
                _("{path} cannot be created: {user} may not write in {folder}").format(
                    path=path, user=who, folder=parent
                ),
                _("sudo install -d -o {user} {folder} (or set kiosk.database to a writable place)").format(
                    user=who, folder=path.parent
                ),
            )
        return
    if path.is_dir():
        report.add(
            "database",
            Severity.FAIL,
            _("{path} is a folder, not a database file").format(path=path),
            _("set kiosk.database to a file name"),
        )
        return
    if not _inspect_database(path, report):
        return
    problems = [
        p
        for p in (path, path.parent)
        if not env.identity.can(p, os.R_OK | os.W_OK | (os.X_OK if p.is_dir() else 0))
    ]
    for extra in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        if extra.exists() and not env.identity.can(extra, os.R_OK | os.W_OK):
            problems.append(extra)
    if problems:
        report.add(
            "database",
            Severity.FAIL,
            _("{user} cannot write {paths}").format(user=who, paths=", ".join(str(p) for p in problems)),
            _("sudo chown {user}: {paths}").format(user=who, paths=" ".join(str(p) for p in problems)),
        )
        return
    report.add(
        "database",
        Severity.OK,
        _("{path}: a Dartship database, writable by {user}").format(path=path, user=who),
    )


def _inspect_database(path: Path, report: Report) -> bool:
    """What the kiosk would make of the file (the store's own read-only inspection)."""
    found = store_faults.inspect(path, SCHEMA_VERSION)
    verdict = found.verdict
    if verdict is Verdict.UNREADABLE:
        report.add(
            "database",
            Severity.FAIL,
            _("{path}: cannot read: {error}").format(path=path, error=found.detail),
            _("run the doctor with sudo"),
        )
        return False
    if verdict is Verdict.NOT_SQLITE or (verdict is Verdict.FOREIGN and _foreign_header(path)):
        report.add(
            "database",
            Severity.FAIL,
            _("{path} is not a Dartship database; the kiosk will refuse it").format(path=path),
            _("move it away (sudo mv {path} {path}.old); the kiosk starts a new one").format(path=path),
        )
        return False
    if verdict is Verdict.DAMAGED:
        # A kiosk writing meanwhile can make a page look damaged for a moment.
        wal = Path(f"{path}-wal")
        level = Severity.WARN if wal.exists() and wal.stat().st_size > 0 else Severity.FAIL
        report.add(
            "database",
            level,
            _("{path} is damaged ({error})").format(path=path, error=found.detail),
            _(
                "stop the kiosk and run the doctor again; if it stays damaged, move the file "
                "away and copy back the newest backup from {folder}"
            ).format(folder=path.parent / "backups"),
        )
        return False
    if verdict is Verdict.FOREIGN:
        report.add(
            "database",
            Severity.FAIL,
            _("{path} is an SQLite database of another program").format(path=path),
            _("set kiosk.database to another file"),
        )
        return False
    if verdict is Verdict.NEWER:
        report.add(
            "database",
            Severity.FAIL,
            _("{path} was written by a newer Dartship (schema {found}, this one knows {known})").format(
                path=path, found=found.version, known=SCHEMA_VERSION
            ),
            _("install the newer Dartship again"),
        )
        return False
    return True


def _foreign_header(path: Path) -> bool:
    """Another program's id in the header (not merely tables without ours)."""
    with contextlib.suppress(OSError), open(path, "rb") as f:
        header = f.read(72)
        return int.from_bytes(header[68:72], "big") not in (0, APPLICATION_ID)
    return False


# -- board --


@dataclass(frozen=True)
class Holder:
    pid: int
    command: str


def holders(env: Environment, target: str) -> list[Holder]:
    """Processes with `target` (a resolved path, or `socket:[inode]`) open, as far as /proc shows."""
    found: list[Holder] = []
    try:
        pids = [p for p in env.proc.iterdir() if p.name.isdigit()]
    except OSError:
        return found
    for pid in pids:
        try:
            fds = list((pid / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(fd)
            except OSError:
                continue
            if link == target or (not link.startswith("socket:") and os.path.realpath(link) == target):
                found.append(Holder(int(pid.name), _command(pid)))
                break
    return found


def _command(pid: Path) -> str:
    try:
        raw = (pid / "cmdline").read_bytes()
    except OSError:
        return "?"
    return " ".join(part.decode(errors="replace") for part in raw.split(b"\0") if part) or "?"


def _is_kiosk(holder: Holder) -> bool:
    return "dartship" in holder.command and " run" in f" {holder.command} "


def _serial_candidates(env: Environment) -> list[str]:
    names: list[str] = []
    for pattern in ("ttyUSB*", "ttyACM*", "serial/by-id/*"):
        names.extend(str(p) for p in sorted(env.dev.glob(pattern)))
    return names


def check_board(cfg: config_module.Settings, env: Environment, report: Report) -> None:
    kind = cfg.board.input
    if cfg.board.map:
        board_map = Path(cfg.board.map).expanduser()
        if not env.identity.can(board_map, os.R_OK):
            report.add(
                "board",
                Severity.FAIL,
                _("board.map: {path} is missing or unreadable for {user}").format(
                    path=board_map, user=env.identity.name
                ),
                _("make one with `dartship learn` and keep it in /etc/dartship"),
            )
    if kind is config_module.InputKind.SIMULATOR:
        report.add(
            "board",
            Severity.OK,
            _("board.input = simulator: darts come from the virtual thrower"),
            _("set board.input to serial or matrix for a real board"),
        )
    elif kind is config_module.InputKind.SERIAL:
        check_serial(cfg, env, report)
        last = report.findings[-1] if report.findings else None
        if last is not None and last.check == "board" and last.level is Severity.OK:
            # one finding for the board: where it is, and what it speaks
            report.findings[-1] = replace(last, message=f"{last.message}; {dialect_note(cfg, env)}")
    elif kind is config_module.InputKind.AUTODARTS:
        check_autodarts(cfg, env, report)
    else:
        report.add(
            "board",
            Severity.OK,
            _("board.input = matrix: the dartboard is wired to the GPIO pins (see the gpio check)"),
        )


def check_autodarts(cfg: config_module.Settings, env: Environment, report: Report) -> None:
    url = cfg.board.autodarts
    try:
        found = env.probe_autodarts(url)
    except OSError as err:
        report.add(
            "board",
            Severity.FAIL,
            _("board.autodarts {url}: {error}").format(url=url, error=err),
            _(
                "start the Board Manager on the Autodarts machine and check that both are on the same "
                "network; its address is the one its own page is opened at (port 3180)"
            ),
        )
    except ValueError as err:
        report.add(
            "board",
            Severity.WARN,
            _("board.autodarts {url}: {error}").format(url=url, error=err),
            _("start the cameras in the Board Manager (Start button)"),
        )
    else:
        report.add("board", Severity.OK, _("board.autodarts {url}: {found}").format(url=url, found=found))


def dialect_note(cfg: config_module.Settings, env: Environment) -> str:
    """What the serial board speaks: set in the config, or found by `dialect = "auto"`."""
    board = cfg.board
    if board.dialect is not config_module.SerialDialect.AUTO:
        return _("board.dialect = {dialect} (set in the config), {baud} baud").format(
            dialect=board.dialect.value, baud=board.baud or _("told from the board")
        )
    found = env.known_board(cfg, board.port)
    if found is None:
        return _(
            "dialect auto: not told yet for this port; the kiosk tells it from the board's "
            "first lines (throw a dart, or run `dartship board-test`)"
        )
    dialect, baud = found
    return _("the board speaks {dialect} at {baud} baud (told by dialect = auto)").format(
        dialect=dialect, baud=board.baud or baud
    )


def check_serial(cfg: config_module.Settings, env: Environment, report: Report) -> None:
    port = cfg.board.port
    known = env.known_board(cfg, port) if cfg.board.dialect is config_module.SerialDialect.AUTO else None
    baud = cfg.board.baud or (known[1] if known else 115200)
    if "://" in port:
        try:
            env.open_serial(port, baud)
        except Exception as err:  # pyserial raises SerialException, ValueError or OSError
            report.add(
                "board",
                Severity.FAIL,
                _("board.port {port}: cannot connect: {error}").format(port=port, error=err),
                _("check the address and that the board's bridge is running"),
            )
        else:
            report.add("board", Severity.OK, _("board.port {port}: connected").format(port=port))
        return
    device = Path(port)
    if not device.exists():
        found = _serial_candidates(env)
        seen = (
            _("serial devices present: {names}").format(names=", ".join(found))
            if found
            else _("no USB serial device is present at all")
        )
        fix = _(
            "plug the board in (a data cable, not a charging-only one). If it is in and "
            "{port} is missing, the udev rule does not match it: find its ids with "
            "`udevadm info -q property -n /dev/ttyUSB0 | grep -E 'ID_VENDOR_ID|ID_MODEL_ID'` "
            "and run `sudo systemd/install.sh --board-port /dev/ttyUSB0`, or set board.port "
            "to a /dev/serial/by-id/ name"
        ).format(port=port)
        report.add(
            "board",
            Severity.FAIL,
            _("board.port {port} does not exist; {seen}").format(port=port, seen=seen),
            fix,
        )
        return
    real = os.path.realpath(device)
    held = holders(env, real)
    others = [h for h in held if not _is_kiosk(h)]
    if others:
        names = ", ".join(f"{h.pid} ({h.command})" for h in others)
        report.add(
            "board",
            Severity.FAIL,
            _("{port} is held by another program: {names}").format(port=port, names=names),
            _("stop that program; ModemManager grabs USB serial boards: sudo apt purge modemmanager"),
        )
        return
    if not env.identity.can(device, os.R_OK | os.W_OK):
        report.add(
            "board",
            Severity.FAIL,
            _("{user} may not open {port}").format(user=env.identity.name, port=port),
            _(
                "the kiosk needs the group of {port} (usually dialout): sudo usermod -aG dialout {user}"
            ).format(port=port, user=env.identity.name),
        )
        return
    if held:
        report.add(
            "board",
            Severity.OK,
            _("{port}: in use by the running kiosk (pid {pid})").format(port=port, pid=held[0].pid),
        )
        return
    try:
        env.open_serial(str(device), baud)
    except Exception as err:  # SerialException, OSError: the message is what the owner needs
        report.add(
            "board",
            Severity.FAIL,
            _("{port}: cannot open: {error}").format(port=port, error=err),
            _("unplug and replug the board; check `dmesg | tail` for USB errors"),
        )
        return
    report.add(
        "board",
        Severity.OK,
        _("{port} ({real}) opens at {baud} baud").format(port=port, real=real, baud=baud),
    )


# -- GPIO --


def used_pins(cfg: config_module.Settings) -> dict[str, list[int]]:
    pins: dict[str, list[int]] = {}
    if cfg.board.input is config_module.InputKind.MATRIX:
        pins["matrix.rows"] = list(cfg.matrix.rows)
        pins["matrix.cols"] = list(cfg.matrix.cols)
    for key in ("buttons.next", "buttons.undo", "buttons.miss", "miss_sensor.pin"):
        pin = cfg.get(key)
        if isinstance(pin, int) and pin >= 0:
            pins[key] = [pin]
    if cfg.buzzer.kind is not config_module.BuzzerKind.NONE and cfg.buzzer.pin >= 0:
        pins["buzzer.pin"] = [cfg.buzzer.pin]
    return pins


# Pins a kernel driver claims when its interface is switched on in raspi-config. The fixes are
# translated where they are shown (`_(fix)`), not at import.
BUSES: tuple[tuple[frozenset[int], str, str], ...] = (
    (
        frozenset({7, 8, 9, 10, 11}),
        "spidev0.*",
        "switch SPI off: sudo raspi-config nonint do_spi 1, then reboot",
    ),
    (frozenset({2, 3}), "i2c-1", "switch I2C off: sudo raspi-config nonint do_i2c 1, then reboot"),
)


def check_gpio(cfg: config_module.Settings, env: Environment, report: Report) -> None:
    pins = used_pins(cfg)
    if not pins:
        report.add("gpio", Severity.OK, _("no GPIO pin is used"))
        return
    owner: dict[int, str] = {}
    for key, numbers in pins.items():
        for pin in numbers:
            if pin in owner and owner[pin] != key:
                report.add(
                    "gpio",
                    Severity.FAIL,
                    _("GPIO {pin} is used by both {a} and {b}").format(pin=pin, a=owner[pin], b=key),
                    _("give one of them another pin"),
                )
            owner.setdefault(pin, key)
    for bus, device, fix in BUSES:
        taken = sorted(set(owner) & bus)
        if taken and any(env.dev.glob(device)):
            report.add(
                "gpio",
                Severity.FAIL,
                _("GPIO {pins} belong to {device} while it is switched on").format(
                    pins=", ".join(map(str, taken)), device=device.rstrip("*")
                ),
                _(fix),
            )
    chips = sorted(env.dev.glob("gpiochip*"))
    if not chips:
        report.add(
            "gpio",
            Severity.FAIL,
            _("no /dev/gpiochip* device: GPIO pins cannot be used here"),
            _(
                "on a Raspberry Pi with Raspberry Pi OS Bookworm it is always there; elsewhere "
                "set board.input = serial or simulator and the pins to -1"
            ),
        )
        return
    if not _may_open(env, report, "gpio", chips, "gpio"):
        return
    if not env.has_module("lgpio"):
        report.add(
            "gpio",
            Severity.FAIL,
            _("the lgpio module is missing: gpiozero cannot drive the pins"),
            _("sudo /opt/dartship/venv/bin/pip install '/path/to/dartship[pi]'"),
        )
        return
    report.add(
        "gpio",
        Severity.OK,
        _("{count} pins ({keys}) on {chips}").format(
            count=len(owner), keys=", ".join(pins), chips=", ".join(c.name for c in chips)
        ),
    )


def _may_open(env: Environment, report: Report, area: str, devices: list[Path], group: str) -> bool:
    """True when the user can open at least one of the devices; else a FAIL naming the group."""
    if any(env.identity.can(d, os.R_OK | os.W_OK) for d in devices):
        return True
    report.add(
        area,
        Severity.FAIL,
        _("{user} may not open {devices}").format(
            user=env.identity.name, devices=", ".join(str(d) for d in devices)
        ),
        _("add the kiosk's user to the {group} group: sudo usermod -aG {group} {user}").format(
            group=group, user=env.identity.name
        ),
    )
    return False


# -- display --


def check_display(
    cfg: config_module.Settings, env: Environment, report: Report, headless: bool = False
) -> None:
    if headless:
        # A phones-only kiosk on purpose: no screen, no touchscreen and no desktop to find. Before,
        # the doctor failed every such kiosk for its missing screen (qa8's weak spot).
        report.add(
            "display",
            Severity.OK,
            _(
                "a phones-only kiosk (dartship run --headless): no screen needed, "
                "the phones play on its host page"
            ),
        )
        return
    for name in ("WAYLAND_DISPLAY", "DISPLAY"):
        if env.env.get(name):
            report.add(
                "display",
                Severity.OK,
                _("desktop session: {name}={value}").format(name=name, value=env.env[name]),
            )
            return
    cards = sorted(env.dev.glob("dri/card*"))
    if not cards:
        report.add(
            "display",
            Severity.FAIL,
            _("no screen device (/dev/dri/card*) and no desktop session"),
            _(
                "Raspberry Pi OS Bookworm has KMS on by default: check that "
                "/boot/firmware/config.txt has dtoverlay=vc4-kms-v3d, then reboot"
            )
            + "; "
            + _("a phones-only kiosk (`dartship run --headless`) needs no screen: then this is no problem"),
        )
        return
    if not _may_open(env, report, "display", cards, "video"):
        return
    connected = []
    for status in sorted(env.sys.glob("class/drm/card*-*/status")):
        with contextlib.suppress(OSError):
            if status.read_text().strip() == "connected":
                connected.append(status.parent.name)
    if not connected:
        report.add(
            "display",
            Severity.WARN,
            _("no screen is connected to {cards}").format(cards=", ".join(c.name for c in cards)),
            _("plug the screen in before powering the Pi (HDMI next to the USB-C socket, or the DSI ribbon)"),
        )
    else:
        report.add("display", Severity.OK, _("screen connected: {names}").format(names=", ".join(connected)))
    touch = [d for d in sorted(env.sys.glob("class/input/event*")) if _has_abs(d)]
    if not touch:
        report.add(
            "display",
            Severity.WARN,
            _("no touchscreen found among the input devices"),
            _("check the touchscreen's USB cable or DSI ribbon"),
        )
    if not (cfg.display.fullscreen and cfg.display.kiosk_mode):
        report.add(
            "display",
            Severity.WARN,
            _("display.fullscreen and display.kiosk_mode should be true on the kiosk"),
            _("set both to true in the config file"),
        )


def _has_abs(event: Path) -> bool:
    try:
        return (event / "device" / "capabilities" / "abs").read_text().strip() not in ("", "0")
    except OSError:
        return False


# -- network --


def _listeners(env: Environment, port: int) -> list[str]:
    """Inodes of sockets listening on `port` (state 0A in /proc/net/tcp and tcp6)."""
    inodes = []
    for table in ("tcp", "tcp6"):
        try:
            lines = (env.proc / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) > 9 and parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                inodes.append(parts[9])
    return inodes


def check_network(cfg: config_module.Settings, env: Environment, report: Report) -> None:
    if not cfg.web.enabled:
        report.add("network", Severity.OK, _("web.enabled = false: no phone page"))
        return
    host, port = cfg.web.host, cfg.web.port
    if host in ("127.0.0.1", "localhost", "::1"):
        report.add(
            "network",
            Severity.FAIL,
            _("web.host = {host}: phones cannot reach the page").format(host=host),
            _('set web.host = "0.0.0.0"'),
        )
        return
    address = host if host not in ("0.0.0.0", "::", "") else env.lan_ip()
    if address is None:
        report.add(
            "network",
            Severity.FAIL,
            _("no network: the Pi has no address phones can reach"),
            _("connect it: sudo nmtui (Wi-Fi) or a network cable; phones must be on the same network"),
        )
    url = f"http://{address}:{port}/" if address else ""
    inodes = _listeners(env, port)
    if inodes:
        held = [h for inode in inodes for h in holders(env, f"socket:[{inode}]")]
        if held and all(_is_kiosk(h) for h in held):
            report.add(
                "network",
                Severity.OK,
                _("port {port} is served by the running kiosk (pid {pid})").format(
                    port=port, pid=held[0].pid
                ),
            )
        elif held:
            report.add(
                "network",
                Severity.FAIL,
                _("port {port} is taken by {names}").format(
                    port=port, names=", ".join(f"{h.pid} ({h.command})" for h in held)
                ),
                _("stop that program or set web.port to a free port"),
            )
        else:
            report.add(
                "network",
                Severity.WARN,
                _(
                    "port {port} is taken by a program the doctor cannot see (the kiosk itself, if it runs)"
                ).format(port=port),
                _("run the doctor with sudo to see which program it is"),
            )
    else:
        try:
            env.bind(host or "0.0.0.0", port)
        except OSError as err:
            fix = (
                _("ports below 1024 need root: use 8080")
                if err.errno == errno.EACCES
                else _("set web.port to a free port, or web.host to an address of this Pi")
            )
            report.add(
                "network",
                Severity.FAIL,
                _("cannot listen on {host}:{port}: {error}").format(
                    host=host, port=port, error=err.strerror or err
                ),
                fix,
            )
            return
        report.add("network", Severity.OK, _("port {port} is free").format(port=port))
    if url:
        report.add("network", Severity.OK, _("phones will use {url}").format(url=url))


# -- the kiosk's user --


def check_service(env: Environment, report: Report) -> None:
    if not env.installed:
        return
    for name in env.missing_groups:
        report.add(
            "service",
            Severity.FAIL,
            _("group {group} does not exist: dartship.service will not start (status 216/GROUP)").format(
                group=name
            ),
            _("sudo groupadd --system {group}").format(group=name),
        )


# -- the command --


def run_checks(env: Environment, config_file: str | None = None, headless: bool = False) -> Report:
    """Every check. `headless`: the kiosk runs phones-only (`--headless`), as it is said here or
    as dartship.service starts it."""
    report = Report()
    headless = headless or env.service_headless()
    check_service(env, report)
    cfg = check_config(env, report, config_file)
    if cfg is None:
        check_display(config_module.Settings(), env, report, headless)
        report.add(
            "doctor",
            Severity.WARN,
            _("database, board, GPIO and network were not checked: the config must be fixed first"),
        )
        return report
    check_database(cfg, env, report)
    check_board(cfg, env, report)
    check_gpio(cfg, env, report)
    check_display(cfg, env, report, headless)
    check_network(cfg, env, report)
    return report


def _settings_for_sound(env: Environment, given: str | None) -> config_module.Settings:
    """The config's settings for the sound check (its defaults where the file is broken: the
    config check above has said what is wrong)."""
    path = config_path(env, given)
    if path is None:
        return config_module.Settings()
    try:
        return config_module.read(path, strict=False).settings
    except (OSError, config_module.ConfigError):
        return config_module.Settings()


def render(findings: Iterable[Finding]) -> str:
    lines = []
    for f in findings:
        lines.append(f"{f.level.value:<5} {f.check:<9} {f.message}")
        if f.fix and f.level is not Severity.OK:
            lines.append(f"{'':<16}{_('fix:')} {f.fix}")
    return "\n".join(lines)


def main(argv: Sequence[str], env: Environment | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="dartship doctor",
        description=_(
            "Check the config, database, board, GPIO, display and network; say how to fix what is wrong."
        ),
    )
    parser.add_argument(
        "--config", help=_("config file (default: $DARTSHIP_CONFIG or /etc/dartship/config.toml)")
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help=_("check a phones-only kiosk (dartship run --headless): no screen is needed"),
    )
    parser.add_argument(
        "--sound",
        action="store_true",
        help=_("also check the caller: render and play a test phrase on the audio output"),
    )
    args = parser.parse_args(list(argv))
    env = env or Environment.system()
    # The whole report in the kiosk's language (kiosk.language; English where the file is
    # broken): before, only the sound check switched to it, halfway through the report.
    before = language()
    settings = _settings_for_sound(env, args.config)
    set_language(settings.kiosk.language)
    try:
        report = run_checks(env, args.config, args.headless)
        if args.sound:
            from kiosk.app.sound_check import check_sound

            check_sound(settings, report)
        print(_("Dartship doctor (checking as user {user})").format(user=env.identity.name))
        print(render(report.findings))
        problems = sum(f.level is Severity.FAIL for f in report.findings)
        warnings = sum(f.level is Severity.WARN for f in report.findings)
        print(summary(problems, warnings))
    finally:
        set_language(before)
    return 1 if problems else 0


def summary(problems: int, warnings: int) -> str:
    """The last line: problems (the kiosk cannot work right) and warnings (it can, but look)."""
    if problems:
        return _("Problems: {problems}, warnings: {warnings}.").format(problems=problems, warnings=warnings)
    if warnings:
        return _("No problems; warnings: {warnings}.").format(warnings=warnings)
    return _("No problems found.")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
