"""`dartship doctor` against a fake machine: folders for /dev, /sys and /proc, a fake user."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest

from kiosk.app import doctor
from kiosk.app.doctor import Environment, Identity, Severity
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Setup, Team
from kiosk.store import Store

OTHER_UID = 4242  # the kiosk's user in these tests: never the owner of the test's files


class Machine:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.dev, self.sys, self.proc = root / "dev", root / "sys", root / "proc"
        for folder in (self.dev, self.sys, self.proc, root / "state", root / "etc"):
            folder.mkdir()
        self.config = root / "etc" / "config.toml"
        self.serial_opened: list[tuple[str, int]] = []
        self.serial_error: Exception | None = None
        self.bind_error: OSError | None = None
        self.ip: str | None = "10.0.0.5"
        self.identity = Identity("dartship", OTHER_UID, frozenset([os.getgid()]))
        self.env: dict[str, str] = {"HOME": str(root / "home")}
        self.installed = False
        self.missing_groups: tuple[str, ...] = ()
        self.modules = {"lgpio"}
        self.unit_headless = False  # what dartship.service's ExecStart says

    def write_config(self, text: str) -> None:
        self.config.write_text(text)
        self.env["DARTSHIP_CONFIG"] = str(self.config)

    def device(self, name: str, mode: int = 0o660) -> Path:
        path = self.dev / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
        path.chmod(mode)
        return path

    def screen(self, connected: bool = True) -> None:
        self.device("dri/card1")
        status = self.sys / "class" / "drm" / "card1-HDMI-A-1" / "status"
        status.parent.mkdir(parents=True)
        status.write_text("connected\n" if connected else "disconnected\n")
        caps = self.sys / "class" / "input" / "event0" / "device" / "capabilities" / "abs"
        caps.parent.mkdir(parents=True)
        caps.write_text("2608000 3\n")

    def process(self, pid: int, command: str, *targets: str) -> None:
        folder = self.proc / str(pid)
        (folder / "fd").mkdir(parents=True)
        (folder / "cmdline").write_bytes(b"\0".join(p.encode() for p in command.split()) + b"\0")
        for fd, target in enumerate(targets, start=3):
            os.symlink(target, folder / "fd" / str(fd))

    def listening(self, port: int, inode: int) -> None:
        (self.proc / "net").mkdir(exist_ok=True)
        (self.proc / "net" / "tcp").write_text(
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
            "timeout inode\n"
            f"   0: 00000000:{port:04X} 00000000:0000 0A 00000000:00000000 00:00000000 00000000  "
            f"1000        0 {inode} 1 0000000000000000 100 0 0 10 0\n"
        )

    def environment(self) -> Environment:
        def open_serial(port: str, baud: int) -> None:
            if self.serial_error:
                raise self.serial_error
            self.serial_opened.append((port, baud))

        def bind(host: str, port: int) -> None:
            if self.bind_error:
                raise self.bind_error

        return Environment(
            env=self.env,
            identity=self.identity,
            dev=self.dev,
            sys=self.sys,
            proc=self.proc,
            config_paths=(self.root / "etc" / "absent.toml",),
            state_dir=self.root / "state",
            installed=self.installed,
            missing_groups=self.missing_groups,
            lan_ip=lambda: self.ip,
            open_serial=open_serial,
            bind=bind,
            has_module=lambda name: name in self.modules,
            service_headless=lambda: self.unit_headless,
        )

    def run(self) -> doctor.Report:
        return doctor.run_checks(self.environment())


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    m = Machine(tmp_path)
    (tmp_path / "state").chmod(0o777)
    return m


def findings(report: doctor.Report, check: str, level: Severity | None = None) -> list[doctor.Finding]:
    return [f for f in report.findings if f.check == check and (level is None or f.level is level)]


def kiosk_config(machine: Machine, extra: str = "") -> None:
    """A kiosk's config (with its own PIN) plus `extra`, which may add to [kiosk]."""
    pin = 'pin = "8642"\n'
    if "[kiosk]\n" in extra:
        extra = extra.replace("[kiosk]\n", "[kiosk]\n" + pin)
    else:
        extra = "[kiosk]\n" + pin + extra
    machine.write_config(extra + "[display]\nfullscreen = true\nkiosk_mode = true\n")


def healthy(machine: Machine) -> None:
    kiosk_config(machine)
    machine.screen()


# -- config --


def test_broken_config_names_every_bad_key_and_stops_the_dependent_checks(machine: Machine) -> None:
    machine.write_config('[board]\ninput = "usb"\n[web]\nport = 99999\nfavourite = 1\n')
    report = machine.run()
    messages = [f.message for f in findings(report, "config", Severity.FAIL)]
    assert any("board.input" in m and "usb" in m for m in messages)
    assert any(m.startswith("web.port") for m in messages)
    assert any("web.favourite" in m for m in messages)
    assert all(str(machine.config) in f.fix for f in findings(report, "config", Severity.FAIL))
    assert not findings(report, "database") and not findings(report, "board")
    assert findings(report, "doctor", Severity.WARN)
    assert report.failed


def test_the_default_pin_is_a_warning_naming_the_file(machine: Machine) -> None:
    machine.write_config("[display]\nfullscreen = true\n")
    warnings = findings(machine.run(), "config", Severity.WARN)
    assert len(warnings) == 1 and "default" in warnings[0].message
    assert str(machine.config) in warnings[0].fix
    kiosk_config(machine)
    assert not findings(machine.run(), "config", Severity.WARN)


def test_config_that_is_not_toml(machine: Machine) -> None:
    machine.write_config("[board\ninput = serial\n")
    report = machine.run()
    assert "not valid TOML" in findings(report, "config", Severity.FAIL)[0].message


def test_missing_config_file_named_by_environment(machine: Machine) -> None:
    machine.env["DARTSHIP_CONFIG"] = str(machine.root / "etc" / "nope.toml")
    report = machine.run()
    assert "no such config file" in findings(report, "config", Severity.FAIL)[0].message


def test_healthy_kiosk_passes_and_tells_the_phone_address(machine: Machine, capsys) -> None:
    healthy(machine)
    assert doctor.main([], machine.environment()) == 0
    out = capsys.readouterr().out
    assert "http://10.0.0.5:8080/" in out
    assert "No problems found." in out
    assert "FAIL" not in out


# -- database --


def test_database_that_does_not_exist_yet_will_be_created(machine: Machine) -> None:
    healthy(machine)
    report = machine.run()
    (ok,) = findings(report, "database")
    assert ok.level is Severity.OK and "creates it" in ok.message
    assert str(machine.root / "state" / "dartship.db") in ok.message
    assert not (machine.root / "state" / "dartship.db").exists()  # the doctor created nothing


def test_unwritable_database_folder(machine: Machine) -> None:
    locked = machine.root / "locked"
    locked.mkdir(mode=0o755)
    kiosk_config(machine, f'[kiosk]\ndatabase = "{locked / "games" / "dartship.db"}"\n')
    report = machine.run()
    (fail,) = findings(report, "database", Severity.FAIL)
    assert "cannot be created" in fail.message and str(locked) in fail.message
    assert "sudo install -d -o dartship" in fail.fix
    assert report.failed


def test_unwritable_database_file(machine: Machine) -> None:
    folder = machine.root / "games"
    folder.mkdir()
    folder.chmod(0o777)
    store = Store(folder / "dartship.db")
    store.close()
    (folder / "dartship.db").chmod(0o644)
    kiosk_config(machine, f'[kiosk]\ndatabase = "{folder / "dartship.db"}"\n')
    report = machine.run()
    (fail,) = findings(report, "database", Severity.FAIL)
    assert "cannot write" in fail.message and "sudo chown dartship:" in fail.fix


def test_good_database_is_read_without_leaving_files_behind(machine: Machine) -> None:
    folder = machine.root / "games"
    folder.mkdir()
    folder.chmod(0o777)
    store = Store(folder / "dartship.db")
    store.games.new_game(DARTS, Setup((Team("A", ("a",)), Team("B", ("b",)))))
    store.close()
    (folder / "dartship.db").chmod(0o666)
    kiosk_config(machine, f'[kiosk]\ndatabase = "{folder / "dartship.db"}"\n')
    report = machine.run()
    (ok,) = findings(report, "database")
    assert ok.level is Severity.OK, ok
    assert sorted(p.name for p in folder.iterdir()) == ["dartship.db"]


def test_database_of_another_program(machine: Machine) -> None:
    other = machine.root / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE invoices(x)")
    conn.commit()
    conn.close()
    kiosk_config(machine, f'[kiosk]\ndatabase = "{other}"\n')
    (fail,) = findings(machine.run(), "database", Severity.FAIL)
    assert "another program" in fail.message


def test_damaged_database(machine: Machine) -> None:
    path = machine.root / "dartship.db"
    path.write_bytes(b"this was never SQLite" * 10)
    kiosk_config(machine, f'[kiosk]\ndatabase = "{path}"\n')
    (fail,) = findings(machine.run(), "database", Severity.FAIL)
    assert "not a Dartship database" in fail.message and "mv" in fail.fix


# -- board: serial --


def serial_config(machine: Machine, port: Path | str) -> None:
    kiosk_config(machine, f'[board]\ninput = "serial"\nport = "{port}"\n')


def test_missing_serial_port_lists_what_is_there_and_how_to_fix(machine: Machine) -> None:
    machine.screen()
    machine.device("ttyACM0")
    serial_config(machine, machine.dev / "dartboard")
    report = machine.run()
    (fail,) = findings(report, "board", Severity.FAIL)
    assert "does not exist" in fail.message and str(machine.dev / "ttyACM0") in fail.message
    assert "udevadm info" in fail.fix and "--board-port" in fail.fix
    assert machine.serial_opened == []
    assert report.failed


def test_missing_serial_port_and_no_device_at_all(machine: Machine) -> None:
    serial_config(machine, machine.dev / "dartboard")
    (fail,) = findings(machine.run(), "board", Severity.FAIL)
    assert "no USB serial device" in fail.message


def test_serial_port_that_opens(machine: Machine) -> None:
    port = machine.device("ttyUSB0")
    link = machine.dev / "dartboard"
    link.symlink_to(port)
    serial_config(machine, link)
    (ok,) = findings(machine.run(), "board")
    assert ok.level is Severity.OK and "opens at 115200 baud" in ok.message
    assert machine.serial_opened == [(str(link), 115200)]


def test_serial_port_that_fails_to_open(machine: Machine) -> None:
    port = machine.device("ttyUSB0")
    machine.serial_error = OSError(errno.EIO, "Input/output error")
    serial_config(machine, port)
    (fail,) = findings(machine.run(), "board", Severity.FAIL)
    assert "cannot open" in fail.message and "Input/output error" in fail.message


def test_serial_port_without_permission(machine: Machine) -> None:
    port = machine.device("ttyUSB0", mode=0o600)
    serial_config(machine, port)
    (fail,) = findings(machine.run(), "board", Severity.FAIL)
    assert "may not open" in fail.message and "dialout" in fail.fix
    assert machine.serial_opened == []


def test_serial_port_held_by_modemmanager(machine: Machine) -> None:
    port = machine.device("ttyACM0")
    machine.process(612, "/usr/sbin/ModemManager", str(port))
    serial_config(machine, port)
    (fail,) = findings(machine.run(), "board", Severity.FAIL)
    assert "612 (/usr/sbin/ModemManager)" in fail.message and "modemmanager" in fail.fix
    assert machine.serial_opened == []


def test_serial_port_held_by_the_kiosk_is_fine_and_not_reopened(machine: Machine) -> None:
    port = machine.device("ttyACM0")
    machine.process(700, "/opt/dartship/venv/bin/python /opt/dartship/venv/bin/dartship run", str(port))
    serial_config(machine, port)
    (ok,) = findings(machine.run(), "board")
    assert ok.level is Severity.OK and "running kiosk (pid 700)" in ok.message
    assert machine.serial_opened == []  # opening it would reset an Arduino mid-game


def test_board_map_missing(machine: Machine) -> None:
    kiosk_config(machine, f'[board]\nmap = "{machine.root / "map.toml"}"\n')
    (fail,) = findings(machine.run(), "board", Severity.FAIL)
    assert "board.map" in fail.message and "dartship learn" in fail.fix


# -- GPIO --


def test_matrix_without_gpio_chip(machine: Machine) -> None:
    kiosk_config(machine, '[board]\ninput = "matrix"\n')
    (fail,) = findings(machine.run(), "gpio", Severity.FAIL)
    assert "gpiochip" in fail.message


def test_matrix_with_gpio_chip_of_the_kiosks_group(machine: Machine) -> None:
    machine.device("gpiochip0", mode=0o660)
    kiosk_config(machine, '[board]\ninput = "matrix"\n')
    (ok,) = findings(machine.run(), "gpio")
    assert ok.level is Severity.OK and "17 pins" in ok.message


def test_gpio_chip_without_permission(machine: Machine) -> None:
    machine.device("gpiochip0", mode=0o600)
    kiosk_config(machine, '[board]\ninput = "matrix"\n')
    (fail,) = findings(machine.run(), "gpio", Severity.FAIL)
    assert "may not open" in fail.message and "gpio" in fail.fix


def test_pin_used_twice(machine: Machine) -> None:
    machine.device("gpiochip0")
    kiosk_config(machine, '[board]\ninput = "matrix"\n[buttons]\nnext = 5\n')
    fails = findings(machine.run(), "gpio", Severity.FAIL)
    assert any(
        "GPIO 5" in f.message and "matrix.rows" in f.message and "buttons.next" in f.message for f in fails
    )


def test_buttons_need_gpio_even_with_a_serial_board(machine: Machine) -> None:
    machine.device("gpiochip0")
    machine.modules = set()
    kiosk_config(machine, "[buttons]\nundo = 23\n")
    (fail,) = findings(machine.run(), "gpio", Severity.FAIL)
    assert "lgpio" in fail.message


# -- display --


def test_no_screen_device(machine: Machine) -> None:
    kiosk_config(machine)
    (fail,) = findings(machine.run(), "display", Severity.FAIL)
    assert "/dev/dri/card" in fail.message and "vc4-kms-v3d" in fail.fix


def test_desktop_session_is_enough(machine: Machine) -> None:
    kiosk_config(machine)
    machine.env["WAYLAND_DISPLAY"] = "wayland-1"
    (ok,) = findings(machine.run(), "display")
    assert ok.level is Severity.OK and "wayland-1" in ok.message


def test_screen_not_connected_and_window_settings(machine: Machine) -> None:
    machine.screen(connected=False)
    machine.write_config("")
    warnings = [f.message for f in findings(machine.run(), "display", Severity.WARN)]
    assert any("no screen is connected" in w for w in warnings)
    assert any("display.fullscreen" in w for w in warnings)


def test_screen_connected(machine: Machine) -> None:
    healthy(machine)
    (ok,) = findings(machine.run(), "display")
    assert ok.level is Severity.OK and "card1-HDMI-A-1" in ok.message


# -- network --


def test_no_network(machine: Machine) -> None:
    healthy(machine)
    machine.ip = None
    (fail,) = findings(machine.run(), "network", Severity.FAIL)
    assert "no network" in fail.message and "nmtui" in fail.fix


def test_port_taken_by_another_program(machine: Machine) -> None:
    healthy(machine)
    machine.listening(8080, 5555)
    machine.process(900, "nginx: master process", "socket:[5555]")
    (fail,) = findings(machine.run(), "network", Severity.FAIL)
    assert "900 (nginx: master process)" in fail.message


def test_port_served_by_the_running_kiosk(machine: Machine) -> None:
    healthy(machine)
    machine.listening(8080, 5555)
    machine.process(700, "/opt/dartship/venv/bin/python /opt/dartship/venv/bin/dartship run", "socket:[5555]")
    report = machine.run()
    assert not report.failed
    assert any("running kiosk (pid 700)" in f.message for f in findings(report, "network"))


def test_port_taken_by_an_invisible_program(machine: Machine) -> None:
    healthy(machine)
    machine.listening(8080, 5555)
    (warn,) = findings(machine.run(), "network", Severity.WARN)
    assert "sudo" in warn.fix


def test_port_cannot_be_bound(machine: Machine) -> None:
    healthy(machine)
    machine.bind_error = OSError(errno.EADDRINUSE, "Address already in use")
    (fail,) = findings(machine.run(), "network", Severity.FAIL)
    assert "Address already in use" in fail.message


def test_phone_page_on_localhost_only(machine: Machine) -> None:
    kiosk_config(machine, '[web]\nhost = "127.0.0.1"\n')
    (fail,) = findings(machine.run(), "network", Severity.FAIL)
    assert "0.0.0.0" in fail.fix


# -- the installed service --


def test_missing_group_stops_the_unit(machine: Machine) -> None:
    healthy(machine)
    machine.installed, machine.missing_groups = True, ("gpio",)
    (fail,) = findings(machine.run(), "service", Severity.FAIL)
    assert "216/GROUP" in fail.message and "groupadd --system gpio" in fail.fix


def test_exit_status_is_non_zero_when_something_is_wrong(machine: Machine, capsys) -> None:
    serial_config(machine, machine.dev / "dartboard")
    assert doctor.main([], machine.environment()) == 1
    out = capsys.readouterr().out
    assert "fix:" in out and "Problems: " in out


def test_identity_reads_permission_bits(tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_text("")
    f.chmod(0o640)
    owner = Identity("me", f.stat().st_uid, frozenset())
    assert owner.can(f, os.R_OK | os.W_OK)
    group = Identity("g", OTHER_UID, frozenset([f.stat().st_gid]))
    assert group.can(f, os.R_OK) and not group.can(f, os.W_OK)
    other = Identity("o", OTHER_UID, frozenset([OTHER_UID]))
    assert not other.can(f, os.R_OK)


def test_spi_switched_on_takes_matrix_pins(machine: Machine) -> None:
    machine.device("gpiochip0")
    machine.device("spidev0.0")
    kiosk_config(machine, '[board]\ninput = "matrix"\n')
    fails = findings(machine.run(), "gpio", Severity.FAIL)
    assert any("7, 8, 9, 10, 11" in f.message and "do_spi 1" in f.fix for f in fails)


# -- what the board speaks (dialect auto) and the Autodarts Board Manager --


def test_serial_board_names_the_dialect_and_speed_auto_found(machine: Machine) -> None:
    import json

    port = machine.device("ttyUSB0")
    data = machine.root / "data"
    data.mkdir()
    (data / "boards.json").write_text(json.dumps({str(port): {"dialect": "x", "baud": 9600}}))
    kiosk_config(
        machine, f'[kiosk]\ndatabase = "{data / "dartship.db"}"\n[board]\ninput = "serial"\nport = "{port}"\n'
    )
    (ok,) = findings(machine.run(), "board")
    assert ok.level is Severity.OK
    assert "speaks x at 9600 baud" in ok.message
    assert machine.serial_opened == [(str(port), 9600)]  # opened at the speed it was told


def test_serial_board_not_told_yet_says_how_it_will_be(machine: Machine) -> None:
    port = machine.device("ttyUSB0")
    kiosk_config(
        machine,
        f'[kiosk]\ndatabase = "{machine.root / "none" / "d.db"}"\n'
        f'[board]\ninput = "serial"\nport = "{port}"\n',
    )
    (ok,) = findings(machine.run(), "board")
    assert "not told yet" in ok.message


class BoardManagerThread:
    """A fake Autodarts Board Manager in a loop of its own (doctor runs its own loop)."""

    def __init__(self, running: bool = True) -> None:
        import asyncio
        import threading

        from hardware.fake_autodarts import FakeBoardManager

        self.ready = threading.Event()
        self.url = ""
        self._stop: asyncio.Event | None = None

        async def serve() -> None:
            manager = FakeBoardManager()
            manager.running = running
            manager.status = "Throw" if running else "Stopped"
            self.url = await manager.start()
            self.manager = manager
            self._stop = asyncio.Event()
            self.loop = asyncio.get_running_loop()
            self.ready.set()
            await self._stop.wait()
            await manager.stop()

        self.thread = threading.Thread(target=lambda: asyncio.run(serve()))
        self.thread.start()
        assert self.ready.wait(10)

    def close(self) -> None:
        assert self._stop is not None
        self.loop.call_soon_threadsafe(self._stop.set)
        self.thread.join(10)


def test_autodarts_reachable_and_running(machine: Machine) -> None:
    server = BoardManagerThread()
    try:
        kiosk_config(machine, f'[board]\ninput = "autodarts"\nautodarts = "{server.url}"\n')
        (ok,) = findings(machine.run(), "board")
        assert ok.level is Severity.OK and "0.27.0" in ok.message and "Throw" in ok.message
        assert server.manager.config_reads == 0  # the cloud key is never read
    finally:
        server.close()


def test_autodarts_stopped_is_a_warning_and_unreachable_a_failure(machine: Machine) -> None:
    server = BoardManagerThread(running=False)
    try:
        kiosk_config(machine, f'[board]\ninput = "autodarts"\nautodarts = "{server.url}"\n')
        (warn,) = findings(machine.run(), "board")
        assert warn.level is Severity.WARN and "Start" in warn.fix
    finally:
        server.close()
    kiosk_config(machine, f'[board]\ninput = "autodarts"\nautodarts = "{server.url}"\n')
    (fail,) = findings(machine.run(), "board")
    assert fail.level is Severity.FAIL and "cannot reach" in fail.message
