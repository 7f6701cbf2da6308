"""How many tests fail when each runs alone: one pytest process per test.

    python bench/alone.py [paths ...] [--root DIR] [--jobs 1] [--timeout 300]

The paths default to every touchscreen and handheld test file (tests/ui/test_touch_*.py,
tests/ui/test_handheld_*.py). Each test id pytest collects there is run in a fresh
`python -m pytest <id>` (random order off, no cache), so a test that only passes after another
test left its state behind shows up here. Prints, per file, how many of its tests fail alone,
then the failing ids and the total. `--root` runs the tests of another checkout of the tree
(e.g. `git archive` of an older commit): its code is imported first. Figures only, never a test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT = ("tests/ui/test_touch_*.py", "tests/ui/test_handheld_*.py")


def _environment(root: Path) -> dict[str, str]:
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(root), env.get("PYTHONPATH"))))
    return env


def collect(root: Path, paths: list[str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *paths],
        cwd=root,
        env=_environment(root),
        capture_output=True,
        text=True,
        check=False,
    )
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    if not ids:
        sys.exit(f"nothing collected in {root}:\n{done.stdout}\n{done.stderr}")
    return ids


def run_alone(root: Path, test: str, timeout: float) -> tuple[str, bool, float]:
    began = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", test],
            cwd=root,
            env=_environment(root),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        passed = done.returncode == 0
    except subprocess.TimeoutExpired:
        passed = False
    took = time.monotonic() - began
    print(f"{'ok  ' if passed else 'FAIL'} {took:6.1f} s  {test}", file=sys.stderr, flush=True)
    return test, passed, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="test files or ids (default: touch and handheld files)")
    parser.add_argument("--root", type=Path, default=REPO, help="the checkout whose tests run")
    parser.add_argument("--jobs", type=int, default=1, help="processes at once")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per test")
    args = parser.parse_args()
    root = args.root.resolve()
    paths = args.paths or sorted(str(p.relative_to(root)) for g in DEFAULT for p in root.glob(g))
    tests = collect(root, paths)
    print(f"{len(tests)} tests in {len(paths)} paths under {root}, one process each", flush=True)
    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda t: run_alone(root, t, args.timeout), tests))
    files = Counter(test.split("::")[0] for test in tests)
    failing = Counter(test.split("::")[0] for test, passed, _ in results if not passed)
    print(f"\n{'file':52} failing alone / tests")
    for name in sorted(files):
        print(f"{name:52} {failing[name]:3} / {files[name]}")
    print("\nfailing alone:")
    for test, passed, took in results:
        if not passed:
            print(f"  {test}  ({took:.1f} s)")
    total = sum(failing.values())
    print(f"\n{total} of {len(tests)} tests fail alone ({time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
