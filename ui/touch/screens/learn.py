"""The learn wizard on the touchscreen: throw at (or press) every cell in turn to make the
board map. The wizard's logic is the hardware's (`Kiosk.learn_wizard_factory`, injected by
the composition root because ui never imports hardware); this screen only drives it.

While the screen is open the board's raw contacts go to the wizard instead of the game: the
screen wraps the service's `handle_input` and restores it when it closes.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk import config as config_module
from kiosk.i18n import _
from kiosk.inputs import DartInput, InputEvent, UnmappedInput
from kiosk.ports import LearnAnswer
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, before_the_frame, fitting_font, text_field
from ui.touch.screens.base import KioskApp, KioskScreen, heading

ANSWER_UNITS = 20  # the answer's font, before it is fitted to its room


def map_path(settings: config_module.Settings) -> Path:
    return Path(settings.board.map) if settings.board.map else config_module.data_dir() / "board-map.toml"


class LearnScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        self.wizard: Any = None
        self._give_back: Any = None
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(8))
        page.add_widget(heading(_("Learn the board")))
        self.step = Caption(font_units=34, bold=True, size_hint_y=None)
        self.progress = Caption(font_units=18, colour=theme.TEXT_DIM, size_hint_y=None)
        self.answer = Caption(font_units=ANSWER_UNITS, colour=theme.WARN, size_hint_y=None)
        for widget in (self.step, self.progress):
            page.add_widget(widget)
        # The answer has the room left above the controls and is fitted into it (a map saved
        # with most cells missing said so in more lines than fit, pushing the title off the
        # screen).
        self.room = BoxLayout(orientation="vertical")
        self.room.add_widget(self.answer)
        self.room.add_widget(BoxLayout())
        page.add_widget(self.room)
        fit = before_the_frame(self._fit_answer)
        self.answer.bind(text=fit)
        self.room.bind(size=fit)
        typed = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        self.contact_field = text_field(hint=_("contact by hand, e.g. 3:7"))
        self.contact_field.bind(on_text_validate=lambda *_a: self._typed())
        typed.add_widget(self.contact_field)
        typed.add_widget(BigButton(_("Enter"), self._typed, size_hint_x=0.4))
        page.add_widget(typed)
        self.controls = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        for text, action in ((_("Back"), "back"), (_("Redo"), "redo"), (_("Skip"), "skip")):
            self.controls.add_widget(
                BigButton(text, functools.partial(self._do, action), colour=theme.PANEL_LIGHT)
            )
        page.add_widget(self.controls)
        actions = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        actions.add_widget(BigButton(_("Close"), self.close, colour=theme.PANEL_LIGHT))
        self.save_button = BigButton(_("Save map"), self.save, colour=theme.GO)
        actions.add_widget(self.save_button)
        page.add_widget(actions)
        self.add_widget(page)

    def _fit_answer(self) -> None:
        self.answer.font_size = fitting_font(
            self.answer, theme.sizes()(ANSWER_UNITS), self.room.width, height=self.room.height
        )

    @property
    def available(self) -> bool:
        return self.app.kiosk.learner is not None

    def on_pre_enter(self, *_args: object) -> None:
        learner = self.app.kiosk.learner
        if learner is not None and self.wizard is None:
            self.wizard = learner(self.app.settings.board.profile)
            self._capture()
        self.refresh()

    def on_leave(self, *_args: object) -> None:
        self._release()
        self.wizard = None

    def _capture(self) -> None:
        def to_wizard(event: InputEvent) -> bool:
            raw = event.raw if isinstance(event, UnmappedInput | DartInput) else None
            if raw is None or self.wizard is None:
                return False
            self._show_answer(self.wizard.contact(raw))
            return True

        self._give_back = self.app.service.divert(to_wizard)

    def _release(self) -> None:
        if self._give_back is not None:
            self._give_back()
            self._give_back = None

    def refresh(self) -> None:
        usable = self.available and self.wizard is not None
        for widget in (self.controls, self.save_button, self.contact_field):
            widget.disabled = not usable
        if not self.available:
            self.step.text = _("The learn wizard is not available")
            self.progress.text = _(
                "This kiosk was started without board hardware support. "
                "Run `dartship learn` on the kiosk instead."
            )
            return
        prompt = self.wizard.prompt
        done, total = self.wizard.progress
        self.step.text = prompt if prompt is not None else _("All cells are done: save the map.")
        self.progress.text = _("cell {n} of {total}").format(n=min(done + 1, total), total=total)

    def _show_answer(self, answer: LearnAnswer) -> None:
        self.answer.text = answer.message
        self.refresh()

    def _do(self, action: str) -> None:
        if self.wizard is not None:
            self._show_answer(getattr(self.wizard, action)())

    def _typed(self) -> None:
        text = self.contact_field.text.strip()
        if self.wizard is not None and text:
            self.contact_field.text = ""
            self._show_answer(self.wizard.contact(text))

    def save(self) -> None:
        """Write the map next to the config and point board.map at it."""
        if self.wizard is None:
            return
        problems = list(self.wizard.problems())
        config = self.app.kiosk.config
        path = map_path(config.settings)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(path.suffix + ".tmp")
            tmp.write_text(self.wizard.map_text(), encoding="utf-8")
            os.replace(tmp, path)
            if config.settings.board.map != str(path):
                config.save({"board.map": str(path)})
        except (OSError, config_module.ConfigError) as err:
            self.answer.text = _("Could not save the map: {error}").format(error=err)
            return
        # The running board takes the map at once (qa9: darts after a save still came as "not
        # in the board map" until the next start); a board that reads no map gets it then.
        text = _("Map saved to {path}.").format(path=path) + " " + self._use(path)
        if problems:
            text += " " + _("Still missing: {problems}").format(problems="; ".join(problems[:3]))
        self.answer.text = text

    def _use(self, path: Path) -> str:
        try:
            if self.app.kiosk.use_board_map(path):
                return _("The board counts darts with it now.")
        except ValueError as err:
            return _("The board could not read it ({error}): it keeps its old map.").format(error=err)
        return _("The board reads it from the kiosk's next start.")

    def close(self) -> None:
        self.app.go("settings")
