"""What the guard in front of Next does (kiosk/darts/double_next.py), in figures.

    .venv/bin/python bench/double_next.py [--visits 200] [--window 1.5]

* For each gap between a visit's Next and a second person's Next (0 s: a double tap, up to
  well past the window), the second Next of each of `--visits` visits: how many were taken,
  each ending the next team's visit before its first dart, without the guard and with it.
  Within the window a taken one is a lost visit; past it, a Next someone meant (an early end
  on purpose), which the guard must take. The clock is a hand clock: the gaps are exact,
  nobody waits.
* What the guard costs: microseconds per command (a dart or a Next) through the real service,
  with and without it (a game in memory, so the disk's commit does not drown the figure).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.board import board_for
from kiosk.darts.double_next import NextGuard
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import HouseRules, Next, Phase, Place, RuleError, Setup, Start, Team, Throw
from kiosk.service import GameService, Source
from tests.clocks import HandClock  # the tests' clock: seconds that pass only when told

GAPS = (0.0, 0.2, 0.5, 1.0, 1.4, 1.6, 3.0, 10.0)


def _game(guarded: bool, window: float) -> tuple[GameService, HandClock]:
    service = GameService(None, rng=random.Random(1), follow_ups=False)
    clock = HandClock()
    if guarded:
        service.host(DARTS.name, [NextGuard(service, lambda: window, clock)])
    rules = HouseRules()
    service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
    for team in (0, 1):
        service.submit(Place(team, random_fleet(rules.board, rules.fleet, random.Random(team))))
    service.submit(Start(0))
    return service, clock


def taken(gap: float, visits: int, guarded: bool, window: float) -> int:
    """Second Nexts taken, `gap` seconds after the first, before the new visit's first dart."""
    service, clock = _game(guarded, window)
    miss = board_for().parse("MISS")
    ended = 0
    for _ in range(visits):
        match = service.match
        assert match is not None and match.phase is Phase.THROWING
        for _dart in range(3):
            service.submit(Throw(miss), Source.BOARD)
        service.submit(Next(visit=match.visits), Source.TOUCH)
        clock.advance(gap)
        drawn = match.visits  # the screen shows the new visit by now
        try:
            service.submit(Next(visit=drawn), Source.TOUCH)
            ended += 1
        except RuleError:
            pass
        clock.advance(60)  # the next visit is thrown a while later
    return ended


def cost(guarded: bool, commands: int) -> float:
    """Microseconds per command (three darts and a Next per visit), median of 5 runs."""
    runs = []
    miss = board_for().parse("MISS")
    for _ in range(5):
        service, clock = _game(guarded, 1.5)
        started = time.perf_counter()
        for _command in range(commands):
            match = service.match
            assert match is not None
            if match.phase is Phase.TAKEOUT:
                service.submit(Next(visit=match.visits), Source.TOUCH)
                clock.advance(5)
            else:
                service.submit(Throw(miss), Source.BOARD)
        runs.append((time.perf_counter() - started) / commands * 1e6)
    return sorted(runs)[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=200)
    parser.add_argument("--window", type=float, default=1.5)
    parser.add_argument("--commands", type=int, default=4000)
    args = parser.parse_args()
    print(f"a second Next after the visit's Next, {args.visits} visits, window {args.window} s")
    print("| gap (s) | second Nexts taken without the guard | with it |")
    print("|---|---|---|")
    for gap in GAPS:
        without = taken(gap, args.visits, False, args.window)
        with_guard = taken(gap, args.visits, True, args.window)
        print(f"| {gap:g} | {without} | {with_guard} |")
    plain, guarded = cost(False, args.commands), cost(True, args.commands)
    print(f"per command through the service (in memory): {plain:.1f} µs without, {guarded:.1f} µs with")


if __name__ == "__main__":
    main()
