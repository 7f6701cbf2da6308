"""`dartship league join CODE --hub URL` and `dartship league status`, as a bar owner types them."""

from __future__ import annotations

import asyncio
import sys

from kiosk import config
from kiosk.league import membership as members
from kiosk.store import Store


async def _dartship(*args: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "kiosk.app.cli",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
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
