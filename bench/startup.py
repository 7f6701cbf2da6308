"""What starting the kiosk costs: time to the first frame, memory, idle CPU, and the referee.

Runs the real command lines, as a bar would:

* `dartship run --simulator` in a real window (Xvfb; SDL's offscreen driver where there is no
  Xvfb): the time from exec to the first frame drawn (the kiosk sends systemd's READY=1 after
  its first frame; this script is that systemd), the RSS right then (also without Mesa's
  software OpenGL, which a machine without a GPU loads and the Pi does not), and the CPU used
  over `--idle` seconds on the home screen;
* the RSS after a whole game: the same kiosk on a game whose fleets were placed through
  `dartship referee --db`, with every dart of the game coming from `dartship fake-board` over TCP
  (the board's serial path, the screen drawing every announcement) until the result card;
* `dartship referee`, `dartship classic` and `dartship express`: the time from exec to each
  one's first answer.

    python bench/startup.py [--runs 3] [--idle 30] [--quick]

Each time comes with the CPU seconds the process had used by then (user + system), which a
shared machine's load moves far less than the wall clock. `--quick`: only the times (first
frame, first answers), no whole game and no idle CPU. Prints
the median of `--runs` runs for each figure (and every run), with the machine's load average
before and after (the figures move with it: this machine is shared).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hub.cluster import tied  # noqa: E402
from kiosk.board import board_for  # noqa: E402
from kiosk.darts.fleet import DEFAULT_FLEET, random_fleet  # noqa: E402
from tests.xvfb import xvfb_display  # noqa: E402  (the real-window probes' own, tied)

DARTSHIP = [sys.executable, "-m", "kiosk.app.cli"]
TICKS = os.sysconf("SC_CLK_TCK")


def env_for(display: dict[str, str], notify: str | None = None) -> dict[str, str]:
    env = {
        **os.environ,
        **display,
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",
        "KIVY_NO_CONSOLELOG": "1",
    }
    env.pop("NOTIFY_SOCKET", None)
    if notify:
        env["NOTIFY_SOCKET"] = notify
    return env


@contextlib.contextmanager
def a_display() -> Iterator[dict[str, str]]:
    """A real X display: the one there is, else an Xvfb of the bench's own (`tests.xvfb`: tied
    to this script, so a bench killed midway, by SIGKILL too, leaves no Xvfb running), else
    SDL's offscreen driver where there is no Xvfb."""
    if os.environ.get("DISPLAY"):
        yield {}
        return
    if shutil.which("Xvfb") is None:
        yield {"SDL_VIDEODRIVER": "offscreen", "KIVY_WINDOW": "sdl2"}
        return
    with (
        tempfile.TemporaryDirectory(prefix="dartship-startup-x-") as folder,
        xvfb_display(Path(folder), "1280x800x24") as display,
    ):
        yield display


# Mesa's software OpenGL (llvmpipe) on a machine without a GPU: the Pi's V3D driver loads none
# of it, so the kiosk's own memory is also given without these mappings.
SOFTWARE_GL = ("libLLVM", "swrast_dri", "kms_swrast_dri", "libgallium")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def software_gl_mb(pid: int) -> float:
    """RSS of the software renderer's libraries (see SOFTWARE_GL) in the process."""
    total, counting = 0, False
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        fields = line.split()
        if "-" in fields[0] and len(fields) >= 5:  # a mapping's header line
            counting = len(fields) >= 6 and any(name in fields[5] for name in SOFTWARE_GL)
        elif counting and fields[0] == "Rss:":
            total += int(fields[1])
    return total / 1024


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


class Kiosk:
    """`dartship run` with this script as its systemd (NOTIFY_SOCKET)."""

    def __init__(self, folder: Path, display: dict[str, str], args: list[str]) -> None:
        self.sock_path = folder / f"notify-{time.monotonic_ns()}"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.sock_path))
        self.log = open(folder / "kiosk.log", "a")  # noqa: SIM115 (closed in stop)
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            tied([*DARTSHIP, "run", *args]),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=env_for(display, str(self.sock_path)),
        )

    def wait_ready(self, timeout: float = 120.0) -> float:
        """Seconds from exec to READY=1 (sent after the first frame is drawn)."""
        self.sock.settimeout(timeout)
        while True:
            message = self.sock.recv(4096).decode()
            if "READY=1" in message.split("\n"):
                return time.perf_counter() - self.started

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.sock.close()
        self.log.close()


def listening_url(proc: subprocess.Popen[str]) -> str:
    """The `socket://` URL a `dartship fake-board --tcp 0` listens on (the system picked the
    port as it bound it); the rest of its output is drained in a thread."""
    assert proc.stdout is not None
    for line in proc.stdout:
        found = re.search(r"socket://\S+", line)
        if found:
            threading.Thread(target=proc.stdout.read, daemon=True).start()
            return found.group(0)
    raise RuntimeError("the fake board did not start")


def first_frame(folder: Path, display: dict[str, str], idle: float) -> dict[str, float]:
    """Exec to the first frame, the RSS then, and (with `idle` > 0) the idle CPU after."""
    config = folder / "config.toml"
    config.write_text('[web]\nhost = "127.0.0.1"\nport = 0\n[display]\nwidth = 800\nheight = 480\n')
    kiosk = Kiosk(folder, display, ["--simulator", "--config", str(config), "--db", str(folder / "first.db")])
    try:
        ready = kiosk.wait_ready()
        cpu_ready = cpu_seconds(kiosk.proc.pid)
        rss, gl = rss_mb(kiosk.proc.pid), software_gl_mb(kiosk.proc.pid)
        if idle <= 0:
            return {"first_frame_s": ready, "first_frame_cpu_s": cpu_ready, "rss_first_frame_mb": rss}
        time.sleep(2.0)  # the start's own work is over: measure the screen at rest
        before, t0 = cpu_seconds(kiosk.proc.pid), time.monotonic()
        time.sleep(idle)
        cpu = (cpu_seconds(kiosk.proc.pid) - before) / (time.monotonic() - t0) * 100
        return {
            "first_frame_s": ready,
            "first_frame_cpu_s": cpu_ready,
            "rss_first_frame_mb": rss,
            "rss_first_frame_without_software_gl_mb": rss - gl,
            "idle_cpu_pct": cpu,
        }
    finally:
        kiosk.stop()


def referee(lines: list[dict], db: Path | None = None, command: str = "referee") -> tuple[float, list[dict]]:
    """Run `dartship referee` (or another line protocol: `classic`, `express`) on these
    commands: seconds to the first answer, all answers."""
    first, _cpu, answers = line_protocol(lines, db, command)
    return first, answers


def line_protocol(lines: list[dict], db: Path | None, command: str) -> tuple[float, float, list[dict]]:
    """Seconds to the first answer, the CPU seconds the process had used by then (user + system:
    on a shared machine the steadier figure), and all answers."""
    args = [*DARTSHIP, command, *(["--db", str(db)] if db else [])]
    started = time.perf_counter()
    proc = subprocess.Popen(
        tied(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env_for({})
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(lines[0]) + "\n")
    proc.stdin.flush()
    answers = [json.loads(proc.stdout.readline())]
    first = time.perf_counter() - started
    cpu = cpu_seconds(proc.pid)
    for line in lines[1:]:
        proc.stdin.write(json.dumps(line) + "\n")
    proc.stdin.close()
    answers += [json.loads(text) for text in proc.stdout if text.strip()]
    proc.wait(timeout=30)
    return first, cpu, answers


def whole_game(folder: Path, display: dict[str, str], seed: int) -> dict[str, float]:
    """RSS after a whole game played by the fake board through the screen."""
    rng = random.Random(seed)
    board = board_for("four-ring")
    fleets = [random_fleet(board, DEFAULT_FLEET, rng) for _ in (0, 1)]
    db = folder / "game.db"
    _first, answers = referee(
        [
            {"cmd": "new", "teams": ["Sharks", "Jets"]},
            {"cmd": "place", "team": 0, "fleet": fleets[0].code},
            {"cmd": "place", "team": 1, "fleet": fleets[1].code},
            {"cmd": "start", "first": 0},
        ],
        db,
    )
    assert all(a["event"] != "error" for a in answers), answers
    # Sharks hit one enemy cell and miss twice a visit; Jets miss: Sharks win after 14 visits.
    script = ["0.5 hello"]
    targets = [c.code for ship in fleets[1].ships for c in ship.cells]
    for cell in targets:
        script += [
            f"0.15 {cell}",
            "0.15 miss",
            "0.15 miss",
            "0.3 btn next",
            "0.15 miss",
            "0.15 miss",
            "0.15 miss",
            "0.3 btn next",
        ]
    (folder / "script.txt").write_text("\n".join(script) + "\n")
    board_proc = subprocess.Popen(
        tied(
            [
                *DARTSHIP,
                "fake-board",
                "--tcp",
                "0",
                "--host",
                "127.0.0.1",
                "--script",
                str(folder / "script.txt"),
                "--wait",
                "3",
                "--stay",
            ]
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env_for({}),
    )
    board_url = listening_url(board_proc)
    config = folder / "game.toml"
    config.write_text(
        f'[board]\ninput = "serial"\nport = "{board_url}"\n'
        '[web]\nhost = "127.0.0.1"\nport = 0\n'
        "[display]\nwidth = 800\nheight = 480\n"
    )
    time.sleep(0.5)
    kiosk = Kiosk(folder, display, ["--config", str(config), "--db", str(db)])
    try:
        kiosk.wait_ready()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not _won(db):
            time.sleep(0.5)
        if not _won(db):
            raise RuntimeError(f"the game did not end; see {folder / 'kiosk.log'}")
        time.sleep(4.0)  # the result card replaces the game screen after its delay
        rss, gl = rss_mb(kiosk.proc.pid), software_gl_mb(kiosk.proc.pid)
        return {"rss_after_game_mb": rss, "rss_after_game_without_software_gl_mb": rss - gl}
    finally:
        kiosk.stop()
        board_proc.terminate()
        board_proc.wait(timeout=10)


def _won(db: Path) -> bool:
    import sqlite3

    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        row = conn.execute("SELECT COUNT(*) FROM games WHERE status='over'").fetchone()
    return bool(row[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idle CPU measure")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="only the times: no whole game, no idle CPU")
    args = parser.parse_args()
    runs: list[dict[str, float]] = []
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    with a_display() as display:
        for run in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="dartship-startup-") as tmp:
                folder = Path(tmp)
                figures = first_frame(folder, display, 0 if args.quick else args.idle)
                if not args.quick:
                    figures.update(whole_game(folder, display, args.seed + run))
                for command in ("referee", "classic", "express"):
                    first, cpu, _answers = line_protocol([{"cmd": "state"}], None, command)
                    figures[f"{command}_first_answer_s"] = first
                    figures[f"{command}_first_answer_cpu_s"] = cpu
                runs.append(figures)
                print(f"run {run + 1}: " + ", ".join(f"{k} {v:.3f}" for k, v in figures.items()), flush=True)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    goals = {
        "first_frame_s": 1.5,
        "first_frame_cpu_s": 1.5,
        "rss_first_frame_mb": 150,
        "rss_first_frame_without_software_gl_mb": 150,
        "rss_after_game_mb": 150,
        "rss_after_game_without_software_gl_mb": 150,
        "idle_cpu_pct": 2.0,
        "referee_first_answer_s": 0.3,
        "classic_first_answer_s": 0.3,
        "express_first_answer_s": 0.3,
        "referee_first_answer_cpu_s": 0.3,
        "classic_first_answer_cpu_s": 0.3,
        "express_first_answer_cpu_s": 0.3,
    }
    print(f"\nmedian of {len(runs)} runs ({'Xvfb' if 'DISPLAY' in display else 'SDL offscreen'})")
    for key, goal in goals.items():
        if key not in runs[0]:
            continue
        value = statistics.median(r[key] for r in runs)
        print(f"  {key:<40} {value:8.3f}   goal <= {goal}   {'ok' if value <= goal else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
