"""Shared fixtures of the touchscreen tests.

Kivy opens one window per process, so every in-process Kivy test shares the one `tour`
(a headless kiosk at 800x480); other sizes run in subprocesses. A test that needs a game at a
stage builds it with `tour.at(stage)` (tests/ui/stages.py), never from what ran before.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_HOME", str(Path(__file__).parent / ".kivy-home"))


@pytest.fixture(scope="session")
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go for a human to look at ($DARTSHIP_ARTEFACTS, else a temp dir)."""
    folder = os.environ.get("DARTSHIP_ARTEFACTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("artefacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


WINDOW = (800, 480)  # the session's window: the tour's kiosk, the Pi's 7" screen


def pytest_collection_finish(session: pytest.Session) -> None:
    """No test module may open Kivy's window as it is imported. Kivy opens it when
    `kivy.core.window` is first imported (a screen's module did, through `TextInput`, until
    `controls.text_field` built it where a field is made: tests/ui/test_touch_imports.py), with
    the size Kivy is configured for by then: before the tour's kiosk configures it
    (`ui/touch/__init__.py`), Kivy's default 800x600. tests/ui/test_touch_express.py imported
    two screen modules at its top, so every run that collected it ran every touchscreen test
    of the session in an 800x600 window (the board as tall as 584 px, the side column 190 px
    wide instead of 310: the text-fit check broke "Bull-off" and found the scoreboard's digits
    in 14 px), and only the text-fit check, run in a process of its own, escaped it. Any
    other module that opens the window as it is imported (a widget's module of Kivy's own)
    would do it again: the guard stays."""
    if "kivy.core.window" in sys.modules:
        raise pytest.UsageError(
            "a test module opened Kivy's window while being collected (something it imports at "
            "its top opens it): import that inside the test (see tests/ui/conftest.py)"
        )


@pytest.fixture(scope="session")
def tour(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from kiosk.app.root import build_offline

    from .stages import StagedTour

    kiosk, loop = build_offline(tmp_path_factory.mktemp("kiosk"), size=WINDOW)
    started = StagedTour.start(kiosk, loop).keep_settings()
    from kivy.core.window import Window

    assert tuple(Window.size) == WINDOW, f"the session's window is {Window.size}, not {WINDOW}"
    yield started
    started.close()


def chromium_executable() -> str | None:
    """The browser the phone-page tests drive: $DARTSHIP_CHROMIUM, else Debian's `chromium`
    (Playwright's own browser download does not work here)."""
    for name in (os.environ.get("DARTSHIP_CHROMIUM"), "chromium", "chromium-browser"):
        found = shutil.which(name) if name else None
        if found:
            return found
    return None


def _chromium_or_skip() -> str:
    """Skips the test, saying why, where no Chromium is installed (CI installs one, so there
    they run)."""
    executable = chromium_executable()
    if executable is None:
        pytest.skip("no Chromium found: install Debian's chromium package or set DARTSHIP_CHROMIUM")
    return executable


def launch_chromium() -> AbstractAsyncContextManager[Any]:
    """`async with launch_chromium() as browser`: headless Chromium through Playwright (for a
    fixture that shares one browser among tests; a test alone takes `chromium`)."""
    executable = _chromium_or_skip()

    @contextlib.asynccontextmanager
    async def launch() -> AsyncIterator[Any]:
        from playwright.async_api import async_playwright

        from .conftest_handheld import CHROMIUM_ARGS

        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            try:
                yield browser
            finally:
                await browser.close()

    return launch()


@pytest.fixture
def chromium() -> Callable[[], AbstractAsyncContextManager[Any]]:
    """`async with chromium() as browser`: a browser of the test's own (`launch_chromium`)."""
    _chromium_or_skip()
    return launch_chromium
