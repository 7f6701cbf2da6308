"""Unnamed players on phones of different languages, end to end in headless Chromium: the kiosk
speaks Finnish, the owner's phone English, the friend's German (Playwright's `locale=`, which
sets both the browser's Accept-Language and its navigator.languages); neither types a name. Each
is named in its own phone's language, on both pages and in the store.

Screenshots go to build/artefacts/names6/ for a human to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page, expect

from kiosk.i18n import language, set_language
from tests.ui.test_handheld_classic_e2e import classic_kiosk, table_match
from tests.ui.test_handheld_e2e import WAIT_MS, browser_page

pytestmark = pytest.mark.slow

ARTEFACTS = Path(__file__).resolve().parents[2] / "build" / "artefacts" / "names6"


async def shot(page: Page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


async def test_each_phone_names_its_unnamed_player_in_its_own_language(tmp_path, chromium):
    set_language("fi")
    try:
        async with classic_kiosk(tmp_path) as (_service, web), chromium() as browser:
            owner = await browser_page(browser, web.page_url("/classic"), locale="en-US")
            await owner.locator("[data-level='easy']").tap()
            await expect(owner.locator("#open-room")).to_be_visible(timeout=WAIT_MS)
            await owner.locator("#open-room").tap()
            link = await owner.locator("#room-link").text_content() or ""
            assert "/classic/r/" in link
            friend = await browser_page(browser, link, locale="de-DE")
            await expect(friend.locator("#room-title")).to_have_text("Der Raum von Player 1", timeout=WAIT_MS)
            await friend.locator("#ready").tap()
            await expect(friend.locator("#friend-state")).to_contain_text("Player 1", timeout=WAIT_MS)
            await owner.locator("#start-duel").tap()
            await expect(owner.locator("h3", has_text="Your shots at Spieler 2")).to_be_visible(
                timeout=WAIT_MS
            )
            await expect(friend.locator("h3", has_text="Deine Schüsse auf Player 1")).to_be_visible(
                timeout=WAIT_MS
            )
            match = await table_match(web, owner)
            assert match.setup.players == ("Player 1", "Spieler 2")
            await shot(owner, "owner-en-duel")
            await shot(friend, "friend-de-duel")
            assert language() == "fi"  # the kiosk's screen still speaks its own
            for page in (owner, friend):
                assert page.errors == []  # type: ignore[attr-defined]
    finally:
        set_language("en")
