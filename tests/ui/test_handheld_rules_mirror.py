"""The page's placement rules (static/rules.js) agree with kiosk/fleet.py, run in Chromium."""

from __future__ import annotations

import random

from kiosk.board import Profile, board_for
from kiosk.darts.fleet import PlacementError, make_ship, ship_placements
from tests.ui.conftest_handheld import api_client, make_service

JUDGE = """async ([profile, samples]) => {
  const { makeRules } = await import("/static/rules.js");
  const board = await (await fetch(`/api/board/${profile}`)).json();
  const rules = makeRules(board);
  const placements = {};
  for (const n of [2, 3, 4, 5]) placements[n] = rules.placements(n).map((s) => s.join("-"));
  const verdicts = samples.map((cells) => rules.shipError(cells)?.key ?? null);
  return { placements, verdicts };
}"""


def _samples(profile: Profile, rng: random.Random) -> list[list[str]]:
    """Every legal ship, each also broken in a few ways, plus random cell sets."""
    board = board_for(profile)
    codes = [c.code for c in board.cells]
    samples: list[list[str]] = []
    for length in (2, 3, 4, 5):
        for ship in ship_placements(board, length):
            cells = [c.code for c in ship.cells]
            samples.append(cells)
            samples.append(cells[::-1])
            samples.append(rng.sample(cells, len(cells)))
            broken = list(cells)
            broken[rng.randrange(len(broken))] = rng.choice(codes)
            samples.append(broken)
            samples.append([*cells[:-1], cells[0]])
    for _sample in range(3000):
        samples.append(rng.sample(codes, rng.randint(1, 6)))
    # Near misses: neighbours of neighbours, which form rings, spokes and corners.
    for _sample in range(2000):
        cell = rng.choice(board.cells)
        chain = [cell]
        while len(chain) < rng.randint(2, 5):
            chain.append(rng.choice(sorted(board.neighbours(chain[-1]), key=lambda c: c.code)))
        samples.append([c.code for c in chain])
    samples.append(["T20", "L30"])
    samples.append(["T20", "MISS"])
    return samples


def _python_verdict(cells: list[str], profile: Profile) -> bool:
    board = board_for(profile)
    try:
        make_ship([board.parse(c, allow_miss=False) for c in cells], board)
    except (PlacementError, ValueError):
        return False
    return all(board.parse(c).code == c for c in cells)


async def test_rules_js_agrees_with_the_core_on_every_ship_and_thousands_of_non_ships(tmp_path, chromium):
    rng = random.Random(5)
    async with api_client(make_service(tmp_path)) as (client, _api), chromium() as browser:
        page = await browser.new_page()
        await page.goto(str(client.make_url("/watch")))
        for profile in Profile:
            samples = _samples(profile, rng)
            answer = await page.evaluate(JUDGE, [profile.value, samples])
            board = board_for(profile)
            for length in (2, 3, 4, 5):
                core = {s.code for s in ship_placements(board, length)}
                assert set(answer["placements"][str(length)]) == core, (profile, length)
                assert len(answer["placements"][str(length)]) == len(core)
            disagreements = [
                (cells, verdict)
                for cells, verdict in zip(samples, answer["verdicts"], strict=True)
                if (verdict is None) != _python_verdict(cells, profile)
            ]
            assert disagreements == [], (profile, disagreements[:5])
