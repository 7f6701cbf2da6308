"""`run_app` runs the kiosk on the caller's asyncio loop and reports ready after its first frame."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent("""
    import asyncio, os, random, sys
    from pathlib import Path
    os.environ.setdefault("KIVY_WINDOW", "sdl2"); os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kiosk.config import Config
    from kiosk.app.run import Kiosk
    from kiosk.service import GameService
    from kiosk.store import Store

    folder = Path(sys.argv[1])
    config = Config({"web.enabled": False, "display.width": 800, "display.height": 480,
                     "display.kiosk_mode": True})
    store = Store(folder / "d.db")
    kiosk = Kiosk(config, store, GameService(store, config, rng=random.Random(1)))
    events = []

    def ready():
        events.append("ready")
        from kivy.app import App
        # Other work on the same loop keeps running beside the UI: stop from a task.
        asyncio.get_running_loop().call_later(0.2, App.get_running_app().stop)
    kiosk.ready = ready

    async def main():
        from ui.touch.app import run_app
        ticks = 0
        async def beside():
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)
        task = asyncio.get_running_loop().create_task(beside())
        await run_app(kiosk)
        task.cancel()
        print("ready" in events, ticks > 0, flush=True)
    asyncio.run(main())
""")


def test_run_app_shares_the_loop_and_reports_ready(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "True True"
