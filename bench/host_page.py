"""The host's desk under the host's fingers: bursts of pad taps while the game changes.

    .venv/bin/python bench/host_page.py [--rounds 20] [--script tree|REV|FILE]

A headless simulator kiosk as `dartship run --headless --simulator` builds it (`build_kiosk`),
its desk in headless Chromium at 390x844 (a phone). Each round, in a visit of its own: a tap on
the drawn board, a dart from the simulator, a second tap, with no wait between them (a host
scoring quickly while the board, or another hand, reports a dart too), as a finger taps: at the
cells' places on the screen read before the burst. Then it waits up to 5 s for the game to have
the round's darts, and Next starts the next visit.

Printed: taps made and taps that landed (each counted at most once: a dart in the game's log),
darts counted twice, darts in a cell nobody tapped (the board moved under the finger), the
page's navigations (reloads), and, for the simulator's darts, the time
from the dart entering the kiosk to the page listing it. `--script REV` serves the desk the
host.js of a git revision through the browser's routing (`--script a8077dc`: the one before
branch host4, which reloaded the page on each change), `--script FILE` any other file: the
same kiosk and pages, only the script differs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from phones import FLEETS, bench_config  # bench/phones.py: this script's folder is on the path
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, async_playwright

from kiosk.app.root import build_kiosk
from kiosk.board import board_for
from kiosk.darts.fleet import parse_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Next, Place, Setup, Team, Throw, house_rules
from kiosk.service import GameService, Source
from ui.handheld.darts.host import HostDesk

# Cells in neither fleet (every dart a MISS, the game never ends): tap, simulator, tap.
ROUNDS = (("D3", "S5", "T11"), ("D16", "L8", "T2"), ("S14", "L9", "D15"), ("T12", "L13", "D7"))
WAIT_SECONDS = 5.0  # for a round's darts: a tap lost never comes
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _script(which: str) -> str | None:
    """The host.js to serve instead of the tree's (None: the tree's own)."""
    if which == "tree":
        return None
    if Path(which).is_file():
        return Path(which).read_text(encoding="utf-8")
    root = Path(__file__).resolve().parents[1]
    return subprocess.run(
        ["git", "-C", str(root), "show", f"{which}:ui/handheld/static/host.js"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _throws(service: GameService) -> list[str]:
    match = DARTS.in_play(service)
    assert match is not None
    return [str(c.cell) for c in match.log if isinstance(c, Throw)]


async def _centre(page: Page, code: str) -> tuple[float, float]:
    box = await page.locator(f'#pad-board [data-code="{code}"]').first.bounding_box()
    assert box is not None, f"no {code} on the pad"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def _listed(page: Page, cell: str, since: float) -> float:
    """Seconds from `since` until the page's Last darts name `cell` (a round's cells are not in
    the list before it: six darts are listed, two rounds' worth, and the cells repeat every
    four rounds)."""
    await page.wait_for_function(
        "cell => [...document.querySelectorAll('.recent li')]"
        ".some(li => li.textContent.includes(': ' + cell + ' '))",
        arg=cell,
        timeout=30_000,
    )
    return time.perf_counter() - since


async def bench(rounds: int, script: str | None, verbose: bool = False) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        config = bench_config(folder)
        kiosk = await build_kiosk(config, headless=True)
        service, web = kiosk.service, kiosk.web
        assert web is not None and kiosk.simulator is not None
        desk = web.part(HostDesk)
        assert desk is not None
        board = board_for()
        rules = house_rules(config.settings)
        service.new_game(DARTS, Setup((Team("Sharks", ("A",)), Team("Jets", ("B",))), rules))
        for team, text in enumerate(FLEETS):
            service.submit(Place(team, parse_fleet(text, board, rules.fleet)), Source.PHONE)
        executable = os.environ.get("DARTSHIP_CHROMIUM") or shutil.which("chromium")
        assert executable, "no Chromium: install Debian's chromium or set DARTSHIP_CHROMIUM"
        taps = landed = twice = stray = 0
        navigations = 0
        latencies: list[float] = []
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            context = await browser.new_context(
                viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
            )
            page = await context.new_page()
            if script is not None:
                await page.route(
                    "**/static/host.js",
                    lambda route: route.fulfill(body=script, content_type="text/javascript"),
                )
            await page.goto(web.base_url + desk.path())

            def navigated(frame: object) -> None:
                nonlocal navigations
                if frame is page.main_frame:
                    navigations += 1

            page.on("framenavigated", navigated)
            for index in range(rounds):
                first, simulated, second = ROUNDS[index % len(ROUNDS)]
                # The page shows the new visit (as the host sees it before tapping).
                await page.wait_for_function(
                    "() => document.querySelector('#pad-board svg') &&"
                    " (document.getElementById('status')?.textContent || '').endsWith('dart 1')",
                    timeout=30_000,
                )
                at_first, at_second = await _centre(page, first), await _centre(page, second)
                before = len(_throws(service))
                await page.touchscreen.tap(*at_first)
                entered = time.perf_counter()
                assert kiosk.simulator.enter(simulated) is None
                listed = asyncio.ensure_future(_listed(page, simulated, entered))
                await page.touchscreen.tap(*at_second)
                taps += 2
                deadline = time.monotonic() + WAIT_SECONDS
                while len(_throws(service)) - before < 3 and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                new = _throws(service)[before:]
                landed += sum(cell in new for cell in (first, second))
                twice += sum(max(0, new.count(cell) - 1) for cell in (first, simulated, second))
                stray += sum(cell not in (first, simulated, second) for cell in new)  # a board that moved
                if verbose:
                    print(f"round {index + 1}: tapped {first}, {second}, simulator {simulated}: {new}")
                with contextlib.suppress(PlaywrightError):  # the page went (a reload) under the wait
                    latencies.append(await listed)
                service.submit(Next(), Source.HOST)  # the next visit (misses padded if short)
            await browser.close()
        await kiosk.stop()
        return {
            "taps": taps,
            "landed": landed,
            "twice": twice,
            "stray": stray,
            "navigations": navigations,
            "latencies": latencies,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--script", default="tree", help="tree (default), a git revision, or a host.js file")
    parser.add_argument("--verbose", action="store_true", help="each round's darts")
    args = parser.parse_args()
    figures = asyncio.run(bench(args.rounds, _script(args.script), args.verbose))
    latencies = figures["latencies"]
    assert isinstance(latencies, list)
    print(f"host.js: {args.script}, {args.rounds} rounds (tap, simulator dart, tap)")
    print(
        f"taps made {figures['taps']}, landed {figures['landed']}, counted twice {figures['twice']},"
        f" darts in a cell nobody tapped {figures['stray']}"
    )
    print(f"page navigations (reloads) during the rounds: {figures['navigations']}")
    if latencies:
        ms = [1000 * s for s in latencies]
        print(
            f"simulator dart to the page listing it ({len(ms)} darts): "
            f"median {statistics.median(ms):.0f} ms, p95 {_percentile(ms, 0.95):.0f} ms, "
            f"max {max(ms):.0f} ms"
        )


if __name__ == "__main__":
    main()
