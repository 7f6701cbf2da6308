"""Configs that used to stop the kiosk: nesting deeper than the option table takes, a fleet the
board cannot hold (or that takes too long to draw), a board map nested thousands deep, a
web.host that does not resolve or is not this machine's, an unusable kiosk.database. Each is
named by `config check`; `run` falls back to the key's default and says so."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from kiosk import config
from kiosk.board import Profile, board_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("[matrix]\nrows = [5, [6], 7]\n", "matrix.rows[1]"),
        ("[rules]\nfleet = [2, 3, [4, [5]]]\n", "rules.fleet[2]"),
        ("[rules]\nfleet = [{length = 5}]\n", "rules.fleet[0]"),
        ('[kiosk]\npin = [["1234"]]\n', "kiosk.pin"),
        ("[web]\nport = [8080]\n", "web.port"),
    ],
)
def test_arrays_nested_deeper_than_the_key_takes_are_refused_with_the_key_path(text, path):
    with pytest.raises(config.ConfigError) as refused:
        config.parse(text)
    (problem,) = refused.value.issues
    assert problem.key == path and "nested deeper than this setting takes" in problem.message


def test_nesting_as_deep_as_toml_allows_is_refused_briefly_and_run_keeps_the_default():
    depth = 450  # tomllib reads it; repr() or a recursive check would not survive much more
    text = "[matrix]\nrows = " + "[" * depth + "1" + "]" * depth + "\n[rules]\ndarts_per_visit = 2\n"
    owner = config.parse_file(text, strict=False)
    (problem,) = owner.problems
    assert problem.key == "matrix.rows[0]" and len(str(problem)) < 200
    assert owner.settings.matrix.rows == config.Settings().matrix.rows
    assert owner.settings.rules.darts_per_visit == 2


def test_a_long_bad_value_is_shown_shortened():
    text = "[matrix]\nrows = [" + ", ".join(['"x"'] * 5000) + "]\n"
    (problem,) = config.parse_file(text, strict=False).problems
    assert problem.key == "matrix.rows" and len(problem.message) < 200


@pytest.mark.parametrize(
    ("fleet", "profile", "words"),
    [
        (",".join(["5"] * 20), "four-ring", "20 ships need 100 cells; the four-ring board has 81"),
        (",".join(["2"] * 20), "four-ring", "barely fit the four-ring board"),
        (",".join(["5"] * 16), "four-ring", "cannot all be placed"),
        ("5,5,5,5,5,5,5,5,5,5", "three-ring", "barely fit the three-ring board"),
    ],
)
def test_a_fleet_the_board_cannot_hold_or_draw_in_time_is_refused_with_the_reason(fleet, profile, words):
    text = f'[rules]\nfleet = "{fleet}"\n[board]\nprofile = "{profile}"\n'
    with pytest.raises(config.ConfigError) as refused:
        config.parse(text)
    (problem,) = refused.value.issues
    assert problem.key == "rules.fleet" and words in problem.message
    # The kiosk itself starts with the default fleet instead.
    assert config.parse(text, strict=False).rules.fleet == config.Settings().rules.fleet


def test_every_preset_fits_both_boards_and_a_saved_fleet_is_checked_too(tmp_path):
    from kiosk.darts.fleet import fleet_problem, parse_lengths

    for profile in Profile:
        for preset in config.PRESET_NAMES:
            assert fleet_problem(board_for(profile), parse_lengths(preset)) is None
    owner = config.read(tmp_path / "config.toml", strict=False)
    with pytest.raises(config.ConfigError, match=r"rules\.fleet"):
        owner.save({"rules.fleet": ",".join(["5"] * 20)})
    with pytest.raises(config.ConfigError, match="barely fit the three-ring"):
        owner.save({"rules.fleet": ",".join(["5"] * 10), "board.profile": "three-ring"})
    assert not (tmp_path / "config.toml").exists()


def test_the_referee_refuses_such_a_fleet_in_new():
    from kiosk.darts.referee import Referee

    answer = Referee().handle_line(json.dumps({"cmd": "new", "teams": ["A", "B"], "fleet": [5] * 20}))
    assert answer[0]["event"] == "error" and "100 cells" in answer[0]["message"]


def test_a_board_map_nested_thousands_deep_is_a_problem_not_a_crash(tmp_path):
    from hardware import boardmap, factory

    deep = tmp_path / "map.toml"
    deep.write_text('[contacts]\n"1,1" = ' + "[" * 3000 + "1" + "]" * 3000 + "\n")
    with pytest.raises(boardmap.BoardMapError, match="nested too deeply"):
        boardmap.load(deep)
    told: list[object] = []
    settings = config.build({"board.map": str(deep)})
    assert factory.load_map(settings, told.append) is None  # run goes on without the map
    assert any("nested too deeply" in str(getattr(e, "message", "")) for e in told)


def _check(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "kiosk.app.cli", "config", "check", "--config", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def test_config_check_names_what_run_would_stumble_over(tmp_path):
    deep = tmp_path / "map.toml"
    deep.write_text('[contacts]\n"1,1" = ' + "[" * 3000 + "1" + "]" * 3000 + "\n")
    junk = tmp_path / "notes.db"
    junk.write_text("not a database\n")
    out = _check(
        tmp_path, f'[web]\nhost = "kiosk.invalid"\n[board]\nmap = "{deep}"\n[kiosk]\ndatabase = "{junk}"\n'
    )
    assert out.returncode == 2
    assert "web.host: kiosk.invalid does not resolve" in out.stderr
    assert "board.map:" in out.stderr and "nested too deeply" in out.stderr
    assert "kiosk.database:" in out.stderr and "not a Dartship database" in out.stderr
    assert "Traceback" not in out.stderr
    out = _check(tmp_path, '[web]\nhost = "192.0.2.55"\n')  # TEST-NET-1: never this machine's
    assert out.returncode == 2 and "web.host: 192.0.2.55 is not an address of this machine" in out.stderr
    assert _check(tmp_path, '[web]\nhost = "127.0.0.1"\n').returncode == 0


def _serve(settings: config.Settings, caplog: pytest.LogCaptureFixture) -> tuple[str, str]:
    """Start the phone page as run does; its base URL and what /api/game answers."""
    from kiosk.service import GameService
    from ui.handheld.server import start_web

    async def go() -> tuple[str, str]:
        server = await start_web(GameService(None), settings)
        try:
            port = server.base_url.rsplit(":", 1)[1]
            body = await asyncio.to_thread(
                lambda: (
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/game", timeout=10).read().decode()
                )
            )
            return server.base_url, body
        finally:
            await server.stop()

    with caplog.at_level(logging.INFO, "dartship.handheld"):
        return asyncio.run(go())


@pytest.mark.parametrize("host", ["kiosk.invalid", "192.0.2.55"])
def test_run_falls_back_to_the_default_host_and_says_so(host, caplog):
    url, body = _serve(config.build({"web.host": host, "web.port": 0}), caplog)
    port = url.rsplit(":", 1)[1]  # the one the system picked when binding the default host
    assert json.loads(body) == {"view": None}
    assert f"cannot listen on {host}:0" in caplog.text
    assert f"listens on 0.0.0.0:{port} instead" in caplog.text


def test_the_kiosks_own_port_taken_stops_it_instead_of_moving_it(caplog):
    """A taken web.port is nearly always a second kiosk: moving to another port would let two
    kiosks play one database and board (docs/decisions.md). `run` says so and stops (a
    subprocess test of `dartship run` shows its message)."""
    import errno

    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(OSError) as taken:
            _serve(config.build({"web.port": port}), caplog)
    assert taken.value.errno == errno.EADDRINUSE


def test_run_falls_back_from_an_unusable_database_and_leaves_it_alone(tmp_path, monkeypatch, caplog):
    from kiosk.app.root import open_store

    junk = tmp_path / "notes.db"
    junk.write_text("the owner's notes, not a database\n")
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    with caplog.at_level(logging.ERROR, "dartship"):
        store, lock = open_store(config.build({"kiosk.database": str(junk)}))
    try:
        assert store.path == tmp_path / "state" / "dartship.db"
        assert lock.database == store.path
    finally:
        store.close()
        lock.release()
    assert junk.read_text() == "the owner's notes, not a database\n"
    assert "kiosk.database:" in caplog.text and "uses " + str(store.path) in caplog.text


@pytest.mark.parametrize("content", [b"\xff\xfe[rules]\x00\n", b"[rules\ndarts = 3\n"])
def test_saving_over_a_file_that_is_not_toml_keeps_it_aside_and_saves(tmp_path, content):
    """A config that is not UTF-8 (or not TOML) reads as the defaults; saving a setting (Home's
    language buttons, Settings) keeps the old file as .broken and writes a good one, instead of
    raising out of the touchscreen's callback and stopping the kiosk."""
    path = tmp_path / "config.toml"
    path.write_bytes(content)
    owner = config.read(path, strict=False)
    assert owner.problems
    change = owner.save({"kiosk.language": "de"})
    assert change.new.kiosk.language == "de"
    assert config.read(path).settings.kiosk.language == "de"
    assert (tmp_path / "config.toml.broken").read_bytes() == content
