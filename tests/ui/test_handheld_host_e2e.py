"""The host's desk in headless Chromium at 390x844, as a host holds it on a phone: the throw
pad's drawn board takes taps (static/host.js), the page follows the game by itself, and
"who was closer?" is answered from where each dart landed. English, German and Finnish;
screenshots in build/artefacts/handheld/.

One kiosk (as `dartship run --headless --simulator` serves it) and one Chromium for the whole
module: each test starts a game of its own on it (a new game gives new links and a new desk
state; the one before is stored as abandoned) and opens the desk on a phone of its own (its own
cookies), closed after it; the language is put back to English after each."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from kiosk.darts.match import BullOffMode, Phase, Throw
from kiosk.i18n import set_language
from kiosk.service import GameService
from tests.ui.conftest import launch_chromium
from tests.ui.conftest_handheld import (
    FLEET_A,
    FLEET_B,
    RULES,
    fleet,
    new_game,
    place,
)
from tests.ui.test_handheld_e2e import PHONE, WAIT_MS, browser_page, running_kiosk, shot
from ui.handheld.darts.host import HostDesk
from ui.handheld.server import WebServer

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]


@dataclasses.dataclass(frozen=True)
class Venue:
    """The module's kiosk and browser."""

    service: GameService
    web: WebServer
    browser: Browser


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def venue(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Venue]:
    folder = tmp_path_factory.mktemp("host-e2e")
    async with (
        running_kiosk(folder, bull_off="normal", headless=True) as (service, web),
        launch_chromium() as browser,
    ):
        yield Venue(service, web, browser)


Opens = Callable[..., Awaitable[Page]]  # (locale="en-US") -> a phone on the desk


@pytest_asyncio.fixture(loop_scope="module")
async def open_desk(venue: Venue) -> AsyncIterator[Opens]:
    """Opens the host's desk of the game in play on a new phone; closes every phone after the
    test and puts the kiosk's language back."""
    pages: list[Page] = []

    async def opened(locale: str = "en-US") -> Page:
        host = venue.web.part(HostDesk)
        assert host is not None
        page = await browser_page(venue.browser, venue.web.base_url + host.path(), locale)
        pages.append(page)
        return page

    try:
        yield opened
    finally:
        for page in pages:
            await page.context.close()
        set_language("en")


def game_with(venue: Venue, bull_off: BullOffMode) -> None:
    """A new game of the test's own, with its own bull-off."""
    rules = RULES[venue.service]
    new_game(venue.service, rules=dataclasses.replace(rules, bull_off=bull_off))


async def tap_cell(page, code: str) -> None:
    await page.locator(f'#pad-board [data-code="{code}"]').first.tap()
    await page.wait_for_load_state()


@pytest.mark.parametrize("language", ["en", "de", "fi"])
async def test_the_desk_on_a_phone(venue, open_desk, language):
    set_language(language)
    service = venue.service
    game_with(venue, BullOffMode.NORMAL)
    desk = await open_desk()
    await expect(desk.locator("#phones .qr")).to_have_count(1)
    await shot(desk, f"host-placing-{language}")
    # The phones lock in: the desk follows by itself (no reload by hand).
    place(service, 0, fleet(FLEET_A))
    place(service, 1, fleet(FLEET_B))
    await expect(desk.locator("#pad-board svg")).to_be_visible(timeout=WAIT_MS)
    await tap_cell(desk, "S20")
    await expect(desk.locator("#bull-off")).to_contain_text("S20", timeout=WAIT_MS)
    await tap_cell(desk, "T3")
    await expect(desk.locator("#bull-off form")).to_have_count(2, timeout=WAIT_MS)
    await expect(desk.locator("#bull-off")).to_contain_text("T3")
    assert service.match.bull_off_undecided
    await shot(desk, f"host-closer-{language}")
    await desk.locator("#bull-off button.team1").tap()
    await expect(desk.locator("#play")).to_be_visible(timeout=WAIT_MS)
    assert service.match.phase is Phase.THROWING and service.match.turn == 1
    await tap_cell(desk, "D20")  # the Jets hit the Sharks' D20
    await expect(desk.locator(".recent")).to_contain_text("D20", timeout=WAIT_MS)
    await shot(desk, f"host-play-{language}")
    assert desk.errors == []  # type: ignore[attr-defined]


async def test_the_pad_draws_both_bulls_and_a_tap_tells_them_apart(venue, open_desk):
    """Issue 20, point 11: the outer bull for one team, the inner for the other: the inner
    starts (normal bull-off), where one drawn bull used to count every tap alike."""
    from kiosk.board import BullZone

    service = venue.service
    game_with(venue, BullOffMode.NORMAL)
    place(service, 0, fleet(FLEET_A))
    place(service, 1, fleet(FLEET_B))
    desk = await open_desk()
    await expect(desk.locator("#pad-board svg")).to_be_visible(timeout=WAIT_MS)
    bull = desk.locator('#pad-board [data-code="BULL"]')
    await expect(bull).to_have_count(2)  # the outer bull's disc, the inner bull's on it

    async def tap_bull(ring: str) -> None:
        """One tap on the bull's outer ring or its middle (positions read anew: the page
        around the board changes with each dart)."""
        box = await bull.first.bounding_box()
        inner = await desk.locator('#pad-board [data-part="inner"]').bounding_box()
        assert box is not None and inner is not None
        assert inner["width"] < box["width"] * 0.6
        x, middle = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        # The outer ring: between the inner disc's edge and the outer's.
        y = middle - (box["height"] + inner["height"]) / 4 if ring == "outer" else middle
        await desk.touchscreen.tap(x, y)

    # One tap each, and it lands: the page follows the game without reloading under the tap.
    await tap_bull("outer")
    await expect(desk.locator("#bull-off")).to_contain_text("outer", timeout=WAIT_MS)
    await tap_bull("inner")
    await expect(desk.locator("#play")).to_be_visible(timeout=WAIT_MS)
    assert service.match.bull_off_zones() == (BullZone.OUTER, BullZone.INNER)
    assert service.match.turn == 1
    await shot(desk, "host-both-bulls")
    assert desk.errors == []  # type: ignore[attr-defined]


def throwing(venue: Venue) -> HostDesk:
    """A new game (no bull-off) with both fleets in: the first visit is up. Its desk."""
    game_with(venue, BullOffMode.OFF)
    place(venue.service, 0, fleet(FLEET_A))
    place(venue.service, 1, fleet(FLEET_B))
    host = venue.web.part(HostDesk)
    assert host is not None and host.thrower is not None
    return host


def thrown(service: GameService) -> list[str]:
    """The game's darts as cells, in the order they were counted (Next's padding apart)."""
    return [str(c.cell) for c in service.match.log if isinstance(c, Throw)]


async def until(condition: Callable[[], bool], what: str) -> None:
    for _ in range(int(WAIT_MS / 100)):
        if condition():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"waited in vain for {what}")


async def test_a_burst_of_taps_while_the_game_changes_under_the_page_lands_each_once(venue, open_desk):
    """The page follows the game without reloading: darts from the simulator between the host's
    taps, and the page's own refresh held in flight the whole time (the server does not see it
    until the end), yet every tap lands exactly once, in its visit; then the refresh comes in
    and the page shows the game as it is, the same document (a marker on `window` is still
    there)."""
    service = venue.service
    host = throwing(venue)
    simulator = host.thrower
    desk = await open_desk()
    await expect(desk.locator("#pad-board svg")).to_be_visible(timeout=WAIT_MS)
    await desk.evaluate("window.sameDocument = 'yes'")

    # The page's GETs of itself wait until released (a redirect's GET, a form's answer, passes).
    released = asyncio.Event()
    held: list[str] = []

    async def hold(route) -> None:
        if route.request.method == "GET":
            held.append(route.request.url)
            await released.wait()
        await route.continue_()

    await desk.route(f"**{host.path()}", hold)
    assert simulator.enter("S5") is None  # a dart from elsewhere: the page goes to refresh
    await until(lambda: bool(held), "the page to ask for itself")
    await until(lambda: thrown(service) == ["S5"], "the simulator's dart")
    for code in ("T1", "D2"):  # while that refresh is in flight
        await desk.locator(f'#pad-board [data-code="{code}"]').first.tap()
    await desk.locator("#play button").first.tap()  # Next (sent after the taps, in order)
    await desk.locator('#pad-board [data-code="T4"]').first.tap()
    assert simulator.enter("S8") is None
    await desk.locator('#pad-board [data-code="D6"]').first.tap()
    await until(lambda: len(thrown(service)) >= 6, "six darts")
    darts = thrown(service)
    assert sorted(darts[:3]) == ["D2", "S5", "T1"] and sorted(darts[3:]) == ["D6", "S8", "T4"]
    assert service.match.phase is Phase.TAKEOUT and service.match.turn == 1
    assert held and not released.is_set()

    released.set()
    await expect(desk.locator(".recent li").first).to_contain_text(darts[-1], timeout=WAIT_MS)
    await expect(desk.locator(".recent li")).to_have_count(6)
    await expect(desk.locator("#status")).to_contain_text("Pull the darts out")
    assert await desk.evaluate("window.sameDocument") == "yes"  # never reloaded
    await desk.unroute(f"**{host.path()}")
    assert len(thrown(service)) == 6  # and nothing came twice
    await shot(desk, "host-burst-after")
    assert desk.errors == []  # type: ignore[attr-defined]


async def test_a_double_tapped_next_ends_one_visit(venue, open_desk):
    """Next tapped twice in a row (the second before the page shows the next visit): the next
    team's visit is not ended with misses before they throw; the second tap is said."""
    service = venue.service
    host = throwing(venue)
    desk = await open_desk()
    for code in ("S1", "S2", "S3"):
        assert host.thrower.enter(code) is None
    await expect(desk.locator("#status")).to_contain_text("Pull the darts out", timeout=WAIT_MS)
    visit = service.match.state().visit
    next_button = desk.locator("#play button").first
    await next_button.tap()
    await next_button.tap(no_wait_after=True)
    await until(lambda: service.match.state().visit == visit + 1, "the next visit")
    # The second tap came before the page showed the new visit, or after: said either way.
    said = re.compile("already over|came twice")
    await expect(desk.locator("#message")).to_contain_text(said, timeout=WAIT_MS)
    state = service.match.state()
    assert state.visit == visit + 1 and state.phase is Phase.THROWING and state.dart == 1
    assert thrown(service) == ["S1", "S2", "S3"]
    assert desk.errors == []  # type: ignore[attr-defined]


async def test_a_refusal_is_said_on_the_page_and_a_field_being_typed_in_stays(venue, open_desk):
    """A typed cell the server refuses: its words on the page, no navigation, no dart. A field
    being typed in (Correct) keeps its text and its focus while a dart changes the page. The
    drawn board never moves meanwhile: not when the game's first dart brings Undo and Correct
    to life, not when words come or go above it."""
    service = venue.service
    host = throwing(venue)
    desk = await open_desk()
    board = desk.locator("#pad-board svg")
    await expect(board).to_be_visible(timeout=WAIT_MS)
    await desk.evaluate("window.sameDocument = 'yes'")
    where = await board.bounding_box()
    line = desk.locator("#message")
    empty = await line.bounding_box()  # the words' line, kept even while empty
    await desk.locator("#cell").fill("T99")
    await desk.locator("#throw button").first.tap()
    await expect(desk.locator("#message")).to_contain_text("no number 99", timeout=WAIT_MS)
    assert thrown(service) == []
    await expect(desk.locator("#cell")).to_have_value("T99")  # left to put right
    assert await board.bounding_box() == where and await line.bounding_box() == empty
    await shot(desk, "host-refused")

    await expect(desk.locator("#play button[disabled]")).to_have_count(2)  # Undo, Correct
    assert host.thrower.enter("T20") is None  # the game's first dart
    await expect(desk.locator(".recent")).to_contain_text("T20", timeout=WAIT_MS)
    await expect(desk.locator("#play button[disabled]")).to_have_count(0)
    assert await board.bounding_box() == where
    correct = desk.locator("#play input[name=cell]")
    await correct.fill("t5")
    await correct.focus()
    await shot(desk, "host-before-change")
    assert host.thrower.enter("D3") is None  # the page changes under the field
    await expect(desk.locator(".recent li").first).to_contain_text("D3", timeout=WAIT_MS)
    await expect(desk.locator("#play label")).to_contain_text("(D3)")
    await expect(correct).to_have_value("t5")
    await expect(correct).to_be_focused()
    await expect(desk.locator("#message")).to_contain_text("no number 99")  # kept till the next answer
    await desk.locator("#play form.row button").tap()  # Correct D3 to T5
    await expect(desk.locator(".recent li").first).to_contain_text("T5", timeout=WAIT_MS)
    await expect(line).to_be_empty()
    await expect(line).to_be_hidden()
    assert await line.bounding_box() == empty
    await expect(correct).to_have_value("")
    assert thrown(service) == ["T20", "D3"] and str(service.match.last_dart()) == "T5"
    assert await desk.evaluate("window.sameDocument") == "yes"
    await shot(desk, "host-after-change")
    assert desk.errors == []  # type: ignore[attr-defined]


async def test_after_move_the_page_keeps_that_teams_code_and_a_lost_answer_is_said(venue, open_desk):
    """After Move (a navigation to `?team=N`), the darts' answers never put the plain desk (no
    code: both fleets are in) in its place, not even for a moment; a form whose answer never
    comes says so in the kiosk's words."""
    service = venue.service
    host = throwing(venue)
    desk = await open_desk()
    await expect(desk.locator("#phones .qr")).to_have_count(0)
    async with desk.expect_navigation():
        await desk.locator("#phones form button").first.tap()  # Play on a phone: the Sharks
    await expect(desk.locator("#phones .qr")).to_have_count(1)
    assert desk.url.endswith("?team=0")
    await expect(desk.locator("#pad-board svg")).to_be_visible(timeout=WAIT_MS)
    await desk.evaluate(
        """() => {
            window.sameDocument = "yes";
            window.codeGone = false;
            new MutationObserver(() => {
                if (!document.querySelector("#phones .qr")) window.codeGone = true;
            }).observe(document.body, { childList: true, subtree: true });
        }"""
    )
    for code in ("T2", "D7"):
        await desk.locator(f'#pad-board [data-code="{code}"]').first.tap()
    await expect(desk.locator(".recent li").first).to_contain_text("D7", timeout=WAIT_MS)
    assert thrown(service) == ["T2", "D7"]
    await expect(desk.locator("#phones .qr")).to_have_count(1)
    assert await desk.evaluate("window.codeGone") is False

    async def lost(route) -> None:
        await route.abort()

    await desk.route(f"**{host.path()}/throw", lost)
    await desk.locator('#pad-board [data-code="S11"]').first.tap()
    await expect(desk.locator("#message")).to_have_text(
        "No answer from the kiosk: look at the page before you try again.", timeout=WAIT_MS
    )
    await desk.unroute(f"**{host.path()}/throw")
    assert thrown(service) == ["T2", "D7"]
    assert await desk.evaluate("window.sameDocument") == "yes"
    assert desk.errors == []  # type: ignore[attr-defined]


async def test_without_script_the_forms_post_and_come_back(venue):
    """The page as a browser without script gets it: no drawn board; a typed cell posts, the
    desk comes back (a navigation) with the dart in Last darts; a refusal is the desk with
    the words."""
    service = venue.service
    host = throwing(venue)
    context = await venue.browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False
    )
    try:
        desk = await context.new_page()
        await desk.goto(venue.web.base_url + host.path())
        await expect(desk.locator("#throw")).to_be_visible()
        await expect(desk.locator("#pad-board svg")).to_have_count(0)
        await desk.locator("#cell").fill("T9")
        async with desk.expect_navigation():
            await desk.locator("#throw button").first.tap()
        await expect(desk.locator(".recent")).to_contain_text("T9", timeout=WAIT_MS)
        assert thrown(service) == ["T9"]
        await desk.locator("#cell").fill("Q1")
        async with desk.expect_navigation():
            await desk.locator("#throw button").first.tap()
        await expect(desk.locator(".message")).to_be_visible()
        assert desk.url.endswith("/throw") and thrown(service) == ["T9"]
        await shot(desk, "host-no-script")
    finally:
        await context.close()


ASKED = {
    "en": ("Dart game in play: Sharks v Jets", "Start a new game? The one in play ends with no winner."),
    "de": ("Dartspiel läuft: Sharks gegen Jets", "Ein neues Spiel beginnen? Das laufende endet ohne Sieger."),
    "fi": (
        "Tikkapeli käynnissä: Sharks – Jets",
        "Aloitetaanko uusi peli? Käynnissä oleva päättyy ilman voittajaa.",
    ),
}


@pytest.mark.parametrize("language", ["en", "de", "fi"])
async def test_a_new_game_from_the_desk_over_one_in_play_asks_first(venue, open_desk, language):
    """New game, same teams, while the darts fly: the question the touchscreen asks, in the
    host's phone's language (the kiosk speaks another). Keep playing leaves the game as it was;
    Start new game ends it with no winner (stored abandoned) and the next game's codes come."""
    from kiosk.i18n import _, speaking

    set_language("de" if language == "fi" else "fi")
    service = venue.service
    game_with(venue, BullOffMode.OFF)
    place(service, 0, fleet(FLEET_A))
    place(service, 1, fleet(FLEET_B))
    first, version = service.game, service.match.version
    desk = await open_desk({"en": "en-US", "de": "de-DE", "fi": "fi-FI"}[language])
    await expect(desk.locator("#play")).to_be_visible(timeout=WAIT_MS)
    await desk.locator("#new").tap()
    asking = desk.locator("#asking")
    await expect(asking).to_be_visible(timeout=WAIT_MS)
    headline, question = ASKED[language]
    await expect(asking.locator("h2")).to_have_text(headline)
    await expect(asking.locator(".ask")).to_have_text(question)
    with speaking(language):
        stay, go = _("Keep playing"), _("Start new game")
    await expect(desk.locator("#stay")).to_have_text(stay)
    await expect(desk.locator("#go")).to_have_text(go)
    await shot(desk, f"host-asking-{language}")
    await desk.locator("#stay").tap()
    await expect(desk.locator("#play")).to_be_visible(timeout=WAIT_MS)
    assert service.game == first and service.match.version == version  # untouched
    await desk.locator("#new").tap()
    await desk.locator("#go").tap()
    await expect(desk.locator("#phones .qr")).to_have_count(1, timeout=WAIT_MS)
    assert service.game != first and service.match.phase is Phase.PLACING
    status = service.store.db.execute("SELECT status FROM games WHERE id=?", [first]).fetchone()
    assert status[0] == "abandoned"
    await shot(desk, f"host-asked-new-game-{language}")
    assert desk.errors == []  # type: ignore[attr-defined]
