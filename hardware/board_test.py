"""`dartship board-test`: print every event of the board input as one JSON object per line.

A serial board with `--dialect auto` (the default) says what it found as an `info` line
("board speaks x at 9600 baud"); `--input autodarts --url http://HOST:3180` shows what the
camera scorer registers (darts, corrections as `correct`, the takeout as the `next` button).

PROTOCOLS.md section 2. The owner runs it while throwing at the board to see what registers;
scripts read its output. Every line is flushed at once.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from typing import Any, TextIO

from hardware.factory import build_board_input, build_simulator
from kiosk import config as config_module
from kiosk.config import InputKind
from kiosk.i18n import _
from kiosk.inputs import Connected, Disconnected, Info
from kiosk.ports import BoardInput


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="dartship board-test", description=_("print what the board input registers, as JSON lines")
    )
    p.add_argument("--config", help=_("config file (default: the kiosk's)"))
    p.add_argument(
        "--input",
        choices=("serial", "matrix", "simulator", "autodarts"),
        help=_("where darts come from (default: board.input)"),
    )
    p.add_argument("--port", help=_("serial port or pyserial URL (default: board.port)"))
    p.add_argument(
        "--dialect",
        help=_("serial dialect, or auto to tell it from the board's first lines (default: board.dialect)"),
    )
    p.add_argument(
        "--baud", type=int, help=_("serial speed; 0 tells it from the board (default: board.baud)")
    )
    p.add_argument(
        "--url", help=_("the Autodarts Board Manager, http://HOST:3180 (default: board.autodarts)")
    )
    p.add_argument("--map", help=_("board map file (default: board.map)"))
    p.add_argument(
        "--count",
        type=int,
        help=_(
            "stop after this many registered events: darts, misses, buttons, "
            "unreadable lines (news of the connection does not count)"
        ),
    )
    p.add_argument("--seconds", type=float, help=_("stop after this many seconds"))
    p.add_argument(
        "--interval", type=float, default=1.0, help=_("simulator: seconds between virtual darts (default 1)")
    )
    p.add_argument("--seed", type=int, help=_("simulator: random seed"))
    return p


# What the board says about itself, not what it registered: --count leaves these out, so that
# `--count 3` means three throws, not a "connected" and two throws.
NEWS = (Connected, Disconnected, Info)


class JsonLines:
    """The sink: one JSON object per event, flushed; counts registered events for --count."""

    def __init__(self, out: TextIO, count: int | None = None) -> None:
        self.out = out
        self.count = count
        self.seen = 0
        self.enough = threading.Event()
        self._lock = threading.Lock()

    def __call__(self, event: Any) -> None:
        line = json.dumps(event.to_json(), ensure_ascii=False)
        with self._lock:
            if self.enough.is_set():
                return
            self.out.write(line + "\n")
            self.out.flush()
            if isinstance(event, NEWS):
                return
            self.seen += 1
            if self.count is not None and self.seen >= self.count:
                self.enough.set()


def run(argv: list[str], out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    args = parser().parse_args(argv)
    serial_only = [
        flag
        for flag, value in (("--port", args.port), ("--dialect", args.dialect), ("--baud", args.baud))
        if value is not None
    ]
    if serial_only and args.input in ("matrix", "simulator", "autodarts"):
        print(
            _("{flags} is for a serial board: use --input serial (or leave --input out)").format(
                flags=" and ".join(serial_only)
            ),
            file=err,
        )
        return 2
    if args.url is not None and args.input not in (None, "autodarts"):
        print(_("--url is for an Autodarts board: use --input autodarts (or leave --input out)"), file=err)
        return 2
    if serial_only and args.input is None:
        # A serial port named means a serial board, whatever board.input says.
        args.input = "serial"
    if args.url is not None:
        args.input = "autodarts"
    try:
        settings = config_module.load_with(
            args.config,
            {
                key: value
                for key, value in (
                    ("board.input", args.input),
                    ("board.port", args.port),
                    ("board.dialect", args.dialect),
                    ("board.baud", args.baud),
                    ("board.autodarts", args.url),
                    ("board.map", args.map),
                )
                if value is not None
            },
        )
    except config_module.ConfigError as error:
        for problem in error.problems:
            print(problem, file=err)
        return 2
    sink = JsonLines(out, args.count)
    device: BoardInput
    if settings.board.input is InputKind.SIMULATOR:
        device = build_simulator(settings, sink, interval=args.interval, seed=args.seed)
    else:
        device = build_board_input(settings, sink)
    device.start()
    try:
        sink.enough.wait(args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        device.stop()
    return 0
