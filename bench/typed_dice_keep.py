"""What keeping every real-dice face costs: one `typed_dice.keep` per face tapped (an sqlite
write to the store's meta, as the kiosk's store commits it), in a store in a temp folder.

    python bench/typed_dice_keep.py [--taps 200]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from kiosk.express.match import Attack, Target
from kiosk.express.rules import Face, Ship
from kiosk.store import Store
from ui.touch.express.typed_dice import Typed, keep


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--taps", type=int, default=200)
    taps = parser.parse_args().taps
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "kiosk.db")
        command = Attack(Ship.BATTLESHIP, Target(1, Ship.PATROL_BOAT), side=0)
        faces: list[Face] = []
        took = []
        for _tap in range(taps):
            faces.append(Face.SUBMARINE)
            typed = Typed(1, 0, command, tuple(faces[-29:]))
            start = time.perf_counter()
            keep(store, typed)
            took.append(time.perf_counter() - start)
        store.close()
    took.sort()
    print(
        f"{taps} faces kept: median {statistics.median(took) * 1000:.2f} ms, "
        f"p99 {took[int(len(took) * 0.99) - 1] * 1000:.2f} ms, most {took[-1] * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
