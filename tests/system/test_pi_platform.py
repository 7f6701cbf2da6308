"""The kiosk as installed on a Raspberry Pi: run by `systemd/pi-platform-check` inside its arm64
Debian 12 root, after `systemd/install.sh` installed the kiosk there.

Marked `pi_platform`: the default test run leaves them out (`addopts` in pyproject.toml); select
them with `-m pi_platform`. Without an installed kiosk (/opt/dartship) they skip. They use only
the installed `dartship` command and the installed unit, never this checkout's modules, so they
prove what a Pi would run. Each needs root, as `sudo dartship doctor` does.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

UNIT = Path(os.environ.get("DARTSHIP_UNIT", "/etc/systemd/system/dartship.service"))
BACKUP_UNIT = UNIT.with_name("dartship-backup.service")
VENV = Path("/opt/dartship/venv")
# Under emulation everything is slow: a kiosk start takes a minute, an import several seconds.
SLOW = float(os.environ.get("DARTSHIP_PI_TIMEOUT", "240"))

pytestmark = [
    pytest.mark.pi_platform,
    pytest.mark.skipif(
        not (VENV / "bin" / "dartship").exists() or not UNIT.exists(),
        reason="needs the kiosk installed by systemd/install.sh (systemd/pi-platform-check)",
    ),
    pytest.mark.skipif(os.geteuid() != 0, reason="runs the kiosk as its own user: needs root"),
]

SHARKS = [
    ["D20", "L20", "T20", "S20", "BULL"],
    ["T1", "T18", "T4", "T13"],
    ["L6", "L10", "L15"],
    ["D3", "D19"],
]
JETS = [["D5", "L5", "T5", "S5"], ["T11", "T14", "T9"], ["S6", "S10"], ["D1", "D18", "D4", "D13", "D6"]]
# A Raspberry Pi 4 Model B (4 GB): the revision code in its /proc/cpuinfo.
PI4_REVISION = "c03114"


# -- the installed unit, read as systemd reads it --


@dataclass
class Unit:
    """The [Service] keys of a unit file; repeated keys (Environment=) add up."""

    service: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> Unit:
        unit, section = cls(), ""
        for raw in path.read_text().splitlines():
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                section = line.strip("[]")
            elif section == "Service" and "=" in line:
                key, value = line.split("=", 1)
                unit.service.setdefault(key.strip(), []).append(value.strip())
        return unit

    def get(self, key: str, default: str = "") -> str:
        return self.service.get(key, [default])[-1]

    def command(self) -> list[str]:
        # A prefix like '-' or '@' changes how systemd treats the command, not the command.
        return shlex.split(self.get("ExecStart").lstrip("-@:+!"))

    def environment(self) -> dict[str, str]:
        env = {}
        for line in self.service.get("Environment", []):
            for assignment in shlex.split(line):
                key, value = assignment.split("=", 1)
                env[key] = value
        return env

    def process_environment(self) -> dict[str, str]:
        """What systemd gives the main process: its own variables, then the unit's."""
        user = self.get("User", "root")
        home = subprocess.run(
            ["getent", "passwd", user], capture_output=True, text=True, check=True
        ).stdout.split(":")[5]
        env = {
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",
            "USER": user,
            "LOGNAME": user,
            "HOME": home,
            "SHELL": "/usr/sbin/nologin",
            "INVOCATION_ID": "0" * 32,
        }
        if self.get("StateDirectory"):
            env["STATE_DIRECTORY"] = f"/var/lib/{self.get('StateDirectory')}"
        env.update(self.environment())
        return env

    def popen_options(self) -> dict:
        """User=, Group=, SupplementaryGroups=, UMask= as subprocess options."""
        return {
            "user": self.get("User", "root"),
            "group": self.get("Group") or None,
            "extra_groups": self.get("SupplementaryGroups").split() or None,
            "umask": int(self.get("UMask", "0022"), 8),
            "cwd": "/",
        }


def test_the_installed_unit_is_read_as_systemd_would() -> None:
    unit = Unit.read(UNIT)
    assert unit.command()[0] == str(VENV / "bin" / "dartship")
    assert unit.get("User") == "dartship" and unit.get("Type") == "notify"
    assert unit.environment()["DARTSHIP_CONFIG"] == "/etc/dartship/config.toml"


# -- lgpio and gpiozero's pin factory, against what the doctor says --


def _venv_python(code: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(VENV / "bin" / "python"), "-c", code],
        capture_output=True,
        text=True,
        timeout=SLOW,
        env={**os.environ, **(env or {})},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


PIN_FACTORY = """
import json, os, warnings
if os.environ.get("AS_PI_REVISION"):
    # What gpiozero would read from /proc/device-tree or /proc/cpuinfo on a Pi.
    import gpiozero.pins.local
    gpiozero.pins.local.get_pi_revision = lambda: int(os.environ["AS_PI_REVISION"], 16)
from gpiozero import Device, InputDevice
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        InputDevice(12)
        chosen, error = type(Device.pin_factory).__name__, ""
    except Exception as err:
        chosen, error = None, f"{type(err).__name__}: {err}"
print(json.dumps({"factory": chosen, "error": error, "warnings": [str(w.message) for w in caught]}))
"""


def _pin_factory(revision: str = "") -> dict:
    result = json.loads(_venv_python(PIN_FACTORY, {"AS_PI_REVISION": revision}).strip().splitlines()[-1])
    print(
        f"gpiozero{f' (told it is a Pi of revision {revision})' if revision else ''}: "
        f"{json.dumps(result, indent=1)}"
    )
    return result


def _doctor_gpio(tmp_path: Path) -> list[str]:
    """`dartship doctor`'s gpio lines for the installed config with one button on GPIO 12."""
    config = tmp_path / "config.toml"
    config.write_text(re.sub(r"(?m)^next = -1$", "next = 12", Path("/etc/dartship/config.toml").read_text()))
    done = subprocess.run(
        [str(VENV / "bin" / "dartship"), "doctor", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=SLOW,
    )
    lines = [line for line in done.stdout.splitlines() if line[6:].startswith("gpio")]
    print("dartship doctor, buttons.next = 12:\n" + "\n".join(lines))
    return lines


def test_lgpio_imports_in_the_installed_venv() -> None:
    out = _venv_python("import lgpio, _lgpio; print(hex(lgpio.LGPIO_PY_VERSION), _lgpio.__file__)")
    version, library = out.split()
    print(f"lgpio {version} from {library}")
    assert int(version, 16) >= 0x00020000
    linked = subprocess.run(["ldd", library], capture_output=True, text=True).stdout
    print(linked)
    assert "liblgpio" not in linked  # the lg library is compiled in: nothing to install beside it


def test_lgpio_builds_from_source_without_liblgpio(tmp_path: Path) -> None:
    """Where PyPI has no wheel, install.sh's PYPI=1 build needs no liblgpio (not in Debian)."""
    assert "liblgpio" not in subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    venv = tmp_path / "venv"
    subprocess.run(["python3", "-m", "venv", str(venv)], check=True, timeout=SLOW)
    # As install.sh does: a current pip, which builds in an isolated environment (PEP 517).
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--upgrade", "pip"], check=True, timeout=SLOW)
    started = time.monotonic()
    built = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--no-cache-dir", "--no-binary", "lgpio", "lgpio>=0.2"],
        env={**os.environ, "PYPI": "1"},
        capture_output=True,
        text=True,
        timeout=SLOW * 3,
    )
    print(built.stdout[-2000:], built.stderr[-2000:])
    assert built.returncode == 0
    code = "import lgpio; print(hex(lgpio.LGPIO_PY_VERSION))"
    out = subprocess.run(
        [str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, timeout=SLOW
    )
    assert out.returncode == 0, out.stderr
    print(f"lgpio {out.stdout.strip()} built from source in {time.monotonic() - started:.0f} s")


def test_gpiozero_chooses_the_pin_factory_the_doctor_expects(tmp_path: Path) -> None:
    chips = glob.glob("/dev/gpiochip*")
    doctor = _doctor_gpio(tmp_path)
    found = _pin_factory()
    # Never "No module named 'lgpio'": lgpio is there, gpiozero tries it first.
    lgpio_warnings = [w for w in found["warnings"] if w.startswith("Falling back from lgpio")]
    assert not any("No module named" in w for w in found["warnings"] if "lgpio" in w), found
    if chips:  # a real Pi: gpiozero drives the pins with lgpio and the doctor agrees
        assert found["factory"] == "LGPIOFactory", found
        assert any(line.startswith("ok") for line in doctor), doctor
        return
    assert any("no /dev/gpiochip* device" in line and line.startswith("FAIL") for line in doctor), doctor
    assert found["factory"] is None and found["error"].startswith("BadPinFactory"), found
    assert lgpio_warnings, found
    # This machine is no Pi, so gpiozero stops at the board's revision. Told it is a Pi 4 (the
    # revision code its /proc/cpuinfo has), it goes on to open the GPIO chip and says just what
    # the doctor says: there is none.
    as_pi4 = _pin_factory(PI4_REVISION)
    assert any(
        w.startswith("Falling back from lgpio") and "can not open gpiochip" in w for w in as_pi4["warnings"]
    ), as_pi4
    assert as_pi4["factory"] is None and as_pi4["error"].startswith("BadPinFactory"), as_pi4


# -- the kiosk, started as dartship.service starts it, headless, with the fake board --


class Lines:
    """A process's output lines, read in a thread, so a test can wait for one."""

    def __init__(self, proc: subprocess.Popen, name: str) -> None:
        self.lines: list[str] = []
        self.name = name
        self._cond = threading.Condition()
        threading.Thread(target=self._read, args=(proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            print(f"[{self.name}] {line.rstrip()}", flush=True)
            with self._cond:
                self.lines.append(line.rstrip("\n"))
                self._cond.notify_all()

    def wait_for(self, pattern: str, timeout: float = SLOW) -> re.Match:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self.lines:
                    if found := re.search(pattern, line):
                        return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no line like {pattern!r} from {self.name} in {timeout:.0f} s")
                self._cond.wait(left)


class NotifySocket:
    """systemd's side of NOTIFY_SOCKET: collects what the kiosk sends (READY=1, WATCHDOG=1, ...)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.path.chmod(0o777)
        self.sock.settimeout(1.0)
        self.messages: list[str] = []

    def wait_for(self, text: str, timeout: float = SLOW) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in m.split("\n") for m in self.messages):
            if time.monotonic() > deadline:
                raise AssertionError(f"no {text} from the kiosk in {timeout:.0f} s: {self.messages}")
            try:
                self.messages.append(self.sock.recv(4096).decode())
            except TimeoutError:
                continue

    def close(self) -> None:
        self.sock.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _http(url: str, method: str = "GET", body: object | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


def _set_keys(text: str, changes: dict[tuple[str, str], str]) -> str:
    """The config file's text with `key = value` replaced in the named sections."""
    section, out = "", []
    for line in text.splitlines():
        if header := re.match(r"^\[(\w+)\]", line):
            section = header.group(1)
        key = re.match(r"^(\w+)\s*=", line)
        if key and (section, key.group(1)) in changes:
            line = f"{key.group(1)} = {changes[(section, key.group(1))]}"
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.fixture
def installed_config() -> Iterator[Callable[[dict], None]]:
    """Edit /etc/dartship/config.toml as the bar's owner would; put it back afterwards."""
    path = Path("/etc/dartship/config.toml")
    before, stat = path.read_text(), path.stat()

    def change(changes: dict[tuple[str, str], str]) -> None:
        path.write_text(_set_keys(before, changes))

    yield change
    path.write_text(before)
    os.chown(path, stat.st_uid, stat.st_gid)
    path.chmod(stat.st_mode)


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen]]:
    started: list[subprocess.Popen] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def test_headless_game_to_a_winner_as_the_unit_runs_the_kiosk(installed_config, processes) -> None:
    unit = Unit.read(UNIT)
    dartship = unit.command()[0]
    board_port, web_port = _free_port(), _free_port()
    installed_config(
        {
            ("board", "input"): '"serial"',
            ("board", "port"): f'"socket://127.0.0.1:{board_port}"',
            ("web", "port"): str(web_port),
            ("rules", "bull_off"): '"normal"',
        }
    )

    board = subprocess.Popen(
        [dartship, "fake-board", "--tcp", str(board_port), "--host", "127.0.0.1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    processes.append(board)
    Lines(board, "fake-board").wait_for(r"socket://")

    # As systemd would: the state folder, NOTIFY_SOCKET, WATCHDOG_USEC, the user and its groups.
    state = Path(unit.process_environment().get("STATE_DIRECTORY", "/var/lib/dartship"))
    assert state.is_dir() and state.owner() == unit.get("User"), "install.sh makes the data folder"
    # Where the kiosk's user can reach it (pytest's tmp_path is root's only), like /run/systemd/notify.
    notify_dir = Path(tempfile.mkdtemp(prefix="dartship-notify-", dir="/run"))
    notify_dir.chmod(0o755)
    notify = NotifySocket(notify_dir)
    env = {
        **unit.process_environment(),
        "NOTIFY_SOCKET": str(notify.path),
        "WATCHDOG_USEC": str(int(float(unit.get("WatchdogSec", "0")) * 1_000_000)),
    }
    command = [*unit.command(), "--headless"]
    print(f"starting as {unit.get('User')} ({unit.get('SupplementaryGroups')}): {shlex.join(command)}")
    started = time.monotonic()
    kiosk = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        **unit.popen_options(),
    )
    processes.append(kiosk)
    out = Lines(kiosk, "kiosk")
    try:
        notify.wait_for("READY=1")
        print(f"READY=1 after {time.monotonic() - started:.1f} s")
        notify.wait_for("WATCHDOG=1")
        tokens = [out.wait_for(rf"{team}: \S+/team/(\S+)").group(1) for team in ("Sharks", "Jets")]
        out.wait_for(r"board fake-\S+ connected")
        _play_to_a_winner(board, f"http://127.0.0.1:{web_port}", tokens)
        kiosk.send_signal(signal.SIGTERM)  # systemctl stop
        assert kiosk.wait(timeout=float(unit.get("TimeoutStopSec", "15")) * 4) == 0
        notify.wait_for("STOPPING=1", timeout=5)
    finally:
        notify.close()
        shutil.rmtree(notify_dir)
    assert (state / "dartship.db").exists() and (state / "dartship.db").owner() == unit.get("User")

    # The daily backup, as dartship-backup.service runs it, copies the finished game.
    backup = Unit.read(BACKUP_UNIT)
    done = subprocess.run(
        backup.command(),
        env=backup.process_environment(),
        capture_output=True,
        text=True,
        timeout=SLOW,
        **backup.popen_options(),
    )
    print(done.stdout, done.stderr)
    assert done.returncode == 0
    copies = sorted((state / "backups").glob("dartship-*.db"))
    assert copies and copies[-1].owner() == backup.get("User")


def _play_to_a_winner(board: subprocess.Popen, web: str, tokens: list[str]) -> None:
    def view() -> dict:
        status, body = _http(f"{web}/api/game")
        assert status == 200
        return body["view"]

    def wait_view(check: Callable[[dict], bool], timeout: float = 60.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            current = view()
            if current and check(current):
                return current
            if time.monotonic() > deadline:
                raise AssertionError(f"the kiosk never got there: {json.dumps(current)}")
            time.sleep(0.1)

    def type_(text: str) -> None:
        board.stdin.write(text + "\n")
        board.stdin.flush()

    def throw(cell: str) -> dict:
        before = sum(view()["state"]["darts"])
        type_(cell)
        return wait_view(lambda v: sum(v["state"]["darts"]) == before + 1 or v["state"]["winner"] is not None)

    def next_visit(team: int) -> None:
        type_("BTN NEXT")
        wait_view(lambda v: v["state"]["phase"] == "throwing" and v["state"]["team"] == team)

    # Both phones lock in their fleets; the second lock-in starts the bull-off.
    for team, fleet in ((0, SHARKS), (1, JETS)):
        status, body = _http(f"{web}/api/team/{tokens[team]}/fleet", "POST", {"ships": fleet})
        assert status == 200, body
    wait_view(lambda v: v["state"]["phase"] == "bull_off")
    type_("25")  # the Sharks' outer bull
    type_("DB")  # the Jets' bullseye: the Jets start
    assert wait_view(lambda v: v["state"]["phase"] == "throwing")["state"]["team"] == 1
    # The Jets sink the Sharks' fleet, three darts a visit; the Sharks throw one dart and press Next.
    targets = [cell for ship in SHARKS for cell in ship]
    sharks_darts = iter(["T5", "T11", "S6", "D1", "D7", "D9", "D12", "D16"])
    while targets:
        for _ in range(3):
            if not targets:
                break
            current = throw(targets.pop(0))
        if current["state"]["winner"] is not None:
            break
        next_visit(0)
        throw(next(sharks_darts))
        next_visit(1)
    final = wait_view(lambda v: v["state"]["phase"] == "over")
    print(f"game over: {json.dumps(final['state'])}")
    assert final["state"]["winner"] == 1
    assert sorted(final["state"]["sunk"][0]) == [2, 3, 4, 5]
