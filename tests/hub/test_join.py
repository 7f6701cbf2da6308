"""`dartship league join CODE --hub URL` and `dartship league status`, as a bar owner types them."""

from __future__ import annotations

import asyncio
import os
import sys

from kiosk import config
from kiosk.league import membership as members
from kiosk.store import Store


async def _dartship(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "kiosk.app.cli",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_join_pairs_keeps_the_key_in_the_store_and_the_hub_in_the_config(hub, tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'# my kiosk\n[kiosk]\ndatabase = "{tmp_path / "k.db"}"\n', encoding="utf-8")
    code = await hub.code()
    status, out, err = await _dartship(
        "league", "--config", str(cfg), "join", code, "--hub", hub.url, "--name", "bar kiosk"
    )
    assert status == 0, err
    assert "joined Test league as kiosk" in out and "The Anchor" in out
    text = cfg.read_text(encoding="utf-8")
    assert "# my kiosk" in text and config.read(cfg).settings.league.hub == hub.url
    store = Store(tmp_path / "k.db")
    member = members.membership(store.meta, hub.url)
    store.close()
    assert member is not None and member.venue == hub.venue and len(member.key) == 64
    assert member.key not in text  # the key stays in the store, not in the config

    status, out, _err = await _dartship("league", "--config", str(cfg), "status")
    assert status == 0 and "Outbox: 0 waiting, 0 sent, 0 refused" in out
    status, _out, err = await _dartship("league", "--config", str(cfg), "join", code, "--hub", hub.url)
    assert status == 1 and "not valid" in err  # the code was used
    status, _out, err = await _dartship(
        "league", "--config", str(cfg), "join", code, "--hub", "ftp://nowhere"
    )
    assert status == 2 and "league.hub" in err


async def test_status_and_join_take_the_config_after_the_action_as_the_other_commands_do(hub, tmp_path):
    # A bar whose config is not the default one: $DARTSHIP_CONFIG names another kiosk's
    # (in no league); `--config FILE` after the action is the bar's own, as `dartship doctor
    # --config FILE` takes it.
    other = tmp_path / "other.toml"
    other.write_text(f'[kiosk]\ndatabase = "{tmp_path / "other.db"}"\n', encoding="utf-8")
    cfg = tmp_path / "bar" / "config.toml"
    cfg.parent.mkdir()
    cfg.write_text(f'[kiosk]\ndatabase = "{tmp_path / "bar" / "k.db"}"\n', encoding="utf-8")
    env = {"DARTSHIP_CONFIG": str(other)}
    code = await hub.code()
    status, _out, err = await _dartship(
        "league", "join", code, "--hub", hub.url, "--config", str(cfg), env=env
    )
    assert status == 0, err
    status, out, err = await _dartship("league", "status", "--config", str(cfg), env=env)
    assert status == 0, err
    assert "League Test league, venue The Anchor" in out and "Outbox: 0 waiting" in out
    status, out, err = await _dartship("league", "--config", str(cfg), "status", env=env)
    assert status == 0 and "League Test league" in out, err  # before the action, as before
    status, out, _err = await _dartship("league", "status", env=env)
    assert status == 0 and "in no league" in out  # the other kiosk's own status


async def test_status_counts_the_current_membership_only_after_a_leave_and_a_rejoin(hub, tmp_path):
    import random

    from kiosk.app.league import KioskLeague
    from tests import league_games as games

    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[kiosk]\ndatabase = "{tmp_path / "k.db"}"\n', encoding="utf-8")

    async def join() -> None:
        status, _out, err = await _dartship(
            "league", "--config", str(cfg), "join", await hub.code(), "--hub", hub.url
        )
        assert status == 0, err

    async def outbox_line() -> str:
        status, out, err = await _dartship("league", "--config", str(cfg), "status")
        assert status == 0, err
        return next((line for line in out.splitlines() if line.startswith("Outbox")), out)

    def play(seeds: tuple[int, ...]) -> None:
        store = Store(tmp_path / "k.db")  # any program's store queues for the membership kept
        for seed in seeds:
            games.play_darts(store, [["Ann"], ["Cy"]], random.Random(seed))
        store.close()

    await join()
    play((1, 2, 3))
    store = Store(tmp_path / "k.db")
    assert store.outbox is not None
    first = store.outbox.due(now=1e12)[0]
    store.outbox.sent(first, '{"status": "new"}')
    store.close()
    assert await outbox_line() == "Outbox: 2 waiting, 1 sent, 0 refused"

    store = Store(tmp_path / "k.db")
    assert KioskLeague(store, config.read(cfg)).leave() == 2
    store.close()
    assert "in no league" in (await _dartship("league", "--config", str(cfg), "status"))[1]
    play((4,))  # in no league: not queued

    await join()
    play((5,))
    assert await outbox_line() == "Outbox: 1 waiting, 0 sent, 0 refused"
    # Joined again over that membership (no leave), the same venue: a new key for the same
    # bar, and what waited goes with it (branch league10; before, it was given up).
    await join()
    play((6, 7))
    assert await outbox_line() == "Outbox: 3 waiting, 0 sent, 0 refused"
    store = Store(tmp_path / "k.db")
    states = dict(store.db.execute("SELECT state, count(*) FROM outbox GROUP BY state").fetchall())
    shown = KioskLeague(store, config.read(cfg)).status()  # what Settings -> League shows
    store.close()
    assert shown.member is not None and (shown.pending, shown.sent, shown.refused) == (3, 0, 0)
    assert states == {"sent": 1, "refused": 2, "pending": 3}  # game 4 was never queued
