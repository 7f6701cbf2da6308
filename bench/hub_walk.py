"""The hub's pages walked in headless Chromium, as a bar's customers would read them. A walk, not
a test: it prints what it checked and writes screenshots to look at.

    python bench/hub_walk.py [--out build/artefacts/hub-walk]

A real PostgreSQL (hub.cluster, as `dartship hub --demo` starts it), the hub's own `serve`, a
league with two venues, and two kiosks paired with pairing codes (`kiosk.app.league.pair`)
whose games (dart games, classic duels and a daily, Express) go up through their real outbox
and sync task. Names are the kind a bar types: umlauts, an emoji, a long double-barrelled one,
markup. Then every page (the leagues, the table, the three ratings, the daily, a player, a
venue) in English, German and Finnish, at a phone's width and a TV's: each answers 200 and
speaks its language (`<html lang>` and Content-Language), has no sideways scroll, shows names
as typed (markup escaped, never made), and every link on it answers 200.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import random
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import urljoin

import aiohttp
import psycopg
from playwright.async_api import Browser, async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hub import admin, db
from hub.cli import serve
from hub.cluster import Cluster, free_port
from hub.pages import player_href
from kiosk.app.league import LeagueSync, pair
from kiosk.league import membership as members
from kiosk.store import Store
from tests import league_games as games

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
SIZES = {"phone": (390, 844), "tv": (1280, 720)}
LANGUAGES = ("en", "de", "fi")
NAMES = ["Jürgen", "Päivi", "Bo 🎯", "Anna-Maria Lindqvist-Järvinen", "<b>Cy</b>", "Dee"]
WORDS = {"en": "Leagues", "de": "Ligen", "fi": "Liigat"}  # the first link of every page
HREFS = "links => links.map((l) => l.getAttribute('href'))"
failures: list[str] = []


def check(ok: bool, what: str) -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {what}", flush=True)
    if not ok:
        failures.append(what)


async def league_with_games(url: str, hub: str, work: Path) -> tuple[int, int]:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await db.migrate(conn)
        league = await admin.create_league(conn, "Harbour Darts League")
        anchor = await admin.create_venue(conn, league, "The Anchor")
        crown = await admin.create_venue(conn, league, "Kruunu & Krone")
        codes = [await admin.pairing_code(conn, anchor), await admin.pairing_code(conn, crown)]
    rng = random.Random(7)
    syncs = []
    for number, code in enumerate(codes):
        member = await pair(hub, code, f"kiosk {number}")
        store = Store(work / f"kiosk{number}.db")
        store.meta.remember(members.MEMBERSHIP, member.to_json())
        syncs.append((store, LeagueSync(store, member, rng=random.Random(number))))
    (one, first), (two, second) = syncs
    a, b, c, d, e, f = NAMES
    games.play_darts(one, [[a, b], [c]], rng, winner=0)
    games.play_darts(one, [[e], [f]], rng, winner=1)
    games.play_darts(two, [[d], [a]], rng, winner=0)
    games.play_classic(one, [c, a], rng, winner=0)
    games.play_classic(two, [e, d], rng, winner=1)
    games.play_express(two, [a, b, f], rng)
    async with aiohttp.ClientSession() as session:
        await first.refresh(session)
        await second.refresh(session)
        seed = members.daily_seed(one.meta, datetime.date.today())
        games.play_classic(one, [b], rng, daily=datetime.date.today(), seed=seed)
        games.play_classic(two, [d], rng, daily=datetime.date.today(), seed=seed)
        sent = await first.flush(session) + await second.flush(session)
    check(sent == 8, f"the two kiosks' 8 games reached the hub ({sent})")
    return league, anchor


async def look(browser: Browser, hub: str, league: int, venue: int, out: Path) -> None:
    pages = {
        "leagues": "/",
        "table": f"/leagues/{league}",
        "ratings-darts": f"/leagues/{league}/ratings/darts",
        "ratings-classic": f"/leagues/{league}/ratings/classic",
        "ratings-express": f"/leagues/{league}/ratings/express",
        "daily": f"/leagues/{league}/daily",
        "venue": f"/venues/{venue}",
    }
    async with aiohttp.ClientSession() as session, session.get(f"{hub}/api/leagues/{league}") as api:
        first = (await api.json())["rows"][0]["key"]
    pages["player"] = player_href(league, first)
    linked: set[str] = set()
    for language in LANGUAGES:
        for size, (width, height) in SIZES.items():
            context = await browser.new_context(
                viewport={"width": width, "height": height},
                locale=language,
                extra_http_headers={"Accept-Language": language},
            )
            page = await context.new_page()
            for name, path in pages.items():
                answer = await page.goto(hub + path)
                status = answer.status if answer else 0
                spoken = (answer.headers.get("content-language") if answer else None) or ""
                lang = await page.evaluate("() => document.documentElement.lang")
                wide = await page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
                text = await page.inner_text("body")
                where = f"{name} {language} {size}"
                check(status == 200, f"{where}: answers {status}")
                told = f"{where}: speaks {spoken!r}, <html lang={lang!r}>"
                check(spoken == language and lang == language, told)
                check(wide <= 0, f"{where}: no sideways scroll ({wide} px too wide)")
                if name == "player" and size == "phone":
                    # a player's games are cards on a phone, read whole, not a table to scroll
                    boxes = await page.eval_on_selector_all(
                        ".cards",
                        "ts => ts.map(t => t.parentElement.scrollWidth - t.parentElement.clientWidth)",
                    )
                    check(boxes == [0], f"{where}: the games are cards, none scrolls ({boxes})")
                if name == "table":
                    check(WORDS[language] in text, f"{where}: says {WORDS[language]!r}")
                    for shown in [*NAMES[:4], "<b>Cy</b>"]:
                        check(shown in text, f"{where}: shows {shown!r} as typed")
                    check(await page.locator("b").count() == 0, f"{where}: a name's markup is not made")
                    players = await page.eval_on_selector_all("a[href*='/players/']", HREFS)
                    check(len(players) == len(NAMES), f"{where}: links every player ({len(players)})")
                hrefs = await page.eval_on_selector_all("a[href]", HREFS)
                linked.update(urljoin(hub + path, h) for h in hrefs)
                await page.screenshot(path=str(out / f"hub-{name}-{language}-{size}.png"), full_page=True)
            await context.close()
    async with aiohttp.ClientSession() as session:
        for url in sorted(linked):
            if not url.startswith(hub):
                continue
            async with session.get(url) as answer:
                check(answer.status == 200, f"link {url[len(hub) :]} answers {answer.status}")


async def walk(out: Path, work: Path) -> None:
    cluster = Cluster()
    url = cluster.start()
    port = free_port()
    hub = f"http://127.0.0.1:{port}"
    ready = asyncio.Event()
    server = asyncio.create_task(serve(url, "127.0.0.1", port, 4, ready))
    try:
        await asyncio.wait_for(ready.wait(), 30)
        league, venue = await league_with_games(url, hub, work)
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            try:
                await look(browser, hub, league, venue, out)
            finally:
                await browser.close()
    finally:
        server.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await server
        cluster.remove()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("build/artefacts/hub-walk"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hub-walk-") as work:
        asyncio.run(walk(args.out, Path(work)))
    print(f"{len(failures)} checks failed; screenshots in {args.out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
