"""End to end in headless Chromium: two phones place by tapping, the kiosk starts the game,
darts come through the service's input queue, both phones and a spectator update live.

Screenshots at 390x844 go to build/artefacts/handheld/ for a human to look at.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Page, expect

from kiosk.board import board_for
from kiosk.darts.double_next import NextGuard
from kiosk.darts.kind import DARTS
from kiosk.darts.match import HouseRules, Phase, Setup, Team
from kiosk.inputs import Button, ButtonInput, DartInput
from tests.clocks import hand_clock_for_next
from tests.ui.conftest_handheld import (
    ARTEFACTS,
    FLEET_A,
    FLEET_B,
    RULES,
    fleet,
    make_service,
    new_game,
    place,
    settings,
)
from tests.waits import PATIENCE
from ui.handheld.server import WebServer, start_web

PHONE = {"width": 390, "height": 844}
# Every wait of a phone page for the kiosk: generous, since CI's machine is slow and shared (a
# wait ends as soon as its condition holds; these are not timing tests). Also the default of
# every `expect` (Playwright's own is 5 s) and of a page's actions.
WAIT_MS = int(PATIENCE * 1000)
expect.set_options(timeout=WAIT_MS)


@contextlib.asynccontextmanager
async def running_kiosk(
    tmp_path, bull_off: str = "off", headless: bool = False, next_seconds: float | None = None
) -> AsyncIterator[tuple[object, WebServer]]:
    """The phone page on the service's loop; `headless`: as `dartship run --headless
    --simulator` serves it, with the host's desk and its throw pad (darts via the queue);
    `next_seconds`: how long a second Next counts as the same tap (default: the config's)."""
    config = settings(rules__bull_off=bull_off, web__host="127.0.0.1", web__port=0)
    service = make_service(tmp_path, config)
    # The dart game's guard in front of Next, as the kiosk's root hosts it (its real clock).
    guard = config.rules.double_next_seconds if next_seconds is None else next_seconds
    service.host(DARTS.name, [NextGuard(service, lambda: guard)])
    thrower = None
    if headless:
        from hardware.simulator import SimulatedBoard

        thrower = SimulatedBoard(service.queue.put_nowait)
    web = await start_web(service, config, print_links=headless, thrower=thrower)
    runner = asyncio.get_running_loop().create_task(service.run())
    try:
        yield service, web
    finally:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner
        await web.stop()
        service.store.close()


async def browser_page(browser, url: str, locale: str = "en-US") -> Page:
    """A phone of its own (its own cookies) that opens `url`, whatever the page then shows."""
    context = await browser.new_context(
        viewport=PHONE, device_scale_factor=2, locale=locale, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(WAIT_MS)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors  # type: ignore[attr-defined]
    await page.goto(url)
    return page


async def phone(browser, url: str, locale: str = "en-US") -> Page:
    """A phone on a page that draws the board (a team's page or the spectators')."""
    page = await browser_page(browser, url, locale)
    await page.wait_for_selector(".board .cell", timeout=WAIT_MS)
    return page


async def tap_fleet(page: Page, text: str) -> None:
    """Tap ship by ship, longest first (the editor selects the longest free ship by itself)."""
    for ship in sorted(text.split(), key=len, reverse=True):
        for code in ship.split("-"):
            await page.locator(f'[data-code="{code}"]').first.tap()
    await expect(page.locator("#lock")).to_be_enabled(timeout=WAIT_MS)


async def shot(page: Page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTEFACTS / f"phone-{name}.png"))


def dart(service, code: str) -> None:
    service.queue.put_nowait(DartInput(board_for().parse(code), code))


def press_next(service) -> None:
    service.queue.put_nowait(ButtonInput(Button.NEXT))


@pytest.mark.slow
async def test_two_phones_place_by_tapping_and_follow_the_game_live(tmp_path, chromium):
    async with running_kiosk(tmp_path) as (service, web), chromium() as browser:
        new_game(service)
        sharks = await phone(browser, web.team_url(0))
        jets = await phone(browser, web.team_url(1), locale="de-DE")
        crowd = await phone(browser, web.spectator_url())
        await expect(jets.locator("#lock")).to_have_text("Festlegen")

        # Sharks: the first ship half tapped, then a tap off the line is refused on the spot.
        await sharks.locator('[data-code="D17"]').first.tap()
        await sharks.locator('[data-code="L17"]').first.tap()
        await sharks.locator('[data-code="L3"]').first.tap()
        await expect(sharks.locator("#message")).to_contain_text("L3 does not continue this ship")
        await shot(sharks, "placing")
        await sharks.locator('[data-code="L17"]').first.tap()  # take back the draft
        await sharks.locator('[data-code="D17"]').first.tap()
        await tap_fleet(sharks, FLEET_A)
        await shot(sharks, "placed")
        await sharks.locator("#lock").tap()
        await expect(sharks.locator("#locked")).to_be_visible(timeout=WAIT_MS)
        await expect(crowd.locator("#readiness")).to_contain_text("Sharks ✓", timeout=WAIT_MS)
        assert service.match.fleet(0) == fleet(FLEET_A)
        await shot(sharks, "locked")

        # Jets place, lock in: the kiosk starts the game at once.
        await tap_fleet(jets, FLEET_B)
        await jets.locator("#lock").tap()
        await expect(jets.locator("#scoreboard")).to_be_visible(timeout=WAIT_MS)
        assert service.match.phase is Phase.THROWING
        assert service.match.fleet(1) == fleet(FLEET_B)

        # Darts through the service's input queue, as the board reader thread puts them.
        for code in ("T7", "D3", "S3"):
            dart(service, code)
        await expect(sharks.locator("#event")).to_contain_text("S3", timeout=WAIT_MS)
        await expect(jets.locator("#event")).to_contain_text("S3", timeout=WAIT_MS)
        await expect(crowd.locator("#event")).to_contain_text("S3", timeout=WAIT_MS)
        await expect(sharks.locator("#turn")).to_contain_text("Pull the darts out")
        # Takeout: the Jets are up next, so their phone shows their shots; their fleet took T7, S3.
        await expect(jets.locator('[data-tab="shots"]')).to_have_attribute("aria-selected", "true")
        await jets.locator('[data-tab="fleet"]').tap()
        await expect(jets.locator('path.s-hit[data-code="T7"]')).to_have_count(1)
        await expect(jets.locator('path.s-hit[data-code="S3"]')).to_have_count(1)
        await sharks.locator('[data-tab="shots"]').tap()
        await expect(sharks.locator('path.s-hit[data-code="T7"]')).to_have_count(1)

        press_next(service)
        for code in ("D20", "MISS", "L1"):  # Jets: D20 hits the Sharks' 2-ship
            dart(service, code)
        await expect(sharks.locator("#event")).to_contain_text("L1", timeout=WAIT_MS)
        await sharks.locator('[data-tab="fleet"]').tap()
        await expect(sharks.locator('path.s-hit[data-code="D20"]')).to_have_count(1)
        await shot(jets, "game-fleet-de")
        await shot(sharks, "game-fleet")

        press_next(service)
        for code in ("S19", "D11", "D14"):  # the Sharks sink the Jets' 2-ship: S3-S19
            dart(service, code)
        await expect(crowd.locator("#event")).to_contain_text("D14", timeout=WAIT_MS)
        await expect(crowd.locator("#scoreboard .side").nth(1).locator("li.sunk")).to_have_count(1)
        await crowd.locator('[data-tab="0"]').tap()
        await expect(crowd.locator('path.s-sunk[data-code="S19"]')).to_have_count(1)
        await shot(crowd, "spectator")
        await sharks.locator('[data-tab="shots"]').tap()
        await shot(sharks, "game-shots")

        # Nothing private reached the spectator page's DOM: no unsunk ship cell is painted.
        painted = await crowd.eval_on_selector_all("path.s-ship", "els => els.length")
        assert painted == 0
        for page in (sharks, jets, crowd):
            assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.slow
async def test_a_team_without_named_players_is_named_once_on_its_phone(tmp_path, chromium):
    """A team typed without players (a headless kiosk's --teams alone) is named once on its
    page, as on every screen (the view's `teams[i].named`, kiosk.darts.players): "Sharks, dart
    3 of 3", and its recent darts "Sharks" (they said "Sharks · Sharks")."""
    async with running_kiosk(tmp_path) as (service, web), chromium() as browser:
        teams = (Team("Sharks", ("Sharks",)), Team("Jets", ("Jets",)))
        service.new_game(DARTS, Setup(teams, RULES.get(service, HouseRules())))
        place(service, 0, fleet(FLEET_A))
        place(service, 1, fleet(FLEET_B))
        sharks = await phone(browser, web.team_url(0))
        for code in ("T7", "D3"):
            dart(service, code)
        await expect(sharks.locator("#recent li")).to_have_count(2, timeout=WAIT_MS)
        await expect(sharks.locator("#turn")).to_contain_text("Sharks, dart 3")
        said = await sharks.locator("#recent li").all_inner_texts()
        assert all(text.split()[0] == "Sharks" and "·" not in text for text in said), said
        assert "(Sharks)" not in await sharks.locator("#turn").inner_text()
        assert sharks.errors == []  # type: ignore[attr-defined]


@pytest.mark.slow
async def test_an_answer_overtaken_by_darts_leaves_the_newer_view(tmp_path, chromium):
    """The answer to a team's Next and the socket race: the next team's darts land while the
    answer is on its way, so their views come on the socket first. The page keeps the newer
    view: had the answer won, it would say the Jets throw their first dart, though they have
    thrown all three and are pulling them out."""
    async with running_kiosk(tmp_path) as (service, web), chromium() as browser:
        new_game(service)
        place(service, 0, fleet(FLEET_A))
        place(service, 1, fleet(FLEET_B))
        sharks = await phone(browser, web.team_url(0))
        for code in ("T7", "D3", "S3"):
            dart(service, code)
        await expect(sharks.locator("#next")).to_be_visible()

        async def answer_late(route) -> None:
            answer = await route.fetch()  # Next accepted: the Jets are up
            for code in ("D20", "MISS", "L1"):
                dart(service, code)
            await expect(sharks.locator("#event")).to_contain_text("L1")
            await expect(sharks.locator("#turn")).to_have_class(re.compile(r"\bphase-takeout\b"))
            await route.fulfill(response=answer)

        await sharks.route("**/next", answer_late)
        async with sharks.expect_request_finished(lambda r: r.url.endswith("/next")):
            await sharks.locator("#next").tap()
        await sharks.evaluate("() => new Promise((done) => setTimeout(done, 200))")  # the answer read
        assert service.match.state().phase is Phase.TAKEOUT
        assert service.match.state().side == 0  # the Sharks are up next
        await expect(sharks.locator("#turn")).to_have_class(re.compile(r"\bphase-takeout\b"))
        await expect(sharks.locator("#turn")).to_contain_text("Sharks 2")
        # Each dart among the recent ones once, the answer's view adding none.
        await expect(sharks.locator("#recent li")).to_have_count(6)
        await expect(sharks.locator("#recent li").first).to_contain_text("L1")
        assert sharks.errors == []  # type: ignore[attr-defined]


@pytest.mark.slow
async def test_next_from_the_next_team_s_phone_at_once_is_said_not_done(tmp_path, chromium):
    """The Sharks' phone ends their visit; the Jets' Next that comes at once (both taps of an
    early Next) is refused by the dart game's guard: their page says why, their visit goes on.
    The page sends the visit it shows."""
    async with running_kiosk(tmp_path) as (service, web), chromium() as browser:
        clock = hand_clock_for_next(service)  # "at once" stays at once on a loaded machine
        new_game(service)
        place(service, 0, fleet(FLEET_A))
        place(service, 1, fleet(FLEET_B))
        sharks = await phone(browser, web.team_url(0))
        jets = await phone(browser, web.team_url(1))
        for code in ("T7", "D3", "S3"):
            dart(service, code)
        await expect(sharks.locator("#next")).to_be_visible(timeout=WAIT_MS)
        async with sharks.expect_request(lambda r: r.url.endswith("/next")) as sent:
            await sharks.locator("#next").tap()
        assert json.loads((await sent.value).post_data or "{}") == {"visit": 1}
        await expect(jets.locator("#next")).to_be_visible(timeout=WAIT_MS)
        await jets.locator("#next").tap()  # early: the page asks for a second tap
        await jets.locator("#next").tap()
        await expect(jets.locator("#message")).to_contain_text("Next came twice at once", timeout=WAIT_MS)
        state = service.match.state()
        assert state.visit == 2 and state.dart == 1 and state.darts == (3, 0)
        await shot(jets, "next-twice")
        clock.advance(2)  # a while later: the Jets end their visit early, on purpose
        await jets.locator("#next").tap()
        await jets.locator("#next").tap()
        await expect(jets.locator("#message")).to_be_hidden(timeout=WAIT_MS)
        assert service.match.state().darts == (3, 3)
        assert sharks.errors == [] and jets.errors == []  # type: ignore[attr-defined]


async def test_a_dead_link_says_so_and_a_new_game_ends_the_old_page(tmp_path, chromium):
    async with running_kiosk(tmp_path) as (service, web), chromium() as browser:
        new_game(service)
        page = await phone(browser, web.team_url(0))
        new_game(service, ("Owls", "Cats"))
        await expect(page.locator("#expired")).to_be_visible(timeout=WAIT_MS)
        await shot(page, "expired")
        context = await browser.new_context(viewport=PHONE, locale="fi-FI")
        stranger = await context.new_page()
        response = await stranger.goto(web.base_url + "/team/not-a-real-token")
        assert response is not None and response.status == 404
        await expect(stranger.locator("#expired")).to_contain_text("ei ole enää voimassa", timeout=WAIT_MS)


@pytest.mark.slow
async def test_a_reload_keeps_a_placed_fleet_that_is_not_locked_in(tmp_path, chromium):
    """Placed, not yet locked in, the page reloaded (a phone's browser does that when it comes
    back from the background): the ships are where they were, on this phone only."""
    async with running_kiosk(tmp_path) as (service, web), chromium() as browser:
        new_game(service)
        sharks = await phone(browser, web.team_url(0))
        await tap_fleet(sharks, FLEET_A)
        placed = sorted(
            await sharks.locator(".board .cell.s-ship").evaluate_all(
                "cells => cells.map(c => c.dataset.code)"
            )
        )
        assert placed
        await sharks.reload()
        await sharks.wait_for_selector(".board .cell", timeout=WAIT_MS)
        await expect(sharks.locator("#lock")).to_be_enabled(timeout=WAIT_MS)
        again = sorted(
            await sharks.locator(".board .cell.s-ship").evaluate_all(
                "cells => cells.map(c => c.dataset.code)"
            )
        )
        assert again == placed
        assert service.match.state().placed == (False, False)  # kept on the phone, not sent
        await sharks.locator("#lock").tap()
        await expect(sharks.locator("#locked")).to_be_visible(timeout=WAIT_MS)
        # Locked in: nothing is kept on the phone any more.
        kept = await sharks.evaluate("Object.keys(localStorage).filter(k => k.startsWith('dartship-fleet:'))")
        assert kept == []
        assert sharks.errors == []
