"""The kiosk app: `make_app` (Kivy configured for this kiosk, then the app, `ui.touch.shell`) and
`run_app`.

One asyncio loop: `run_app` awaits `App.async_run(async_lib="asyncio")`, so the service task
and the web server run beside the UI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ui.touch import kivy_setup

if TYPE_CHECKING:
    from kiosk.house import Kiosk
    from ui.touch.shell import DartshipApp


def make_app(kiosk: Kiosk, *, headless: bool = False) -> DartshipApp:
    """Configure Kivy for this kiosk and make the app (the window opens here). The window is
    sized by the kiosk's display settings, for the live app and the screenshots alike."""
    kivy_setup.configure(kiosk.settings, headless=headless)
    from ui.touch.shell import DartshipApp

    return DartshipApp(kiosk)


async def run_app(kiosk: Kiosk) -> None:
    """Run the touchscreen until the app stops, on the running asyncio loop."""
    app = make_app(kiosk)
    await app.async_run(async_lib="asyncio")
