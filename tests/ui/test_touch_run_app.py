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
    from kiosk.app.root import build_kiosk
    from kiosk.config import ConfigFile

    folder = Path(sys.argv[1])
    config = ConfigFile(None, {"web.enabled": False, "display.width": 800, "display.height": 480,
                               "display.kiosk_mode": True, "kiosk.database": str(folder / "d.db")})
    events = []

    def ready():
        events.append("ready")
        from kivy.app import App
        # Other work on the same loop keeps running beside the UI: stop from a task.
        asyncio.get_running_loop().call_later(0.2, App.get_running_app().stop)

    async def main():
        from ui.touch.app import run_app
        kiosk = await build_kiosk(config, rng=random.Random(1))
        kiosk.ready = ready
        ticks = 0
        async def beside():
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)
        task = asyncio.get_running_loop().create_task(beside())
        await run_app(kiosk)
        task.cancel()
        await kiosk.stop()
        print("ready" in events, ticks > 0, flush=True)
    asyncio.run(main())
""")


def test_run_app_shares_the_loop_and_reports_ready(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "True True"
