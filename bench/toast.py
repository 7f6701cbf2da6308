"""What placing a toast clear of every button costs the kiosk's frames. Figures, never a test.

    python bench/toast.py [--size 800x480] [--rounds 200]

A headless kiosk from the composition root (`build_offline`, as `dartship screenshots` builds
it) walks every screen `dartship screenshots` photographs and shows on each the longest notice
a board sends (a garbled line). While a toast shows, the app looks once a frame whether the controls
under it moved (`DartshipApp._follow_toast`: the window's controls read again, compared); when
they did it places the toast again (`_place_toast`: the geometry and the text measured at each
width tried). Prints, per screen, the controls read and the CPU milliseconds of each (medians of
`--rounds`), and the median and most over every screen.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _cpu_ms(call: Callable[[], object], rounds: int) -> float:
    spent = []
    for _ in range(rounds):
        start = time.process_time()
        call()
        spent.append((time.process_time() - start) * 1000)
    return statistics.median(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    from kiosk.app.root import build_offline
    from kiosk.app.tour.driver import Tour
    from kiosk.app.tour.walk import run_all

    with tempfile.TemporaryDirectory(prefix="dartship-bench-toast-") as tmp:
        kiosk, loop = build_offline(Path(tmp), size=(width, height))
        tour = Tour.start(kiosk, loop)
        try:
            from ui.touch.fingers import frames
            from ui.touch.toast import controls

            app = tour.app

            def again() -> None:
                app._toast_among = None
                app._follow_toast()

            print(
                f"toast placement at {width}x{height}: CPU ms, median of {args.rounds} "
                f"(placed again: of {max(5, args.rounds // 4)})"
            )
            rows = []
            for name in run_all(tour, Path(tmp), ""):
                tour.garbled_line()
                frames(2)
                follow = _cpu_ms(app._follow_toast, args.rounds)
                place = _cpu_ms(again, max(5, args.rounds // 4))
                rows.append((follow, place))
                print(
                    f"  {name:<28} controls {len(controls(skip=app.toast_panel)):>3}  "
                    f"each frame {follow:5.2f}  placed again {place:6.2f}",
                    flush=True,
                )
                app._hide_toast()
            print(
                f"every screen: each frame median {statistics.median(r[0] for r in rows):.2f}, most "
                f"{max(r[0] for r in rows):.2f}; placed again median "
                f"{statistics.median(r[1] for r in rows):.2f}, most {max(r[1] for r in rows):.2f}"
            )
        finally:
            tour.close()


if __name__ == "__main__":
    main()
