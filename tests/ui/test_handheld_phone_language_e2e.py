"""A German phone on a Finnish kiosk, in headless Chromium (Playwright's `locale=` sets the
browser's Accept-Language and its navigator.languages): the team page's refusal that carries the
kiosk's words (a Next that came twice at once) and the host's desk, its words and a refusal of
the rules ("'T99': there is no number 99"), are German; the kiosk's listeners meanwhile hear
Finnish. Screenshots in build/artefacts/phonelang7/ for a human to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page, expect

from kiosk.darts.match import Next, Phase
from kiosk.i18n import _, language, set_language, speaking
from kiosk.service import Source
from tests.ui.conftest_handheld import FLEET_A, FLEET_B, fleet, new_game, place
from tests.ui.test_handheld_e2e import WAIT_MS, browser_page, phone, running_kiosk
from ui.handheld.darts.host import HostDesk

pytestmark = pytest.mark.slow

ARTEFACTS = Path(__file__).resolve().parents[2] / "build" / "artefacts" / "phonelang7"


async def shot(page: Page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


def german(text: str) -> str:
    with speaking("de"):
        return _(text)


async def test_a_german_phone_and_host_read_the_kiosks_refusals_in_german(tmp_path, chromium):
    set_language("fi")
    try:
        # The guard against a Next that comes twice holds ten minutes: the test's two Nexts are
        # "at once" however slowly it runs.
        async with (
            running_kiosk(tmp_path, headless=True, next_seconds=600.0) as (service, web),
            chromium() as browser,
        ):
            heard: list[str] = []
            service.subscribe(lambda _event: heard.append(language()))
            new_game(service)
            place(service, 0, fleet(FLEET_A))
            place(service, 1, fleet(FLEET_B))
            jets = await phone(browser, web.team_url(1) or "", locale="de-DE")
            assert service.match.phase is Phase.THROWING and service.match.turn == 0
            # The touchscreen ends the Sharks' visit; at once the Jets' phone presses Next too.
            service.submit(Next(), Source.TOUCH)
            await expect(jets.locator("#next")).to_be_visible(timeout=WAIT_MS)
            await jets.locator("#next").tap()  # arms it: the darts not thrown count as missed
            await jets.locator("#next").tap()
            twice = german("Next came twice at once: the new visit goes on. Tap Next again to end it now.")
            await expect(jets.locator("#message, .message").first).to_contain_text(twice, timeout=WAIT_MS)
            assert service.match.turn == 1  # refused: the Jets' visit goes on
            await shot(jets, "team-de-next-twice")

            host = web.part(HostDesk)
            assert host is not None
            desk = await browser_page(browser, web.base_url + host.path(), locale="de-DE")
            await expect(desk.locator("h1")).to_have_text(german("Dartship: host"))
            await expect(desk.locator("#pad h2")).to_have_text(german("Score a dart (manual scoring)"))
            await desk.locator("#cell").fill("T99")
            await desk.locator("#throw button").first.tap()
            with speaking("de"):
                refused = _("{token!r}: there is no number {number} on a dartboard").format(
                    token="T99", number="99"
                )
            await expect(desk.locator("#message")).to_have_text(refused, timeout=WAIT_MS)
            await shot(desk, "host-de-refused")
            # The same desk on an English phone speaks English; the kiosk kept Finnish throughout.
            english = await browser_page(browser, web.base_url + host.path(), locale="en-GB")
            await expect(english.locator("h1")).to_have_text("Dartship: host")
            assert heard and set(heard) == {"fi"} and language() == "fi"
            for page in (jets, desk, english):
                assert page.errors == []  # type: ignore[attr-defined]
    finally:
        set_language("en")
