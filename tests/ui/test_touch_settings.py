"""Settings as the owner sees them: values in the owner's words and language, what the command
line set shown as such and never written, the file's comments kept, the note in the new language
after a language change."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from kiosk import config

pytestmark = pytest.mark.slow

OWNERS_FILE = """# The bar's kiosk. Ask Pekka before changing anything.
[board]
# the real board, on the USB port by the till
input = "serial"
port = "/dev/ttyACM0"
"""


def _text(tour) -> str:
    from kivy.uix.label import Label

    return "\n".join(w.text for w in tour.root.walk() if isinstance(w, Label) and w.opacity > 0)


@pytest.fixture
def owners_config(tour, tmp_path: Path):
    """The kiosk started with --simulator and --port on the owner's file."""
    path = tmp_path / "config.toml"
    path.write_text(OWNERS_FILE)
    typed, problems = config.check_values({"board.input": "simulator", "web.port": 9000})
    assert not problems
    tour.at("home")
    before = tour.kiosk.config
    tour.kiosk.config = config.read(path, overrides=typed)
    yield path
    tour.kiosk.config = before


def test_save_keeps_the_owners_file_and_never_writes_the_command_line(tour, owners_config):
    tour.app.go("settings")
    screen = tour.screen()
    text = _text(tour)
    assert "manual scoring (no sensor) (set on the command line)" in text
    assert "board.input" not in screen.inputs  # shown, not editable
    assert screen.inputs["rules.bull_off"].text == "closest to the bull"
    assert screen.inputs["rules.fleet"].text == "2, 3, 4, 5 (default)"
    assert screen.inputs["board.profile"].text == "four rings (81 cells)"
    screen.inputs["rules.darts_per_visit"].set_value(4)
    tour.press("Save")
    assert f"Saved to {owners_config}." in screen.message.text
    saved = owners_config.read_text()
    assert saved.startswith(OWNERS_FILE.rstrip("\n"))  # comments, order and values kept
    assert 'input = "serial"' in saved and "9000" not in saved and "simulator" not in saved
    assert "darts_per_visit = 4" in saved
    assert tour.kiosk.settings.board.input is config.InputKind.SIMULATOR  # still in effect


def test_values_and_the_saved_note_in_german(tour, owners_config):
    from kiosk.i18n import set_language

    tour.app.go("settings")
    try:
        tour.screen().inputs["kiosk.language"].set_value("de")
        tour.press("Save")
        screen = tour.app.screen("settings")
        assert tour.app.sm.current == "settings"
        assert screen.message.text.startswith("Gespeichert in")
        text = _text(tour)
        manual = "manual scoring (no sensor)"
        for english in ("default", "normal", manual, "four-ring"):
            assert english not in text.split("\n"), english
        assert ("manuelle Wertung (ohne Sensor) (auf der Befehlszeile gesetzt)") in text
    finally:
        set_language("en")
        tour.app.rebuild("home")


def test_renew_host_link_asks_first_then_keeps_a_new_secret(tour):
    from kiosk import hostlink

    tour.at("home")
    store = tour.kiosk.store
    before = hostlink.host_secret(store.meta)
    tour.app.go("settings")
    screen = tour.screen()
    tour.press("Renew host link")
    assert "again" in screen.message.text and hostlink.host_secret(store.meta) == before
    tour.press("Renew host link")
    after = store.meta.recall(hostlink.KEY)
    assert after and after != before
    assert f"/host/{after}" in screen.message.text and "no longer works" in screen.message.text
    tour.app.go("home")


def test_the_language_chosen_on_home_is_kept_for_the_next_start(tour, tmp_path):
    from kiosk.i18n import set_language

    tour.at("home")
    path = tmp_path / "owner.toml"
    path.write_text("# the owner's notes\n")
    before = tour.kiosk.config
    tour.kiosk.config = config.read(path)
    try:
        tour.app.go("home")
        tour.press("Suomi")
        assert tour.kiosk.settings.kiosk.language == "fi"
        assert config.read(path).settings.kiosk.language == "fi"  # what the next start reads
        assert path.read_text().startswith("# the owner's notes")
        tour.press("English")
        assert config.read(path).settings.kiosk.language == "en"
    finally:
        tour.kiosk.config = before
        set_language("en")
        tour.app.rebuild("home")


def test_autodarts_is_offered_and_its_test_button_asks_the_board_manager(tour, tmp_path):
    """The board input offers Autodarts; Test asks the Board Manager at the address as typed
    (a fake one of ours on the kiosk's own loop) and says its version and status."""
    from hardware.fake_autodarts import FakeBoardManager

    tour.at("home")
    manager = FakeBoardManager()
    url = tour.loop.run_until_complete(manager.start())
    try:
        tour.app.go("settings")
        screen = tour.screen()
        choice = screen.inputs["board.input"]
        choice.set_value(config.InputKind.AUTODARTS)
        assert choice.text == "Autodarts (cameras)"
        screen.inputs["board.autodarts"].text = url
        screen.scroll.scroll_to(screen.test_button, animate=False)
        tour.pump(seconds=0.3)
        tour.press("Test")
        assert tour.pump(lambda: "0.27.0" in screen.message.text), screen.message.text
        assert "Throw" in screen.message.text and "0 darts" in screen.message.text
        tour.save(tmp_path / "settings_autodarts.png")
        tour.save(Path("/tmp/boards_settings_autodarts.png"))
        tour.loop.run_until_complete(manager.stop())
        tour.press("Test")
        said = f"nothing answers on port {urlsplit(url).port} there: is the Board Manager running?"
        assert tour.pump(lambda: said in screen.message.text), screen.message.text
        assert "Connect call failed" not in screen.message.text  # aiohttp's words, not the owner's
        assert manager.config_reads == 0
    finally:
        tour.loop.run_until_complete(manager.stop())
        tour.app.go("home")


def test_the_caller_s_settings_change_at_once_and_test_voice_speaks(tour, artefacts):
    """On the kiosk's own config (its root hears the saves): the caller follows at once."""
    tour.at("home")
    tour.app.go("settings")
    screen = tour.screen()
    caller = tour.kiosk.caller
    assert caller is not None and caller.enabled and not caller.say_cell
    assert screen.inputs["caller.volume"].text == "80"
    assert screen.inputs["caller.voice_en"].text == "en-gb"
    try:
        screen.inputs["caller.volume"].set_value(50)
        screen.inputs["caller.say_cell"].set_value(True)
        assert caller.phone_duels  # the phone rooms' duels are called unless the owner says not
        screen.inputs["caller.phone_duels"].set_value(False)
        screen.inputs["caller.voice_de"].set_value("de+f3")
        tour.press("Save")
        saved = tour.kiosk.config.save_path().read_text()
        assert "[caller]" in saved and "volume = 50" in saved and "say_cell = true" in saved
        assert "phone_duels = false" in saved and not caller.phone_duels
        assert caller.volume == 0.5 and caller.say_cell and caller.voice.voices["de"] == "de+f3"
        tour.press("Test voice")
        assert screen.message.text == "You should hear the caller now."
        assert caller.wait_idle(10)
        screen.form.parent.scroll_to(screen.inputs["caller.voice_fi"], animate=False)
        tour.save(artefacts / "settings-caller.png")
        screen.inputs["caller.enabled"].set_value(False)
        tour.press("Save")
        assert not caller.enabled
        tour.press("Test voice")
        assert screen.message.text == "The caller is off: turn it on and save first."
    finally:
        tour.kiosk.config.save(
            {
                "caller.volume": 80,
                "caller.say_cell": False,
                "caller.phone_duels": True,
                "caller.voice_de": "de",
                "caller.enabled": True,
            }
        )


def test_a_broken_file_is_said_on_settings_and_save_mends_it(tour, tmp_path):
    """A file edited by hand with bad keys: the kiosk runs on their defaults (the journal says
    so), and Settings, which shows those defaults, says it too, key by key, in the owner's words;
    Save writes what is shown, and the file is good again (seen in a real window:
    build/artefacts/qa6/20-settings-broken-config-said.png)."""
    path = tmp_path / "config.toml"
    path.write_text(
        "[rules]\ndarts_per_visit = 'three'\n[kiosk]\nlanguage = 'sv'\n[custom]\ncolour = 'teal'\n"
    )
    tour.at("home")
    before = tour.kiosk.config
    tour.kiosk.config = config.read(path, strict=False)
    try:
        tour.app.go("settings")
        screen = tour.screen()
        said = screen.message.text
        assert "The config file has mistakes" in said
        assert "Darts per visit: must be a whole number, got 'three'" in said and "Language: 'sv'" in said
        assert "custom.colour" not in said  # a key of the owner's own, kept and harmless
        tour.press("Save")
        assert f"Saved to {path}." in screen.message.text
        assert [p.key for p in config.read(path, strict=False).problems] == ["custom.colour"]
        tour.app.go("home")
        tour.app.go("settings")
        assert "mistakes" not in screen.message.text
    finally:
        tour.kiosk.config = before
