"""systemd/install.sh: its --dry-run prints every step and runs none of them.

Every command that changes a system is shadowed by a stub on PATH that records being called;
the dry run must leave the record empty.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "systemd" / "install.sh"
MUTATING = (
    "apt-get",
    "systemctl",
    "useradd",
    "usermod",
    "userdel",
    "groupadd",
    "udevadm",
    "install",
    "rm",
    "ln",
    "cp",
    "mv",
    "chown",
    "chmod",
    "python3",
    "pip",
)


@pytest.fixture
def stubs(tmp_path: Path) -> tuple[dict[str, str], Path]:
    bin_dir, record = tmp_path / "bin", tmp_path / "called"
    bin_dir.mkdir()
    for name in MUTATING:
        stub = bin_dir / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{record}"\nexit 97\n')
        stub.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    return env, record


def dry_run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    return subprocess.run(
        [bash, str(SCRIPT), "--dry-run", *args], capture_output=True, text=True, env=env, timeout=60
    )


def test_dry_run_install_prints_every_step_and_changes_nothing(stubs) -> None:
    env, record = stubs
    result = dry_run(env)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert not record.exists(), record.read_text()
    assert out.startswith("Dry run: every step is printed, nothing is changed.")
    expected = [
        "+ apt-get update",
        "apt-get install -y --no-install-recommends",
        "python3-venv",
        "libsdl2-2.0-0",
        "libmtdev1",
        "libgles2",
        "swig",
        "/opt/dartship/venv/bin/pip install --upgrade",
        f"{SCRIPT.parents[1]}[pi]",
        "/etc/dartship/config.toml",
        "+ write /etc/systemd/system/dartship.service",
        "+ write /etc/systemd/system/dartship-backup.service",
        "+ write /etc/systemd/system/dartship-backup.timer",
        "+ write /etc/udev/rules.d/99-dartboard.rules",
        "+ udevadm control --reload-rules",
        "+ systemctl daemon-reload",
        "+ systemctl disable getty@tty1.service",
        "+ systemctl enable dartship.service",
        "+ systemctl enable --now dartship-backup.timer",
        "sudo dartship doctor",
    ]
    for text in expected:
        assert text in out, text
    # The kiosk's user: created, or (when it exists here) given its groups.
    assert ("+ useradd --system" in out) or ("+ usermod --append --groups" in out)
    assert "video,render,input,gpio,dialout,audio" in out
    # The config is written only when absent, from the defaults with the kiosk switches on.
    config_lines = [line for line in out.splitlines() if "/etc/dartship/config.toml" in line]
    assert any("kept" in line for line in config_lines) or any(
        "display.fullscreen and display.kiosk_mode = true" in line for line in config_lines
    )


def test_lgpio_is_built_from_source_with_its_library_inside_before_the_pi_extra(stubs) -> None:
    env, record = stubs
    out = dry_run(env).stdout
    assert not record.exists()
    lines = out.splitlines()
    # Where PyPI has no wheel, pip builds lgpio; Debian has no liblgpio, so PYPI=1 has the lg
    # library compiled in. Then the import is checked, and the pi extra finds lgpio installed.
    build = lines.index("+ env PYPI=1 /opt/dartship/venv/bin/pip install lgpio>=0.2")
    check = next(i for i, line in enumerate(lines) if "/opt/dartship/venv/bin/python -c import lgpio" in line)
    extra = next(i for i, line in enumerate(lines) if line.endswith("[pi]"))
    assert build < check < extra
    assert "liblgpio" not in out  # in Raspberry Pi's archive only: apt on Debian would stop there
    assert "swig" in out.split("apt-get install", 1)[1].splitlines()[0]


def test_dry_run_makes_the_data_folder_for_the_kiosk_user(stubs) -> None:
    env, _record = stubs
    out = dry_run(env).stdout
    assert "+ install -d -m 0750 -o dartship -g dartship /var/lib/dartship" in out


def test_dry_run_without_apt(stubs) -> None:
    env, record = stubs
    result = dry_run(env, "--no-apt")
    assert result.returncode == 0, result.stderr
    assert "apt-get" not in result.stdout
    assert not record.exists()


def test_dry_run_kivy_from_source_adds_the_build_step(stubs) -> None:
    env, _record = stubs
    out = dry_run(env, "--kivy-from-source").stdout
    assert "libsdl2-dev" in out and "--no-binary kivy" in out


def test_dry_run_uninstall_keeps_the_data(stubs) -> None:
    env, record = stubs
    result = dry_run(env, "--uninstall")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert not record.exists(), record.read_text()
    for text in (
        "+ rm -f /etc/systemd/system/dartship.service",
        "+ rm -f /etc/udev/rules.d/99-dartboard.rules",
        "+ systemctl enable getty@tty1.service",
        "+ rm -rf /opt/dartship",
    ):
        assert text in out, text
    assert "/var/lib/dartship" in out and "+ rm -rf /etc/dartship" not in out


def test_dry_run_uninstall_purge_removes_the_data(stubs) -> None:
    env, record = stubs
    out = dry_run(env, "--uninstall", "--purge").stdout
    assert "+ rm -rf /etc/dartship /var/lib/dartship" in out
    assert not record.exists()


def test_bad_options_are_refused(stubs) -> None:
    env, _record = stubs
    assert dry_run(env, "--purge").returncode == 2
    assert dry_run(env, "--frobnicate").returncode == 2
    missing = dry_run(env, "--board-port", "/dev/ttyNOPE9")
    assert missing.returncode == 1 and "/dev/ttyNOPE9 does not exist" in missing.stderr


def test_without_root_and_without_dry_run_nothing_starts(stubs) -> None:
    if os.geteuid() == 0:
        pytest.skip("running as root: the script would really install")
    env, record = stubs
    result = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 1 and "sudo" in result.stderr
    assert not record.exists()


def test_shellcheck_clean() -> None:
    tool = shutil.which("shellcheck")
    if tool is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    result = subprocess.run([tool, str(SCRIPT)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout
