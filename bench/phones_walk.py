"""The qa9 walk of classic 10x10 on phones (docs/qa9-phones.md): the real headless kiosk
(`dartship run --headless --simulator`) and phones as headless Chromium pages (Debian's
`chromium`, driven by playwright-core as tests/ui does), each phone a browser context of its own.

    .venv/bin/python bench/phones_walk.py [--out build/artefacts/qa9]

Every phone plays from its page alone: a hunter reads the radar's squares (hit, miss, sunk)
off the page and aims as a player would (next to a hit not yet sunk, else a checkerboard). It
walks: solo against the computer to the end (a reload mid-game, a second tab of the same phone,
the phone asleep and back); the daily challenge to the leaderboard; a room duel between two
phones with a friend who joins late as a watcher, the kiosk killed -9 and restarted mid-duel
(the pages must carry on by themselves); the pages in German and Finnish. Every answer and
socket frame the watcher and the friend get, and every line the kiosk writes, is kept and
checked for a square of a ship not yet sunk. Screenshots at 390x844 go to --out, each step's
name in its file name. Prints what it saw; exit 1 if a check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, async_playwright, expect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk.classic.fleet import parse_ship  # noqa: E402
from tests.headless_kiosk import start_kiosk  # noqa: E402
from tests.ui.conftest_handheld import CHROMIUM_ARGS  # noqa: E402

PHONE = {"width": 390, "height": 844}
WAIT_MS = 30_000
LETTERS = "ABCDEFGHIJ"
SQUARE = re.compile(r"\b[A-J](?:10|[1-9])\b")
expect.set_options(timeout=WAIT_MS)


class Kiosk:
    """`dartship run --headless --simulator` on a fixed port and database (so a restart after
    kill -9 is the same kiosk), its output kept line by line."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder, self.port = folder, port
        self.lines: list[str] = []
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        config = self.folder / "config.toml"
        config.write_text(
            f'[web]\nhost = "127.0.0.1"\nport = {self.port}\n[solo]\nshot_seconds = 0.2\n'
            '[caller]\noutput = "log"\n'
        )
        os.environ["STATE_DIRECTORY"] = str(self.folder / "state")
        self.proc = start_kiosk(config, "--db", str(self.folder / "kiosk.db"))
        ready = threading.Event()

        def read(proc: subprocess.Popen[str]) -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                self.lines.append(line.rstrip("\n"))
                if "running headless" in line:
                    ready.set()

        threading.Thread(target=read, args=(self.proc,), daemon=True).start()
        if not ready.wait(60):
            raise SystemExit("the kiosk did not start:\n" + "\n".join(self.lines[-30:]))

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class Phone:
    """One phone: its browser context (cookies), its pages, and what it was sent."""

    def __init__(self, name: str, context: BrowserContext) -> None:
        self.name, self.context = name, context
        self.received: list[str] = []  # every API answer's body and socket frame
        self.errors: list[str] = []

    async def open(self, url: str) -> Page:
        page = await self.context.new_page()
        page.on("pageerror", lambda err: self.errors.append(str(err)))

        async def answered(response: Any) -> None:
            if "/api/" in response.url:
                with contextlib.suppress(Exception):  # a body gone with a reload
                    self.received.append(await response.text())

        page.on("response", lambda r: asyncio.ensure_future(answered(r)))
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: self.received.append(str(f))))
        await page.goto(url)
        return page


async def new_phone(browser: Browser, name: str, locale: str = "en-US") -> Phone:
    context = await browser.new_context(
        viewport=PHONE, device_scale_factor=2, locale=locale, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(WAIT_MS)
    return Phone(name, context)


SHOTS: list[Path] = []


async def shot(page: Page, out: Path, name: str) -> None:
    path = out / f"{len(SHOTS) + 1:02d}-{name}.png"
    await page.screenshot(path=str(path))
    SHOTS.append(path)


async def radar(page: Page, grid: str) -> dict[str, str]:
    """The radar as the page draws it: square -> '' | hit | miss | sunk."""
    return await page.evaluate(
        """(grid) => Object.fromEntries([...document.querySelectorAll(`#${grid} [data-cell]`)].map(
            (el) => [el.dataset.cell, (el.className.match(/\\bm-(hit|miss|sunk)\\b/) || [, ""])[1]]))""",
        grid,
    )


def aim(marks: dict[str, str]) -> str:
    """A player's next square: next to a hit not yet sunk (along a line of two hits first),
    else the checkerboard's next free square."""

    def code(c: int, r: int) -> str | None:
        return f"{LETTERS[c]}{r + 1}" if 0 <= c < 10 and 0 <= r < 10 else None

    def free(sq: str | None) -> bool:
        return sq is not None and marks.get(sq, "") == ""

    hits = [(LETTERS.index(sq[0]), int(sq[1:]) - 1) for sq, m in marks.items() if m == "hit"]
    hit_set = set(hits)
    for c, r in hits:  # a line: extend it
        for dc, dr in ((1, 0), (0, 1)):
            if (c + dc, r + dr) in hit_set or (c - dc, r - dr) in hit_set:
                for sign in (1, -1):
                    k = 1
                    while (c + sign * dc * k, r + sign * dr * k) in hit_set:
                        k += 1
                    sq = code(c + sign * dc * k, r + sign * dr * k)
                    if free(sq):
                        assert sq is not None
                        return sq
    for c, r in hits:
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            sq = code(c + dc, r + dr)
            if free(sq):
                assert sq is not None
                return sq
    for parity in (0, 1):
        for r in range(10):
            for c in range(10):
                sq = code(c, r)
                if (c + r) % 2 == parity and free(sq):
                    assert sq is not None
                    return sq
    raise AssertionError("no square left")


async def fire_once(page: Page, grid: str) -> str:
    """Aim and fire as a thumb does (tap, tap again); wait until the page shows the shot."""
    marks = await radar(page, grid)
    target = aim(marks)
    square = page.locator(f"#{grid} button[data-cell='{target}']")
    await square.tap()
    await expect(square).to_have_class(re.compile(r"\bselected\b"))
    await square.tap()
    await expect(page.locator(f"#{grid} [data-cell='{target}']")).to_have_class(
        re.compile(r"\bm-(hit|miss|sunk)\b")
    )
    return target


async def over(page: Page) -> bool:
    return await page.evaluate("() => document.body.dataset.phase === 'over'")


async def mine(page: Page) -> bool:
    return await page.locator("#turn.mine").count() > 0


async def wait_mine_or_over(page: Page) -> None:
    await page.wait_for_function(
        "() => document.body.dataset.phase === 'over' || document.querySelector('#turn.mine')"
    )


FAILS: list[str] = []


def check(ok: bool, what: str) -> None:
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        FAILS.append(what)


def fleet_squares(view: dict[str, Any]) -> set[str]:
    """The squares of a view's own fleet (ships written `start-end`, as the protocol writes them)."""
    return {sq.code for ship in view.get("fleet") or [] for sq in parse_ship(ship).cells}


def leaks(received: list[str], hidden: set[str], own: set[str] | None = None) -> set[str]:
    """Squares of `hidden` (a fleet's unsunk, unhit squares) in any answer or frame, a
    phone's own fleet (`own`, the key "fleet") left out."""
    found: set[str] = set()
    for text in received:
        try:
            data = json.loads(text)
        except ValueError:
            found |= set(SQUARE.findall(text)) & hidden
            continue
        found |= _walk(data, hidden)
    return found


def _walk(data: Any, hidden: set[str]) -> set[str]:
    if isinstance(data, dict):
        return set().union(*(_walk(v, hidden) for k, v in data.items() if k != "fleet"), set())
    if isinstance(data, list):
        return set().union(*(_walk(v, hidden) for v in data), set())
    if isinstance(data, str):
        return set(SQUARE.findall(data)) & hidden
    return set()


INDEX = re.compile(r"\[\d+\]")


def places(received: list[str], squares: set[str]) -> set[str]:
    """Where in the JSON answers a name of `squares` stands: `key.key[i]=SQUARE` paths."""
    found: set[str] = set()

    def walk(data: Any, path: str) -> None:
        if isinstance(data, dict):
            for key, value in data.items():
                walk(value, f"{path}.{key}")
        elif isinstance(data, list):
            for i, value in enumerate(data):
                walk(value, f"{path}[{i}]")
        elif isinstance(data, str):
            for sq in set(SQUARE.findall(data)) & squares:
                found.add(f"{INDEX.sub('[]', path)}={sq}")

    for text in received:
        with contextlib.suppress(ValueError):
            walk(json.loads(text), "")
    return found


async def view_of(page: Page, api: str) -> dict[str, Any]:
    return await page.evaluate(f"() => fetch('{api}').then((r) => r.json())")


async def walk(out: Path, work: Path) -> None:
    port = _free_port()
    kiosk = Kiosk(work, port)
    kiosk.start()
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            try:
                await solo(browser, kiosk, out)
                await daily(browser, kiosk, out)
                await duel(browser, kiosk, out)
                await languages(browser, kiosk, out)
            finally:
                await browser.close()
    finally:
        kiosk.stop()
        log = "\n".join(kiosk.lines)
        (out / "kiosk.log").write_text(log)


async def solo(browser: Browser, kiosk: Kiosk, out: Path) -> None:
    ann = await new_phone(browser, "ann")
    page = await ann.open(f"{kiosk.url}/classic")
    await expect(page.locator("[data-level='easy']")).to_be_visible()
    await shot(page, out, "solo-start")
    await page.locator("#solo-name").fill("Ann")
    await page.locator("[data-level='normal']").tap()
    await expect(page.locator("#radar-0")).to_be_visible()
    await shot(page, out, "solo-fleet")
    fired = 0
    second: Page | None = None
    while not await over(page):
        await wait_mine_or_over(page)
        if await over(page):
            break
        await fire_once(page, "radar-0")
        fired += 1
        if fired == 8:
            await shot(page, out, "solo-mid")
            before = await radar(page, "radar-0")
            await page.reload()
            await expect(page.locator("#radar-0")).to_be_visible()
            await page.wait_for_timeout(500)
            check(await radar(page, "radar-0") == before, "solo: a reload shows the radar as it was")
        if fired == 12:
            second = await ann.open(f"{kiosk.url}/classic")  # the same phone, a second tab
            await expect(second.locator("#radar-0")).to_be_visible()
            await shot(second, out, "solo-second-tab")
        if fired == 14 and second is not None:
            await wait_mine_or_over(page)
            await page.wait_for_timeout(300)
            check(
                await radar(second, "radar-0") == await radar(page, "radar-0"),
                "solo: a second tab of the same phone follows the game live",
            )
        if fired == 18:
            # asleep: the phone drops off the network and its page is frozen, then wakes
            cdp = await ann.context.new_cdp_session(page)
            await ann.context.set_offline(True)
            await cdp.send("Page.setWebLifecycleState", {"state": "frozen"})
            await asyncio.sleep(8)
            await cdp.send("Page.setWebLifecycleState", {"state": "active"})
            await ann.context.set_offline(False)
            await page.wait_for_timeout(500)
            await shot(page, out, "solo-woken")
            await wait_mine_or_over(page)
            await page.wait_for_function(
                "() => document.getElementById('connection').dataset.state === 'live'"
            )
            check(True, "solo: woken after 8 s offline and frozen, the page is live again by itself")
    await shot(page, out, "solo-over")
    text = await page.locator("#turn").inner_text()
    print(f"     solo over after {fired} shots of Ann's: {text!r}")
    check(await page.locator("#result").count() == 1, "solo: the result card shows")
    check(ann.errors == [], f"solo: no script error ({ann.errors})")
    await ann.context.close()


async def daily(browser: Browser, kiosk: Kiosk, out: Path) -> None:
    cleo = await new_phone(browser, "cleo")
    page = await cleo.open(f"{kiosk.url}/classic#daily")
    await expect(page.locator("#daily-start")).to_be_visible()
    await shot(page, out, "daily-start")
    await page.locator("#daily-start").tap()
    await expect(page.locator("#radar-0")).to_be_visible()
    fired = 0
    while not await over(page):
        await fire_once(page, "radar-0")
        fired += 1
        if fired == 10:
            await shot(page, out, "daily-mid")
            await page.reload()
            await expect(page.locator("#radar-0")).to_be_visible()
    await shot(page, out, "daily-over")
    name = page.locator("#daily-name")
    if await name.count():
        await name.fill("Cleo")
        await page.locator("#daily-enter").tap()
        await expect(page.locator("#leaderboard")).to_contain_text("Cleo")
    await shot(page, out, "daily-board")
    print(f"     daily sunk in {fired} shots")
    again = await cleo.open(f"{kiosk.url}/classic#daily")
    await expect(again.locator("#leaderboard")).to_be_visible()
    check(await again.locator("#daily-start").count() == 0, "daily: the same phone gets no second try")
    check(cleo.errors == [], f"daily: no script error ({cleo.errors})")
    await cleo.context.close()


async def duel(browser: Browser, kiosk: Kiosk, out: Path) -> None:
    dan, eve, fay = [await new_phone(browser, n) for n in ("dan", "eve", "fay")]
    owner = await dan.open(f"{kiosk.url}/classic")
    await owner.locator("#solo-name").fill("Dan")
    # A room is opened from a game: the start form has no "Play with friends" (docs/qa9-phones.md)
    check(
        await owner.locator("#open-room").count() == 0, "duel: a phone with no game has no Play with friends"
    )
    await owner.locator("[data-level='easy']").tap()
    await expect(owner.locator("#radar-0")).to_be_visible()
    await owner.locator("#open-room").tap()
    await expect(owner.locator("#room-link")).to_be_visible()
    await shot(owner, out, "room-open")
    link = await owner.locator("#room-link").get_attribute("href")
    assert link is not None
    link = link if link.startswith("http") else kiosk.url + link
    friend = await eve.open(link)
    await expect(friend.locator("#ready")).to_be_visible()
    await friend.locator("#ready-name").fill("Eve")
    await shot(friend, out, "room-friend")
    await friend.locator("#ready").tap()
    await expect(owner.locator("#start-duel")).to_be_visible()
    await shot(owner, out, "room-ready")
    await owner.locator("#start-duel").tap()
    await expect(owner.locator("#radar-0")).to_be_visible()
    await expect(friend.locator("#radar-1")).to_be_visible()
    await shot(owner, out, "duel-owner-start")
    await shot(friend, out, "duel-friend-start")
    token = link.rsplit("/", 1)[1]
    pages = {0: owner, 1: friend}
    grids = {0: "radar-0", 1: "radar-1"}
    fleets = {
        0: fleet_squares((await view_of(owner, "/api/classic/play"))["view"]),
        1: fleet_squares((await view_of(friend, f"/api/classic/r/{token}"))["view"]),
    }
    check(len(fleets[0]) == 17 and len(fleets[1]) == 17, "duel: each phone shows its own fleet of 17 squares")
    watcher: Page | None = None
    shots_done = 0
    killed = False
    answered: list[str] = []
    while not await over(owner):
        turn = 0 if await mine(owner) else 1 if await mine(friend) else None
        if turn is None:
            await asyncio.sleep(0.1)
            continue
        target = await fire_once(pages[turn], grids[turn])
        answered.append(f"{turn}:{target}")
        shots_done += 1
        if shots_done == 6:
            watcher = await fay.open(link)  # a friend of theirs comes late: watches
            await expect(watcher.locator("#watching")).to_be_visible()
            await shot(watcher, out, "duel-late-watcher")
        if shots_done == 10:
            await shot(owner, out, "duel-owner-mid")
            await shot(friend, out, "duel-friend-mid")
        if shots_done == 16 and not killed:
            before = {s: await radar(pages[s], grids[s]) for s in (0, 1)}
            kiosk.kill9()
            killed = True
            await owner.wait_for_function(
                "() => document.getElementById('connection').dataset.state === 'offline'", timeout=60_000
            )
            await shot(owner, out, "duel-kiosk-dead")
            kiosk.start()
            # no reload: the pages must find the kiosk again by themselves
            for p in (owner, friend):
                await p.wait_for_function(
                    "() => document.getElementById('connection').dataset.state === 'live'", timeout=60_000
                )
            await owner.wait_for_timeout(1000)
            after = {s: await radar(pages[s], grids[s]) for s in (0, 1)}
            check(after == before, "duel: after kill -9 and a restart every answered shot is still shown")
            await shot(owner, out, "duel-owner-restarted")
            await shot(friend, out, "duel-friend-restarted")
            await owner.reload()
            await expect(owner.locator("#radar-0")).to_be_visible()
            await owner.wait_for_timeout(500)
            check(
                await radar(owner, "radar-0") == before[0], "duel: a reload after the restart shows the same"
            )
    await shot(owner, out, "duel-owner-over")
    await shot(friend, out, "duel-friend-over")
    if watcher is not None:
        await shot(watcher, out, "duel-watcher-over")
    print(f"     duel over after {shots_done} shots; owner: {await owner.locator('#turn').inner_text()!r}")
    # hidden information: what each got never held a square of the other's fleet it had not hit
    final0 = await radar(owner, "radar-0")  # Dan's shots at Eve's fleet
    final1 = await radar(friend, "radar-1")
    shot_at_eve = {sq for sq, m in final0.items() if m}
    shot_at_dan = {sq for sq, m in final1.items() if m}
    unhit_eve = fleets[1] - shot_at_eve
    unhit_dan = fleets[0] - shot_at_dan
    print(f"     unhit at the end: Dan's {len(unhit_dan)}, Eve's {len(unhit_eve)} squares")
    # The two boards share their squares' names: E7 on Dan's board (Eve's shot there, in Dan's
    # own "incoming") is not E7 of Eve's fleet. A square in what a phone got betrays a hidden
    # ship only where that name means nothing else to it: no shot on either board, not in its
    # own fleet. (The first run of this walk took Eve's shots at Dan for a leak of her ships.)
    shot_any = shot_at_eve | shot_at_dan
    for who, got, unhit in (("Dan", dan, unhit_eve), ("the watcher", fay, unhit_eve | unhit_dan)):
        for path in sorted(places(got.received, unhit))[:12]:
            print(f"     {who} got an unhit square's name at {path}")
    hidden_eve = unhit_eve - shot_any - fleets[0]
    hidden_dan = unhit_dan - shot_any - fleets[1]
    print(f"     of them named nowhere else: Dan's {len(hidden_dan)}, Eve's {len(hidden_eve)}")
    check(
        not leaks(eve.received, hidden_dan),
        f"duel: Eve got none of Dan's unhit squares {leaks(eve.received, hidden_dan)}",
    )
    check(
        not leaks(dan.received, hidden_eve),
        f"duel: Dan got none of Eve's unhit squares {leaks(dan.received, hidden_eve)}",
    )
    check(
        not leaks(fay.received, hidden_dan | hidden_eve),
        f"duel: the watcher got no unhit square {leaks(fay.received, hidden_dan | hidden_eve)}",
    )
    logged = {sq for line in kiosk.lines for sq in SQUARE.findall(line)}
    check(
        not (logged & (hidden_dan | hidden_eve)),
        f"duel: no log line names an unhit square {logged & (hidden_dan | hidden_eve)}",
    )
    calls = [line for line in kiosk.lines if "caller: " in line]
    print("     the caller said:", *calls[-8:], sep="\n       ")
    for phone in (dan, eve, fay):
        check(phone.errors == [], f"duel: no script error on {phone.name} ({phone.errors})")
        await phone.context.close()


async def languages(browser: Browser, kiosk: Kiosk, out: Path) -> None:
    for locale, lang in (("de-DE", "de"), ("fi-FI", "fi")):
        phone = await new_phone(browser, lang, locale)
        page = await phone.open(f"{kiosk.url}/classic")
        await expect(page.locator("[data-level='easy']")).to_be_visible()
        await shot(page, out, f"{lang}-start")
        await page.locator("#solo-name").fill("Jäger 🎯")
        await page.locator("[data-level='easy']").tap()
        await expect(page.locator("#radar-0")).to_be_visible()
        for _ in range(6):
            await wait_mine_or_over(page)
            await fire_once(page, "radar-0")
        await shot(page, out, f"{lang}-playing")
        await page.locator("#open-room").tap()
        await expect(page.locator("#room-link")).to_be_visible()
        await shot(page, out, f"{lang}-room")
        body = await page.locator("body").inner_text()
        english = [
            w
            for w in ("Your turn", "Play with friends", "Close the room", "Fire at", "Pick a square")
            if w in body
        ]
        check(english == [], f"{lang}: no English left on the page ({english})")
        await phone.context.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "build" / "artefacts" / "qa9"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="qa9-") as work:
        asyncio.run(walk(out, Path(work)))
    print(
        f"{len(SHOTS)} screenshots in {out}; {len(FAILS)} checks failed; {time.monotonic() - started:.0f} s"
    )
    return 1 if FAILS else 0


if __name__ == "__main__":
    raise SystemExit(main())
