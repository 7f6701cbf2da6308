"""Shared fixtures of the touchscreen tests.

Kivy opens one window per process, so every in-process Kivy test shares the one `tour`
(a headless kiosk at 800x480); other sizes run in subprocesses. A test that needs a game at a
stage builds it with `tour.at(stage)` (tests/ui/stages.py), never from what ran before.
"""

from __future__ import annotations

import contextlib
import os
import shutil
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


@pytest.fixture(scope="session")
def tour(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from kiosk.app.root import build_offline

    from .stages import StagedTour

    kiosk, loop = build_offline(tmp_path_factory.mktemp("kiosk"))
    started = StagedTour.start(kiosk, loop).keep_settings()
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


@pytest.fixture
def chromium() -> Callable[[], AbstractAsyncContextManager[Any]]:
    """`async with chromium() as browser`: headless Chromium through Playwright. Skips the test,
    saying why, where no Chromium is installed (CI installs one, so there they run)."""
    executable = chromium_executable()
    if executable is None:
        pytest.skip("no Chromium found: install Debian's chromium package or set DARTSHIP_CHROMIUM")

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

    return launch
