"""One phone per team link, in headless Chromium: a second browser on a team's link sees
nothing private; after Move the old phone loses access at once and its open WebSocket closes;
"who was closer?" and Next from the phones.

Screenshots at 390x844 (English, German, Finnish) go to build/artefacts/handheld/.
"""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import Page, expect

from kiosk.board import BullZone, board_for
from kiosk.darts.match import Next, Phase, Throw
from kiosk.inputs import DartInput, MissInput
from tests.clocks import hand_clock_for_next
from tests.ui.conftest_handheld import (
    FLEET_A,
    FLEET_B,
    fleet,
    fleet_cells,
    new_game,
    place,
)
from tests.ui.test_handheld_e2e import (
    PHONE,
    WAIT_MS,
    browser_page,
    phone,
    running_kiosk,
    shot,
    tap_fleet,
)

A_CELLS = fleet_cells(FLEET_A)


async def private_cells(page: Page) -> set[str]:
    """Every cell of the Sharks' fleet the page holds: its text, its painted board, what its
    script keeps of the game (not the board's description, which names every cell)."""
    seen = await page.content()
    seen += await page.evaluate(
        "(() => { const p = window.dartship && window.dartship.page; return p ? JSON.stringify("
        "{view: p.view, slots: p.slots, draft: p.draft, events: p.events, recent: p.recent})"
        " : ''; })()"
    )
    return {
        c
        for c in A_CELLS
        if f'"{c}"' in seen or f">{c}<" in seen or f'data-code="{c}" class="cell s-ship' in seen
    }


@pytest.mark.slow
@pytest.mark.parametrize("locale", ["en-US", "de-DE", "fi-FI"])
async def test_a_second_phone_on_a_team_link_sees_nothing_private(tmp_path, locale, chromium):
    async with running_kiosk(tmp_path) as (service, web), chromium() as browser:
        new_game(service)
        sharks = await phone(browser, web.team_url(0), locale)
        await tap_fleet(sharks, FLEET_A)
        await sharks.locator("#lock").tap()
        await expect(sharks.locator("#locked")).to_be_visible(timeout=WAIT_MS)
        assert await private_cells(sharks) == A_CELLS  # the check would find them

        intruder = await browser_page(browser, web.team_url(0), locale)
        await expect(intruder.locator("#elsewhere")).to_be_visible(timeout=WAIT_MS)
        assert await private_cells(intruder) == set()
        assert await intruder.locator("path.s-ship").count() == 0
        assert "Sharks" not in await intruder.locator("main").inner_text()
        await shot(intruder, f"other-phone-{locale[:2]}")
        # The holder plays on undisturbed, across a reload.
        await sharks.reload()
        await expect(sharks.locator("#locked")).to_be_visible(timeout=WAIT_MS)
        for page in (sharks, intruder):
            assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.slow
async def test_after_move_the_old_phone_is_cut_off_and_its_socket_closes(tmp_path, chromium):
    async with running_kiosk(tmp_path) as (service, web), chromium() as browser:
        new_game(service)
        place(service, 0, fleet(FLEET_A))
        context = await browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
        )
        old = await context.new_page()
        sockets = []
        old.on("websocket", lambda socket: sockets.append(socket))
        await old.goto(web.team_url(0))
        await expect(old.locator("#locked")).to_be_visible(timeout=WAIT_MS)
        await expect(old.locator("#connection")).to_have_attribute("data-state", "live", timeout=WAIT_MS)
        team_socket = next(s for s in sockets if "/api/team/" in s.url)
        assert not team_socket.is_closed()
        closed = asyncio.Event()
        team_socket.on("close", lambda _socket: closed.set())

        new_link = web.move(0)  # as the touchscreen's Phones button does
        assert new_link is not None and web.phone_held(0) is False
        await expect(old.locator("#elsewhere")).to_be_visible(timeout=WAIT_MS)
        await asyncio.wait_for(closed.wait(), WAIT_MS / 1000)  # the kiosk closed it
        assert team_socket.is_closed()
        assert await private_cells(old) == set()
        await shot(old, "moved")
        await old.reload()  # the old link is dead
        await expect(old.locator("#expired")).to_be_visible(timeout=WAIT_MS)

        fresh = await browser_page(browser, new_link)
        await expect(fresh.locator("#locked")).to_be_visible(timeout=WAIT_MS)
        assert web.phone_held(0)
        again = await context.new_page()  # the old phone scanning the new code is too late
        await again.goto(new_link)
        await expect(again.locator("#elsewhere")).to_be_visible(timeout=WAIT_MS)
        assert fresh.errors == []  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize("locale", ["en-US", "de-DE", "fi-FI"])
async def test_who_was_closer_and_next_from_the_phones(tmp_path, locale, chromium):
    async with running_kiosk(tmp_path, bull_off="normal") as (service, web), chromium() as browser:
        new_game(service)
        place(service, 0, fleet(FLEET_A))
        place(service, 1, fleet(FLEET_B))
        board = board_for()
        sharks = await browser_page(browser, web.team_url(0), locale)
        jets = await browser_page(browser, web.team_url(1), locale)
        for code in ("S20", "S3"):
            service.queue.put_nowait(DartInput(board.parse(code), code, BullZone.OTHER))
        for page in (sharks, jets):
            await expect(page.locator("#bull-off")).to_contain_text("S20", timeout=WAIT_MS)
            await expect(page.locator("#bull-off")).to_contain_text("S3")
        await sharks.locator('[data-closer="0"]').tap()
        await expect(jets.locator("#bull-off .vote")).to_be_visible(timeout=WAIT_MS)
        await shot(jets, f"closer-{locale[:2]}")
        assert service.match.phase is Phase.BULL_OFF  # one team alone does not decide
        await jets.locator('[data-closer="0"]').tap()
        await expect(sharks.locator("#next")).to_be_visible(timeout=WAIT_MS)
        assert service.match.phase is Phase.THROWING and service.match.turn == 0
        assert await jets.locator("#next").count() == 0  # not the Jets' visit

        service.queue.put_nowait(DartInput(board.parse("D3"), "D3"))
        await expect(sharks.locator("#event")).to_contain_text("D3", timeout=WAIT_MS)
        await sharks.locator("#next").tap()  # early: the first tap only asks
        await shot(sharks, f"next-confirm-{locale[:2]}")
        assert service.match.turn == 0
        await sharks.locator("#next").tap()
        await expect(jets.locator("#next")).to_be_visible(timeout=WAIT_MS)
        assert service.match.turn == 1 and service.match.tally(0).darts == 3
        for code in ("D20", "MISS", "L1"):
            service.queue.put_nowait(
                DartInput(board.parse(code), code) if code != "MISS" else DartInput(board.parse("D1"), "D1")
            )
        await expect(jets.locator("#next")).to_contain_text(
            "Next" if locale == "en-US" else "", timeout=WAIT_MS
        )
        await expect(jets.locator("#turn")).to_have_class("turn phase-takeout", timeout=WAIT_MS)
        await shot(jets, f"takeout-{locale[:2]}")
        await jets.locator("#next").tap()
        await expect(sharks.locator("#next")).to_be_visible(timeout=WAIT_MS)
        assert service.match.turn == 0 and service.match.phase is Phase.THROWING
        for page in (sharks, jets):
            assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.slow
async def test_the_phone_says_a_miss_off_the_board_and_the_winner_once_in_german(tmp_path, chromium):
    async with running_kiosk(tmp_path) as (service, web), chromium() as browser:
        new_game(service)
        place(service, 0, fleet(FLEET_A))
        place(service, 1, fleet(FLEET_B))
        sharks = await browser_page(browser, web.team_url(0), "de-DE")
        await expect(sharks.locator("#scoreboard")).to_be_visible(timeout=WAIT_MS)
        # Live first: a dart's words come with its event, on the socket.
        await expect(sharks.locator("#connection")).to_have_attribute("data-state", "live", timeout=WAIT_MS)
        board = board_for()
        service.queue.put_nowait(MissInput("0"))  # a dart off the board
        await expect(sharks.locator("#event")).to_contain_text("neben der Scheibe", timeout=WAIT_MS)
        assert "MISS" not in await sharks.locator("#event").inner_text()
        # The Sharks sink every Jets ship; the Jets' visits pass with Next, each a while after
        # the last (at once, a Next would be taken for a double tap).
        targets = sorted(fleet_cells(FLEET_B))
        clock = hand_clock_for_next(service)
        while service.match.phase is not Phase.OVER:
            if service.match.phase is Phase.TAKEOUT or service.match.turn == 1:
                clock.advance(2)
                service.submit(Next())
                continue
            code = targets.pop()
            service.submit(Throw(board.parse(code)))
        await expect(sharks.locator("#turn")).to_contain_text("gewinnt", timeout=WAIT_MS)
        assert (await sharks.locator("main").inner_text()).count("gewinnt") == 1
        await shot(sharks, "won-de")
        assert sharks.errors == []  # type: ignore[attr-defined]
