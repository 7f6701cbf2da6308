"""Cost of one full matrix scan with gpiozero MockFactory pins, and what it implies on a Pi.

Three figures, per full scan of a rows x cols matrix (default 7 x 10, the common soft-tip board):
  * pins only: `read_closed()` (per row: output, low, back to input; 70 column reads)
  * scan: `scan_once()` = pins + debounce/edge/lockout logic, nothing pressed
  * wired: the same with MockMatrixWiring (the mock's own wiring cost included, one contact held)

    /work/venv/bin/python bench/matrix_scan.py [--scans 5000] [--rows 7] [--cols 10]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory

from hardware.boardmap import demo_map
from hardware.matrix import MatrixScanner, MockMatrixWiring

PINS = [5, 6, 13, 19, 26, 16, 20, 21, 4, 17, 27, 22, 10, 9, 11, 0, 1, 7, 8, 25, 24, 23, 18, 12, 2, 3]


def timed(function, scans: int) -> float:
    for _ in range(min(200, scans)):
        function()
    start = time.perf_counter()
    for _ in range(scans):
        function()
    return (time.perf_counter() - start) / scans * 1e6


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scans", type=int, default=5000)
    p.add_argument("--rows", type=int, default=7)
    p.add_argument("--cols", type=int, default=10)
    a = p.parse_args()
    rows, cols = PINS[: a.rows], PINS[a.rows : a.rows + a.cols]
    ops = a.rows * 3 + a.rows * a.cols  # per row: to output, low, back to input

    factory = MockFactory()
    scanner = MatrixScanner(rows, cols, lambda ev: None, board_map=demo_map(), pin_factory=factory)
    assert scanner.open()
    pins_only = timed(scanner.read_closed, a.scans)
    scan = timed(scanner.scan_once, a.scans)
    scanner.stop()

    factory = MockFactory()
    wiring = MockMatrixWiring(factory, rows, cols)
    scanner = MatrixScanner(rows, cols, lambda ev: None, board_map=demo_map(), pin_factory=factory)
    assert scanner.open()
    wiring.press((1, 1))
    wired = timed(scanner.scan_once, a.scans)
    scanner.stop()

    print(
        f"matrix {a.rows}x{a.cols} ({ops} pin operations per scan), {a.scans} scans, "
        f"MockFactory, Python {platform.python_version()} on {platform.machine()}"
    )
    print(f"  pins only  {pins_only:8.1f} us/scan  ({pins_only / ops:.2f} us per pin operation)")
    print(f"  scan       {scan:8.1f} us/scan  -> at most {1e6 / scan:,.0f} scans/s on this host")
    print(f"  wired mock {wired:8.1f} us/scan")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
