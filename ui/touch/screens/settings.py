"""Settings: house-rule defaults, board input, buzzer, language and PIN, saved to the config
file after validation (every bad key is listed, nothing is saved then)."""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from kiosk import config as config_module
from kiosk import hostlink
from kiosk.board import Profile
from kiosk.caller import test_call
from kiosk.config import InputKind, SerialDialect
from kiosk.errors import RuleError
from kiosk.i18n import _
from kiosk.scatter import Skill
from kiosk.sound import Sound
from kiosk.speech import VOICE_CHOICES
from kiosk.store import StoreError
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, ChoiceButton, text_field
from ui.touch.screens.base import KioskApp, KioskScreen, heading
from ui.touch.screens.home import LANGUAGE_NAMES
from ui.touch.skills import skill_name

if TYPE_CHECKING:
    from kivy.uix.textinput import TextInput

# What the owner may change on the screen, in this order (labels: `label_for`). The rest stays
# in the file.
EDITABLE = (
    "rules.fleet",
    "rules.darts_per_visit",
    "rules.bull_off",
    "rules.takeout_seconds",
    "rules.double_next_seconds",
    "board.input",
    "board.port",
    "board.dialect",
    "board.autodarts",
    "board.profile",
    "simulator.skill",
    "buzzer.mute",
    "caller.enabled",
    "caller.volume",
    "caller.say_cell",
    "caller.phone_duels",
    "caller.voice_en",
    "caller.voice_de",
    "caller.voice_fi",
    "kiosk.language",
    "kiosk.pin",
)
# Changes to these only take effect when the kiosk starts again (devices are built at start).
RESTART_KEYS = ("board.input", "board.port", "board.dialect", "board.autodarts")


def label_for(key: str) -> str:
    labels = {
        "rules.fleet": _("Fleet"),
        "rules.darts_per_visit": _("Darts per visit"),
        "rules.bull_off": _("Bull-off"),
        "rules.takeout_seconds": _("Next visit after (s, 0 = wait for Next)"),
        "rules.double_next_seconds": _("A second Next within (s) is a double tap (0 = off)"),
        "board.input": _("Board input"),
        "board.port": _("Serial port"),
        "board.dialect": _("Serial dialect"),
        "board.autodarts": _("Autodarts Board Manager"),
        "board.profile": _("Board profile"),
        "simulator.skill": _("Virtual thrower"),
        "buzzer.mute": _("Buzzer muted"),
        "caller.enabled": _("Caller's voice"),
        "caller.volume": _("Caller's volume (%)"),
        "caller.say_cell": _("Caller says the cell"),
        "caller.phone_duels": _("Caller calls the phones' duels"),
        "caller.voice_en": _("Voice (English)"),
        "caller.voice_de": _("Voice (German)"),
        "caller.voice_fi": _("Voice (Finnish)"),
        "kiosk.language": _("Language"),
        "kiosk.pin": _("PIN"),
    }
    return labels[key]


def problem_lines(problems: Iterable[config_module.Problem]) -> str:
    """Bad keys a line each, a key shown on this screen by its label."""
    return "\n".join(f"{label_for(p.key) if p.key in EDITABLE else p.key}: {p.message}" for p in problems)


def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _seconds(value: object) -> str:
    """Seconds as a person writes them: 1.5, 2, 0."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def value_label(key: str, value: object) -> str:
    """A setting's value in the owner's words and language; the file keeps its own spelling
    ("default", "normal", "simulator"), which only `dartship config` shows."""
    if isinstance(value, bool):
        return yes_no(value)
    words: dict[Any, str] = {}
    if key == "rules.fleet":
        words = {"default": _("2, 3, 4, 5 (default)"), "classic-five": _("5, 4, 3, 3, 2 (classic five)")}
    elif key == "rules.bull_off":
        words = {
            config_module.BullOffMode.NORMAL: _("closest to the bull"),
            config_module.BullOffMode.OFFICIAL: _("a bull starts (official)"),
            config_module.BullOffMode.OFF: _("first team named starts"),
        }
    elif key == "board.input":
        words = {
            InputKind.SIMULATOR: _("manual scoring (no sensor)"),
            InputKind.SERIAL: _("serial board"),
            InputKind.MATRIX: _("GPIO matrix"),
            InputKind.AUTODARTS: _("Autodarts (cameras)"),
        }
    elif key == "board.dialect":
        words = {SerialDialect.AUTO: _("auto (told from the board)")}
    elif key == "board.profile":
        words = {
            Profile.FOUR_RING: _("four rings (81 cells)"),
            Profile.THREE_RING: _("three rings (61 cells)"),
        }
    elif key == "simulator.skill" and isinstance(value, Skill):
        return skill_name(value)
    elif key == "kiosk.language":
        words = dict(LANGUAGE_NAMES)  # each in its own language
    return words.get(value, str(config_module.to_toml(value)))


class SettingsScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
        page.add_widget(heading(_("Settings")))
        self.scroll = scroll = ScrollView(do_scroll_x=False)
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
        actions.add_widget(BigButton(_("Test voice"), self.test_voice, colour=theme.PANEL_LIGHT))
        actions.add_widget(BigButton(_("Save"), self.save, colour=theme.GO))
        # The owner's rarer actions, each asking first: they cannot be undone.
        owner = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        self.abandon_button = BigButton(_("Abandon game"), self.abandon_game, colour=theme.DANGER)
        owner.add_widget(self.abandon_button)
        owner.add_widget(BigButton(_("Renew host link"), self.renew_host_link, colour=theme.PANEL_LIGHT))
        owner.add_widget(BigButton(_("League"), lambda: app.go("league"), colour=theme.PANEL_LIGHT))
        page.add_widget(owner)
        self.asked: str | None = None  # the action tapped once, waiting for its second tap
        page.add_widget(actions)
        self.add_widget(page)
        self.refresh_owner()
        self.inputs: dict[str, Any] = {}
        self._probe: asyncio.Task[None] | None = None  # the test of a camera scorer

    def refresh(self) -> None:
        self.refresh_owner()
        config = self.app.kiosk.config
        settings = config.settings
        self.form.clear_widgets()
        self.inputs.clear()
        for key in EDITABLE:
            option = config_module.OPTION_BY_KEY[key]
            self.form.add_widget(
                Caption(
                    label_for(key), font_units=20, size_hint_y=None, height=theme.sizes().touch, grow=False
                )
            )
            value = settings.get(key)
            if config.overridden(key):
                # In effect for this run only: the file keeps its own value, and Save leaves it.
                self.form.add_widget(
                    Caption(
                        _("{value} (set on the command line)").format(value=value_label(key, value)),
                        font_units=18,
                        size_hint_y=None,
                        height=theme.sizes().touch,
                        grow=False,
                        colour=theme.TEXT_DIM,
                    )
                )
                continue
            widget: Any
            if key == "rules.fleet":
                choices: list[object] = list(config_module.PRESET_NAMES)
                if value not in choices:
                    choices.append(value)
                widget = ChoiceButton(choices, value, label=functools.partial(value_label, key))
            elif option.kind is bool:
                widget = ChoiceButton([False, True], value, label=yes_no)
            elif option.choices:
                widget = ChoiceButton(list(option.choices), value, label=functools.partial(value_label, key))
            elif key == "rules.darts_per_visit":
                widget = ChoiceButton(list(range(1, 10)), value)
            elif key == "caller.volume":
                widget = ChoiceButton(sorted({*range(0, 101, 10), value}), value)
            elif key == "rules.double_next_seconds":
                widget = ChoiceButton(sorted({0.0, 0.5, 1.0, 1.5, 2.0, 3.0, value}), value, label=_seconds)
            elif key.startswith("caller.voice_"):
                voices = list(VOICE_CHOICES[key.removeprefix("caller.voice_")])
                widget = ChoiceButton(voices if value in voices else [value, *voices], value)
            else:
                widget = text_field(str(value))
                if key == "kiosk.pin":
                    widget.password = True
            self.inputs[key] = widget
            self.form.add_widget(self._with_test(widget) if key == "board.autodarts" else widget)
        self.message.text = ""
        # A bad value of a setting, or the file itself (not TOML); an unknown key changes nothing.
        wrong = [
            p for p in config.problems if p.key in config_module.OPTION_BY_KEY or p.key == str(config.path)
        ]
        notes = []
        if settings.kiosk.pin == config_module.OPTION_BY_KEY["kiosk.pin"].default:
            # Said here, behind the keypad, never on it: the keypad is for anyone at the bar.
            notes.append(_("The PIN is still 1234, as on every kiosk: type your own in PIN, then Save."))
        if wrong:
            # The journal alone is not where a bar's owner looks: the screen that shows the
            # defaults says why it shows them for these keys, and that Save mends them.
            notes.append(
                _(
                    "The config file has mistakes; the kiosk uses the default for these "
                    "(Save writes what is shown):"
                )
                + "\n"
                + problem_lines(wrong)
            )
        if notes:
            self.show_message("\n".join(notes), theme.WARN)

    def _with_test(self, field: TextInput) -> BoxLayout:
        """The Board Manager's address and a button that asks it how it is."""
        s = theme.sizes()
        row = BoxLayout(spacing=s(6), size_hint_y=None, height=s.touch)
        row.add_widget(field)
        self.test_button = BigButton(
            _("Test"),
            lambda: self.test_scorer(field.text),
            colour=theme.PANEL_LIGHT,
            size_hint_x=None,
            width=s(110),
        )
        row.add_widget(self.test_button)
        return row

    def test_scorer(self, url: str) -> None:
        """Ask the Board Manager at `url` (as typed, saved or not) for its version and status;
        the answer (or why there is none) comes on the message line."""
        probe = self.app.kiosk.probe_scorer
        if probe is None:
            self.show_message(_("This kiosk cannot reach a camera scorer."), theme.WARN)
            return
        self.show_message(_("Asking {url} ...").format(url=url.strip()), theme.TEXT_DIM)

        async def ask() -> None:
            try:
                answer = await probe(url.strip())
            except OSError as err:  # it says what it could not reach, and why
                self.show_message(str(err), theme.DANGER)
            except ValueError as err:
                self.show_message(str(err), theme.WARN)
            else:
                self.show_message(answer)

        # the kiosk's one loop (the service's): Kivy's callbacks run on it in `dartship run`
        task = self.app.kiosk.service_task
        loop = task.get_loop() if task is not None else asyncio.get_event_loop()
        self._probe = loop.create_task(ask())

    def values(self) -> dict[str, Any]:
        """The form as the file would write it; text that should be a number is passed on as
        typed, so the config's own check says what is wrong with it."""
        values: dict[str, Any] = {}
        for key, widget in self.inputs.items():
            option = config_module.OPTION_BY_KEY[key]
            if isinstance(widget, ChoiceButton):
                values[key] = config_module.to_toml(widget.value)
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
        config = self.app.kiosk.config
        try:
            change = config.save(self.values())
        except config_module.ConfigError as err:
            self.message.text = _("Not saved:") + "\n" + problem_lines(err.issues)
            self.message.color = theme.DANGER
            return
        except OSError as err:
            self.message.text = _("Could not write {path}: {error}").format(
                path=config.save_path(), error=err
            )
            self.message.color = theme.DANGER
            return
        if "kiosk.language" in change.keys:
            # First the new language, then the words: the note is read in it.
            self.app.set_language(change.new.kiosk.language)
        notes = [_("Saved to {path}.").format(path=change.path)]
        if change.keys & set(RESTART_KEYS):
            notes.append(_("The board input changes when the kiosk starts again."))
        self.app.screen("settings").show_message(" ".join(notes))

    def show_message(self, text: str, colour: theme.RGBA = theme.GO) -> None:
        self.message.text = text
        self.message.color = colour
        self.asked = None

    def _ask(self, action: str, question: str) -> bool:
        """True on the second tap of `action` in a row; the first shows `question`."""
        if self.asked == action:
            return True
        self.show_message(question, theme.WARN)
        self.asked = action
        return False

    def refresh_owner(self) -> None:
        service = self.app.kiosk.service
        playing = service.match is not None and not service.match.outcome().over
        self.abandon_button.disabled = not playing
        self.abandon_button.opacity = 1 if playing else 0.45

    def abandon_game(self) -> None:
        """Staff end a game a team walked away from: asked first, stored as abandoned (the
        statistics list it so), and the kiosk no longer resumes it."""
        service = self.app.kiosk.service
        if service.match is None or service.match.outcome().over:
            self.show_message(_("No game is in play."), theme.WARN)
            self.refresh_owner()
            return
        if not self._ask(
            "abandon",
            _("Tap Abandon game again: the game in play ends with no winner and cannot be continued."),
        ):
            return
        try:
            game = service.abandon()
        except RuleError as err:
            self.show_message(str(err), theme.DANGER)
            return
        self.show_message(
            _("Game {game} abandoned: it is stored so, with no winner (Stats list it as abandoned).").format(
                game=game
            )
        )
        self.refresh_owner()

    def renew_host_link(self) -> None:
        """The host page's link (phones-only play, `--headless`) is kept until renewed: a first
        tap asks, a second renews it (the old link is dead from then on)."""
        if not self._ask(
            "renew",
            _(
                "Tap Renew host link again: the host page (for --headless) "
                "gets a new link and the old one stops working."
            ),
        ):
            return
        try:
            secret = hostlink.renew(self.app.kiosk.store.meta)
        except (sqlite3.Error, StoreError) as err:
            self.show_message(_("Could not renew the host link: {error}").format(error=err), theme.DANGER)
            return
        web = self.app.kiosk.web
        where = f"{web.base_url}/host/{secret}" if web is not None else f"/host/{secret}"
        self.show_message(
            _("New host link (keep it to yourself): {url}. The old one no longer works.").format(url=where)
        )

    def test_buzzer(self) -> None:
        buzzer = self.app.kiosk.buzzer
        if buzzer is None:
            self.show_message(_("No buzzer is configured (buzzer.kind is none)."), theme.WARN)
            return
        if buzzer.muted:
            self.show_message(_("The buzzer is muted: unmute it and save first."), theme.WARN)
            return
        buzzer.play(Sound.HIT)
        self.show_message(_("Beep! You should hear the HIT sound."))

    def test_voice(self) -> None:
        caller = self.app.kiosk.caller
        if caller is None:
            self.show_message(_("This kiosk has no caller (built without devices)."), theme.WARN)
            return
        if not caller.enabled:
            self.show_message(_("The caller is off: turn it on and save first."), theme.WARN)
            return
        if caller.silent:
            self.show_message(_("No audio device: {reason}").format(reason=caller.silent), theme.WARN)
            return
        caller.say(test_call())
        self.show_message(_("You should hear the caller now."))
