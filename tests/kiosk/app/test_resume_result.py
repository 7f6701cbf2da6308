"""The kiosk starts on the result of a game that ended moments before it stopped (a crash or a
power cut right after the winning dart), not on an older one."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kiosk.app.root import RESULT_KEPT_SECONDS, build_kiosk
from kiosk.config import ConfigFile, check_values
from kiosk.darts.match import Phase, house_rules
from kiosk.service import GameService
from kiosk.store import Store
from tests.kiosk.test_service import RULES, _placed, _won

ROOT = Path(__file__).resolve().parents[3]


def finished_game(db: Path) -> int:
    service = GameService(Store(db))
    typed, _problems = check_values({"rules.bull_off": "off"})
    RULES[service] = house_rules(ConfigFile(None, typed).settings)
    _placed(service)
    game = _won(service)
    assert service.store is not None
    service.store.close()
    return game


def _kiosk_match_phase(db: Path) -> Phase | None:
    async def build() -> Phase | None:
        kiosk = await build_kiosk(ConfigFile(None, {"kiosk.database": str(db)}), devices=False, web=False)
        try:
            match = kiosk.service.match
            return None if match is None else match.phase  # type: ignore[attr-defined]
        finally:
            await kiosk.stop()

    return asyncio.run(build())


def test_the_kiosk_comes_back_to_a_just_finished_game(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    finished_game(db)
    assert RESULT_KEPT_SECONDS >= 60
    assert _kiosk_match_phase(db) is Phase.OVER
    store = Store(db)
    store.db.execute("UPDATE games SET finished='2001-01-01T00:00:00.000+00:00'")
    store.close()
    assert _kiosk_match_phase(db) is None


@pytest.mark.slow
def test_the_touchscreen_starts_on_the_result_card(tmp_path: Path) -> None:
    finished_game(tmp_path / "dartship.db")  # the file build_offline opens in that folder
    script = textwrap.dedent(f"""
        from pathlib import Path
        from kiosk.app.root import build_offline
        from kiosk.app.tour.driver import Tour
        kiosk, loop = build_offline(Path({str(tmp_path)!r}))
        tour = Tour.start(kiosk, loop)
        print("screen:", tour.app.sm.current)
        tour.close()
    """)
    env = {"KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "PYTHONPATH": str(ROOT)}
    import os

    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, **env},
    )
    assert "screen: result" in done.stdout, done.stdout + done.stderr
