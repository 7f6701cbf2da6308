"""`dartship screenshots DIR`: every screen in a representative state, headless, at 800x480
(DIR/<screen>.png) and 1920x1080 (DIR/<screen>@1080.png).

The pictures are made the way the kiosk really runs: the kiosk comes from the composition root,
the window is sized by display.width/height as `dartship run` sizes it, and each board screen is
photographed the first time it appears (a board that draws wrong before its first change shows).
`game_resumed` goes further: a kiosk started on a stored game in play, the app running its own
loop (`App.async_run`) exactly as `dartship run` does, photographed once it has drawn;
`express_resumed` the same for a Battleship Express game stopped while a Carrier's roll waits
for its target (the same dice come back).

Kivy makes one window per process and SDL's offscreen window cannot be resized, so each size
(and the resumed kiosk) renders in a child process of its own (`--render WxH [--resumed]`).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.config import ConfigFile, check_values
from kiosk.darts.match import house_rules
from kiosk.i18n import _

if TYPE_CHECKING:
    from kiosk.app.tour.driver import Tour
    from kiosk.darts.fleet import Fleet
    from kiosk.service import GameService
    from kiosk.store import Store

SIZES = {"800x480": "", "1280x720": "@720", "1920x1080": "@1080"}
DEFAULT_SIZES = ("800x480", "1920x1080")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dartship screenshots", description=_("render every kiosk screen to DIR/<screen>.png")
    )
    parser.add_argument("dir", help=_("folder for the pictures"))
    parser.add_argument(
        "--size",
        choices=tuple(SIZES),
        action="append",
        help=_("only this size (default: 800x480 and 1920x1080)"),
    )
    parser.add_argument("--language", default="en", help=_("language of the screens"))
    parser.add_argument(
        "--check",
        action="store_true",
        help=_(
            "also check that every text fits (no word broken, nothing cut) and that a toast "
            "covers no button; exit 1 if not"
        ),
    )
    parser.add_argument("--render", help=argparse.SUPPRESS)
    parser.add_argument("--resumed", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--resumed-express", action="store_true", help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    if args.render:
        if args.resumed:
            return render_resumed(out, args.render, args.language, check=args.check)
        if args.resumed_express:
            return render_resumed(out, args.render, args.language, express=True, check=args.check)
        return render(out, args.render, args.language, check=args.check)
    failed = 0
    for size in args.size or DEFAULT_SIZES:
        for extra in ([], ["--resumed"], ["--resumed-express"]):
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "kiosk.app.screenshots",
                    str(out),
                    "--render",
                    size,
                    "--language",
                    args.language,
                    *(["--check"] if args.check else []),
                    *extra,
                ],
                check=False,
            )
            failed += done.returncode != 0
    if not failed:
        print(_("screenshots written to {dir}").format(dir=out))
    return 1 if failed else 0


def _size(size: str) -> tuple[int, int, str]:
    width, height = (int(n) for n in size.split("x"))
    return width, height, SIZES.get(size, f"@{size}")


def told_faults(screen: str) -> int:
    """Say every text on the window that does not fit (`--check`); how many there were."""
    from ui.touch.fitting import faults

    found = faults()
    for fault in found:
        print(_("does not fit on {screen}: {fault}").format(screen=screen, fault=fault), flush=True)
    return len(found)


def told_covered(tour: Tour, screen: str) -> int:
    """Show the longest notice a board sends (a garbled line) on this screen and say every
    button it lies over (`--check`; `ui.touch.toast`); 1 if it lies over any, else 0."""
    from ui.touch.fingers import frames
    from ui.touch.toast import covered

    tour.garbled_line()
    frames(2)  # placed among the controls as they are drawn
    found = covered(tour.app.toast_panel)
    tour.app._hide_toast()
    if found:
        print(
            _("a toast covers buttons on {screen}: {buttons}").format(
                screen=screen, buttons=", ".join(found)
            ),
            flush=True,
        )
    return 1 if found else 0


def render(out: Path, size: str, language: str, check: bool = False) -> int:
    width, height, suffix = _size(size)
    with tempfile.TemporaryDirectory(prefix="dartship-shots-") as tmp:
        from kiosk.app.root import build_offline
        from kiosk.app.tour.driver import Tour
        from kiosk.app.tour.walk import run_all

        kiosk, loop = build_offline(Path(tmp), language=language, size=(width, height))
        tour = Tour.start(kiosk, loop)
        unfit = 0
        try:
            for name in run_all(tour, out, suffix):
                print(out / f"{name}{suffix}.png", flush=True)
                unfit += told_faults(name) + told_covered(tour, name) if check else 0
        except Exception:
            # Kivy's logger takes over stderr when console logging is off: say it plainly.
            traceback.print_exc(file=sys.__stderr__)
            return 1
        finally:
            tour.close()
    return 1 if unfit else 0


def render_resumed(out: Path, size: str, language: str, express: bool = False, check: bool = False) -> int:
    """The kiosk started on a game in play (after a power cut, say), as `dartship run` starts it."""
    width, height, suffix = _size(size)
    with tempfile.TemporaryDirectory(prefix="dartship-shots-") as tmp:
        db = Path(tmp) / "dartship.db"
        if express:
            express_in_play(db, "carrier")
        else:
            _game_in_play(db)
        typed, problems = check_values(
            {
                "board.input": "simulator",
                "kiosk.language": language,
                "kiosk.database": str(db),
                "display.width": width,
                "display.height": height,
                "web.enabled": False,
            }
        )
        assert not problems, problems
        path = out / f"{'express' if express else 'game'}_resumed{suffix}.png"
        try:
            unfit = asyncio.run(_photograph_live(ConfigFile(None, typed), path, check))
        except Exception:
            traceback.print_exc(file=sys.__stderr__)
            return 1
        print(path, flush=True)
    return 1 if unfit else 0


def started_dart_game(store: Store, seed: int) -> tuple[GameService, list[Fleet]]:
    """A dart game on `store`: the Sharks (Anna, Ben) against the Jets (Cleo), both fleets placed
    at random (`seed`), the bull-off settled for the Sharks, who throw first."""
    from kiosk.config import Settings
    from kiosk.darts.fleet import random_fleet
    from kiosk.darts.kind import DARTS
    from kiosk.darts.match import Place, Setup, Start, Team
    from kiosk.service import GameService

    rules = house_rules(Settings())
    service = GameService(store, follow_ups=False)
    service.new_game(DARTS, Setup((Team("Sharks", ("Anna", "Ben")), Team("Jets", ("Cleo",))), rules))
    rng = random.Random(seed)
    fleets = [random_fleet(rules.board, rules.fleet, rng) for _team in (0, 1)]
    for team, fleet in enumerate(fleets):
        service.submit(Place(team, fleet))
    service.submit(Start(0))
    return service, fleets


def _game_in_play(db: Path) -> None:
    """A stored game some darts in, left as a power cut leaves it."""
    from kiosk.board import BULL
    from kiosk.config import Settings
    from kiosk.darts.match import Next, Throw
    from kiosk.store import Store

    board = house_rules(Settings()).board
    store = Store(db)
    service, fleets = started_dart_game(store, 11)
    hit = fleets[1].ships[-1].cells[0]
    for command in (Throw(hit), Throw(BULL), Next(), Throw(board.parse("T20")), Next()):
        service.submit(command)
    store.close()


def express_in_play(db: Path, stage: str) -> list[str]:
    """A stored Battleship Express game left as a power cut leaves it: `carrier` (Ann's
    Carrier has rolled, its target not declared) or `rolled` (an attack was stored while its
    dice still rolled on screen: a miss, Bo is up). Returns the faces of that roll as the
    store's shot log keeps them (the tests compare the screen with them)."""
    from kiosk.express.match import Attack, QueueDice, Setup, Target
    from kiosk.express.rules import Face, Ship
    from kiosk.express.wire import EXPRESS
    from kiosk.service import GameService
    from kiosk.store import Store

    b, d, c, s, p = (Ship.BATTLESHIP, Ship.DESTROYER, Ship.CARRIER, Ship.SUBMARINE, Ship.PATROL_BOAT)
    store = Store(db)
    service = GameService(store, follow_ups=False)
    service.new_game(
        EXPRESS,
        Setup.create(
            ["Ann", "Bo", "Kiosk"],
            seed=23,
            lines=[[c, b, d, s, p], [p, d, b, c, s], [b, s, c, p, d]],
            computers=[None, None, "normal"],
        ),
    )
    if stage == "carrier":
        service.submit(Attack(c))  # rolls first; the power cut comes before its target
    else:
        service.submit(QueueDice((Face.SUBMARINE,) * 15))  # Ann's Patrol Boat misses
        service.submit(Attack(p, Target(1, p)))
    row = store.db.execute("SELECT result FROM shots ORDER BY id DESC LIMIT 1").fetchone()
    store.close()
    return str(row[0]).split(",")


async def _photograph_live(config: ConfigFile, path: Path, check: bool = False) -> int:
    from kiosk.app.root import build_kiosk
    from kiosk.i18n import set_language
    from ui.touch.app import make_app
    from ui.touch.fingers import drawn_frames, photograph

    # The language of the config, as `dartship run` sets it before it builds the kiosk: the
    # resumed games were drawn in English whatever --language said.
    set_language(config.settings.kiosk.language)
    kiosk = await build_kiosk(config, rng=random.Random(7), instant=True)
    app = make_app(kiosk, headless=True)
    shown = asyncio.Event()
    kiosk.ready = shown.set  # type: ignore[method-assign]  # told after the first frame
    running = asyncio.get_running_loop().create_task(app.async_run(async_lib="asyncio"))
    try:
        await asyncio.wait_for(shown.wait(), timeout=60)
        app._hide_toast()  # "board connected": the simulator's start, not what is shown here
        await drawn_frames(6)
        photograph(path)
        return told_faults(path.stem) if check else 0
    finally:
        app.stop()
        await running
        await kiosk.stop()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
