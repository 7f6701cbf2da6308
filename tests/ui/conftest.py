"""Shared fixtures of the touchscreen tests.

Kivy opens one window per process, so every in-process Kivy test shares the one `tour`
(a headless kiosk at 800x480); other sizes run in subprocesses.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

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
    from ui.touch.tour import Tour

    kiosk, loop = build_offline(tmp_path_factory.mktemp("kiosk"))
    started = Tour.start(kiosk, loop)
    yield started
    started.close()
