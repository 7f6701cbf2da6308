"""The doctor warns of the default PIN with no config file too, and its last line counts the
warnings as well as the problems."""

from __future__ import annotations

from kiosk.app import doctor
from kiosk.app.doctor import Severity
from tests.system.test_pi_doctor import Machine, findings, healthy, kiosk_config, machine  # noqa: F401


def test_no_config_file_means_the_default_pin_and_says_so(machine: Machine) -> None:  # noqa: F811
    report = machine.run()  # no file anywhere: the built-in defaults
    warnings = [f for f in findings(report, "config", Severity.WARN) if "PIN" in f.message]
    assert len(warnings) == 1 and "Settings" in warnings[0].fix


def test_the_summary_counts_warnings(machine: Machine, capsys) -> None:  # noqa: F811
    healthy(machine)
    machine.write_config("[display]\nfullscreen = true\nkiosk_mode = true\n")  # the default PIN
    report = machine.run()
    warned = sum(f.level is Severity.WARN for f in report.findings)
    assert warned >= 1 and not report.failed
    assert doctor.main([], machine.environment()) == 0
    assert f"No problems; warnings: {warned}." in capsys.readouterr().out
    assert doctor.summary(2, 1) == "Problems: 2, warnings: 1."
    assert doctor.summary(0, 0) == "No problems found."


def test_the_doctor_speaks_the_kiosk_s_language_from_its_first_line(machine: Machine, capsys) -> None:  # noqa: F811
    """A German kiosk's doctor is German throughout: before, its findings were English and
    only `--sound` switched to German, halfway through the report ("Abhilfe:" under English
    lines). The language is the process's again afterwards."""
    from kiosk.i18n import catalog, language

    healthy(machine)
    machine.write_config(machine.config.read_text().replace("[kiosk]\n", '[kiosk]\nlanguage = "de"\n'))
    german = catalog("de")
    assert doctor.main([], machine.environment()) == 0
    out = capsys.readouterr().out
    assert german["{path}: every key is valid"].format(path=machine.config) in out
    assert german["port {port} is free"].format(port=8080) in out
    assert "every key is valid" not in out and "is free" not in out
    assert out.splitlines()[0] == german["Dartship doctor (checking as user {user})"].format(user="dartship")
    assert language() == "en"


def test_a_database_on_a_read_only_or_full_disk_is_a_problem_not_writable(machine: Machine) -> None:  # noqa: F811
    """A real small disk (tmpfs) under the database: read-only (as an SD card after write
    errors) and full. Before, the doctor said "a Dartship database, writable by dartship" of
    both, and "the kiosk creates it" of a database that did not exist on the read-only disk:
    the permission bits were all it looked at."""
    from kiosk.store import Store
    from tests.small_disk import fill, remount, small_disk

    with small_disk(machine.root / "sd", "4m") as sd:
        Store(sd / "dartship.db").close()
        (sd / "dartship.db").chmod(0o666)  # the kiosk's user of these tests may write it
        kiosk_config(machine, f'[kiosk]\ndatabase = "{sd / "dartship.db"}"\n')
        machine.screen()
        low, fine = findings(machine.run(), "database")  # 4 MB: low, and the file is fine
        assert (low.level, fine.level) == (Severity.WARN, Severity.OK) and "only" in low.message
        remount(sd, "ro")
        try:
            [said] = findings(machine.run(), "database")
            assert said.level is Severity.FAIL and "read-only" in said.message and "dmesg" in said.fix
            kiosk_config(machine, f'[kiosk]\ndatabase = "{sd / "new" / "dartship.db"}"\n')
            [said] = findings(machine.run(), "database")
            assert said.level is Severity.FAIL and "read-only" in said.message
        finally:
            remount(sd, "rw")
        kiosk_config(machine, f'[kiosk]\ndatabase = "{sd / "dartship.db"}"\n')
        filler = fill(sd)
        [said] = findings(machine.run(), "database")
        assert said.level is Severity.FAIL and "is full (0 KB free)" in said.message
        filler.unlink()


def test_no_screen_says_a_phones_only_kiosk_needs_none(machine: Machine) -> None:  # noqa: F811
    """On a machine with no screen (a laptop or a Pi in the back room running the phones-only
    kiosk), the display's FAIL says that `--headless` needs no screen: before, its only fix was
    about the Pi's KMS overlay, which such a bar has no use for."""
    kiosk_config(machine)
    (fail,) = findings(machine.run(), "display", Severity.FAIL)
    assert "vc4-kms-v3d" in fail.fix and "--headless" in fail.fix


def test_a_kiosk_started_headless_by_its_unit_needs_no_screen(machine: Machine, capsys) -> None:  # noqa: F811
    """A bar that runs the kiosk phones-only (`systemctl edit dartship`: ExecStart with
    `--headless`) and no screen gets no display problem: before, the doctor failed it for the
    screen it does not have, and exited 1 on a healthy kiosk."""
    kiosk_config(machine)
    machine.unit_headless = True
    (ok,) = findings(machine.run(), "display")
    assert ok.level is Severity.OK and "--headless" in ok.message
    assert doctor.main([], machine.environment()) == 0
    assert "No problems" in capsys.readouterr().out


def test_doctor_headless_checks_a_phones_only_kiosk(machine: Machine, capsys) -> None:  # noqa: F811
    """`dartship doctor --headless` checks the kiosk as `dartship run --headless` runs it (a
    kiosk started by hand or by another supervisor than dartship.service): the network is still
    checked (the phones need it), the screen is not."""
    kiosk_config(machine)
    assert doctor.main([], machine.environment()) == 1  # no screen, judged as a screen kiosk
    capsys.readouterr()
    assert doctor.main(["--headless"], machine.environment()) == 0
    out = capsys.readouterr().out
    assert "no screen needed" in out and "10.0.0.5" in out


def test_the_unit_s_start_line_is_read_for_headless(monkeypatch) -> None:
    """`--headless` is found among the words of the unit's ExecStart as systemctl shows it; no
    systemctl (a laptop, a container) is not headless."""
    import subprocess

    shown = (
        "{ path=/opt/dartship/venv/bin/dartship ; argv[]=/opt/dartship/venv/bin/dartship run --headless ; }"
    )

    def fake_run(args, **kwargs):
        assert args[:2] == ["systemctl", "show"]
        return subprocess.CompletedProcess(args, 0, stdout=shown + "\n", stderr="")

    monkeypatch.setattr(subprocess, "run", fake_run)
    assert doctor._service_headless() is True
    shown = shown.replace(" --headless", "")
    assert doctor._service_headless() is False

    def missing(args, **kwargs):
        raise FileNotFoundError("systemctl")

    monkeypatch.setattr(subprocess, "run", missing)
    assert doctor._service_headless() is False
