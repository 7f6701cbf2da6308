"""`dartship screenshots DIR`: every screen in a representative state, headless, at 800x480
(DIR/<screen>.png) and 1920x1080 (DIR/<screen>@1080.png).

Kivy makes one window per process and SDL's offscreen window cannot be resized, so each size
renders in a child process of its own (`--render WxH`).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path

from kiosk.i18n import _

SIZES = {"800x480": "", "1920x1080": "@1080"}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dartship screenshots",
                                     description=_("render every kiosk screen to DIR/<screen>.png"))
    parser.add_argument("dir", help=_("folder for the pictures"))
    parser.add_argument("--size", choices=tuple(SIZES), action="append",
                        help=_("only this size (default: all)"))
    parser.add_argument("--language", default="en", help=_("language of the screens"))
    parser.add_argument("--render", help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    if args.render:
        return render(out, args.render, args.language)
    failed = 0
    for size in args.size or SIZES:
        done = subprocess.run([sys.executable, "-m", "kiosk.app.screenshots", str(out), "--render",
                               size, "--language", args.language], check=False)
        failed += done.returncode != 0
    if not failed:
        print(_("screenshots written to {dir}").format(dir=out))
    return 1 if failed else 0


def render(out: Path, size: str, language: str) -> int:
    width, height = (int(n) for n in size.split("x"))
    suffix = SIZES.get(size, f"@{size}")
    with tempfile.TemporaryDirectory(prefix="dartship-shots-") as tmp:
        from kiosk.app.root import build_offline
        from ui.touch.tour import Tour

        kiosk, loop = build_offline(Path(tmp), language=language)
        tour = Tour.start(kiosk, loop, (width, height))
        try:
            for name in tour.run_all(out, suffix):
                print(out / f"{name}{suffix}.png", flush=True)
        except Exception:
            # Kivy's logger takes over stderr when console logging is off: say it plainly.
            traceback.print_exc(file=sys.__stderr__)
            return 1
        finally:
            tour.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
