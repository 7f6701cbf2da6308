"""Settings: house-rule defaults, board input, buzzer, language and PIN, saved to the config
file after validation (every bad key is listed, nothing is saved then)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from kiosk import config as config_module
from kiosk.i18n import _, set_language
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, ChoiceButton, Field
from ui.touch.screens.base import KioskScreen, heading

# What the owner may change on the screen: (key, label). The rest stays in the file.
EDITABLE = (
    ("rules.fleet", "Fleet"),
    ("rules.darts_per_visit", "Darts per visit"),
    ("rules.bull_off", "Bull-off"),
    ("rules.takeout_seconds", "Next visit after (s, 0 = wait for Next)"),
    ("board.input", "Board input"),
    ("board.port", "Serial port"),
    ("board.dialect", "Serial dialect"),
    ("board.profile", "Board profile"),
    ("simulator.skill", "Virtual thrower"),
    ("buzzer.mute", "Buzzer muted"),
    ("kiosk.language", "Language"),
    ("kiosk.pin", "PIN"),
)
# Changes to these only take effect when the kiosk starts again (devices are built at start).
RESTART_KEYS = ("board.input", "board.port", "board.dialect")


def label_for(key: str) -> str:
    labels = {
        "rules.fleet": _("Fleet"), "rules.darts_per_visit": _("Darts per visit"),
        "rules.bull_off": _("Bull-off"),
        "rules.takeout_seconds": _("Next visit after (s, 0 = wait for Next)"),
        "board.input": _("Board input"), "board.port": _("Serial port"),
        "board.dialect": _("Serial dialect"), "board.profile": _("Board profile"),
        "simulator.skill": _("Virtual thrower"), "buzzer.mute": _("Buzzer muted"),
        "kiosk.language": _("Language"), "kiosk.pin": _("PIN"),
    }
    return labels[key]


def config_path(config: config_module.Config) -> Path:
    """Where Settings saves: the file the config came from, else one in the data folder."""
    return config.path or config_module.data_dir() / "config.toml"


def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


class SettingsScreen(KioskScreen):
    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
        page.add_widget(heading(_("Settings")))
        scroll = ScrollView(do_scroll_x=False)
        self.form = GridLayout(cols=2, spacing=(s(12), s(6)), size_hint_y=None)
        self.form.bind(minimum_height=self.form.setter("height"))
        scroll.add_widget(self.form)
        page.add_widget(scroll)
        self.message = Caption(font_units=18, colour=theme.WARN, size_hint_y=None)
        page.add_widget(self.message)
        actions = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        actions.add_widget(BigButton(_("Back"), lambda: app.go("home"), colour=theme.PANEL_LIGHT))
        actions.add_widget(BigButton(_("Learn board"), lambda: app.go("learn"), colour=theme.PANEL_LIGHT))
        actions.add_widget(BigButton(_("Test buzzer"), self.test_buzzer, colour=theme.PANEL_LIGHT))
        actions.add_widget(BigButton(_("Save"), self.save, colour=theme.GO))
        page.add_widget(actions)
        self.add_widget(page)
        self.inputs: dict[str, Any] = {}

    def refresh(self) -> None:
        config = self.app.kiosk.config
        self.form.clear_widgets()
        self.inputs.clear()
        for key, _english in EDITABLE:
            option = config_module.OPTION_BY_KEY[key]
            self.form.add_widget(Caption(label_for(key), font_units=20, size_hint_y=None,
                                         height=theme.sizes().touch, grow=False))
            value = config[key]
            if key == "rules.fleet":
                choices = list(config_module.PRESET_NAMES)
                if value not in choices:
                    choices.append(value)
                widget: Any = ChoiceButton(choices, value)
            elif option.kind is bool:
                widget = ChoiceButton([False, True], value, label=yes_no)
            elif option.choices:
                widget = ChoiceButton(list(option.choices), value)
            elif key == "rules.darts_per_visit":
                widget = ChoiceButton(list(range(1, 10)), value)
            else:
                widget = Field(str(value))
                if key == "kiosk.pin":
                    widget.password = True
            self.inputs[key] = widget
            self.form.add_widget(widget)
        self.message.text = ""

    def values(self) -> dict[str, Any]:
        """The form as config values; text that should be a number is passed on as typed, so
        the config's own check names the key and the bad value."""
        values: dict[str, Any] = {}
        for key, widget in self.inputs.items():
            option = config_module.OPTION_BY_KEY[key]
            if isinstance(widget, ChoiceButton):
                values[key] = widget.value
                continue
            text = widget.text.strip()
            if option.kind is int:
                try:
                    values[key] = int(text)
                except ValueError:
                    values[key] = text
            else:
                values[key] = text
        return values

    def save(self) -> None:
        old = self.app.kiosk.config
        try:
            new = old.updated(self.values())
        except config_module.ConfigError as err:
            self.message.text = _("Not saved:") + "\n" + "\n".join(err.problems)
            self.message.color = theme.DANGER
            return
        path = config_path(old)
        try:
            config_module.save(new, path)
        except OSError as err:
            self.message.text = _("Could not write {path}: {error}").format(path=path, error=err)
            self.message.color = theme.DANGER
            return
        new.path = path
        self.app.kiosk.config = new
        self.app.service.config = new
        buzzer = self.app.kiosk.buzzer
        if buzzer is not None and hasattr(buzzer, "muted"):
            buzzer.muted = new["buzzer.mute"]
        notes = [_("Saved to {path}.").format(path=path)]
        if any(old[k] != new[k] for k in RESTART_KEYS):
            notes.append(_("The board input changes when the kiosk starts again."))
        if old["kiosk.language"] != new["kiosk.language"]:
            set_language(new["kiosk.language"])
            self.app.rebuild("settings")
            self.app.screen("settings").show_message(" ".join(notes))
            return
        self.show_message(" ".join(notes))

    def show_message(self, text: str, colour: theme.RGBA = theme.GO) -> None:
        self.message.text = text
        self.message.color = colour

    def test_buzzer(self) -> None:
        buzzer = self.app.kiosk.buzzer
        if buzzer is None:
            self.show_message(_("No buzzer is configured (buzzer.kind is none)."), theme.WARN)
            return
        if getattr(buzzer, "muted", False):
            self.show_message(_("The buzzer is muted: unmute it and save first."), theme.WARN)
            return
        buzzer.play("hit")
        self.show_message(_("Beep! You should hear the HIT sound."))
