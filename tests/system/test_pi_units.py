"""The systemd units and the udev rule: `systemd-analyze verify`, and what the kiosk relies on."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
UNITS = ("dartship.service", "dartship-backup.service", "dartship-backup.timer")
INSTALLED_BINARY = "/opt/dartship/venv/bin/dartship"


def directives(name: str) -> dict[str, dict[str, list[str]]]:
    """Section -> key -> every value (systemd keys may repeat; configparser would keep one)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for raw in (SYSTEMD / name).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _sep, value = line.partition("=")
        assert current is not None and _sep, f"{name}: {raw!r} outside a section or without '='"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def value(name: str, section: str, key: str) -> str:
    return " ".join(directives(name)[section][key])


def test_systemd_analyze_verify(tmp_path: Path) -> None:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd provides it)")
    # The units name the installed binary; point them at one that exists here, as verify checks it.
    here = Path(sys.executable).with_name("dartship")
    if not here.exists():
        pytest.skip(f"no dartship command next to {sys.executable} to stand in for {INSTALLED_BINARY}")
    for name in UNITS:
        text = (SYSTEMD / name).read_text()
        (tmp_path / name).write_text(text.replace(INSTALLED_BINARY, str(here)))
    result = subprocess.run(
        [tool, "verify", "--man=no", *(str(tmp_path / n) for n in UNITS)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # verify exits 0 on unknown keys but says so on stderr: both must be clean.
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr


def test_kiosk_unit_runs_on_tty1_with_kms_as_a_user() -> None:
    unit = directives("dartship.service")
    service = unit["Service"]
    assert value("dartship.service", "Unit", "Conflicts") == "getty@tty1.service"
    assert "getty@tty1.service" in value("dartship.service", "Unit", "After")
    expected = {
        "Type": "notify",
        "PAMName": "login",
        "TTYPath": "/dev/tty1",
        "Restart": "always",
        "User": "dartship",
        "ProtectSystem": "strict",
        "StateDirectory": "dartship",
        "ExecStart": f"{INSTALLED_BINARY} run",
    }
    for key, wanted in expected.items():
        assert service[key] == [wanted], key
    assert set(value("dartship.service", "Service", "SupplementaryGroups").split()) == {
        "video",
        "render",
        "input",
        "gpio",
        "dialout",
        "audio",
    }
    assert int(service["WatchdogSec"][0]) >= 10
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def test_kiosk_unit_environment() -> None:
    env = dict(item.split("=", 1) for item in value("dartship.service", "Service", "Environment").split())
    assert env["DARTSHIP_CONFIG"] == "/etc/dartship/config.toml"
    assert env["KIVY_HOME"].startswith("/var/lib/dartship/")
    assert env["KIVY_WINDOW"] == "sdl2" and env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["KIVY_NO_ARGS"] == "1"
    assert not any(k.startswith("KIVY_BCM_DISPMANX") for k in env)


def test_kiosk_hardening_leaves_devices_reachable() -> None:
    service = directives("dartship.service")["Service"]
    for key in (
        "PrivateDevices",
        "DevicePolicy",
        "DeviceAllow",
        "ProtectClock",
        "ProcSubset",
        "MemoryDenyWriteExecute",
    ):
        assert key not in service, f"{key} would cut the kiosk off its devices or its GPU"
    assert "/etc/dartship" in service["ReadWritePaths"]  # the Settings screen saves there


def test_backup_service_and_timer() -> None:
    service = directives("dartship-backup.service")["Service"]
    assert service["Type"] == ["oneshot"]
    assert service["ExecStart"][0].startswith(f"{INSTALLED_BINARY} backup")
    assert service["User"] == ["dartship"] and service["StateDirectory"] == ["dartship"]
    timer = directives("dartship-backup.timer")
    assert timer["Timer"]["Persistent"] == ["true"]
    assert timer["Timer"]["OnCalendar"]
    assert timer["Install"]["WantedBy"] == ["timers.target"]


def test_backup_command_line_in_the_unit_parses() -> None:
    from kiosk.app import backup

    argv = value("dartship-backup.service", "Service", "ExecStart").split()[2:]
    args = backup._parser().parse_args(argv)
    assert args.keep >= 1


def test_udev_rule_is_well_formed_and_links_dartboard() -> None:
    text = (SYSTEMD / "99-dartboard.rules").read_text()
    rules = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    labels = set(re.findall(r'LABEL="([^"]+)"', text))
    gotos = set(re.findall(r'GOTO="([^"]+)"', text))
    assert gotos <= labels
    known = re.compile(
        r"^(SUBSYSTEM|KERNEL|ATTRS\{\w+\}|ENV\{\w+\}|SYMLINK|GROUP|MODE|GOTO|LABEL)"
        r'(==|!=|\+=|=)"[^"]*"$'
    )
    for rule in rules:
        for item in (part.strip() for part in rule.split(", ")):
            assert known.match(item), f"unexpected udev key: {item!r}"
    assert 'SYMLINK+="dartboard"' in text
    ids = set(re.findall(r'ATTRS\{idVendor\}=="([0-9a-f]{4})"', text))
    assert {"1a86", "10c4", "0403", "2341"} <= ids  # CH340, CP210x, FTDI, Arduino
