"""The config file: typed settings from the one option table, validation that names the key,
the owner that saves (keeping the owner's file) and tells, the commands."""

import subprocess
import sys
from pathlib import Path

import pytest

from kiosk import config
from kiosk.board import Profile
from kiosk.darts.match import BullOffMode, house_rules
from kiosk.scatter import Skill

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_are_the_rules_defaults():
    settings = config.Settings()
    rules = house_rules(settings)
    assert rules.fleet == (2, 3, 4, 5) and rules.darts_per_visit == 3
    assert rules.bull_off is BullOffMode.NORMAL and rules.profile is Profile.FOUR_RING
    assert settings.rules.takeout_seconds == 0
    assert settings.board.input is config.InputKind.SIMULATOR
    assert settings.simulator.skill is Skill.PUB and settings.matrix.rows == (5, 6, 16, 20, 26, 7, 8)


def test_values_are_typed_by_the_option_table():
    settings = config.parse(
        "[board]\ninput = 'serial'\ndialect = 'x'\n[simulator]\nskill = 'pro'\n"
        "[matrix]\nrows = [1, 2]\n[solo]\ndart_seconds = 2\n"
    )
    assert settings.board.input is config.InputKind.SERIAL
    assert settings.board.dialect is config.SerialDialect.X
    assert settings.simulator.skill is Skill.PRO
    assert settings.matrix.rows == (1, 2) and settings.solo.dart_seconds == 2.0
    assert settings.get("board.dialect") is config.SerialDialect.X


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("[rules]\ndarts_per_visit = 'three'", "rules.darts_per_visit", "whole number"),
        ("[rules]\ndarts_per_visit = 12", "rules.darts_per_visit", "1 to 9"),
        ("[rules]\nbull_off = 'coin'", "rules.bull_off", "normal, official, off"),
        ("[rules]\nfleet = [1, 2]", "rules.fleet", "2 to 5"),
        ("[board]\ninput = 'usb'", "board.input", "simulator, serial, matrix"),
        ("[board]\nprofile = 'five-ring'", "board.profile", "four-ring"),
        ("[matrix]\nrows = [1, 1]", "matrix.rows", "twice"),
        ("[web]\nport = 70000", "web.port", "1 to 65535"),
        ("[web]\nhost = '999.1.1.1'", "web.host", "IP address"),
        ("[web]\nhost = 'my host'", "web.host", "IP address"),
        ("[kiosk]\npin = 'abcd'", "kiosk.pin", "digits"),
        ("[kiosk]\nlanguage = 'sv'", "kiosk.language", "en, de, fi"),
        ("[display]\nfullscreen = 'yes'", "display.fullscreen", "true or false"),
        ("[rules]\nsurprise = 1", "rules.surprise", "unknown"),
        ("[rules.deeper]\nx = 1", "rules.deeper", "nested deeper"),
        ("this is = = not toml", "config", "TOML"),
        ("x = " + "[" * 5000 + "]" * 5000, "config", "TOML"),
    ],
)
def test_errors_name_the_key(text, key, words):
    with pytest.raises(config.ConfigError) as err:
        config.parse(text)
    message = str(err.value)
    assert key in message and words in message


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("[caller]\nvolumen = 50", "caller.volume"),  # a typo
        ("[board]\nimput = 'serial'", "board.input"),
        ("[kiosk]\nvoice_de = 'de+f3'", "caller.voice_de"),  # the right name, the wrong section
        ("[web]\nprot = 8081", "web.port"),
    ],
)
def test_a_typo_d_key_names_the_key_it_is_near(text, meant):
    """An owner's typo is told with the key meant ("did you mean caller.volume?"), by
    `dartship config check`, the doctor and the kiosk's journal alike; a key near none is not."""
    with pytest.raises(config.ConfigError) as err:
        config.parse(text)
    assert f"did you mean {meant}?" in str(err.value)
    with pytest.raises(config.ConfigError) as far:
        config.parse("[display]\npin = 5\n[rules]\nsurprise = 1")
    assert "did you mean" not in str(far.value) and len(far.value.problems) == 2


def test_every_problem_is_listed():
    with pytest.raises(config.ConfigError) as err:
        config.parse("[rules]\ndarts_per_visit = 0\nbull_off = 'x'\n")
    assert len(err.value.problems) == 2


def test_fleet_list_preset_and_an_unquoted_pin():
    assert house_rules(config.parse("[rules]\nfleet = [5, 4, 3, 3, 2]")).fleet == (2, 3, 3, 4, 5)
    assert house_rules(config.parse("[rules]\nfleet = 'classic-five'")).fleet == (2, 3, 3, 4, 5)
    assert config.parse("[kiosk]\npin = 4321").kiosk.pin == "4321"
    assert config.parse("[web]\nhost = 'kiosk.local'").web.host == "kiosk.local"


def test_allowed_values_are_defined_once():
    """The option table, the enums behind it, hardware's dialects and the README agree."""
    from hardware.dialects import DIALECTS

    dialect = config.OPTION_BY_KEY["board.dialect"]
    # "auto" is no dialect of its own: the reader tells one of the others from the first lines
    assert (
        set(dialect.allowed) - {"auto"} == set(DIALECTS) == {d.value for d in config.SerialDialect} - {"auto"}
    )
    assert config.OPTION_BY_KEY["simulator.skill"].allowed == tuple(s.value for s in Skill)
    assert config.reference_table() in (ROOT / "README.md").read_text(encoding="utf-8")


def test_dump_parses_back(tmp_path):
    settings = config.parse("[rules]\ndarts_per_visit = 2\n[kiosk]\nlanguage = 'fi'\n")
    assert config.parse(config.dump(settings)) == settings


OWNERS_FILE = """\
# The bar's own notes: keep them.
[board]
input = "serial"   # the real board since March
port = "/dev/ttyACM0"

[custom]
colour = "teal"
"""


def test_saving_keeps_the_owners_file_and_tells_subscribers(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(OWNERS_FILE)
    owner = config.read(path, strict=False)  # `custom.colour` is unknown: listed, kept
    heard = []
    owner.subscribe(heard.append)
    change = owner.save({"rules.darts_per_visit": 2, "board.port": "/dev/ttyUSB0"})
    text = path.read_text()
    assert "# The bar's own notes: keep them." in text and "# the real board since March" in text
    assert 'colour = "teal"' in text and "darts_per_visit = 2" in text
    assert text.index("[board]") < text.index("[custom]")
    assert heard == [change] and change.keys == {"rules.darts_per_visit", "board.port"}
    assert config.read(path, strict=False).settings == owner.settings
    assert owner.settings.board.port == "/dev/ttyUSB0"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


def test_command_line_values_are_in_effect_but_never_saved(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(OWNERS_FILE)
    overrides, problems = config.check_values(
        {"board.input": "simulator", "web.port": 9999, "kiosk.database": "/tmp/x.db"}
    )
    assert not problems
    owner = config.read(path, strict=False, overrides=overrides)
    assert owner.settings.board.input is config.InputKind.SIMULATOR
    assert owner.overridden("board.input") and not owner.overridden("board.port")
    owner.save({"kiosk.language": "de"})
    saved = config.read(path, strict=False)
    assert saved.settings.board.input is config.InputKind.SERIAL  # the file's own value
    assert saved.settings.web.port == 8080 and saved.settings.kiosk.database == ""
    assert owner.settings.board.input is config.InputKind.SIMULATOR  # still in effect
    with pytest.raises(config.ConfigError, match="command line"):
        owner.save({"web.port": 1234})


def test_a_bad_save_changes_nothing(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(OWNERS_FILE)
    owner = config.read(path, strict=False)
    heard = []
    owner.subscribe(heard.append)
    with pytest.raises(config.ConfigError) as err:
        owner.save({"rules.darts_per_visit": "lots", "kiosk.pin": "12"})
    assert {p.key for p in err.value.issues} == {"rules.darts_per_visit", "kiosk.pin"}
    assert path.read_text() == OWNERS_FILE and heard == []


def test_missing_named_file_is_an_error(tmp_path):
    with pytest.raises(config.ConfigError, match="no such config file"):
        config.load(tmp_path / "nope.toml")


def _dartship(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "kiosk.app.cli", *args], capture_output=True, text=True, timeout=60, env=env
    )


def test_config_commands(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text("[rules]\ndarts_per_visit = 1\n")
    out = _dartship("config", "check", "--config", str(good))
    assert out.returncode == 0 and "OK" in out.stdout
    shown = _dartship("config", "show", "--config", str(good))
    assert config.parse(shown.stdout).rules.darts_per_visit == 1
    bad = tmp_path / "bad.toml"
    bad.write_text("[board]\ninput = 'usb'\n")
    out = _dartship("config", "check", "--config", str(bad))
    assert out.returncode == 2 and "board.input" in out.stderr
    reference = _dartship("config", "reference")
    assert reference.stdout == config.reference_table()


def test_the_kiosk_starts_on_a_broken_config_with_defaults_for_the_bad_keys(tmp_path, caplog):
    from kiosk.app.run import _parser, configure

    broken = tmp_path / "config.toml"
    broken.write_text(
        "[rules]\ndarts_per_visit = 'three'\nbull_off = 'off'\n[web]\nport = 9\n[board]\ninput = 'usb'\n"
    )
    owner = configure(_parser().parse_args(["--config", str(broken), "--db", str(tmp_path / "d")]))
    settings = owner.settings
    assert settings.rules.darts_per_visit == 3 and settings.rules.bull_off is BullOffMode.OFF
    assert settings.board.input is config.InputKind.SIMULATOR and settings.web.port == 9
    assert settings.kiosk.database == str(tmp_path / "d") and owner.overridden("kiosk.database")
    logged = caplog.text
    assert "rules.darts_per_visit" in logged and "board.input" in logged
    # The file itself is left as it was, and `config check` still refuses it.
    with pytest.raises(config.ConfigError):
        config.load(broken)


def test_lenient_load_of_unreadable_and_non_toml_files(tmp_path):
    garbage = tmp_path / "config.toml"
    garbage.write_bytes(b"\xff\xfe not toml [[[")
    owner = config.read(garbage, strict=False)
    assert owner.problems and owner.settings == config.Settings()
    missing = config.read(tmp_path / "nope.toml", strict=False)
    assert "no such config file" in str(missing.problems[0])


def test_the_fleet_presets_are_the_dart_games_and_its_room_judges_a_fleet() -> None:
    from kiosk.darts.fleet import PRESETS

    assert tuple(PRESETS) == config.FLEET_PRESETS
    typed, problems = config.check_values({"rules.fleet": "6,7"})
    assert [p.key for p in problems] == ["rules.fleet"] and "rules.fleet" not in typed
    assert (
        config.between_keys(
            config.build({"rules.fleet": "5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5"}), ["rules.fleet"]
        )[0].key
        == "rules.fleet"
    )


def test_saving_the_shown_defaults_mends_the_files_bad_keys(tmp_path):
    """The kiosk ran on the defaults of a file's bad keys and Settings showed them: a Save of that
    form writes them, so the file is good again (it kept 'three' and 'sv', and every start after
    the 'Saved' logged the same problems)."""
    path = tmp_path / "config.toml"
    path.write_text("# ours\n[rules]\ndarts_per_visit = 'three'\n[kiosk]\nlanguage = 'sv'\npin = 12\n")
    owner = config.read(path, strict=False)
    assert {p.key for p in owner.problems} == {"rules.darts_per_visit", "kiosk.language", "kiosk.pin"}
    shown = owner.settings
    owner.save({"rules.darts_per_visit": shown.rules.darts_per_visit, "kiosk.language": "en"})
    again = config.read(path, strict=False)
    assert [p.key for p in again.problems] == ["kiosk.pin"] == [p.key for p in owner.problems]
    assert again.settings.rules.darts_per_visit == 3 and "# ours" in path.read_text()
    path.write_text("[rules\n")  # not TOML: its problem is the file's, gone once a save wrote one
    garbled = config.read(path, strict=False)
    assert [p.key for p in garbled.problems] == [str(path)]
    garbled.save({"rules.darts_per_visit": 3})
    assert garbled.problems == () and not config.read(path, strict=False).problems
