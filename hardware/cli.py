"""The `dartship board-test | fake-board | learn` commands (kiosk/cli.py dispatches here).

Each function parses its own argv and returns the exit status. Also runnable as
`python -m hardware.cli board-test --input simulator`.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import random
import sys
import threading
from pathlib import Path

from hardware import boardmap
from hardware.dialects import DIALECTS
from kiosk import config as config_module
from kiosk.board import Profile
from kiosk.i18n import _, set_language
from kiosk.ports import BoardInput, Sink


def board_test_main(args: list[str]) -> int:
    from hardware import board_test

    return board_test.run(list(args))


def fake_board_main(args: list[str]) -> int:
    from hardware.fake_board import FakeBoard, read_script

    p = argparse.ArgumentParser(
        prog="dartship fake-board", description=_("a simulated serial board on a pty or a TCP port")
    )
    p.add_argument(
        "--dialect",
        default="dartship",
        choices=sorted(DIALECTS),
        help=_("the serial dialect it speaks, as board.dialect (default dartship)"),
    )
    p.add_argument(
        "--tcp",
        type=int,
        metavar="PORT",
        help=_("listen on this TCP port (0 = any) instead of opening a pty"),
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=_("with --tcp: the address to listen on (default 127.0.0.1; 0.0.0.0 for other machines)"),
    )
    p.add_argument(
        "--profile",
        default="four-ring",
        choices=[pr.value for pr in Profile],
        help=_("the cells it reports, as board.profile (default four-ring)"),
    )
    p.add_argument("--map", help=_("board map for raw dialects (default: a made-up complete one)"))
    p.add_argument("--script", help=_("file of '<seconds> <command>' lines to replay"))
    p.add_argument("--throw", metavar="CELL", help=_("throw at CELL (or 'random') with the scatter model"))
    p.add_argument("--count", type=int, default=10, help=_("darts to throw (default 10)"))
    p.add_argument("--interval", type=float, default=1.0, help=_("seconds between thrown darts"))
    p.add_argument("--skill", default="pub", help=_("pro, pub, casual, novice or mm of scatter"))
    p.add_argument("--seed", type=int)
    p.add_argument(
        "--wait",
        type=float,
        default=0.0,
        help=_("seconds to wait before the script or throws (time to connect)"),
    )
    p.add_argument(
        "--baud",
        type=int,
        help=_(
            "pty: the speed the board runs at; read at another speed its lines "
            "arrive garbled, as on a real line"
        ),
    )
    p.add_argument(
        "--handshake", action="store_true", help=_("silent until the kiosk writes <s,9> (as dascr-machine)")
    )
    p.add_argument(
        "--stay", action="store_true", help=_("keep the port open after the script or throws, until Ctrl+C")
    )
    a = p.parse_args(list(args))
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    board_map = None
    if a.map:
        try:
            board_map = boardmap.load(a.map)
        except boardmap.BoardMapError as err:
            print("\n".join(err.problems), file=sys.stderr)
            return 2
    skill: str | float = a.skill
    with contextlib.suppress(ValueError):
        skill = float(a.skill)
    try:
        fake = FakeBoard(
            a.dialect,
            profile=Profile(a.profile),
            board_map=board_map,
            skill=skill,
            rng=random.Random(a.seed),
            baud=a.baud,
            handshake=a.handshake,
        )
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2
    where = fake.listen_tcp(a.host, a.tcp) if a.tcp is not None else fake.open_pty()
    print(where, flush=True)
    if a.tcp is None:
        fake.send_hello()
    stop = threading.Event()
    try:
        if stop.wait(a.wait):
            return 0
        if a.script:
            try:
                text = Path(a.script).read_text(encoding="utf-8")
            except OSError as err:
                print(err, file=sys.stderr)
                return 2
            steps, problems = read_script(text.splitlines(), a.script)
            for problem in problems:
                print(problem, file=sys.stderr)
            for sent in fake.play(steps):
                print(sent if sent is not None else "", flush=True)
        elif a.throw:
            command = "throw" if a.throw.lower() == "random" else f"throw {a.throw}"
            for _n in range(a.count):
                print(fake.do(command), flush=True)
                if stop.wait(a.interval):
                    break
        else:
            print(
                _("type cells (T20, DB, miss, btn next, throw T20, raw TEXT); Ctrl+D ends"),
                file=sys.stderr,
                flush=True,
            )
            for line in sys.stdin:
                if line.strip():
                    print(fake.do(line.strip()), flush=True)
            return 0
        if a.stay:
            stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        fake.close()
    return 0


def learn_main(args: list[str]) -> int:
    from hardware.factory import build_board_input
    from hardware.learn import LearnWizard, run_terminal

    p = argparse.ArgumentParser(
        prog="dartship learn", description=_("make a board map: hit every cell in turn")
    )
    p.add_argument("--config")
    p.add_argument("--input", choices=("serial", "matrix"))
    p.add_argument("--port")
    p.add_argument("--dialect", choices=sorted(DIALECTS))
    p.add_argument("--profile", choices=[pr.value for pr in Profile])
    p.add_argument(
        "--map", help=_("where to write the map (default: board.map); an existing map is the starting point")
    )
    a = p.parse_args(list(args))
    try:
        configured = config_module.load(a.config)
        changes = {
            k: v
            for k, v in (
                ("board.input", a.input),
                ("board.port", a.port),
                ("board.dialect", a.dialect),
                ("board.profile", a.profile),
            )
            if v is not None
        }
        # the wizard reads raw contacts: the board input runs without any map
        changes["board.map"] = ""
        cfg = config_module.load_with(a.config, changes)
    except config_module.ConfigError as err:
        print("\n".join(err.problems), file=sys.stderr)
        return 2
    set_language(cfg.kiosk.language)  # the wizard talks to the owner in the kiosk's language
    target = a.map or configured.board.map
    if not target:
        print(_("say where the map goes: --map FILE (or set board.map)"), file=sys.stderr)
        return 2
    dialect_name = cfg.board.dialect.value
    if (
        cfg.board.input is config_module.InputKind.SERIAL
        and not DIALECTS[dialect_name].needs_map
        and dialect_name != "dartship"
    ):
        print(
            _("dialect {name} names its cells: it needs no board map").format(name=dialect_name),
            file=sys.stderr,
        )
        return 2
    start = None
    if Path(target).exists():
        try:
            start = boardmap.load(target)
        except boardmap.BoardMapError as err:
            print("\n".join(err.problems), file=sys.stderr)
            return 2
    wizard = LearnWizard(cfg.board.profile, start)

    def start_input(sink: Sink) -> BoardInput:
        device = build_board_input(cfg, sink)
        device.start()
        return device

    try:
        learned = run_terminal(wizard, start_input, sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        learned = wizard.board_map()
    boardmap.save(learned, target)
    print(_("map written to {path} ({count} contacts)").format(path=target, count=len(learned.contacts)))
    for problem in learned.check():
        print(problem)
    return 0


COMMANDS = {"board-test": board_test_main, "fake-board": fake_board_main, "learn": learn_main}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        print(_("usage: python -m hardware.cli board-test|fake-board|learn [options]"), file=sys.stderr)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
