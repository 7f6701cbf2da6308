"""Escape asks before the kiosk quits (desktop mode), does nothing in kiosk mode, and a stop is
logged (issue 20, point 4)."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

pytestmark = pytest.mark.slow


def _question(tour):
    from kivy.core.window import Window

    from ui.touch.quit import QuitQuestion

    return next((w for w in Window.children if isinstance(w, QuitQuestion)), None)


def test_escape_asks_first_and_quit_is_logged(tour, caplog, monkeypatch):
    from kivy.core.window import Window

    tour.at("home")
    stopped = []
    monkeypatch.setattr(tour.app.escape, "_stop", lambda: stopped.append(True))
    assert Window.dispatch("on_keyboard", 27, 0, None, [])  # handled: Kivy does not quit
    question = _question(tour)
    assert question is not None and not stopped
    Window.dispatch("on_keyboard", 27, 0, None, [])  # a second Escape: still one question
    assert sum(1 for w in Window.children if w is question) == 1
    with caplog.at_level(logging.WARNING, "dartship.touch"):
        tour.press("Quit")
    assert stopped == [True] and "stopped with Escape" in caplog.text
    assert tour.app.escape.asking is None


def test_stay_keeps_the_kiosk_and_kiosk_mode_ignores_escape(tour, monkeypatch):
    from kivy.core.window import Window

    tour.at("home")
    stopped = []
    # Put back after the test (monkeypatch): the next test's Escape is desktop mode's again.
    monkeypatch.setattr(tour.app.escape, "_stop", lambda: stopped.append(True))
    Window.dispatch("on_keyboard", 27, 0, None, [])
    question = _question(tour)
    assert question is not None
    tour.press("Stay")
    assert tour.app.escape.asking is None and not stopped
    display = replace(tour.kiosk.config.settings.display, kiosk_mode=True)
    monkeypatch.setattr(tour.app.escape, "_kiosk_mode", lambda: display.kiosk_mode)
    assert Window.dispatch("on_keyboard", 27, 0, None, [])
    assert tour.app.escape.asking is None and _question(tour) is None and not stopped
