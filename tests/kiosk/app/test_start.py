"""How a kiosk starts: a taken port is a clear message before anything is resumed, a headless
kiosk never waits for ever for Next, --teams and --players."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk import config
from kiosk.app.root import StartError, build_kiosk
from kiosk.app.run import _teams
from kiosk.darts.room import HEADLESS_TAKEOUT_SECONDS, takeout_seconds
from tests.headless_kiosk import kiosk_run

ROOT = Path(__file__).resolve().parents[3]


def _config(text: str, tmp_path: Path, **overrides: object) -> config.ConfigFile:
    path = tmp_path / "config.toml"
    path.write_text(text)
    typed, problems = config.check_values(overrides)
    assert not problems
    return config.read(path, overrides=typed)


def test_a_headless_kiosk_moves_on_after_takeout_unless_the_owner_said_otherwise(tmp_path):
    unset = _config("", tmp_path)
    assert takeout_seconds(unset, headless=True) == HEADLESS_TAKEOUT_SECONDS
    assert takeout_seconds(unset, headless=False) == 0  # the touchscreen has its Next
    said_zero = _config("[rules]\ntakeout_seconds = 0\n", tmp_path)
    assert takeout_seconds(said_zero, headless=True) == 0  # written, even as the default
    said_ten = _config("[rules]\ntakeout_seconds = 10\n", tmp_path)
    assert takeout_seconds(said_ten, headless=True) == 10


def test_a_taken_port_is_a_message_and_nothing_is_resumed(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        owner = _config(
            f'[web]\nhost = "127.0.0.1"\nport = {port}\n',
            tmp_path,
            **{"kiosk.database": str(tmp_path / "k.db")},
        )

        async def start() -> None:
            await build_kiosk(owner, devices=False)

        with pytest.raises(StartError) as refused:
            asyncio.run(start())
    message = str(refused.value)
    assert str(port) in message and "another kiosk" in message and "--port" in message


def test_dartship_run_says_so_without_a_traceback(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        (tmp_path / "c.toml").write_text(f'[web]\nhost = "127.0.0.1"\nport = {port}\n')
        done = subprocess.run(
            kiosk_run(tmp_path / "c.toml", "--db", str(tmp_path / "k.db")),
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
            check=False,
        )
    assert done.returncode == 2
    assert "another kiosk" in done.stderr and "Traceback" not in done.stderr + done.stdout
    assert "resumed" not in done.stdout


def test_headless_teams_and_players():
    sharks, jets = _teams("Sharks, Jets", "Anna, Ben; Cleo")
    assert (sharks.name, sharks.players, jets.players) == ("Sharks", ("Anna", "Ben"), ("Cleo",))
    sharks, jets = _teams("Sharks,Jets", "")
    assert sharks.players == ("Sharks",) and jets.players == ("Jets",)
    bad = (("Sharks", ""), ("A,A", ""), ("Jets,jets", ""), ("A,B", "x"), ("A,B", "x;"), ("A,B", "x,x;y"))
    for names, players in bad:
        with pytest.raises(SystemExit):
            _teams(names, players)


def test_a_kiosk_with_no_screen_says_so(tmp_path):
    from kiosk.app.run import screen_found

    (tmp_path / "dri").mkdir()
    assert not screen_found({}, tmp_path)
    assert screen_found({"DISPLAY": ":0"}, tmp_path)
    assert screen_found({"WAYLAND_DISPLAY": "wayland-0"}, tmp_path)
    (tmp_path / "dri" / "card1").touch()
    assert screen_found({}, tmp_path)


LEAGUE_IMPORTS = """
import asyncio, random, sys
from pathlib import Path

from kiosk.app.root import build_kiosk
from kiosk.config import ConfigFile


async def main(folder: Path, league: dict) -> None:
    config = ConfigFile(folder / "config.toml", {"kiosk.database": str(folder / "d.db"), **league})
    kiosk = await build_kiosk(config, devices=False, web=False, rng=random.Random(1), instant=True)
    print("aiohttp" in sys.modules, kiosk.league is not None)
    await kiosk.stop()


asyncio.run(main(Path(sys.argv[1]), {"league.hub": sys.argv[2]} if len(sys.argv) > 2 else {}))
"""


def test_a_kiosk_in_no_league_never_imports_the_league_s_http_client(tmp_path):
    def imports(*league: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", LEAGUE_IMPORTS, str(tmp_path), *league],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split("\n")[0]

    assert imports() == "False True"  # Settings -> League still has its desk
    # With a hub named but never joined, nothing is sent either: still not imported.
    assert imports("http://127.0.0.1:9") == "False True"
