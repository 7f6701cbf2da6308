"""Database messages that say what is true (read-only, full, locked, newer, damaged, foreign),
each with what to do, and nothing written to a file before it is known to be ours and not newer.

The damaged case is in test_store.py. The read-only and full cases run on a real small disk (a
tmpfs, mounted where the tests run as root)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from kiosk.store import Store, StoreError
from tests.kiosk.test_store import _old_database, _stored_game
from tests.small_disk import fill, remount, small_disk


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_newer_file_in_rollback_journal_mode_is_not_touched(tmp_path):
    """Not even `PRAGMA journal_mode=WAL` runs before the version is known: the file, byte for
    byte, and its folder stay as they were."""
    path = tmp_path / "d.db"
    store = Store(path)
    store.db.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    store.db.execute("PRAGMA journal_mode=DELETE")  # as a newer Dartship might have left it
    store.close()
    before = _files(tmp_path)
    with pytest.raises(StoreError, match=r"newer Dartship .*left untouched\. Update Dartship"):
        Store(path)
    assert _files(tmp_path) == before


@pytest.mark.parametrize("journal", ["wal", "delete"])
def test_a_read_only_file_is_called_read_only_not_damaged(tmp_path, journal):
    disk = tmp_path / "disk"
    with small_disk(disk):
        path = disk / "d.db"
        store = Store(path)
        _stored_game(store)
        store.db.execute(f"PRAGMA journal_mode={journal}")
        store.close()
        remount(disk, "ro")
        with pytest.raises(StoreError) as refused:
            Store(path)
        message = str(refused.value)
        assert "read-only" in message and "writable" in message, message
        assert "damaged" not in message and "move it away" not in message.lower()


def test_a_full_disk_is_called_full_and_a_new_file_is_not_left_behind(tmp_path):
    disk = tmp_path / "disk"
    with small_disk(disk, "1m"):
        filler = fill(disk)
        with pytest.raises(StoreError, match="full: free some space"):
            Store(disk / "new.db")
        assert sorted(p.name for p in disk.iterdir()) == ["filler"]
        filler.unlink()
        Store(disk / "new.db").close()


def test_a_full_disk_is_called_full_when_an_existing_file_cannot_get_its_index(tmp_path):
    """SQLite says "disk I/O error" when there is no room for the -shm file: the disk is full."""
    disk = tmp_path / "disk"
    with small_disk(disk, "1m"):
        path = disk / "d.db"
        _old_database(path, 1)  # needs migrating: the first write fails
        fill(disk)
        with pytest.raises(StoreError, match="full: free some space"):
            Store(path)


def test_a_locked_file_is_called_locked(tmp_path):
    path = tmp_path / "d.db"
    _old_database(path, 1)  # rollback journal: a writer's lock keeps readers out too
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match=r"locked by another program.*stop it"):
            Store(path, timeout=0.1)
    finally:
        other.execute("ROLLBACK")
        other.close()
    Store(path).close()


def test_a_foreign_or_junk_file_says_to_use_another(tmp_path):
    junk = tmp_path / "notes.db"
    junk.write_bytes(b"not a database\n" * 20)
    with pytest.raises(StoreError, match=r"not a Dartship database .*Use another database file"):
        Store(junk)
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE customers (name TEXT)")
    conn.commit()
    conn.close()
    before = _files(tmp_path)
    with pytest.raises(StoreError, match=r"another program; it was left untouched\. Use another"):
        Store(other)
    assert _files(tmp_path) == before


def test_an_unreadable_home_does_not_break_the_referee_default_config(tmp_path):
    """`dartship referee` looks for a config under $HOME: an unreadable $HOME is no config,
    not a crash (run without the right to read other users' files, as the kiosk's user)."""
    import subprocess
    import sys

    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0)
    drop = (
        [
            "setpriv",
            "--bounding-set=-dac_override,-dac_read_search",
            "--inh-caps=-dac_override,-dac_read_search",
        ]
        if os.geteuid() == 0
        else []
    )
    env = {**os.environ, "HOME": str(home)}
    env.pop("DARTSHIP_CONFIG", None)
    env.pop("XDG_DATA_HOME", None)
    done = subprocess.run(
        [*drop, sys.executable, "-m", "kiosk.app.cli", "referee"],
        input='{"cmd": "new", "teams": ["A", "B"]}\n',
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
    )
    home.chmod(0o700)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == '{"event": "new", "teams": ["A", "B"]}'
    assert "Traceback" not in done.stderr
